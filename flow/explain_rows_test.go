package flow_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/rules"
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

// TestLineageFollowsItemsAndComputedKeysOnly: what a row rests on past
// what it read (Explainer.Lineage) reaches the listing a foreach item came
// from, and what a computing stage (here typed "set") made its key from;
// it stops at a stage that gathers a fact of its own, save through the
// keys it feeds what it runs (flow.Feeds, an exec stage's stdin), and
// leaves out the
// foreach itself (its cut is no item's), the rows before this one (the
// list it appended to) and what a row never read.
func TestLineageFollowsItemsAndComputedKeysOnly(t *testing.T) {
	t.Parallel()
	row := func(v string) *flow.Builder { return flow.Seq().Stage(v+"-row", verdictRow(v)) }
	body := flow.Seq().
		Stage("probe", func(ctx context.Context, s *flow.Scope) error {
			s.Set("answer", s.Value("item").(string)+"!") // a fact of its own, asked of the item
			return nil
		}, flow.Type("exec")).
		Decide("judge", []decide.Rule{{When: filter("item", rules.OpEq, "a"), Then: "first", Label: "The first"}},
			decide.Default{Branch: "rest", Label: "Any other"},
			[]flow.Branch{{Name: "first", Steps: row("first")}, {Name: "rest", Steps: row("rest")}})
	c := mustBuild(t, flow.New("lineage").
		Stage("list", func(ctx context.Context, s *flow.Scope) error {
			s.Set("listing", []any{"a", "b", "c"})
			return nil
		}, flow.Type("exec")).
		Stage("other", func(ctx context.Context, s *flow.Scope) error {
			s.Set("load", 1)
			return nil
		}, flow.Type("exec")).
		Stage("count", func(ctx context.Context, s *flow.Scope) error {
			s.SetDerived("n", len(s.Value("listing").([]any)))
			return nil
		}, flow.Type("set")).
		Stage("fact", func(ctx context.Context, s *flow.Scope) error {
			s.Set("size", len(s.Value("listing").([]any))) // read, but gathered anew
			return nil
		}, flow.Type("exec")).
		Stage("jq", func(ctx context.Context, s *flow.Scope) error {
			// the listing given to what it runs (stdin), the load asked about
			s.Set("jqn", len(s.Value("listing").([]any))+s.Value("load").(int))
			return nil
		}, flow.Type("exec"), flow.Feeds("listing")).
		ForEach("per", flow.ForEach{
			Items:       func(ctx context.Context, s *flow.Scope) ([]any, error) { return s.Value("listing").([]any), nil },
			MaxBranches: 2, Body: body,
		}).
		Decide("sum", []decide.Rule{{When: filter("n", rules.OpGt, 5), Then: "many", Label: "Many"}},
			decide.Default{Branch: "few", Label: "Few"},
			[]flow.Branch{{Name: "many", Steps: row("many")}, {Name: "few", Steps: row("few")}}).
		Decide("sized", []decide.Rule{{When: filter("size", rules.OpGt, 5), Then: "big", Label: "Big"}},
			decide.Default{Branch: "small", Label: "Small"},
			[]flow.Branch{{Name: "big", Steps: row("big")}, {Name: "small", Steps: row("small")}}).
		Decide("ld", []decide.Rule{{When: filter("load", rules.OpGt, 4), Then: "busy", Label: "Busy"}},
			decide.Default{Branch: "idle", Label: "Idle"},
			[]flow.Branch{{Name: "busy", Steps: row("busy")}, {Name: "idle", Steps: row("idle")}}).
		Decide("counted", []decide.Rule{{When: filter("jqn", rules.OpGt, 50), Then: "lots", Label: "Lots"}},
			decide.Default{Branch: "some", Label: "Some"},
			[]flow.Branch{{Name: "lots", Steps: row("lots")}, {Name: "some", Steps: row("some")}}))
	res := run(t, c)
	ex := flow.NewExplainer(&res.Log, flow.WithStructure(c.Describe()), flow.WithGathered(verdicts))
	l := ex.Lineage(func(string) bool { return true }, func(typ string) bool { return typ == "set" })
	var got []string
	for _, tr := range ex.Rows(verdicts, []int{0, 1, 2, 3, 4, 5}) {
		var stages []string
		paths, _ := l.Of(tr, verdicts)
		for _, p := range paths {
			pp, err := flow.ParsePath(p)
			if err != nil {
				t.Fatal(err)
			}
			stages = append(stages, pp.Node)
		}
		got = append(got, fmt.Sprint(stages))
	}
	want := []string{
		"[list]",       // item a, decided on the item: the listing, not the foreach that cut c
		"[list]",       // item b
		"[count list]", // n, set: from the listing
		"[fact]",       // size, a fact gathered anew: the walk stops there
		"[other]",      // load read nothing of the listing
		"[jq list]",    // jqn, made by what jq was fed (the listing), not by the load it was asked about
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("lineage by row:\n got %v\nwant %v", got, want)
	}
}

// TestLineageNamesAtMostLineageMostAndSaysMore: a row made of a list
// gathered (into:) from twenty items, each of whose probes is kept,
// names the first LineageMost probes and says there were more: a second
// pass over 2,000 failed probes held all 2,000 behind every row, 13 s
// and a 2,000-phrase line under each. The into: list is followed to each
// item's own write, and to the listing the items came from.
func TestLineageNamesAtMostLineageMostAndSaysMore(t *testing.T) {
	t.Parallel()
	items := make([]any, 20)
	for i := range items {
		items[i] = i
	}
	c := mustBuild(t, flow.New("most").
		Stage("list", func(ctx context.Context, s *flow.Scope) error {
			s.Set("listing", items)
			return nil
		}, flow.Type("exec")).
		ForEach("per", flow.ForEach{
			Items:       func(ctx context.Context, s *flow.Scope) ([]any, error) { return s.Value("listing").([]any), nil },
			MaxBranches: 20, Into: "got",
			Body: flow.Seq().Stage("probe", func(ctx context.Context, s *flow.Scope) error {
				s.Set("answer", s.Value("item"))
				return nil
			}, flow.Type("exec")),
		}).
		Stage("row", func(ctx context.Context, s *flow.Scope) error {
			rows, _ := s.Value(verdicts).([]any)
			s.Set(verdicts, append(append([]any{}, rows...), map[string]any{"subject": len(s.Value("got").([]any)), "verdict": "ok"}))
			return nil
		}))
	res := run(t, c)
	ex := flow.NewExplainer(&res.Log, flow.WithStructure(c.Describe()), flow.WithGathered(verdicts))
	l := ex.Lineage(func(p string) bool {
		pp, err := flow.ParsePath(p)
		return err == nil && (pp.Node == "probe" || pp.Node == "list")
	}, func(typ string) bool { return typ == "set" })
	paths, more := l.Of(ex.Rows(verdicts, []int{0})[0], verdicts)
	if len(paths) != flow.LineageMost || !more {
		t.Errorf("lineage %v (%d), more %v: want the first %d and more", paths, len(paths), more, flow.LineageMost)
	}
	for _, p := range paths {
		if pp, err := flow.ParsePath(p); err != nil || pp.Node != "probe" {
			t.Errorf("lineage holds %q, want the items' probes first", p)
		}
	}
}
