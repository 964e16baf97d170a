package bench

import (
	"context"
	"fmt"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/rules"
)

// Linear is a chain of n stages; stage i reads v(i-1) and writes v(i) =
// v(i-1)+1 (stage 0 writes v0 = 0).
func Linear(n int) *flow.Chart {
	b := flow.New("linear")
	b.Stage("s0", func(ctx context.Context, s *flow.Scope) error {
		s.Set("v0", 0)
		return nil
	}, flow.Name("S0"))
	for i := 1; i < n; i++ {
		prev, cur := fmt.Sprintf("v%d", i-1), fmt.Sprintf("v%d", i)
		b.Stage(fmt.Sprintf("s%d", i), func(ctx context.Context, s *flow.Scope) error {
			v, _ := s.Get(prev)
			s.Set(cur, v.(int)+1)
			return nil
		}, flow.Name(fmt.Sprintf("S%d", i)))
	}
	return must(b.Build())
}

// Decide10 is a seed writing 4 facts and a decider of 10 two-condition
// filter rules (only the 10th matches) with a labelled default; the chosen
// branch writes verdict.
func Decide10() *flow.Chart {
	var rs []decide.Rule
	for i := 0; i < 9; i++ {
		rs = append(rs, decide.Rule{
			When:  rules.MustFilter(rules.Where("usedPct", rules.OpGt, 95+i), rules.Where("errors", rules.OpGte, 100)),
			Then:  "critical",
			Label: fmt.Sprintf("Rule %d", i),
		})
	}
	rs = append(rs, decide.Rule{
		When:  rules.MustFilter(rules.Where("usedPct", rules.OpGt, 80), rules.Where("state", rules.OpEq, "degraded")),
		Then:  "warning",
		Label: "Disk filling on a degraded service",
	})
	verdict := func(v string) *flow.Builder {
		return flow.Seq().Stage(v+"-mark", func(ctx context.Context, s *flow.Scope) error {
			s.Set("verdict", v)
			return nil
		})
	}
	return must(flow.New("decide10").
		Stage("seed", func(ctx context.Context, s *flow.Scope) error {
			s.Set("usedPct", 91)
			s.Set("errors", 3)
			s.Set("state", "degraded")
			s.Set("host", "db-1")
			return nil
		}, flow.Name("Seed")).
		Decide("posture", rs, decide.Default{Branch: "ok", Label: "No rule fired — healthy"}, []flow.Branch{
			{Name: "critical", Steps: verdict("critical")},
			{Name: "warning", Steps: verdict("warning")},
			{Name: "ok", Steps: verdict("ok")},
		}, flow.Name("Disk posture"), flow.Description("Classify disk posture")).
		Build())
}

// Subjects is the fan-out's input: n subjects with varied facts.
func Subjects(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = map[string]any{"name": fmt.Sprintf("vol-%d", i), "used": (i * 37) % 100, "replicas": i % 4}
	}
	return out
}

// Verdicts is the key the workloads append verdict rows to; a run gathers
// it from its branches with flow.WithGather(Verdicts), as runbook's runs do.
const Verdicts = "verdicts"

// Fanout is a seed writing n subjects and a foreach (bounded at n) whose
// branch loads its subject, decides "Protection posture" (3 rules and a
// labelled default) and appends one {subject, verdict} row; results are
// gathered into `results` in item order.
func Fanout(n int) *flow.Chart {
	subjects := Subjects(n)
	row := func(v string) *flow.Builder {
		return flow.Seq().Stage(v, func(ctx context.Context, s *flow.Scope) error {
			rows, _ := s.Value(Verdicts).([]any)
			out := make([]any, len(rows), len(rows)+1)
			copy(out, rows)
			s.Set(Verdicts, append(out, map[string]any{"subject": s.Value("subject"), "verdict": v}))
			return nil
		})
	}
	body := flow.Seq().
		Stage("load", func(ctx context.Context, s *flow.Scope) error {
			it := s.Value("item").(map[string]any)
			s.Set("subject", it["name"])
			s.Set("used", it["used"])
			s.Set("replicas", it["replicas"])
			return nil
		}, flow.Name("Load")).
		Decide("posture", []decide.Rule{
			{When: rules.MustFilter(rules.Where("replicas", rules.OpLt, 1)), Then: "unprotected", Label: "No replica"},
			{When: rules.MustFilter(rules.Where("used", rules.OpGt, 90)), Then: "at-risk", Label: "Nearly full"},
			{When: rules.MustFilter(rules.Where("replicas", rules.OpGte, 2)), Then: "protected", Label: "Two or more replicas"},
		}, decide.Default{Branch: "declined", Label: "No rule reached a verdict"}, []flow.Branch{
			{Name: "unprotected", Steps: row("unprotected")},
			{Name: "at-risk", Steps: row("at-risk")},
			{Name: "protected", Steps: row("protected")},
			{Name: "declined", Steps: row("declined")},
		}, flow.Name("Protection posture"))
	return must(flow.New("fanout").
		Stage("seed", func(ctx context.Context, s *flow.Scope) error {
			s.Set("subjects", subjects)
			return nil
		}, flow.Name("Seed")).
		ForEach("per-subject", flow.ForEach{
			Items: func(ctx context.Context, s *flow.Scope) ([]any, error) {
				return s.Value("subjects").([]any), nil
			},
			MaxBranches: n, Into: "results", Body: body,
		}, flow.Name("Per subject")).
		Build())
}

// Loop is Tick (n = n+1) and a decider Check (labelled rules: continue while
// n < passes) looping back to Tick; scalar state.
func Loop(passes int) *flow.Chart {
	return must(flow.New("loop").
		Stage("seed", func(ctx context.Context, s *flow.Scope) error {
			s.Set("n", 0)
			return nil
		}, flow.Name("Seed")).
		Stage("tick", func(ctx context.Context, s *flow.Scope) error {
			v, _ := s.Get("n")
			s.Set("n", v.(int)+1)
			return nil
		}, flow.Name("Tick")).
		Decide("check", []decide.Rule{
			{When: rules.MustFilter(rules.Where("n", rules.OpLt, passes)), Then: "again", Label: "More to do"},
		}, decide.Default{Branch: "done", Label: "Finished"}, []flow.Branch{
			{Name: "again", Steps: flow.Seq().Loop("back", flow.Loop{To: "tick", Max: passes + 1})},
			{Name: "done", Steps: flow.Seq().Stage("finish", func(ctx context.Context, s *flow.Scope) error {
				s.Set("finished", true)
				return nil
			})},
		}, flow.Name("Check")).
		Build())
}

func must(c *flow.Chart, err error) *flow.Chart {
	if err != nil {
		panic(err)
	}
	return c
}
