package runbook_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/rules"
	"github.com/openrunbook/runbook/runbook"
)

// probeResult is what a Go stage's health probe returns: Error is left out
// of the JSON when the probe succeeded.
type probeResult struct {
	Target string `json:"target"`
	Error  string `json:"error,omitempty"`
	Tries  int    `json:"tries,omitzero"`
}

// TestFilterReadsAnOmittedFieldAsAbsent: a Go stage wrote its probe's
// struct, {target: api} in the record (Error empty, omitempty), and the
// filter {probe.error: {exists: true}} read the Go field as present: the
// row said down, Consistent, over a probe that succeeded and a record with
// no error key. A field encoding/json leaves out (omitempty, omitzero) is
// absent to a filter, as it is in the record.
func TestFilterReadsAnOmittedFieldAsAbsent(t *testing.T) {
	t.Parallel()
	mark := func(word string) *flow.Builder {
		return flow.Seq().Stage("mark-"+word, func(ctx context.Context, s *flow.Scope) error {
			s.Set(runbook.VerdictsKey, []any{map[string]any{"subject": "api", "verdict": word}})
			return nil
		})
	}
	for _, tc := range []struct {
		probe probeResult
		when  rules.Condition
		want  string
	}{
		{probeResult{Target: "api"}, rules.Where("probe.error", rules.OpExists, true), "up"},
		{probeResult{Target: "api", Error: "connection refused"}, rules.Where("probe.error", rules.OpExists, true), "down"},
		{probeResult{Target: "api"}, rules.Where("probe.Error", rules.OpExists, true), "up"},
		{probeResult{Target: "api"}, rules.Where("probe.tries", rules.OpExists, true), "up"},
		{probeResult{Target: "api", Tries: 3}, rules.Where("probe.tries", rules.OpExists, true), "down"},
	} {
		fc, err := flow.New("health").
			Stage("probe", func(ctx context.Context, s *flow.Scope) error { s.Set("probe", tc.probe); return nil }).
			Decide("health", []decide.Rule{{When: rules.MustFilter(tc.when), Then: "down", Label: "The probe failed"}},
				decide.Default{Branch: "up", Label: "The probe answered"},
				[]flow.Branch{{Name: "down", Steps: mark("down")}, {Name: "up", Steps: mark("up")}}).Build()
		if err != nil {
			t.Fatal(err)
		}
		rb, err := runbook.New(fc, runbook.WithResult(chart.ResultSpec{Kind: "verdict/health", Decider: "health"}))
		if err != nil {
			t.Fatal(err)
		}
		res, err := rb.Exec(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		state, _ := json.Marshal(res.Record.State["probe"])
		if got := res.Record.Verdicts.Rows[0].Values["verdict"]; got != tc.want {
			t.Errorf("%s over the probe %s: %v, want %s (%s)", tc.when, state, got, tc.want, res.Record.Assessment.Line)
		}
		if !strings.HasPrefix(res.Record.Assessment.Line, "Consistent") {
			t.Errorf("%s over the probe %s: %s", tc.when, state, res.Record.Assessment.Line)
		}
	}
}
