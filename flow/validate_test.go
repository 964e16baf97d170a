package flow

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
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
			if ne.Body != nil {
				walk(ne.Body)
			}
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

// TestValidateRefusals is the table of every structural rule: the node and
// Field each refusal names and its exact words. A row with a loader golden
// (testdata/bad/NAME.golden) is a rule the YAML loader states too; its
// message must be the loader's, word for word, file position aside
// (TestValidateSpeaksTheLoadersWords checks it against the golden).
func TestValidateRefusals(t *testing.T) {
	t.Parallel()
	for _, tc := range refusalCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := tc.build().Build()
			if err == nil {
				t.Fatalf("Build accepted the chart (%v); want a refusal naming %q", c, tc.node)
			}
			var ne *NodeError
			if !errors.As(err, &ne) {
				t.Fatalf("errors.As found no *NodeError in %v", err)
			}
			var got []string
			for _, ne := range nodeErrors(err) {
				if ne.Node == tc.node && ne.Field == tc.field && ne.Msg == tc.msg {
					return
				}
				got = append(got, fmt.Sprintf("node %q field %q: %s", ne.Node, ne.Field, ne.Msg))
			}
			t.Errorf("no refusal of node %q field %q saying\n  %s\ngot:\n  %s", tc.node, tc.field, tc.msg, strings.Join(got, "\n  "))
		})
	}
}

// TestValidateSpeaksTheLoadersWords holds flow to the YAML loader's words:
// every row naming a loader golden finds its message there, after the
// file:line:col and the `stage "ID": ` the loader puts before it, with the
// loader's "(first at L:C)" of a repeated id (a file position) left out.
func TestValidateSpeaksTheLoadersWords(t *testing.T) {
	t.Parallel()
	firstAt := regexp.MustCompile(` \(first at \d+:\d+\)`)
	for _, tc := range refusalCases(t) {
		if tc.golden == "" {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, err := os.ReadFile(filepath.Join("..", "testdata", "bad", tc.golden+".golden"))
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(string(b), "\n") {
				line = firstAt.ReplaceAllString(line, "")
				if strings.HasSuffix(line, ": "+tc.msg) {
					return
				}
			}
			t.Errorf("%s.golden has no line ending %q:\n%s", tc.golden, tc.msg, b)
		})
	}
}

type refusalCase struct {
	name   string
	build  func() *Builder
	node   string
	field  string // NodeError.Field: where a front end points
	msg    string // NodeError.Msg, exactly
	golden string // the loader's testdata/bad golden stating the same rule ("": flow's own)
}

func refusalCases(t *testing.T) []refusalCase {
	nop := staticNop
	p := staticPred("x")
	two := []Branch{{Name: "a"}, {Name: "b"}}
	rulesAB := []decide.Rule{{When: p, Then: "a"}, {When: p, Then: "b"}}
	body := func() *Builder { return Seq().Stage("one", nop) }
	mount := func(name string) *Chart {
		return mustBuild(t, New(name).Stage("s", nop))
	}
	return []refusalCase{
		// ids
		{"duplicate id", func() *Builder {
			return New("r").Stage("a", nop).Stage("a", nop)
		}, "a", "id", `id "a" is used twice in this chart: ids are unique in a chart, branch stages included`, "duplicate-id"},
		{"duplicate id across a branch", func() *Builder {
			return New("r").Stage("mark", nop).Decide("pick", []decide.Rule{{When: p, Then: "yes"}}, decide.Default{Branch: "no"},
				[]Branch{{Name: "yes", Steps: Seq().Stage("mark", nop)}, {Name: "no"}})
		}, "mark", "id", `id "mark" is used twice in this chart: ids are unique in a chart, branch stages included`, "duplicate-id-branch"},
		{"empty id", func() *Builder {
			return New("r").Stage("", nop)
		}, "", "id", `stage 1 has no id: every stage needs one (letters, digits, '-', '_', '.')`, ""},
		{"empty id in a branch counts in its branch", func() *Builder {
			return New("r").Parallel("p", []Branch{{Name: "x", Steps: Seq().Stage("a", nop).Stage("", nop)}})
		}, "", "id", `stage 2 has no id: every stage needs one (letters, digits, '-', '_', '.')`, ""},
		{"reserved slash", func() *Builder {
			return New("r").Stage("disks/root", nop)
		}, "disks/root", "id", `id "disks/root" holds a reserved character ('~' and '/' are kept for runtime paths): use letters, digits, '-', '_', '.'`, "id-slash"},
		{"reserved tilde", func() *Builder {
			return New("r").Stage("per~1", nop)
		}, "per~1", "id", `id "per~1" holds a reserved character ('~' and '/' are kept for runtime paths): use letters, digits, '-', '_', '.'`, "id-slash"},
		{"space in id", func() *Builder {
			return New("r").Stage("has space", nop)
		}, "has space", "id", `id "has space" holds ' ': an id may hold only letters, digits, '-', '_', '.'`, "id-slash"},
		{"empty chart", func() *Builder {
			return New("r")
		}, "", "stages", "stages is an empty list: give it at least one stage", "stages-empty"},
		{"nil stage function", func() *Builder {
			return New("r").Stage("s", nil)
		}, "s", "", "stage has no function: give it a StageFunc", ""},

		// decide, select, parallel
		{"decide without branches", func() *Builder {
			return New("r").Decide("c", nil, decide.Default{Branch: "a"}, nil)
		}, "c", "branches", "decide has no branches: add branches: {NAME: [stages], …} beside decide:", "branches-without-decide"},
		{"select without branches", func() *Builder {
			return New("r").Select("s", []decide.Rule{{When: p, Then: "a"}}, nil)
		}, "s", "branches", "select has no branches: add branches: {NAME: [stages], …} beside select:", ""},
		{"parallel without branches", func() *Builder {
			return New("r").Parallel("p", nil)
		}, "p", "branches", "parallel is an empty map: declare at least one branch, NAME: [stages]", ""},
		{"branch without a name", func() *Builder {
			return New("r").Parallel("p", []Branch{{Name: "a"}, {Name: ""}})
		}, "p", "branches[1]", "branch 2 has an empty name: every branch needs a name", ""},
		{"duplicate branch name", func() *Builder {
			return New("r").Decide("d", rulesAB, decide.Default{Branch: "a"}, []Branch{{Name: "a"}, {Name: "b"}, {Name: "a"}})
		}, "d", "branches.a", `branch "a" is declared twice: branch names must be unique within a decide`, ""},
		{"rule names no branch", func() *Builder {
			return New("r").Decide("posture", []decide.Rule{{When: p, Then: "unprotected"}, {When: p, Then: "at-risk"}}, decide.Default{Branch: "declined"},
				[]Branch{{Name: "unprotected"}, {Name: "declined"}})
		}, "posture", "decide.rules[1].then", `rule 2: then "at-risk" names no branch (branches: unprotected, declined)`, "then-no-branch"},
		{"select rule names no branch", func() *Builder {
			return New("r").Select("s", []decide.Rule{{When: p, Then: "a"}, {When: p, Then: "c"}}, two)
		}, "s", "select.rules[1].then", `rule 2: then "c" names no branch (branches: a, b)`, "select-then-no-branch"},
		{"rule without condition", func() *Builder {
			return New("r").Decide("d", []decide.Rule{{Then: "a"}}, decide.Default{Branch: "b"}, two)
		}, "d", "decide.rules[0].when", "rule 1 has no when: give it a condition, an expression (when: used > 90) or a filter (when: {used: {gt: 90}})", ""},
		{"decide without default", func() *Builder {
			return New("r").Decide("pick", []decide.Rule{{When: p, Then: "big"}, {When: p, Then: "small"}}, decide.Default{}, []Branch{{Name: "big"}, {Name: "small"}})
		}, "pick", "decide.default", "decide has no default: name the branch to take when no rule matches, such as default: declined (branches: big, small)", "decide-no-default"},
		{"default names no branch", func() *Builder {
			return New("r").Decide("d", rulesAB, decide.Default{Branch: "zzz"}, two)
		}, "d", "decide.default", `default "zzz" names no branch (branches: a, b)`, ""},
		{"decide branch unreachable", func() *Builder {
			return New("r").Decide("posture", []decide.Rule{{When: p, Then: "full"}}, decide.Default{Branch: "fine"},
				[]Branch{{Name: "full"}, {Name: "fine"}, {Name: "orphan"}})
		}, "posture", "branches.orphan", `branch "orphan" can never be taken: no rule's then and not the default names it (add a rule for it, or remove it)`, "branch-unreachable"},
		{"select branch unreachable", func() *Builder {
			return New("r").Select("s", []decide.Rule{{When: p, Then: "a"}}, two)
		}, "s", "branches.b", `branch "b" can never be taken: no rule's then names it (add a rule for it, or remove it)`, ""},
		{"go decider without function", func() *Builder {
			return New("r").DecideFunc("d", nil, two)
		}, "d", "", "decide has neither rules nor a decide function: give it rules and a default, or a DecideFunc", ""},

		// foreach
		{"foreach without maxBranches", func() *Builder {
			return New("r").ForEach("each", ForEach{Items: staticItems, Body: body()})
		}, "each", "foreach.maxBranches", "foreach has no maxBranches: it is required, the most branches this foreach may start (≥ 1); items past it do not run and the cut is recorded", "foreach-no-maxbranches"},
		{"foreach maxBranches negative", func() *Builder {
			return New("r").ForEach("each", ForEach{Items: staticItems, MaxBranches: -1, Body: body()})
		}, "each", "foreach.maxBranches", "foreach maxBranches is -1: it must be a whole number ≥ 1", ""},
		{"foreach without items", func() *Builder {
			return New("r").ForEach("each", ForEach{MaxBranches: 2, Body: body()})
		}, "each", "foreach.items", "foreach has no items: give it an expression giving the list, such as items: volumes", ""},
		{"foreach without body", func() *Builder {
			return New("r").ForEach("each", ForEach{Items: staticItems, MaxBranches: 2})
		}, "each", "foreach.stages", "foreach has no stages: give it the stages each item runs", ""},
		{"foreach as index", func() *Builder {
			return New("r").ForEach("each", ForEach{Items: staticItems, MaxBranches: 4, As: "index", Body: body()})
		}, "each", "foreach.as", `foreach as is "index", the key every branch already gets for its item's position: choose another name (default "item")`, "foreach-as-index"},
		{"foreach as not an identifier", func() *Builder {
			return New("r").ForEach("each2", ForEach{Items: staticItems, MaxBranches: 4, As: "my-volume", Body: body()})
		}, "each2", "foreach.as", `foreach as "my-volume" is not a name an expression can read: use letters, digits and _, not starting with a digit`, "foreach-as-index"},
		{"foreach as starting with a digit", func() *Builder {
			return New("r").ForEach("each", ForEach{Items: staticItems, MaxBranches: 4, As: "1st", Body: body()})
		}, "each", "foreach.as", `foreach as "1st" is not a name an expression can read: use letters, digits and _, not starting with a digit`, ""},
		{"loop may not leave a foreach body", func() *Builder {
			return New("r").Stage("outer", nop).ForEach("f", ForEach{Items: staticItems, MaxBranches: 2, Body: Seq().Stage("s", nop).Loop("l", Loop{To: "outer"})})
		}, "l", "loop.to", `loop to "outer" names no stage of this chart; a foreach body or a subflow is a chart of its own and a loop cannot leave it (earlier stages it may jump to: s)`, ""},

		// subflow
		{"subflow without chart", func() *Builder {
			return New("r").Subflow("s", nil, Mount{})
		}, "s", "subflow", "subflow has no chart: mount a built *Chart", ""},
		{"subflow mounts itself by name", func() *Builder {
			return New("main").Subflow("s", mount("main"), Mount{})
		}, "s", "subflow", `subflow mounts chart "main", the chart being built (same name): a chart cannot mount itself; mount another chart or rename one`, ""},
		{"subflow mounts itself transitively", func() *Builder {
			mid := mustBuild(t, New("mid").Subflow("again", mount("main"), Mount{}))
			return New("main").Subflow("s", mid, Mount{})
		}, "s", "subflow", `subflow mounts chart "main", the chart being built (via mid → main): a chart cannot mount itself, even through other charts`, ""},

		// loop
		{"loop to unknown stage, a near one", func() *Builder {
			return New("r").Stage("tick", nop).Loop("back", Loop{To: "tik"})
		}, "back", "loop.to", `loop to "tik" names no stage of this chart; did you mean "tick"? (earlier stages it may jump to: tick)`, "loop-unknown"},
		{"loop to unknown stage, none near", func() *Builder {
			return New("r").Stage("tick", nop).Loop("back", Loop{To: "tick"}).Loop("gone", Loop{To: "elsewhere"})
		}, "gone", "loop.to", `loop to "elsewhere" names no stage of this chart; a foreach body or a subflow is a chart of its own and a loop cannot leave it (earlier stages it may jump to: tick, back)`, "loop-unknown"},
		{"loop without target", func() *Builder {
			return New("r").Stage("a", nop).Loop("l", Loop{})
		}, "l", "loop.to", "loop has no to: name the earlier stage to jump back to", ""},
		{"loop to a later stage", func() *Builder {
			return New("r").Loop("back", Loop{To: "later"}).Stage("later", nop)
		}, "back", "loop.to", `loop to "later" names a later stage: a loop jumps back to an earlier one (there is no earlier stage it could jump to)`, "loop-later"},
		{"loop to itself", func() *Builder {
			return New("r").Loop("back", Loop{To: "later"}).Stage("later", nop).Loop("self", Loop{To: "self"})
		}, "self", "loop.to", "loop targets itself: a loop jumps back to an earlier stage (earlier stages it may jump to: back, later)", "loop-later"},
		{"loop to itself, first stage", func() *Builder {
			return New("r").Loop("a", Loop{To: "a"})
		}, "a", "loop.to", "loop targets itself: a loop jumps back to an earlier stage (there is no earlier stage it could jump to)", "loop-self"},
		{"loop into another branch", func() *Builder {
			return New("r").Stage("a", nop).Decide("d", rulesAB, decide.Default{Branch: "a"}, []Branch{
				{Name: "a", Steps: Seq().Stage("in-a", nop)},
				{Name: "b", Steps: Seq().Loop("l", Loop{To: "in-a"})},
			})
		}, "l", "loop.to", `loop to "in-a" names a stage in a branch the loop is not in, or across a parallel or select branch: a loop may jump only to an earlier stage of its own sequence or of one enclosing it through decide branches (earlier stages it may jump to: a, d)`, ""},
		{"loop leaves a parallel branch", func() *Builder {
			return New("r").Stage("tick", nop).Parallel("both", []Branch{
				{Name: "left", Steps: Seq().Loop("back", Loop{To: "tick"})},
				{Name: "right", Steps: Seq().Stage("step", nop)},
			})
		}, "back", "loop.to", `loop to "tick" names a stage in a branch the loop is not in, or across a parallel or select branch: a loop may jump only to an earlier stage of its own sequence or of one enclosing it through decide branches (there is no earlier stage it could jump to)`, "loop-across-parallel"},
		{"loop leaves a select branch", func() *Builder {
			return New("r").Stage("a", nop).Select("s", []decide.Rule{{When: p, Then: "x"}}, []Branch{
				{Name: "x", Steps: Seq().Stage("x1", nop).Loop("l", Loop{To: "a"})},
			})
		}, "l", "loop.to", `loop to "a" names a stage in a branch the loop is not in, or across a parallel or select branch: a loop may jump only to an earlier stage of its own sequence or of one enclosing it through decide branches (earlier stages it may jump to: x1)`, ""},
		{"loop max negative", func() *Builder {
			return New("r").Stage("a", nop).Loop("l", Loop{To: "a", Max: -1})
		}, "l", "loop.max", "loop max is -1: it must be ≥ 0 (0: the default, 1000)", ""},

		// retry, timeout
		{"retry attempts zero", func() *Builder {
			return New("r").Stage("flaky", nop, WithRetry(RetryPolicy{}))
		}, "flaky", "retry.attempts", "retry attempts is 0: it must be a whole number ≥ 1", "retry-zero"},
		{"retry backoff negative", func() *Builder {
			return New("r").Stage("s", nop, WithRetry(RetryPolicy{Attempts: 2, Backoff: -time.Second}))
		}, "s", "retry.backoff", "retry backoff is -1s: it must be ≥ 0", ""},
		{"retry maxBackoff negative", func() *Builder {
			return New("r").Stage("s", nop, WithRetry(RetryPolicy{Attempts: 2, MaxBackoff: -time.Second}))
		}, "s", "retry.maxBackoff", "retry maxBackoff is -1s: it must be ≥ 0 (0: no cap)", ""},
		{"timeout negative", func() *Builder {
			return New("r").Stage("neg", nop, Timeout(-5*time.Second))
		}, "neg", "timeout", `timeout "-5s" is negative: it must be ≥ 0`, "bad-duration"},
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
	g, errs := c.forwardGraph(false)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	adj, err := g.AdjacencyMap()
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
