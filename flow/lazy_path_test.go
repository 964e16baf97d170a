package flow_test

import (
	"context"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/rules"
)

// TestUnnamedExecutionsAreNamedWhenTheyFail: a decision or a loop's jump
// that goes well is never spelled (Scope.where); one that fails after its
// commit — a loop past its bound, a decider past the depth bound — names
// the execution its commit is, with no recorder attached to spell it
// sooner.
func TestUnnamedExecutionsAreNamedWhenTheyFail(t *testing.T) {
	loop := func() *flow.Builder {
		return flow.New("spin").
			Stage("seed", func(ctx context.Context, s *flow.Scope) error { s.Set("n", 0); return nil }).
			Stage("tick", func(ctx context.Context, s *flow.Scope) error {
				v, _ := s.Get("n")
				s.Set("n", v.(int)+1)
				return nil
			}).
			Decide("check", []decide.Rule{
				{When: rules.MustFilter(rules.Where("n", rules.OpLt, 1000)), Then: "again", Label: "More"},
			}, decide.Default{Branch: "done", Label: "Done"}, []flow.Branch{
				{Name: "again", Steps: flow.Seq().Loop("back", flow.Loop{To: "tick", Max: 11})},
				{Name: "done", Steps: flow.Seq().Stage("finish", func(ctx context.Context, s *flow.Scope) error { return nil })},
			})
	}
	always := []decide.Rule{{When: rules.MustFilter(rules.Where("n", rules.OpGte, 0)), Then: "in", Label: "Always"}}
	nested := func() *flow.Builder {
		return flow.New("nest").
			Stage("seed", func(ctx context.Context, s *flow.Scope) error { s.Set("n", 0); return nil }).
			Decide("outer", always, decide.Default{Branch: "in"}, []flow.Branch{{Name: "in", Steps: flow.Seq().
				Decide("inner", always, decide.Default{Branch: "in"}, []flow.Branch{{Name: "in", Steps: flow.Seq().
					Stage("leaf", func(ctx context.Context, s *flow.Scope) error { return nil })}})}})
	}
	for _, tc := range []struct {
		name  string
		chart func() *flow.Builder
		opts  []flow.RunOption
		stage string
		says  string
	}{
		{"a loop past its bound", loop, nil, "back", "reached its bound of 11"},
		{"a decider past the depth bound", nested, []flow.RunOption{flow.WithMaxDepth(1)}, "inner", "nesting deeper than 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustBuild(t, tc.chart())
			res, err := c.Run(context.Background(), tc.opts...)
			if err == nil || res.Err == nil || !strings.Contains(res.Err.Message, tc.says) {
				t.Fatalf("want a failure saying %q; got %v", tc.says, err)
			}
			cs := res.Log.Commits()
			last := cs[len(cs)-1]
			if res.Err.Stage != tc.stage || res.Err.Path != last.Path || !strings.HasPrefix(last.Path, tc.stage+"#") {
				t.Fatalf("failure at %s (%s); its commit, the log's last, is %s", res.Err.Path, res.Err.Stage, last.Path)
			}
		})
	}
}
