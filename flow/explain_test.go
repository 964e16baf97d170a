package flow_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/rules"
)

// walkTree calls fn on every node of a causal tree, parents first.
func walkTree(n *flow.CauseNode, fn func(*flow.CauseNode)) {
	fn(n)
	for _, c := range n.Causes {
		walkTree(c, fn)
	}
}

func explainer(t *testing.T, c *flow.Chart, res *flow.Result) *flow.Explainer {
	t.Helper()
	end := flow.End{Status: res.Status}
	if res.Err != nil {
		end.Path, end.Message = res.Err.Path, res.Err.Message
	}
	return flow.NewExplainer(&res.Log, flow.WithStructure(c.Describe()), flow.WithEnd(end), flow.WithGathered(verdicts),
		flow.WithInputKinds(map[string]string{"subjects": "given"}))
}

// TestExplainRowGoesThroughBranchDecisionToItem: the chain of a value
// written inside a foreach branch (row 3's verdict) names the foreach, the
// branch stage that appended the row, the branch's decision with its rule
// and the values it read, and stops at the branch's item.
func TestExplainRowGoesThroughBranchDecisionToItem(t *testing.T) {
	t.Parallel()
	c := mustBuild(t, perSubject(10))
	res := run(t, c, flow.WithInputs(map[string]any{"subjects": subjects(5)}))
	ex := explainer(t, c, res)
	e, err := ex.Key("verdicts[3].verdict", -1)
	if err != nil {
		t.Fatal(err)
	}
	if e.Value != "protected" {
		t.Fatalf("value = %v", e.Value)
	}
	// The root is the branch commit that appended the row (issue 13: the
	// first line names the real writer), gathered by the foreach commit.
	root := e.Root
	if !strings.HasPrefix(root.Path, "per-subject~3/p#") || root.Rel != flow.RelWrote {
		t.Fatalf("root = %s (%s), want the branch commit per-subject~3/p that appended the row", root.Path, root.Rel)
	}
	if g := root.GatheredBy; len(g) != 1 || !strings.HasPrefix(g[0].Path, "per-subject#") || g[0].Branch != "per-subject~3" || g[0].Key != "verdicts[3]" {
		t.Fatalf("gathered by %+v, want the foreach commit from branch per-subject~3", g)
	}
	foreach := root.GatheredBy[0].Path
	appended := root
	var routed *flow.CauseNode
	for _, k := range appended.Causes {
		if k.Rel == flow.RelRouted {
			routed = k
		}
		if k.Rel == flow.RelRead && k.Key == verdicts {
			t.Errorf("a row's chain lists the rows before it as a cause: %+v", k)
		}
	}
	if routed == nil || !strings.HasPrefix(routed.Path, "per-subject~3/posture#") {
		t.Fatalf("no routing decision in branch 3 under %+v", appended)
	}
	if routed.Name != "Protection posture" || routed.Route.Branch != "protected" || routed.Route.Rule == nil || routed.Route.Rule.Label != "Two or more replicas" {
		t.Fatalf("route = %+v name %q", routed.Route, routed.Name)
	}
	if in := routed.Route.Rule.Conditions; len(in) != 1 || in[0].Key != "replicas" || in[0].Actual != 3 {
		t.Errorf("rule evidence = %+v", in)
	}
	// Every path in the tree is branch 3's or the foreach's own, and every
	// leaf is branch 3's item.
	items := 0
	walkTree(root, func(n *flow.CauseNode) {
		if n.Kind == flow.NodeCommit && !strings.HasPrefix(n.Path, "per-subject~3/") {
			t.Errorf("a cause outside branch 3: %s", n.Path)
		}
		if n.Kind == flow.NodeInput || n.Kind == flow.NodeUnknown {
			t.Errorf("the chain went past the item: %+v", n)
		}
		if n.Kind == flow.NodeItem {
			items++
			if n.ItemIndex != 3 || n.ItemOf != foreach || n.Key != "item" || len(n.Causes) != 0 {
				t.Errorf("item leaf = %+v", n)
			}
		}
	})
	if items == 0 {
		t.Error("the chain does not stop at the item")
	}
}

// TestExplainWholeVerdictsListsEveryRow: the chain behind the table has
// one cause per row, in row order, each the branch stage that appended it.
func TestExplainWholeVerdictsListsEveryRow(t *testing.T) {
	t.Parallel()
	c := mustBuild(t, perSubject(10))
	res := run(t, c, flow.WithInputs(map[string]any{"subjects": subjects(4)}))
	e, err := explainer(t, c, res).Key(verdicts, -1)
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, k := range e.Root.Causes {
		if k.Rel == flow.RelRow {
			rows = append(rows, k.Key+"@"+flow.ScopeOf(k.Path))
		}
	}
	want := []string{"verdicts[0]@per-subject~0", "verdicts[1]@per-subject~1", "verdicts[2]@per-subject~2", "verdicts[3]@per-subject~3"}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows = %v, want %v", rows, want)
	}
}

// TestExplainJoinAndInputs: a value joined from a parallel branch is
// followed through the join to the branch commit and down to the inputs,
// which say whether they were given.
func TestExplainJoinAndInputs(t *testing.T) {
	t.Parallel()
	c := mustBuild(t, flow.New("j").
		Parallel("fork", []flow.Branch{
			{Name: "left", Steps: flow.Seq().Stage("l", func(ctx context.Context, s *flow.Scope) error {
				s.Set("double", s.Value("n").(int)*2)
				return nil
			})},
			{Name: "right", Steps: flow.Seq().Stage("r", set("other", 1))},
		}).
		Stage("sum", func(ctx context.Context, s *flow.Scope) error {
			s.Set("total", s.Value("double").(int)+1)
			return nil
		}))
	res := run(t, c, flow.WithInputs(map[string]any{"n": 4}))
	ex := flow.NewExplainer(&res.Log, flow.WithStructure(c.Describe()), flow.WithInputKinds(map[string]string{"n": "assumed"}))
	e, err := ex.Key("total", -1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	walkTree(e.Root, func(n *flow.CauseNode) {
		got = append(got, n.Rel+" "+n.Kind+" "+n.Key+" "+n.Path+" "+n.Input)
	})
	want := []string{
		"wrote commit total sum#3 ",
		"read commit double fork#2 ",
		"joined commit double fork~left/l#1 ",
		"read input n  assumed",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tree:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if e.Value != 9 {
		t.Errorf("value = %v", e.Value)
	}
}

func TestExplainKeyPaths(t *testing.T) {
	t.Parallel()
	c := mustBuild(t, flow.New("k").Stage("w", set("doc", map[string]any{"list": []any{1, map[string]any{"x": "y"}}})))
	res := run(t, c)
	ex := flow.NewExplainer(&res.Log)
	tests := []struct {
		key     string
		want    any
		wantErr string
	}{
		{"doc.list[1].x", "y", ""},
		{`doc["list"][0]`, 1, ""},
		{"doc.list[7]", nil, "has no"},
		{"nope", nil, "never written"},
		{"doc.list[", nil, "without"},
	}
	for _, tc := range tests {
		t.Run(tc.key, func(t *testing.T) {
			e, err := ex.Key(tc.key, -1)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(e.Value, tc.want) {
				t.Fatalf("%v, %v; want %v", e, err, tc.want)
			}
		})
	}
}

// TestWhyNot: a branch routed around names the decision and every rule it
// evaluated with its values; a stage after a failure never ran because of
// it; a stage that ran is listed as ran, never as a reason.
func TestWhyNot(t *testing.T) {
	t.Parallel()
	c := mustBuild(t, perSubject(10))
	res := run(t, c, flow.WithInputs(map[string]any{"subjects": subjects(4)}))
	ex := explainer(t, c, res)

	wn, err := ex.WhyNot("at-risk")
	if err != nil {
		t.Fatal(err)
	}
	if wn.Kind != "branch" || wn.Decider != "posture" || len(wn.Ran) != 0 || len(wn.Reasons) != 4 {
		t.Fatalf("why not at-risk = %+v", wn)
	}
	for _, r := range wn.Reasons {
		if r.Because != flow.BecauseRouted || r.Decision == nil || r.Decision.Wanted != "at-risk" {
			t.Fatalf("reason = %+v", r)
		}
	}
	// Branch 0: replicas 0, so rule 0 matched first and rule 1 was never tried.
	d0 := wn.Reasons[0].Decision
	if len(d0.Rules) != 1 || !d0.Rules[0].Matched || len(d0.NotEvaluated) != 1 || d0.NotEvaluated[0].Label != "Nearly full" {
		t.Errorf("branch 0 decision = %+v", d0)
	}
	// Branch 2: used 74, replicas 2: rule 1 evaluated and failed on used.
	d2 := wn.Reasons[2].Decision
	if len(d2.Rules) < 2 || d2.Rules[1].Matched || d2.Rules[1].Conditions[0].Actual != 74 {
		t.Errorf("branch 2 decision = %+v", d2)
	}

	wn, err = ex.WhyNot("per-subject~3/p")
	if err != nil {
		t.Fatal(err)
	}
	if len(wn.Ran) != 1 || len(wn.Reasons) != 0 {
		t.Errorf("a stage that ran: %+v", wn)
	}

	// A failure ends the run before the last stage.
	failing := mustBuild(t, flow.New("f").
		Stage("a", set("x", 1)).
		Stage("boom", func(context.Context, *flow.Scope) error { return errors.New("disk on fire") }).
		Stage("never", set("y", 2)))
	fres, _ := failing.Run(context.Background())
	wn, err = explainer(t, failing, fres).WhyNot("never")
	if err != nil {
		t.Fatal(err)
	}
	if len(wn.Ran) != 0 || len(wn.Reasons) != 1 || !strings.Contains(wn.Reasons[0].Message, "disk on fire") {
		t.Errorf("why not never = %+v", wn)
	}

	if _, err := ex.WhyNot("no-such"); err == nil {
		t.Error("why-not of a name not in the chart: no error")
	}
}

// TestWhyNotSelect: a select branch whose rule failed.
func TestWhyNotSelect(t *testing.T) {
	t.Parallel()
	c := mustBuild(t, flow.New("s").Stage("seed", noop).
		Select("checks", []decide.Rule{
			{When: filter("cpu", rules.OpGt, 90), Then: "cpu", Label: "Hot CPU"},
			{When: filter("mem", rules.OpGt, 90), Then: "mem", Label: "Low memory"},
		}, []flow.Branch{
			{Name: "cpu", Steps: flow.Seq().Stage("c", set("cpuAlert", true))},
			{Name: "mem", Steps: flow.Seq().Stage("m", set("memAlert", true))},
		}))
	res := run(t, c, flow.WithInputs(map[string]any{"cpu": 95, "mem": 10}))
	wn, err := explainer(t, c, res).WhyNot("m")
	if err != nil {
		t.Fatal(err)
	}
	if len(wn.Reasons) != 1 || wn.Reasons[0].Decision == nil || len(wn.Reasons[0].Decision.Rules) != 2 {
		t.Fatalf("why not m = %+v", wn)
	}
	if got := wn.Reasons[0].Decision.Rules[1].Conditions[0]; got.Actual != 10 || got.Pass {
		t.Errorf("failing condition = %+v", got)
	}
}

// TestExplainTimeTravel: the state and a key's chain as of an earlier commit.
func TestExplainTimeTravel(t *testing.T) {
	t.Parallel()
	c := mustBuild(t, flow.New("tt").Stage("a", set("x", 1)).Stage("b", set("x", 2)).Stage("c", set("y", 3)))
	res := run(t, c)
	ex := flow.NewExplainer(&res.Log)
	st, cm := ex.StateAt(0)
	if cm.Path != "a#0" || !reflect.DeepEqual(st, map[string]any{"x": 1}) {
		t.Errorf("state at 0 = %v (%s)", st, cm.Path)
	}
	e, err := ex.Key("x", 0)
	if err != nil || e.Value != 1 || e.Root.Path != "a#0" {
		t.Errorf("x at 0 = %+v, %v", e, err)
	}
	e, err = ex.Key("x", -1)
	if err != nil || e.Value != 2 || e.Root.Path != "b#1" {
		t.Errorf("x at end = %+v, %v", e, err)
	}
	if _, err := ex.Key("y", 1); err == nil {
		t.Error("y before it was written: no error")
	}
	all, err := ex.All(-1)
	if err != nil || len(all.Root.Causes) != 2 {
		t.Errorf("all = %+v, %v", all, err)
	}
}

// TestExplainDamagedLog: a writer missing from the log is an unknown leaf,
// a commit out of place is noted, and the rest is explained.
func TestExplainDamagedLog(t *testing.T) {
	t.Parallel()
	c := mustBuild(t, flow.New("d").Stage("a", set("x", 1)).Stage("b", func(ctx context.Context, s *flow.Scope) error {
		s.Set("y", s.Value("x").(int)+1)
		return nil
	}))
	res := run(t, c)
	log := flow.NewLog(nil, []flow.Commit{res.Log.Commits()[1]}) // commit a#0 lost
	ex := flow.NewExplainer(&log)
	e, err := ex.Key("y", -1)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Root.Causes) != 1 || e.Root.Causes[0].Kind != flow.NodeUnknown || e.Root.Causes[0].Path != "a#0" {
		t.Errorf("causes = %+v", e.Root.Causes)
	}
	if len(e.Notes) == 0 {
		t.Error("no note says the log is damaged or lacks a structure")
	}
}

// TestExplainDepthBound: a long loop's chain is cut at the bound, with a note.
func TestExplainDepthBound(t *testing.T) {
	t.Parallel()
	c := loopChart(50, 100)
	res := run(t, c)
	e, err := flow.NewExplainer(&res.Log, flow.WithExplainDepth(5)).Stage("tick")
	if err != nil {
		t.Fatal(err)
	}
	cut := false
	walkTree(e.Root, func(n *flow.CauseNode) { cut = cut || n.Cut })
	if !cut || !strings.Contains(strings.Join(e.Notes, "\n"), "cut") {
		t.Errorf("no cut: %+v", e.Notes)
	}
}
