package flow_test

import (
	"context"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/rules"
)

// TestIssue12ForEachDepthRefusalCommits is the regression test for a
// foreach refused for nesting depth making no commit, which broke "one
// commit per stage execution": the refused foreach has its commit, with
// the refusal as its error, and its stage end.
func TestIssue12ForEachDepthRefusalCommits(t *testing.T) {
	t.Parallel()
	body := flow.Seq().Stage("inner", set("x", 1))
	c := mustBuild(t, flow.New("deep").
		Subflow("outer", mustBuild(t, flow.New("sub").
			ForEach("each", flow.ForEach{Items: flow.ItemsOf(rules.Literal([]any{1, 2})), As: "item", MaxBranches: 5, Body: body})), flow.Mount{}))
	k := &kinds{}
	res, err := c.Run(context.Background(), flow.WithMaxDepth(1), flow.WithRecorders(k))
	if err == nil || !strings.Contains(err.Error(), "nesting deeper than 1") {
		t.Fatalf("err = %v", err)
	}
	i, ok := res.Log.Find("outer/each#1")
	if !ok {
		t.Fatalf("the refused foreach made no commit: %+v", res.Log.Commits())
	}
	if c0 := res.Log.Commits()[i]; !strings.Contains(c0.Err, "nesting deeper than 1") {
		t.Errorf("its commit's error = %q", c0.Err)
	}
	assertStartsEnd(t, k, "outer/each#1")
}

// TestIssue12SubflowRefusalEndsItsStage is the regression test for a
// subflow mount that announced its start and, refused (nesting depth, an
// input binding that errors), never emitted its stage end.
func TestIssue12SubflowRefusalEndsItsStage(t *testing.T) {
	t.Parallel()
	leaf := mustBuild(t, flow.New("leaf").Stage("x", set("x", 1)))
	t.Run("depth", func(t *testing.T) {
		t.Parallel()
		c := mustBuild(t, flow.New("deep").
			Subflow("a", mustBuild(t, flow.New("mid").Subflow("b", leaf, flow.Mount{})), flow.Mount{}))
		k := &kinds{}
		if _, err := c.Run(context.Background(), flow.WithMaxDepth(1), flow.WithRecorders(k)); err == nil {
			t.Fatal("no refusal")
		}
		assertStartsEnd(t, k, "a/b#1")
	})
	t.Run("input", func(t *testing.T) {
		t.Parallel()
		c := mustBuild(t, flow.New("bad-input").
			Subflow("a", leaf, flow.Mount{Inputs: []flow.Binding{{Key: "in", From: rules.MustCompile("1 / nothing.there")}}}))
		k := &kinds{}
		if _, err := c.Run(context.Background(), flow.WithRecorders(k)); err == nil {
			t.Fatal("no refusal")
		}
		assertStartsEnd(t, k, "a#0")
	})
}

// assertStartsEnd checks that the stage at path started and ended once.
func assertStartsEnd(t *testing.T, k *kinds, path string) {
	t.Helper()
	var starts, ends int
	for _, e := range k.events {
		if e.Path != path {
			continue
		}
		switch e.Kind {
		case recorder.StageStart:
			starts++
		case recorder.StageEnd:
			ends++
		}
	}
	if starts != 1 || ends != 1 {
		t.Errorf("%s: %d starts, %d ends; want one of each", path, starts, ends)
	}
}

// TestGatherNamesWhereRowsCameFrom: the one gather serves a parallel join
// and a foreach end alike, and both name the branch commits the rows came
// from (the foreach's did not).
func TestGatherNamesWhereRowsCameFrom(t *testing.T) {
	t.Parallel()
	appendRow := func(v string) flow.StageFunc {
		return func(ctx context.Context, s *flow.Scope) error {
			rows, _ := s.Value(verdicts).([]any)
			s.Set(verdicts, append(append([]any{}, rows...), v))
			return nil
		}
	}
	c := mustBuild(t, flow.New("g").
		Parallel("fork", []flow.Branch{{Name: "a", Steps: flow.Seq().Stage("ra", appendRow("a"))}, {Name: "b", Steps: flow.Seq().Stage("rb", appendRow("b"))}}).
		ForEach("each", flow.ForEach{Items: flow.ItemsOf(rules.Literal([]any{1, 2})), As: "item", MaxBranches: 5, Body: flow.Seq().Stage("r", appendRow("e"))}))
	res := run(t, c)
	if got := res.State()[verdicts]; len(got.([]any)) != 4 {
		t.Fatalf("rows = %v", got)
	}
	for _, stage := range []string{"fork", "each"} {
		var from []string
		for _, cm := range res.Log.Commits() {
			for _, w := range cm.Writes {
				if cm.Stage == stage && w.Key == verdicts {
					from = w.From
				}
			}
		}
		if len(from) != 2 {
			t.Errorf("%s's gathered write names %q, want the two branch commits", stage, from)
		}
	}
}
