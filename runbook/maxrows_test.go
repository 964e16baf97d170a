package runbook_test

import (
	"context"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/runbook"
)

// TestWithMaxRows: one run's cap replaces result.maxRows for the rows and
// the table alike (the one-number law), leaves the runbook's own cap for
// the next run, and a cap below 1 is refused.
func TestWithMaxRows(t *testing.T) {
	t.Parallel()
	rb := parse(t, `
version: 1
runbook: certs
honesty: []
result: {kind: verdict/expiry, maxRows: 2}
stages:
  - id: rows
    set:
      verdicts: '[{"subject": "a", "verdict": "x"}, {"subject": "b", "verdict": "x"}, {"subject": "c", "verdict": "x"}, {"subject": "d", "verdict": "x"}]'
`)
	tests := []struct {
		name  string
		opts  []runbook.ExecOption
		shown int
	}{
		{"the chart's cap", nil, 2},
		{"raised", []runbook.ExecOption{runbook.WithMaxRows(3)}, 3},
		{"past the rows", []runbook.ExecOption{runbook.WithMaxRows(10)}, 4},
		{"the chart's cap again after an override", nil, 2},
	}
	for _, tc := range tests {
		res, err := rb.Exec(context.Background(), nil, tc.opts...)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		v := res.Record.Verdicts
		if len(v.Rows) != tc.shown || v.RowsShown != tc.shown || strings.Count(v.Table, "\n")-1 != tc.shown || v.RowsTotal != 4 {
			t.Errorf("%s: rows %d, shown %d, table %q, total %d; want %d shown of 4", tc.name, len(v.Rows), v.RowsShown, v.Table, v.RowsTotal, tc.shown)
		}
	}
	for _, n := range []int{0, -1} {
		if _, err := rb.Exec(context.Background(), nil, runbook.WithMaxRows(n)); err == nil || !strings.Contains(err.Error(), "≥ 1") {
			t.Errorf("WithMaxRows(%d): err %v, want a refusal", n, err)
		}
	}
}
