package record

import (
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
	log := flow.Log{Commits: []flow.Commit{
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
	}}
	got := noRowEntries(&log, "verdicts")
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
	nested := flow.Log{Commits: []flow.Commit{
		{Path: "outer~0/inner~0/mark#2", Stage: "mark", Scope: in(0)},
		{Path: "outer~0/inner~1/pick#3", Stage: "pick", Scope: in(1)},
		{Path: "outer~0/inner#1", Stage: "inner", Scope: []flow.ScopeStep{{Node: "outer", Item: &o}},
			Writes: []flow.Write{{Key: "verdicts", From: []string{"outer~0/inner~0/mark#2"}}}},
	}}
	if got := noRowEntries(&nested, "verdicts"); len(got) != 1 || got[0].NotChecked[0].What != "1 of its 2 items (inner~1)" {
		t.Errorf("nested entries %+v, want inner~1 named", got)
	}
}
