package flow_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/rules"
)

func TestPathFormatterAndParserAgree(t *testing.T) {
	t.Parallel()
	three := 3
	tests := []struct {
		name string
		pos  flow.Position
		path string
	}{
		{"root", flow.Position{Node: "seed", N: 0}, "seed#0"},
		{"foreach item", flow.Position{Scope: []flow.ScopeStep{{Node: "per-volume", Item: &three}}, Node: "posture", N: 7}, "per-volume~3/posture#7"},
		{"fork branch in a mount", flow.Position{Scope: []flow.ScopeStep{{Node: "sub"}, {Node: "checks", Branch: "disk"}}, Node: "df", N: 12}, "sub/checks~disk/df#12"},
		{"no counter", flow.Position{Scope: []flow.ScopeStep{{Node: "per-volume", Item: &three}}, Node: "posture", N: -1}, "per-volume~3/posture"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := tc.pos.String(); got != tc.path {
				t.Errorf("String() = %q, want %q", got, tc.path)
			}
			got, err := flow.ParsePath(tc.path)
			if err != nil || !reflect.DeepEqual(got, tc.pos) {
				t.Errorf("ParsePath(%q) = %+v, %v; want %+v", tc.path, got, err, tc.pos)
			}
			if got, want := flow.StripCounter(tc.path), (flow.Position{Scope: tc.pos.Scope, Node: tc.pos.Node, N: -1}).String(); got != want {
				t.Errorf("StripCounter(%q) = %q, want %q", tc.path, got, want)
			}
		})
	}
	for _, bad := range []string{"", "a#x", "/a#0", "a~/b#0", "x/#1"} {
		if _, err := flow.ParsePath(bad); err == nil {
			t.Errorf("ParsePath(%q) accepted it", bad)
		}
	}
}

// TestCommitsCarryTheirPosition: every commit's Scope, Stage and N spell its
// Path, in branches, foreach items and subflows alike.
func TestCommitsCarryTheirPosition(t *testing.T) {
	t.Parallel()
	nop := func(context.Context, *flow.Scope) error { return nil }
	sub := mustBuild(t, flow.New("inner").Stage("in", nop))
	c := mustBuild(t, flow.New("pos").
		Stage("a", nop).
		Parallel("p", []flow.Branch{{Name: "x", Steps: flow.Seq().Stage("px", nop)}, {Name: "y", Steps: flow.Seq().Subflow("m", sub, flow.Mount{})}}).
		ForEach("f", flow.ForEach{Items: flow.ItemsOf(rules.Literal([]any{"u", "v"})), MaxBranches: 2, Body: flow.Seq().Stage("b", nop)}))
	res := run(t, c)
	seen := map[string]bool{}
	for _, cm := range res.Log.Commits() {
		seen[cm.Path] = true
		if got := (flow.Position{Scope: cm.Scope, Node: cm.Stage, N: cm.N}).String(); got != cm.Path {
			t.Errorf("commit %d: Scope %+v, Stage %q, N %d spell %q, not its path %q", cm.Index, cm.Scope, cm.Stage, cm.N, got, cm.Path)
		}
	}
	for _, p := range []string{"p~x/px#2", "p~y/m/in#3", "f~1/b#7"} {
		if !seen[p] {
			t.Errorf("no commit at %s; log: %v", p, seen)
		}
	}
}

func TestNodeOf(t *testing.T) {
	for path, want := range map[string]string{
		"disk":                  "disk",
		"per-vol~2/vol-check#1": "vol-check",
		"root/d~at-risk/mark#0": "mark",
		"":                      "",
	} {
		if got := flow.NodeOf(path); got != want {
			t.Errorf("NodeOf(%q) = %q; want %q", path, got, want)
		}
	}
}

// The general scope writes every foreach item as `~*` and leaves fork
// branches by name. Issue #12: the recorder once took the display path
// apart itself and turned the fork branch `checks~disk` into `checks~*disk`.
func TestIssue12GeneralScopeKeepsForkBranches(t *testing.T) {
	t.Parallel()
	three, zero := 3, 0
	for _, tc := range []struct {
		scope []flow.ScopeStep
		want  string
	}{
		{nil, ""},
		{[]flow.ScopeStep{{Node: "check-disk"}}, "check-disk"},
		{[]flow.ScopeStep{{Node: "per-volume", Item: &three}}, "per-volume~*"},
		{[]flow.ScopeStep{{Node: "per-volume", Item: &three}, {Node: "inner", Item: &zero}}, "per-volume~*/inner~*"},
		{[]flow.ScopeStep{{Node: "checks", Branch: "disk"}}, "checks~disk"},
		{[]flow.ScopeStep{{Node: "checks", Branch: "2024"}, {Node: "per-volume", Item: &three}}, "checks~2024/per-volume~*"},
	} {
		if got := flow.GeneralScope(tc.scope); got != tc.want {
			t.Errorf("GeneralScope(%+v) = %q, want %q", tc.scope, got, tc.want)
		}
	}
}

// TestIssue12EventsCarryTheirPlace: a run's stage events carry Place, the
// general spelling of their scope, which per-stage counts rest on: a stage
// in a foreach item inside a fork branch is `checks~disk/each~*`, the same
// for every item; a root stage has none.
func TestIssue12EventsCarryTheirPlace(t *testing.T) {
	t.Parallel()
	body := flow.Seq().Stage("inner", set("x", 1))
	c := mustBuild(t, flow.New("places").
		Stage("root", set("y", 1)).
		Parallel("checks", []flow.Branch{{Name: "disk", Steps: flow.Seq().
			ForEach("each", flow.ForEach{Items: flow.ItemsOf(rules.Literal([]any{1, 2})), As: "item", MaxBranches: 5, Body: body})}}))
	k := &kinds{}
	if _, err := c.Run(context.Background(), flow.WithRecorders(k)); err != nil {
		t.Fatal(err)
	}
	places := map[string]map[string]bool{}
	for _, e := range k.events {
		if e.Kind != recorder.StageStart {
			continue
		}
		if places[e.StageID] == nil {
			places[e.StageID] = map[string]bool{}
		}
		places[e.StageID][e.Place] = true
	}
	want := map[string]map[string]bool{
		"root": {"": true},
		"each": {"checks~disk": true}, "inner": {"checks~disk/each~*": true},
	}
	if !reflect.DeepEqual(places, want) {
		t.Errorf("places = %v, want %v", places, want)
	}
}
