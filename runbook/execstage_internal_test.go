package runbook

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/openrunbook/runbook/internal/proc"
	"github.com/openrunbook/runbook/plugins/label"
)

// TestExecOutcome is the settlement rule proc's tests used to hold, now that
// proc returns plain facts: each real process end, through execOutcome, to
// the settlement, facts and label of its script row.
func TestExecOutcome(t *testing.T) {
	t.Parallel()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	ptr := func(n int) *int { return &n }
	yes, no := true, false
	tests := []struct {
		name       string
		ctx        context.Context
		spec       proc.Spec
		settlement label.Settlement
		facts      *label.Facts
		label      label.Label
	}{
		{"exit 0", nil, proc.Spec{Shell: "echo ok"},
			label.Returned, &label.Facts{OK: &yes, ExitCode: ptr(0)}, label.Completed},
		{"exit 7", nil, proc.Spec{Shell: "exit 7"},
			label.Returned, &label.Facts{OK: &no, ExitCode: ptr(7)}, label.CompletedWithFailure},
		{"killed by a signal the runner did not send", nil, proc.Spec{Shell: "kill -9 $$"},
			label.Returned, &label.Facts{OK: &no, TerminatedBy: "SIGKILL"}, label.ReportedFailure},
		{"could not be started", nil, proc.Spec{Argv: []string{"runbook-no-such-command"}},
			label.Threw, nil, label.OutcomeUnknown},
		{"timeout", nil, proc.Spec{Argv: []string{"sleep", "10"}, Timeout: 100 * time.Millisecond},
			label.Threw, nil, label.OutcomeUnknown},
		{"ctx done before start is not entered", cancelled, proc.Spec{Shell: "echo should not run"},
			label.NotEntered, nil, label.Of(label.NotEntered, nil).Label},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := tc.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			s, f := execOutcome(proc.Run(ctx, tc.spec))
			if s != tc.settlement || showFacts(f) != showFacts(tc.facts) {
				t.Errorf("got %q %s, want %q %s", s, showFacts(f), tc.settlement, showFacts(tc.facts))
			}
			if got := label.Of(s, f).Label; got != tc.label {
				t.Errorf("label = %q, want %q", got, tc.label)
			}
		})
	}
	t.Run("cancelled while running", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		if s, f := execOutcome(proc.Run(ctx, proc.Spec{Argv: []string{"sleep", "10"}})); s != label.Threw || f != nil {
			t.Errorf("got %q %s, want threw and no facts", s, showFacts(f))
		}
	})
}

func showFacts(f *label.Facts) string {
	if f == nil {
		return "<nil>"
	}
	s := "{"
	if f.OK != nil {
		s += "ok:" + strconv.FormatBool(*f.OK) + " "
	}
	if f.ExitCode != nil {
		s += "exitCode:" + strconv.Itoa(*f.ExitCode) + " "
	}
	return s + "terminatedBy:" + f.TerminatedBy + "}"
}
