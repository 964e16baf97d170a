package runbook_test

import (
	"context"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/runbook"
)

// TestMisspeltVerdictKindIsRefused: a result kind a letter off verdict/
// (verdicts/disk, verdict, Verdict/disk) projected no verdict rows, so a Go
// chart whose stage wrote the row {subject: /, verdict: critical} had no
// table, no verdicts in its record and the line Consistent — exit 0 under
// runbook exec, over a row that said critical. New refuses it as the
// loader now does (testdata/bad/result-kind-verdicts.yaml), and a decider
// under a kind that projects no rows (testdata/bad/result-decider-report.yaml);
// a kind that is no verdict kind at all is the chart's own.
func TestMisspeltVerdictKindIsRefused(t *testing.T) {
	t.Parallel()
	fc, err := flow.New("disk").Stage("posture", func(ctx context.Context, s *flow.Scope) error {
		s.Set(runbook.VerdictsKey, []any{map[string]any{"subject": "/", "verdict": "critical"}})
		return nil
	}).Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		spec chart.ResultSpec
		want string // "": New accepts it
	}{
		{chart.ResultSpec{Kind: "verdicts/disk"}, `result kind "verdicts/disk" does not start with verdict/, so the verdict rows would be neither shown nor judged (no table, no Nagios state): write verdict/ and a name, such as verdict/disk`},
		{chart.ResultSpec{Kind: "verdict"}, `such as verdict/posture`},
		{chart.ResultSpec{Kind: "Verdict/disk"}, `such as verdict/disk`},
		{chart.ResultSpec{Kind: "verdict-disk"}, `such as verdict/disk`},
		{chart.ResultSpec{Kind: "report", Decider: "posture"}, `result decider gives the verdict words their meanings, but kind "report" projects no verdict rows`},
		{chart.ResultSpec{Kind: "status/load"}, ""},
		{chart.ResultSpec{Kind: "verdict/disk"}, ""},
	} {
		_, err := runbook.New(fc, runbook.WithResult(tc.spec))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("kind %q: New: %v", tc.spec.Kind, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("kind %q: New: %v\nwant an error saying %s", tc.spec.Kind, err, tc.want)
		}
	}
}
