package record

import (
	"strconv"
	"testing"

	"github.com/openrunbook/runbook/flow"
)

// TestNoRowEntriesNameOnlyQuietItems: of a foreach execution's items, the
// ones that ran, did not fail and wrote no row are named; a failed item is
// its failure's, and an earlier execution of the same foreach (a loop) is
// its own. A foreach nested in another's item is found in a log read back
// from a record, whose scope steps share no pointers.
func TestNoRowEntriesNameOnlyQuietItems(t *testing.T) {
	at := func(k int) []flow.ScopeStep { return []flow.ScopeStep{{Node: "each", Item: &k}} }
	join := func(path string, from ...string) flow.Commit {
		return flow.Commit{Path: path, Stage: "each", Writes: []flow.Write{{Key: "verdicts", From: from}}}
	}
	log := flow.NewLog(nil, []flow.Commit{
		// a first execution: both items wrote rows
		{Path: "each~0/mark#1", Stage: "mark", Scope: at(0)},
		{Path: "each~1/mark#2", Stage: "mark", Scope: at(1)},
		join("each#0", "each~0/mark#1", "each~1/mark#2"),
		// the second: item 1 failed, item 3 wrote nothing
		{Path: "each~0/mark#4", Stage: "mark", Scope: at(0)},
		{Path: "each~1/pick#5", Stage: "pick", Scope: at(1), Err: "boom"},
		{Path: "each~2/mark#6", Stage: "mark", Scope: at(2)},
		{Path: "each~3/pick#7", Stage: "pick", Scope: at(3)},
		join("each#3", "each~0/mark#4", "each~2/mark#6"),
	})
	got := noRowEntries(&log, "verdicts", nil)
	if len(got) != 1 || got[0].Path != "each#3" || len(got[0].NotChecked) != 1 {
		t.Fatalf("entries %+v, want one for each#3", got)
	}
	if it := got[0].NotChecked[0]; it.What != "1 of its 4 items (each~3)" || it.Kind != ItemNoRow {
		t.Errorf("item %+v", it)
	}

	// inner runs in outer~0: every step a fresh value, as decoded
	in := func(k int) []flow.ScopeStep {
		o := 0
		return []flow.ScopeStep{{Node: "outer", Item: &o}, {Node: "inner", Item: &k}}
	}
	o := 0
	nested := flow.NewLog(nil, []flow.Commit{
		{Path: "outer~0/inner~0/mark#2", Stage: "mark", Scope: in(0)},
		{Path: "outer~0/inner~1/pick#3", Stage: "pick", Scope: in(1)},
		{Path: "outer~0/inner#1", Stage: "inner", Scope: []flow.ScopeStep{{Node: "outer", Item: &o}},
			Writes: []flow.Write{{Key: "verdicts", From: []string{"outer~0/inner~0/mark#2"}}}},
	})
	if got := noRowEntries(&nested, "verdicts", nil); len(got) != 1 || got[0].NotChecked[0].What != "1 of its 2 items (inner~1)" {
		t.Errorf("nested entries %+v, want inner~1 named", got)
	}
}

// TestNoRowEntriesReadTheBodyFromTheStructure: a foreach none of whose
// items wrote a row is flagged when its body holds a verdict stage
// anywhere — in a select's branch, in a subflow it mounts, in a foreach
// nested in it — found from the chart's structure for a foreach nested in
// a fork branch too; a body with none (it gathers facts) is left alone,
// and so is every foreach when the structure is not given.
func TestNoRowEntriesReadTheBodyFromTheStructure(t *testing.T) {
	verdict := flow.NodeInfo{ID: "mark", Kind: flow.KindStage, Type: VerdictType}
	set := flow.NodeInfo{ID: "name", Kind: flow.KindStage, Type: "set"}
	each := func(body ...flow.NodeInfo) flow.NodeInfo {
		return flow.NodeInfo{ID: "each", Kind: flow.KindForEach, Type: "foreach", ForEach: &flow.ForEachInfo{As: "item", MaxBranches: 9, Body: flow.Structure{Nodes: body}}}
	}
	in := func(nodes ...flow.NodeInfo) *flow.Structure {
		return &flow.Structure{Nodes: []flow.NodeInfo{{ID: "fork", Kind: flow.KindSelect, Type: "select", Branches: []flow.BranchInfo{{Name: "a", Nodes: nodes}}}}}
	}
	fork := []flow.ScopeStep{{Node: "fork", Branch: "a"}}
	item := func(k int) []flow.ScopeStep {
		return append(append([]flow.ScopeStep{}, fork...), flow.ScopeStep{Node: "each", Item: &k})
	}
	log := flow.NewLog(nil, []flow.Commit{
		{Path: "fork~a/each~0/pick#2", Stage: "pick", Scope: item(0)},
		{Path: "fork~a/each~1/pick#3", Stage: "pick", Scope: item(1)},
		{Path: "fork~a/each#1", Stage: "each", Scope: fork},
	})
	tests := []struct {
		name string
		st   *flow.Structure
		want bool
	}{
		{"a verdict stage in a branch", in(each(flow.NodeInfo{ID: "pick", Kind: flow.KindSelect, Branches: []flow.BranchInfo{{Name: "r", Nodes: []flow.NodeInfo{verdict}}}})), true},
		{"a verdict stage in a mounted subflow", in(each(flow.NodeInfo{ID: "sub", Kind: flow.KindSubflow, Subflow: &flow.Structure{Nodes: []flow.NodeInfo{verdict}}})), true},
		{"a verdict stage in a nested foreach", in(each(flow.NodeInfo{ID: "inner", Kind: flow.KindForEach, ForEach: &flow.ForEachInfo{Body: flow.Structure{Nodes: []flow.NodeInfo{verdict}}}})), true},
		{"a body that gathers facts", in(each(set)), false},
		{"no structure", nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := noRowEntries(&log, "verdicts", tc.st)
			if !tc.want {
				if len(got) != 0 {
					t.Errorf("entries %+v, want none", got)
				}
				return
			}
			if len(got) != 1 || got[0].Path != "fork~a/each#1" || got[0].NotChecked[0].What != "all 2 of its items (each~0, each~1)" {
				t.Errorf("entries %+v, want all 2 items of fork~a/each#1", got)
			}
		})
	}

	// Many quiet items: the first ten named, the rest counted.
	var many flow.Log
	for k := range 12 {
		many.SetCommits(append(many.Commits(), flow.Commit{Path: "each~" + strconv.Itoa(k) + "/pick#" + strconv.Itoa(k+1), Stage: "pick", Scope: []flow.ScopeStep{{Node: "each", Item: &k}}}))
	}
	many.SetCommits(append(many.Commits(), flow.Commit{Path: "each#0", Stage: "each"}))
	got := noRowEntries(&many, "verdicts", &flow.Structure{Nodes: []flow.NodeInfo{each(verdict)}})
	const want = "all 12 of its items (each~0, each~1, each~2, each~3, each~4, each~5, each~6, each~7, each~8, each~9, and 2 more)"
	if len(got) != 1 || got[0].NotChecked[0].What != want {
		t.Errorf("entries %+v, want %s", got, want)
	}
}
