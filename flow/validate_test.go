package flow

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/openrunbook/runbook/decide"
)

// nodeErrors returns every *NodeError inside err (through BuildError and
// wrapped foreach-body errors).
func nodeErrors(err error) []*NodeError {
	var out []*NodeError
	var walk func(err error)
	walk = func(err error) {
		if ne, ok := err.(*NodeError); ok {
			out = append(out, ne)
			return
		}
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				walk(e)
			}
		case interface{ Unwrap() error }:
			if e := u.Unwrap(); e != nil {
				walk(e)
			}
		}
	}
	walk(err)
	return out
}

func TestValidateRefusals(t *testing.T) {
	t.Parallel()
	nop := staticNop
	p := staticPred("x")
	two := []Branch{{Name: "a"}, {Name: "b"}}
	rulesAB := []decide.Rule{{When: p, Then: "a"}, {When: p, Then: "b"}}
	mount := func(name string) *Chart {
		return mustBuild(t, New(name).Stage("s", nop))
	}
	tests := []struct {
		name     string
		build    func() *Builder
		node     string
		contains []string
	}{
		{"duplicate id", func() *Builder {
			return New("c").Stage("a", nop).Stage("a", nop)
		}, "a", []string{"duplicate id", "unique"}},
		{"duplicate id across a branch", func() *Builder {
			return New("c").Stage("a", nop).Parallel("p", []Branch{{Name: "x", Steps: Seq().Stage("a", nop)}})
		}, "a", []string{"duplicate id", "branch stages included"}},
		{"empty id", func() *Builder {
			return New("c").Stage("", nop)
		}, "", []string{"the stage at position 1 of the chart's root has an empty id", "letters, digits"}},
		{"empty id in a branch", func() *Builder {
			return New("c").Parallel("p", []Branch{{Name: "x", Steps: Seq().Stage("a", nop).Stage("", nop)}})
		}, "", []string{`position 2 of branch "x" of "p"`}},
		{"reserved tilde", func() *Builder {
			return New("c").Stage("a~1", nop)
		}, "a~1", []string{"reserved", "'~' or '/'", "letters, digits, '-', '_', '.'"}},
		{"reserved slash", func() *Builder {
			return New("c").Stage("a/b", nop)
		}, "a/b", []string{"reserved", "runtime paths"}},
		{"space in id", func() *Builder {
			return New("c").Stage("a b", nop)
		}, "a b", []string{"' '", "only letters, digits, '-', '_', '.'"}},
		{"empty chart", func() *Builder {
			return New("c")
		}, "", []string{"no stages", "add at least one"}},
		{"nil stage function", func() *Builder {
			return New("c").Stage("s", nil)
		}, "s", []string{"no function", "StageFunc"}},
		{"decide without branches", func() *Builder {
			return New("c").Decide("d", nil, decide.Default{Branch: "a"}, nil)
		}, "d", []string{"decide has no branches", "at least one"}},
		{"select without branches", func() *Builder {
			return New("c").Select("s", []decide.Rule{{When: p, Then: "a"}}, nil)
		}, "s", []string{"select has no branches"}},
		{"parallel without branches", func() *Builder {
			return New("c").Parallel("p", nil)
		}, "p", []string{"parallel has no branches"}},
		{"branch without a name", func() *Builder {
			return New("c").Parallel("p", []Branch{{Name: "a"}, {Name: ""}})
		}, "p", []string{"branch 2 has an empty name"}},
		{"duplicate branch name", func() *Builder {
			return New("c").Decide("d", rulesAB, decide.Default{Branch: "a"}, []Branch{{Name: "a"}, {Name: "b"}, {Name: "a"}})
		}, "d", []string{`branch "a" is declared twice`, "unique"}},
		{"rule names no branch", func() *Builder {
			return New("c").Decide("d", []decide.Rule{{When: p, Then: "a"}, {When: p, Then: "at-risk"}}, decide.Default{Branch: "b"}, two)
		}, "d", []string{`rule 2: then "at-risk" names no branch (branches: a, b)`}},
		{"rule without condition", func() *Builder {
			return New("c").Decide("d", []decide.Rule{{Then: "a"}}, decide.Default{Branch: "b"}, two)
		}, "d", []string{"rule 1 has no condition", "give it a predicate"}},
		{"decide without default", func() *Builder {
			return New("c").Decide("d", rulesAB, decide.Default{}, two)
		}, "d", []string{"no default", "one of: a, b"}},
		{"default names no branch", func() *Builder {
			return New("c").Decide("d", rulesAB, decide.Default{Branch: "zzz"}, two)
		}, "d", []string{`default "zzz" names no branch (branches: a, b)`}},
		{"decide branch unreachable", func() *Builder {
			return New("c").Decide("d", []decide.Rule{{When: p, Then: "a"}}, decide.Default{Branch: "a"}, two)
		}, "d", []string{`branch "b" can never be taken`, "add a rule"}},
		{"select branch unreachable", func() *Builder {
			return New("c").Select("s", []decide.Rule{{When: p, Then: "a"}}, two)
		}, "s", []string{`branch "b" can never be taken`, "no rule's then"}},
		{"go decider without function", func() *Builder {
			return New("c").DecideFunc("d", nil, two)
		}, "d", []string{"neither rules nor a decide function", "DecideFunc"}},
		{"foreach without maxBranches", func() *Builder {
			return New("c").ForEach("f", ForEach{Items: staticItems, Body: Seq().Stage("s", nop)})
		}, "f", []string{"maxBranches is required: the most branches this foreach may start, ≥ 1"}},
		{"foreach without items", func() *Builder {
			return New("c").ForEach("f", ForEach{MaxBranches: 2, Body: Seq().Stage("s", nop)})
		}, "f", []string{"no items", "ForEach.Items"}},
		{"foreach without body", func() *Builder {
			return New("c").ForEach("f", ForEach{Items: staticItems, MaxBranches: 2})
		}, "f", []string{"no body", "stages each item runs"}},
		{"foreach as index", func() *Builder {
			return New("c").ForEach("f", ForEach{Items: staticItems, MaxBranches: 2, As: "index", Body: Seq().Stage("s", nop)})
		}, "f", []string{`as is "index"`, "choose another name"}},
		{"foreach body refusal is reported inside", func() *Builder {
			return New("c").Stage("outer", nop).ForEach("f", ForEach{Items: staticItems, MaxBranches: 2, Body: Seq().Stage("s", nop).Loop("l", Loop{To: "outer"})})
		}, "l", []string{`loop target "outer" names no stage of this chart`, "a chart of its own", "earlier stages it may jump to: s"}},
		{"subflow without chart", func() *Builder {
			return New("c").Subflow("s", nil, Mount{})
		}, "s", []string{"no chart", "built *Chart"}},
		{"subflow mounts itself by name", func() *Builder {
			return New("main").Subflow("s", mount("main"), Mount{})
		}, "s", []string{`mounts chart "main", the chart being built (same name)`, "cannot mount itself"}},
		{"subflow mounts itself transitively", func() *Builder {
			mid := mustBuild(t, New("mid").Subflow("again", mount("main"), Mount{}))
			return New("main").Subflow("s", mid, Mount{})
		}, "s", []string{"mid → main", "cannot mount itself"}},
		{"loop to unknown stage", func() *Builder {
			return New("c").Stage("a", nop).Stage("b", nop).Loop("l", Loop{To: "zzz"})
		}, "l", []string{`loop target "zzz" names no stage`, "earlier stages it may jump to: a, b"}},
		{"loop without target", func() *Builder {
			return New("c").Stage("a", nop).Loop("l", Loop{})
		}, "l", []string{"no target", "earlier stages it may jump to: a"}},
		{"loop to a later stage", func() *Builder {
			return New("c").Stage("a", nop).Loop("l", Loop{To: "b"}).Stage("b", nop)
		}, "l", []string{`"b" is not earlier than the loop`, "earlier stages it may jump to: a"}},
		{"loop to itself", func() *Builder {
			return New("c").Stage("a", nop).Loop("l", Loop{To: "l"})
		}, "l", []string{"targets itself", "jump to: a"}},
		{"loop into another branch", func() *Builder {
			return New("c").Stage("a", nop).Decide("d", rulesAB, decide.Default{Branch: "a"}, []Branch{
				{Name: "a", Steps: Seq().Stage("in-a", nop)},
				{Name: "b", Steps: Seq().Loop("l", Loop{To: "in-a"})},
			})
		}, "l", []string{`"in-a" sits in a branch the loop is not in`, "jump to: a, d"}},
		{"loop leaves a parallel branch", func() *Builder {
			return New("c").Stage("a", nop).Parallel("p", []Branch{
				{Name: "x", Steps: Seq().Stage("x1", nop).Loop("l", Loop{To: "a"})},
			})
		}, "l", []string{"a loop cannot leave a parallel branch", `outside branch "x" of "p"`, "jump to: x1"}},
		{"loop leaves a select branch", func() *Builder {
			return New("c").Stage("a", nop).Select("s", []decide.Rule{{When: p, Then: "x"}}, []Branch{
				{Name: "x", Steps: Seq().Loop("l", Loop{To: "a"})},
			})
		}, "l", []string{"a loop cannot leave a select branch", "no earlier stage it could jump to"}},
		{"loop max negative", func() *Builder {
			return New("c").Stage("a", nop).Loop("l", Loop{To: "a", Max: -1})
		}, "l", []string{"loop max is -1", "≥ 0"}},
		{"retry attempts zero", func() *Builder {
			return New("c").Stage("s", nop, WithRetry(RetryPolicy{}))
		}, "s", []string{"retry attempts is 0", "≥ 1"}},
		{"retry backoff negative", func() *Builder {
			return New("c").Stage("s", nop, WithRetry(RetryPolicy{Attempts: 2, Backoff: -time.Second}))
		}, "s", []string{"retry backoff is -1s", "≥ 0"}},
		{"retry maxBackoff negative", func() *Builder {
			return New("c").Stage("s", nop, WithRetry(RetryPolicy{Attempts: 2, MaxBackoff: -time.Second}))
		}, "s", []string{"maxBackoff is -1s"}},
		{"timeout negative", func() *Builder {
			return New("c").Stage("s", nop, Timeout(-time.Second))
		}, "s", []string{"timeout is -1s", "≥ 0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := tc.build().Build()
			if err == nil {
				t.Fatalf("Build accepted the chart (%v); want a refusal naming %q", c, tc.node)
			}
			t.Log(err)
			var ne *NodeError
			if !errors.As(err, &ne) {
				t.Fatalf("errors.As found no *NodeError in %v", err)
			}
			var msgs []string
			for _, ne := range nodeErrors(err) {
				msgs = append(msgs, ne.Error())
				if ne.Node != tc.node {
					continue
				}
				ok := true
				for _, want := range tc.contains {
					if !strings.Contains(ne.Msg, want) {
						ok = false
					}
				}
				if ok {
					return
				}
			}
			t.Errorf("no error on node %q saying %q; got:\n  %s", tc.node, tc.contains, strings.Join(msgs, "\n  "))
		})
	}
}

func TestValidateAccepts(t *testing.T) {
	t.Parallel()
	p := staticPred("x")
	tests := []struct {
		name  string
		build func() *Builder
	}{
		{"loop in a decide branch to an enclosing earlier stage", func() *Builder {
			return New("c").Stage("a", staticNop).Decide("d", []decide.Rule{{When: p, Then: "x"}}, decide.Default{Branch: "y"}, []Branch{
				{Name: "x", Steps: Seq().Stage("x1", staticNop).Loop("l", Loop{To: "a"})},
				{Name: "y"},
			})
		}},
		{"loop back to the decider it sits in", func() *Builder {
			return New("c").Decide("d", []decide.Rule{{When: p, Then: "x"}}, decide.Default{Branch: "y"}, []Branch{
				{Name: "x", Steps: Seq().Loop("l", Loop{To: "d"})},
				{Name: "y"},
			})
		}},
		{"loop inside a parallel branch", func() *Builder {
			return New("c").Parallel("p", []Branch{{Name: "x", Steps: Seq().Stage("x1", staticNop).Loop("l", Loop{To: "x1", Max: 5})}})
		}},
		{"go decider may reach any branch", func() *Builder {
			return New("c").DecideFunc("d", staticDecideFn, []Branch{{Name: "a"}, {Name: "b"}})
		}},
		{"decide with only a default", func() *Builder {
			return New("c").Decide("d", nil, decide.Default{Branch: "a"}, []Branch{{Name: "a"}})
		}},
		{"select with empty branches", func() *Builder {
			return New("c").Select("s", []decide.Rule{{When: p, Then: "a"}}, []Branch{{Name: "a"}}).Stage("after", staticNop)
		}},
		{"unicode letters and dots in ids", func() *Builder {
			return New("c").Stage("prüfung.v1_a-b", staticNop)
		}},
		{"subflow with another name", func() *Builder {
			return New("main").Subflow("s", mustBuild(t, New("other").Stage("s", staticNop)), Mount{})
		}},
		{"every node kind", func() *Builder { return nil }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := tc.build()
			if b == nil {
				staticChart(t)
				return
			}
			if _, err := b.Build(); err != nil {
				t.Fatalf("Build refused a valid chart: %v", err)
			}
		})
	}
}

func TestValidateReportsEveryMistakeInChartOrder(t *testing.T) {
	t.Parallel()
	_, err := New("c").
		Stage("a/b", staticNop).
		Decide("d", []decide.Rule{{When: staticPred("x"), Then: "nope"}}, decide.Default{Branch: "y"}, []Branch{
			{Name: "y", Steps: Seq().Stage("inner", nil)},
		}).
		ForEach("f", ForEach{Items: staticItems, Body: Seq().Stage("s", staticNop)}).
		Stage("z", staticNop, Timeout(-1)).
		Build()
	var be *BuildError
	if !errors.As(err, &be) {
		t.Fatalf("want a *BuildError, got %v", err)
	}
	var got []string
	for _, ne := range nodeErrors(err) {
		got = append(got, ne.Node)
	}
	want := []string{"a/b", "d", "inner", "f", "z"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("refused nodes = %v, want %v (every mistake, in chart order); error:\n%v", got, want, err)
	}
}

func TestValidateForwardGraph(t *testing.T) {
	t.Parallel()
	c := mustBuild(t, New("g").
		Stage("a", staticNop).
		Decide("d", []decide.Rule{{When: staticPred("x"), Then: "x"}}, decide.Default{Branch: "y"}, []Branch{
			{Name: "x", Steps: Seq().Stage("x1", staticNop).Loop("l", Loop{To: "a"})},
			{Name: "y"},
		}).
		Stage("z", staticNop))
	adj, err := c.g.AdjacencyMap()
	if err != nil {
		t.Fatal(err)
	}
	edges := map[string]bool{}
	for from, tos := range adj {
		for to := range tos {
			edges[from+">"+to] = true
		}
	}
	for _, e := range []string{graphStart + ">a", "a>d", "d>x1", "d>z", "x1>l", "l>z", "z>" + graphEnd} {
		if !edges[e] {
			t.Errorf("missing edge %s", e)
		}
	}
	if edges["l>a"] {
		t.Errorf("the loop's back edge is in the forward graph")
	}
	if len(edges) != 7 {
		t.Errorf("got %d edges, want 7: %v", len(edges), edges)
	}
}

func TestValidateCycleIsRefused(t *testing.T) {
	t.Parallel()
	// The builder cannot make a cycle; hand-make one: b's branch runs a.
	a := &node{id: "a", kind: KindStage, fn: staticNop}
	b := &node{id: "b", kind: KindParallel}
	b.branches = []*branch{{name: "x", seq: &sequence{nodes: []*node{a}, parent: b}}}
	c := &Chart{name: "cyc", root: &sequence{nodes: []*node{a, b}}}
	_, errs := c.forwardGraph(false)
	if len(errs) == 0 {
		t.Fatal("a cycle that is not a declared loop was accepted")
	}
	var ne *NodeError
	if !errors.As(errs[0].err, &ne) || ne.Node != "a" || !strings.Contains(ne.Msg, "cycle that is not a declared loop (nodes on it: a, b)") {
		t.Errorf("got %v, want a NodeError on a naming the cycle's nodes a, b", errs[0].err)
	}
}
