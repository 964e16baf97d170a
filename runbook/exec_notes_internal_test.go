package runbook

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/openrunbook/runbook/internal/proc"
)

// TestCauseWords: the causes an outcome-unknown row gives, from the same
// facts execOutcome reads, and durations written as a chart writes them.
func TestCauseWords(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		300 * time.Millisecond: "timed out after 300ms",
		2 * time.Second:        "timed out after 2s",
		time.Minute:            "timed out after 1m",
		90 * time.Second:       "timed out after 1m30s",
		2 * time.Hour:          "timed out after 2h",
		90 * time.Minute:       "timed out after 1h30m",
		0:                      "timed out",
	} {
		if got := causeTimedOut(d); got != want {
			t.Errorf("causeTimedOut(%v) = %q, want %q", d, got, want)
		}
	}
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	timedOut, stop := context.WithDeadline(ctx, time.Unix(1, 0))
	defer stop()
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"timed out", execCause(proc.Result{Started: true, TimedOut: true}, time.Second, ctx), "timed out after 1s"},
		{"cancelled", execCause(proc.Result{Started: true, Cancelled: true}, time.Second, cancelled), "cancelled"},
		// the run's --timeout, where it read "cancelled" as if someone had stopped it
		{"cancelled by the run's timeout", execCause(proc.Result{Started: true, Cancelled: true}, time.Second, timedOut), "cancelled when the run timed out"},
		{"no such working directory", execCause(proc.Run(ctx, proc.Spec{Argv: []string{"true"}, Dir: "/nonexistent-runbook-13"}), time.Second, ctx), "could not be started: working directory not found"},
		{"exited: no cause", execCause(proc.Run(ctx, proc.Spec{Argv: []string{"false"}}), time.Second, ctx), ""},
		{"plugin cancelled", pluginCause(cancelled, context.Canceled, time.Second), "cancelled"},
		{"plugin crashed: not said", pluginCause(ctx, errors.New("EOF"), time.Second), ""},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: cause %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}
