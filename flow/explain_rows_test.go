package flow_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/openrunbook/runbook/flow"
)

// TestRowsTraceAsKeyDoes: Explainer.Rows is the causal walk's own answer
// for a row, without the tree: for each row it names the commit Key roots
// `verdicts[i]` at, the decisions on its RelRouted chain, innermost first,
// with their routes, and the commits its origin and those decisions read
// (not the branch's item, not the list it appended to).
func TestRowsTraceAsKeyDoes(t *testing.T) {
	t.Parallel()
	c := mustBuild(t, perSubject(10))
	res := run(t, c, flow.WithInputs(map[string]any{"subjects": subjects(5)}))
	ex := explainer(t, c, res)
	rows := []int{0, 1, 2, 3, 4}
	traces := ex.Rows(verdicts, rows)
	if len(traces) != len(rows) {
		t.Fatalf("%d traces for %d rows", len(traces), len(rows))
	}
	for k, i := range rows {
		e, err := ex.Key(fmt.Sprintf("%s[%d]", verdicts, i), -1)
		if err != nil {
			t.Fatal(err)
		}
		tr := traces[k]
		if tr.Origin != e.Root.Index || tr.Path != e.Root.Path {
			t.Errorf("row %d: origin %d %s, Key roots it at %d %s", i, tr.Origin, tr.Path, e.Root.Index, e.Root.Path)
		}
		var routes []flow.RoutedBy
		for n := e.Root; n != nil; {
			var up *flow.CauseNode
			for _, c := range n.Causes {
				if c.Rel == flow.RelRouted {
					up = c
				}
			}
			if up == nil {
				break
			}
			routes = append(routes, flow.RoutedBy{Index: up.Index, Path: up.Path, Stage: up.Stage, Name: up.Name, Route: up.Route})
			n = up
		}
		if len(routes) == 0 || !reflect.DeepEqual(tr.Routes, routes) {
			t.Errorf("row %d: routes %+v, Key's chain %+v", i, tr.Routes, routes)
		}
		if want := fmt.Sprintf("per-subject~%d", i); flow.ScopeString(tr.Scope) != want {
			t.Errorf("row %d: scope %s, want %s", i, flow.ScopeString(tr.Scope), want)
		}
		for _, w := range tr.Read {
			if p, err := flow.ParsePath(w); err != nil || flow.ScopeString(p.Scope) != fmt.Sprintf("per-subject~%d", i) {
				t.Errorf("row %d reads %s: not its own branch's commit (the item is no read of it)", i, w)
			}
		}
	}
	if tr := ex.Rows("nothing", []int{0}); tr[0].Origin != -1 {
		t.Errorf("a key never written traced: %+v", tr[0])
	}
}
