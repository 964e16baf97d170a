package runbook

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/proc"
	"github.com/openrunbook/runbook/plugins/host"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/record"
)

// callNotes is what the runner knows of one call beyond the facts its label
// is read from: what ran, the chart's answer word for the exit code, and why
// an unknown outcome is unknown. The label stage never sees them, so they
// can never change a label; rs.script lays them on the row it files.
type callNotes struct {
	ran *label.Ran
	// attempt is the row's attempt within its execution (label.Row.Attempt)
	attempt int
	// call is which of a Go stage's own commands the row is (label.Row.Call)
	call   int
	answer string // only on a row with an exit code
	cause  string // only on an outcome-unknown row
	// notAnswer: why a declared code is no answer here (label.Row.NotAnswer)
	notAnswer string
}

// The words of an outcome-unknown row's cause (label.Row.Cause): the one
// home of them for exec and plugin stages alike. The assessment's clause
// and explain read them as written.
const (
	causeCancelled = "cancelled"
	// causeRunTimedOut: cancelled because the run's timeout passed
	// (exec --timeout), where the stage's own bound is causeTimedOut's.
	causeRunTimedOut = "cancelled when the run timed out"
	causeNotStarted  = "could not be started"
	// A Go stage's command RunCommand did not run (notRun): the call was
	// not one it could make as asked.
	causeNotRunArgvOrShell = "not run: RunCommand takes Argv or Shell, one of them"
	causeNotRunSecret      = "not run: a secret was in its argv"
	causeNotRunStub        = "not run: its stub refused it"
	// causeWorkerLost: the process ran elsewhere, and what ran it was lost
	// before it said how the process ended (LostFacts).
	causeWorkerLost = "its worker was lost"
)

// causeTimedOut is the cause of a call the runner stopped at its bound.
func causeTimedOut(d time.Duration) string {
	if d <= 0 {
		return "timed out"
	}
	return "timed out after " + shortDuration(d)
}

// shortDuration is d as a chart would write it: 300ms, 2s, 1m, 1m30s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// causeOfStart is why a program could not be started, in the words of a
// cause: the kind of failure, never the paths or the PATH searched (those
// are in the stage's error and `into.error`).
//
//	the start error                      cause
//	bash missing for shell:              could not be started: bash not found
//	not found (PATH, a path, #! line)    could not be started: not found
//	permission denied                    could not be started: permission denied
//	exec format error                    could not be started: not an executable
//	working directory                    could not be started: working directory not found / not a directory
//	anything else                        could not be started
func causeOfStart(err error, program string) string {
	switch {
	case errors.Is(err, proc.ErrNoBash):
		return causeNotStarted + ": bash not found"
	case errors.Is(err, proc.ErrWorkDir) && errors.Is(err, fs.ErrNotExist):
		return causeNotStarted + ": working directory not found"
	case errors.Is(err, proc.ErrWorkDir):
		return causeNotStarted + ": working directory is not a directory"
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		if program != "" {
			// which of the words was taken for the program: a comma in a
			// flow list, [/x/a,b/tool], made two words of one path
			return causeNotStarted + ": " + program + " not found"
		}
		return causeNotStarted + ": not found"
	case errors.Is(err, fs.ErrPermission):
		return causeNotStarted + ": permission denied"
	case errors.Is(err, syscall.ENOEXEC):
		return causeNotStarted + ": not an executable"
	}
	return causeNotStarted
}

// execCause is why an exec stage's outcome is unknown, read from the same
// facts execOutcome reads, in its order. "" when the process's end was seen
// (its row is not outcome-unknown). run is the context the process ran
// under: an exec: stage's is the run's; a Go stage's (RunCommand) may end
// at the stage's own flow.Timeout, which its cause names.
func execCause(r proc.Result, timeout time.Duration, run context.Context, program string) string {
	switch {
	case r.TimedOut:
		return causeTimedOut(timeout)
	case r.Cancelled && errors.Is(context.Cause(run), flow.ErrStageTimeout):
		// a Go stage's own bound (flow.Timeout) ended the context its
		// RunCommand ran under: the run's has not passed
		return causeCancelled + " when " + context.Cause(run).Error()
	case r.Cancelled && errors.Is(run.Err(), context.DeadlineExceeded):
		// the run's own timeout, not the stage's: the run stopped it
		return causeRunTimedOut
	case r.Cancelled:
		return causeCancelled
	case !r.Started && r.StartErr != nil:
		return causeOfStart(r.StartErr, program)
	case errors.Is(r.StartErr, errWorkerLost):
		return causeWorkerLost
	case r.StartErr != nil:
		return "its end could not be read"
	}
	return ""
}

// pluginCause is why a plugin call's outcome is unknown, where the host's
// error says: its time ran out, the run's did, the run was cancelled, or
// the plugin could not be started, its process exited during the call
// (or before it). "" when the error says none of these (a garbled
// answer: the stage's error names it). ctx is the
// call's context (the stage's timeout on run's), run the run's; nil where
// the call runs apart from any run (a worker's), whose deadline is the
// stage's alone.
func pluginCause(ctx, run context.Context, err error, timeout time.Duration) string {
	var he *host.Error
	var remote *remotePluginError
	var exited *host.ExitedError
	deadline := errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded)
	switch {
	case errors.As(err, &remote) && remote.cause != causeCancelled:
		return remote.cause // its cause was read where it ran
	case remote != nil:
		// a worker saw only that its call was cancelled; the run knows why
		if run != nil && errors.Is(run.Err(), context.DeadlineExceeded) {
			return causeRunTimedOut
		}
		return remote.cause
	case deadline && atRunDeadline(ctx, run):
		// the run's --timeout, not the stage's own bound: saying "timed
		// out after" the stage's bound named a bound that never came
		return causeRunTimedOut
	case deadline:
		return causeTimedOut(timeout)
	case errors.Is(err, context.Canceled) || errors.Is(ctx.Err(), context.Canceled):
		return causeCancelled
	case errors.As(err, &he) && he.Op == "start":
		return causeOfStart(he.Err, "")
	case errors.As(err, &exited):
		return exited.Cause()
	case errors.Is(err, fs.ErrNotExist): // host.Resolve: no such plugin
		return causeOfStart(err, "")
	}
	return ""
}

// atRunDeadline says a call's deadline was the run's, not a bound of the
// stage's own (which makes it earlier, never later). It reads the
// deadlines, not whether the run's context has ended yet: the plugin's
// RPC gives up at the deadline a hair before the context's own timer
// fires, and under load the call's error came back first.
func atRunDeadline(ctx, run context.Context) bool {
	if run == nil {
		return false
	}
	runs, ok := run.Deadline()
	if !ok {
		return false
	}
	own, _ := ctx.Deadline()
	return own.Equal(runs)
}

// programOf is the program a process was started as (its argv's first
// word, masked as its row keeps it), "" for a shell: script, whose
// program is bash.
func programOf(ran *label.Ran) string {
	if ran == nil || len(ran.Argv) == 0 {
		return ""
	}
	return ran.Argv[0]
}

// ranOf is what an exec stage ran, every part masked by the run's one
// masker: proc already masked the tails as it read them, and masking them
// again costs little and keeps the record's rule in one place.
func ranOf(argv []string, shell, dir string, r proc.Result, m record.Masker) *label.Ran {
	return m.Ran(&label.Ran{
		Argv:       slices.Clone(argv),
		Shell:      shell,
		Dir:        dir,
		StdoutTail: proc.Text(r.StdoutTail),
		StderrTail: proc.Text(r.StderrTail),
	})
}

// noBash is the stage's error when shell: cannot run because bash is
// missing: where the chart said shell:, why bash, and how to do without.
func noBash(st *chart.StageSpec, err error, m record.Masker) error {
	where := ""
	if p := st.Exec.ShellPos; p.Line > 0 {
		where = fmt.Sprintf("%s:%d:%d: ", p.File, p.Line, p.Col)
	}
	why := err.Error()
	if inner := errors.Unwrap(err); inner != nil {
		why = inner.Error() // without proc's `exec "bash": ` prefix
	}
	return fmt.Errorf("%sstage %q: shell: needs bash (it runs the script with pipefail, so a failing command inside a pipeline fails the stage), and %s; install bash, or write the stage as command: [program, args…], which runs without a shell", where, st.ID, m.Text(why))
}
