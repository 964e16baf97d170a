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
	// a plugin stage with a 30s bound of its own in a run whose deadline
	// passed: its context's deadline is the run's
	underRun, stop2 := context.WithTimeout(timedOut, 30*time.Second)
	defer stop2()
	// the plugin's RPC gave up at the run's deadline before the context's
	// own timer fired: the error says the deadline, the contexts not yet
	// (under load the test below read "timed out after 2h")
	runLeft, stop4 := context.WithTimeout(ctx, time.Hour)
	defer stop4()
	callLeft, stop5 := context.WithTimeout(runLeft, 2*time.Hour)
	defer stop5()
	// a stage whose own bound passed in a run with time left
	ownBound, stop3 := context.WithDeadline(ctx, time.Unix(1, 0))
	defer stop3()
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"timed out", execCause(proc.Result{Started: true, TimedOut: true}, time.Second, ctx, ""), "timed out after 1s"},
		{"cancelled", execCause(proc.Result{Started: true, Cancelled: true}, time.Second, cancelled, ""), "cancelled"},
		// the run's --timeout, where it read "cancelled" as if someone had stopped it
		{"cancelled by the run's timeout", execCause(proc.Result{Started: true, Cancelled: true}, time.Second, timedOut, ""), "cancelled when the run timed out"},
		{"no such working directory", execCause(proc.Run(ctx, proc.Spec{Argv: []string{"true"}, Dir: "/nonexistent-runbook-13"}), time.Second, ctx, "true"), "could not be started: working directory not found"},
		{"exited: no cause", execCause(proc.Run(ctx, proc.Spec{Argv: []string{"false"}}), time.Second, ctx, "false"), ""},
		// a comma in a flow list made two words of one path, and the row
		// said "not found" of neither
		{"no such program names it", execCause(proc.Run(ctx, proc.Spec{Argv: []string{"/x/a", "b/tool"}}), time.Second, ctx, "/x/a"), "could not be started: /x/a not found"},
		{"a shell's bash is said as before", execCause(proc.Run(ctx, proc.Spec{Argv: []string{"/nonexistent-runbook-13/tool"}}), time.Second, ctx, ""), "could not be started: not found"},
		{"plugin cancelled", pluginCause(cancelled, cancelled, context.Canceled, time.Second), "cancelled"},
		// under --timeout a plugin's row read "timed out after 30s", a bound that never came
		{"plugin stopped by the run's timeout", pluginCause(underRun, timedOut, context.DeadlineExceeded, 30*time.Second), "cancelled when the run timed out"},
		{"plugin without a bound stopped by the run's timeout", pluginCause(timedOut, timedOut, context.DeadlineExceeded, 0), "cancelled when the run timed out"},
		{"plugin's RPC at the run's deadline first", pluginCause(callLeft, runLeft, context.DeadlineExceeded, 2*time.Hour), "cancelled when the run timed out"},
		{"plugin's RPC at its own bound first", pluginCause(runLeft, ctx, context.DeadlineExceeded, time.Hour), "timed out after 1h"},
		{"plugin stopped by its own bound", pluginCause(ownBound, ctx, context.DeadlineExceeded, time.Second), "timed out after 1s"},
		{"plugin on a worker: its bound", pluginCause(ownBound, nil, context.DeadlineExceeded, time.Second), "timed out after 1s"},
		// a worker saw its call cancelled; the workflow knows why
		{"remote plugin cancelled by the run's timeout", pluginCause(timedOut, timedOut, &remotePluginError{msg: "x", cause: "cancelled"}, 0), "cancelled when the run timed out"},
		{"remote plugin's own cause", pluginCause(timedOut, timedOut, &remotePluginError{msg: "x", cause: "timed out after 2s"}, 0), "timed out after 2s"},
		{"remote plugin cancelled", pluginCause(cancelled, cancelled, &remotePluginError{msg: "x", cause: "cancelled"}, 0), "cancelled"},
		{"plugin crashed: not said", pluginCause(ctx, ctx, errors.New("EOF"), time.Second), ""},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: cause %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}
