package runbook

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/proc"
	"github.com/openrunbook/runbook/internal/secret"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/record"
)

// Command is a process a Go stage runs with [RunCommand]: a program and
// its arguments, or a bash script, as an exec: stage's command: and
// shell: are.
type Command struct {
	// Argv is the program and its arguments, run without a shell.
	Argv []string
	// Shell is a bash script, run with pipefail as an exec: stage's
	// shell: is (so a failing command inside a pipeline fails it). Set
	// Argv or Shell, not both.
	Shell string
	// Env is added to the small environment every exec: stage's process
	// gets (PATH and the like; nothing else of runbook's own environment).
	Env map[string]string
	// Dir is the working folder ("" runbook's own).
	Dir string
	// Stdin is what the process reads on its standard input (none: nil).
	Stdin []byte
	// Timeout bounds the process; 0 leaves only the stage's and the run's
	// bounds, which end it too.
	Timeout time.Duration
	// ExitCodes names the exit codes that are answers, as an exec: stage's
	// exitCodes: does: pgrep's {1: "none"}, grep's {1: "no-match"}, a
	// Nagios check's {0: "ok", 1: "warning", 2: "critical", 3: "unknown"}.
	// The row carries the word (CommandResult.Row.Answer) and such an exit
	// is no script failure in the standing; its label still says what the
	// record says (exit 1 is completed with failure, and OK is false), and
	// "unknown" is an answer that checked nothing. A code not listed, or
	// listed with "", is a failure as ever.
	ExitCodes map[int]string
}

// CommandResult is how a command a Go stage ran ended: what it printed
// and the script row the run filed for it.
type CommandResult struct {
	// Stdout and Stderr are what the process printed, capped as an exec
	// stage's output is, secret inputs masked.
	Stdout, Stderr []byte
	// Truncated is true when the output passed the cap.
	Truncated bool
	// Row is the script row filed for the command: its label (completed,
	// completed-with-failure, outcome-unknown), exit code, and for an
	// unknown outcome, why (timed out, could not be started, cancelled).
	Row label.Row
}

// OK reports whether the command ran to its end and exited 0.
func (r CommandResult) OK() bool { return r.Row.Label == label.Completed }

// RunCommand runs c for the Go stage that s is the scope of, as an exec:
// stage runs its process, and files a script row for it, so the record
// says what the stage ran and how it ended, the label and assessment
// stages read it, and explain shows it — none of which a process started
// with os/exec gets. The process runs in a group of its own, killed with
// what it left behind; its output is capped and secret inputs masked in
// it; under runbook test, or WithStubs, the call is a stub's. Each command
// a stage execution runs is its own row, numbered in the order they ended
// (label.Row.Call): for commands run one after another, the order the
// stage ran them. Call it from the stage's goroutine, or from goroutines
// the stage waits for before it returns: a Scope serves the next stage
// once its own has returned, so a later call files its row under that
// stage, which ran no such command.
//
// As with an exec: stage, a command that exits non-zero, is killed, times
// out or cannot be started is an outcome, in the result, not an error: a
// stage that needs it to have succeeded says so (CommandResult.OK) and
// returns its own error. The error is for a call the run could not make
// as asked: Argv and Shell both set or neither, a secret input's text in
// Argv or in the Shell script (bash is given its script in argv, and ps
// shows argv to every user of the machine: pass a secret in Env or Stdin),
// a shell: with no bash on the machine, a stub that refused it. Such a
// call files its row too (outcome unknown, never started, and why), so a
// stage that drops the error leaves no answer standing over a command
// that never ran.
//
// Outside a runbook run (a stage function in a plain flow chart) it runs
// the process and files no row.
func RunCommand(ctx context.Context, s *flow.Scope, c Command) (CommandResult, error) {
	rs := stateOf(s)
	m := record.Masker(rs.secrets)
	if (len(c.Argv) == 0) == (c.Shell == "") {
		return rs.notRun(s, c, m, causeNotRunArgvOrShell, fmt.Errorf("stage %s: RunCommand takes Argv or Shell, one of them", s.Path()))
	}
	if err := secretInArgv(s, c, rs.secrets); err != nil {
		return rs.notRun(s, c, m, causeNotRunSecret, err)
	}
	spec := proc.Spec{Argv: c.Argv, Shell: c.Shell, Env: c.Env, Dir: c.Dir, Stdin: c.Stdin, Timeout: c.Timeout, Secrets: rs.secrets.Forms()}
	res, err := rs.runProc(ctx, s, spec)
	if err != nil {
		return rs.notRun(s, c, m, causeNotRunStub, err)
	}
	// What the stage writes now rests on what the world answered: each
	// pass of a loop names its own command (flow.Scope.Gathered).
	s.Gathered()
	settlement, facts := execOutcome(res)
	ran := ranOf(c.Argv, c.Shell, c.Dir, res, m)
	notes := callNotes{
		call:  rs.nextCall(s.Path()),
		ran:   ran,
		cause: execCause(res, c.Timeout, ctx, programOf(ran)),
	}
	if res.ExitCode != nil {
		notes.answer = c.ExitCodes[*res.ExitCode]
	}
	row := rs.script(s.Path(), settlement, facts, res.Truncated, notes)
	r := CommandResult{Stdout: res.Stdout, Stderr: res.Stderr, Truncated: res.Truncated, Row: row}
	if errors.Is(res.StartErr, proc.ErrNoBash) {
		// filed, as an exec: stage files it, before the error
		return r, fmt.Errorf("stage %s: a shell script needs bash, and %s; install bash, or give Argv, which runs without a shell", s.Path(), m.Text(res.StartErr.Error()))
	}
	return r, nil
}

// notRun files the row of a call RunCommand refused or could not make
// (never started: outcome unknown, with why) and returns err with it. A
// stage that dropped the error would otherwise leave no trace of the
// command it meant to run, and its answer would stand over nothing.
func (rs *runState) notRun(s *flow.Scope, c Command, m record.Masker, cause string, err error) (CommandResult, error) {
	s.Gathered()
	var ran *label.Ran
	if (len(c.Argv) == 0) != (c.Shell == "") {
		ran = ranOf(c.Argv, c.Shell, c.Dir, proc.Result{}, m) // what it would have run
	}
	row := rs.script(s.Path(), label.Threw, nil, false, callNotes{call: rs.nextCall(s.Path()), ran: ran, cause: cause})
	return CommandResult{Row: row}, err
}

// secretInArgv refuses a command whose argv would hold a secret before any
// process starts, as renderExec does an exec: stage's: the record masks
// it, but ps and /proc/PID/cmdline would not. A Shell script is bash's
// argument, so it is argv too.
func secretInArgv(s *flow.Scope, c Command, secrets secret.Set) error {
	const why = "a secret never goes into argv, where ps shows it; nothing was run; pass it in Env or Stdin instead"
	for i, a := range c.Argv {
		if secrets.Holds(a) {
			return fmt.Errorf("stage %s: RunCommand's argument %d holds a secret: %s", s.Path(), i+1, why)
		}
	}
	if secrets.Holds(c.Shell) {
		return fmt.Errorf("stage %s: RunCommand's shell script holds a secret (bash is given it in its argv): %s", s.Path(), why)
	}
	return nil
}
