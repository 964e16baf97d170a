package gate

import (
	"testing"

	"github.com/openrunbook/runbook/record"
)

// TestRowStateOfARowNotJudged: a row that rests on what the run did not
// judge is no better than UNKNOWN (an "ok" over a host never reached is
// no OK row), and a worse word keeps its own state (a "critical" default
// is still CRITICAL); a row resting on nothing failed keeps its word's.
func TestRowStateOfARowNotJudged(t *testing.T) {
	t.Parallel()
	c := Check{m: Mapping{"stopped": Critical}}
	un := &record.UnjudgedRow{Row: 1, Why: []string{"script per-host~1/state completed with failure, exit 255"}}
	tests := []struct {
		word     string
		unjudged *record.UnjudgedRow
		want     State
	}{
		{"ok", nil, OK},
		{"ok", un, Unknown},
		{"warning", un, Warning},
		{"stopped", un, Critical},
		{"stopped", nil, Critical},
		{"other", un, Unknown},
	}
	for _, tc := range tests {
		if got := c.RowState(tc.word, tc.unjudged); got != tc.want {
			t.Errorf("RowState(%q, unjudged %v) = %v, want %v", tc.word, tc.unjudged != nil, got, tc.want)
		}
	}
}
