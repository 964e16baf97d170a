package runbook_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/rules"
	"github.com/openrunbook/runbook/runbook"
)

// probeYAML is a check an operator writes as a chart: a command that
// fails, whose output the run goes on with.
const probeYAML = `version: 1
runbook: probe
inputs:
  token: {type: string, secret: true, required: true}
stages:
  - id: probe
    exec: {command: [sh, -c, 'echo "up $TOKEN"; exit 3'], envFrom: {TOKEN: token}, into: probe}
`

// secretToken is the charts' one input, a secret.
var secretToken = runbook.WithInputs(chart.InputSpec{Name: "token", Type: "string", Secret: true, Required: true})

// goRunbook builds b and wraps it as a runbook with opts.
func goRunbook(t *testing.T, b *flow.Builder, opts ...runbook.Option) *runbook.Runbook {
	t.Helper()
	fc, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	rb, err := runbook.New(fc, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return rb
}

// runGo runs goRunbook(b, opts) on the inputs in.
func runGo(t *testing.T, b *flow.Builder, in map[string]any, opts ...runbook.Option) *runbook.Result {
	t.Helper()
	res, err := goRunbook(t, b, opts...).Exec(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// probeGo is the same check as a Go stage that runs its commands with
// RunCommand: a first that succeeds, then the one probeYAML runs.
func probeGo(t *testing.T) *runbook.Runbook {
	t.Helper()
	return goRunbook(t, flow.New("probe").Stage("probe", func(ctx context.Context, s *flow.Scope) error {
		first, err := runbook.RunCommand(ctx, s, runbook.Command{Shell: "echo ready"})
		if err != nil || !first.OK() || string(first.Stdout) != "ready\n" {
			t.Errorf("the first command: %+v, %v", first, err)
		}
		token, _ := s.Value("token").(string)
		r, err := runbook.RunCommand(ctx, s, runbook.Command{Argv: []string{"sh", "-c", `echo "up $TOKEN"; exit 3`}, Env: map[string]string{"TOKEN": token}})
		if err != nil {
			return err
		}
		if r.OK() || r.Row.ExitCode == nil || *r.Row.ExitCode != 3 {
			t.Errorf("the second command: %+v, want it to have exited 3", r.Row)
		}
		s.Set("probe", map[string]any{"stdout": string(r.Stdout)})
		return nil
	}), secretToken)
}

// TestGoStageCommandsFileScriptRows: a Go stage that ran a command with
// os/exec filed no script row, so the record did not say what it ran or
// that it failed, and the label and assessment stages could not see it.
// Run with RunCommand, each command is a script row, numbered in the
// order the stage ran them, the failing one labelled and judged as the
// same command in an exec: stage is, the secret it printed masked.
func TestGoStageCommandsFileScriptRows(t *testing.T) {
	const secret = "tok-93c1"
	in := map[string]any{"token": secret}
	yaml := exec(t, parse(t, probeYAML), in)
	res, err := probeGo(t).Exec(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	gorec := res.Record
	if len(gorec.Scripts) != 2 {
		t.Fatalf("the Go stage filed %d script rows, want 2: %+v", len(gorec.Scripts), gorec.Scripts)
	}
	first, last := gorec.Scripts[0], gorec.Scripts[1]
	if first.Call != 1 || first.Label != label.Completed || first.Ran == nil || first.Ran.Shell != "echo ready" {
		t.Errorf("first row %+v, want call 1, completed, the shell script it ran", first)
	}
	want := yaml.Scripts[0]
	if last.Call != 2 || last.Path != want.Path || last.Label != want.Label || last.Words != want.Words || *last.ExitCode != *want.ExitCode {
		t.Errorf("last row %+v, want call 2 and the exec stage's row %+v", last, want)
	}
	if got := strings.Join(last.Ran.Argv, " "); got != strings.Join(want.Ran.Argv, " ") || last.Ran.StdoutTail != "up ***\n" {
		t.Errorf("ran %q, printed %q: want the exec stage's argv, and what it printed with the secret masked", got, last.Ran.StdoutTail)
	}
	if a, b := gorec.Assessment, yaml.Assessment; a == nil || b == nil || a.Standing != b.Standing {
		t.Errorf("standing %+v, want the exec stage's %+v", a, b)
	}
	b, err := json.Marshal(res.RunRecord())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), secret) {
		t.Error("the secret is in the record")
	}
	if _, problems, err := record.ParseRecord(b); err != nil || len(problems) > 0 {
		t.Errorf("the record does not read back: %v %v", err, problems)
	}
}

// TestRunCommandTakesArgvOrShell: a command with neither, or both, is a
// stage error naming the stage, and a row that says it was not run.
func TestRunCommandTakesArgvOrShell(t *testing.T) {
	for _, c := range []runbook.Command{{}, {Argv: []string{"true"}, Shell: "true"}} {
		rec := runGo(t, flow.New("bad").Stage("probe", func(ctx context.Context, s *flow.Scope) error {
			_, err := runbook.RunCommand(ctx, s, c)
			return err
		}), nil).Record
		if rec.Error == nil || !strings.Contains(rec.Error.Message, "probe#") || !strings.Contains(rec.Error.Message, "Argv or Shell") {
			t.Errorf("command %+v: error %+v; want the stage failed, naming it", c, rec.Error)
		}
		if len(rec.Scripts) != 1 || rec.Scripts[0].Label != label.OutcomeUnknown || !strings.HasPrefix(rec.Scripts[0].Cause, "not run: ") {
			t.Errorf("command %+v: scripts %+v; want one row, outcome unknown, not run", c, rec.Scripts)
		}
	}
}

// TestGoStageCommandCutByItsStageTimeout: a Go stage bounded by
// flow.Timeout whose command was still running when the bound passed had
// its row say "cancelled when the run timed out", and the standing line
// repeated it, though the run had no timeout: RunCommand read the stage's
// context ending as the run's. The cause now names the stage's bound.
func TestGoStageCommandCutByItsStageTimeout(t *testing.T) {
	res := runGo(t, flow.New("cut").Stage("probe", func(ctx context.Context, s *flow.Scope) error {
		r, err := runbook.RunCommand(ctx, s, runbook.Command{Argv: []string{"sleep", "5"}})
		if err != nil {
			return err
		}
		if !r.OK() {
			return errors.New("the probe did not finish")
		}
		return nil
	}, flow.Timeout(200*time.Millisecond), flow.ContinueOnError("")), nil)
	rows := res.Record.Scripts
	if len(rows) != 1 || rows[0].Label != label.OutcomeUnknown {
		t.Fatalf("rows %+v, want one outcome-unknown row", rows)
	}
	const want = "cancelled when the stage ran past its timeout (200ms)"
	if rows[0].Cause != want {
		t.Errorf("cause %q, want %q", rows[0].Cause, want)
	}
	if line := res.Record.Assessment.Line; strings.Contains(line, "run timed out") || !strings.Contains(line, want) {
		t.Errorf("standing %q: want it to say %q, and no run timeout", line, want)
	}
}

// TestGoStageSecretNeverReachesArgv: a Go stage that put a secret input in
// RunCommand's Argv, or in the text of its Shell script (which bash is
// given in its argv), started the process with it there, where ps and
// /proc/PID/cmdline show it to every user of the machine, while the
// record showed it masked. An exec: stage refuses that before any process
// starts; so does RunCommand now, naming Env and Stdin; its row says the
// command was not run.
func TestGoStageSecretNeverReachesArgv(t *testing.T) {
	const secret = "tok-5e71c"
	tests := []struct {
		name string
		cmd  func(mark, tok string) runbook.Command
		want string
	}{
		{"argv", func(mark, tok string) runbook.Command {
			return runbook.Command{Argv: []string{"sh", "-c", "touch " + mark, "--token=" + tok}}
		}, "RunCommand's argument 4 holds a secret"},
		{"shell", func(mark, tok string) runbook.Command {
			return runbook.Command{Shell: "touch " + mark + " # " + tok}
		}, "RunCommand's shell script holds a secret"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mark := t.TempDir() + "/ran"
			var got error
			res := runGo(t, flow.New("leak").Stage("probe", func(ctx context.Context, s *flow.Scope) error {
				tok, _ := s.Value("token").(string)
				_, got = runbook.RunCommand(ctx, s, tc.cmd(mark, tok))
				return got
			}), map[string]any{"token": secret}, secretToken)
			if _, err := os.Stat(mark); err == nil {
				t.Fatal("the process ran with the secret in its argv")
			}
			if got == nil || !strings.Contains(got.Error(), tc.want) || !strings.Contains(got.Error(), "Env or Stdin") || strings.Contains(got.Error(), secret) {
				t.Errorf("RunCommand's error %v: want %q, naming Env or Stdin, without the secret", got, tc.want)
			}
			if rows := res.Record.Scripts; len(rows) != 1 || rows[0].Cause != "not run: a secret was in its argv" || res.Record.Status != "failed" {
				t.Errorf("status %s, rows %+v: want the stage failed, and a row saying the command was not run", res.Record.Status, rows)
			}
		})
	}
}

// TestGoStageInALoopNamesThePassThatAnswered: a Go stage polled in a loop
// wrote ready = false from each pass's command with s.Set; the second
// pass's write equalled the first's, so the commit left it out, and the
// loop's second jump was explained by the FIRST pass's command, not the
// one whose answer it acted on (a pass whose command timed out and left a
// default equal to an earlier clean answer was hidden the same way). A
// stage that ran a command gathered what it writes: each write is a fact
// (flow.Scope.SetFact), named to the pass that made it.
func TestGoStageInALoopNamesThePassThatAnswered(t *testing.T) {
	pass := 0
	res := runGo(t, flow.New("poll").Stage("poll", func(ctx context.Context, s *flow.Scope) error {
		pass++
		r, err := runbook.RunCommand(ctx, s, runbook.Command{Shell: fmt.Sprintf("test %d -ge 3", pass)})
		if err != nil {
			return err
		}
		s.Set("ready", r.OK())
		return nil
	}).Loop("again", flow.Loop{To: "poll", While: rules.MustCompile("!ready"), Max: 5}), nil)
	last := ""
	jumps := 0
	for _, c := range res.Run.Log.Commits() {
		switch c.Stage {
		case "poll":
			last = c.Path
		case "again":
			jumps++
			for _, r := range c.Reads {
				if r.Key == "ready" && r.Writer != last {
					t.Errorf("%s read ready from %s, want %s: the pass whose command it acted on", c.Path, r.Writer, last)
				}
			}
		}
	}
	if jumps != 3 {
		t.Errorf("the loop was judged %d times, want 3", jumps)
	}
}

// TestGoStageCommandThatDidNotRunLeavesARow: a Go stage that dropped
// RunCommand's error (r, _ := RunCommand(…), common enough) over a call
// that never ran — a shell script with no bash to run it, a secret in
// argv, neither Argv nor Shell — left no row and no failure: the run
// stood "Consistent with the run's record" over a command that never ran
// and an empty output read as none. Every call now files its row.
func TestGoStageCommandThatDidNotRunLeavesARow(t *testing.T) {
	tests := []struct {
		name  string
		cmd   func(tok string) runbook.Command
		cause string
	}{
		{"no bash", func(string) runbook.Command {
			return runbook.Command{Shell: "echo up", Env: map[string]string{"PATH": t.TempDir()}}
		}, "could not be started: bash not found"},
		{"secret in argv", func(tok string) runbook.Command {
			return runbook.Command{Argv: []string{"echo", tok}}
		}, "not run: a secret was in its argv"},
		{"neither Argv nor Shell", func(string) runbook.Command { return runbook.Command{} },
			"not run: RunCommand takes Argv or Shell, one of them"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := runGo(t, flow.New("dropped").Stage("probe", func(ctx context.Context, s *flow.Scope) error {
				tok, _ := s.Value("token").(string)
				r, _ := runbook.RunCommand(ctx, s, tc.cmd(tok))
				s.Set("out", string(r.Stdout))
				return nil
			}), map[string]any{"token": "tok-40ad"}, secretToken)
			rows := res.Record.Scripts
			if len(rows) != 1 || rows[0].Label != label.OutcomeUnknown || rows[0].Cause != tc.cause || rows[0].Call != 1 {
				t.Fatalf("rows %+v: want one outcome-unknown row, call 1, %q", rows, tc.cause)
			}
			if a := res.Record.Assessment; a.Standing != "not-sure" || !strings.Contains(a.Line, tc.cause) {
				t.Errorf("standing %q %q: want Not sure, saying %q", a.Standing, a.Line, tc.cause)
			}
		})
	}
}

// TestGoStageCommandsAreToldApartInTheStanding: a Go stage that ran two
// different commands, the first failing and the second completing, was
// said "script "probe" completed with failure, exit 1 (1 of its 2 runs;
// the last completed)": the words of a retry that recovered, though no
// command ran again and the failed one's answer was never replaced. A
// stage with several commands of its own names each by its number.
func TestGoStageCommandsAreToldApartInTheStanding(t *testing.T) {
	res := runGo(t, flow.New("two").Stage("probe", func(ctx context.Context, s *flow.Scope) error {
		for _, argv := range [][]string{{"false"}, {"true"}} {
			if _, err := runbook.RunCommand(ctx, s, runbook.Command{Argv: argv}); err != nil {
				return err
			}
		}
		return nil
	}), nil)
	const want = `Not sure — command 1 of script "probe" completed with failure, exit 1.`
	if got := res.Record.Assessment.Line; got != want {
		t.Errorf("standing\n%s\nwant\n%s", got, want)
	}
}

// TestGoStageDeclaresExitCodesAnswers: pgrep exits 1 when no process
// matches, an answer ("none"), not a failure; an exec: stage says so with
// exitCodes:, but a Go stage could not, so every service found down stood
// "Not sure — script … completed with failure, exit 1", and the way out
// a Go author reaches for, `pgrep … || true`, hides pgrep's real failures
// (exit 2, 3) too. Command.ExitCodes declares them as exitCodes: does.
func TestGoStageDeclaresExitCodesAnswers(t *testing.T) {
	tests := []struct {
		name     string
		exit     int
		answer   string
		standing string
	}{
		{"declared", 1, "none", "consistent"},
		{"not declared", 2, "", "not-sure"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := runGo(t, flow.New("pgrep").Stage("probe", func(ctx context.Context, s *flow.Scope) error {
				r, err := runbook.RunCommand(ctx, s, runbook.Command{Argv: []string{"sh", "-c", fmt.Sprintf("exit %d", tc.exit)}, ExitCodes: map[int]string{1: "none"}})
				if err != nil {
					return err
				}
				s.Set("down", r.Row.Answer == "none")
				return nil
			}), nil)
			rows := res.Record.Scripts
			if len(rows) != 1 || rows[0].Answer != tc.answer || rows[0].Label != label.CompletedWithFailure {
				t.Fatalf("rows %+v: want one completed-with-failure row answering %q", rows, tc.answer)
			}
			if a := res.Record.Assessment; string(a.Standing) != tc.standing {
				t.Errorf("standing %q %q, want %s", a.Standing, a.Line, tc.standing)
			}
		})
	}
}

// TestExplainPairsAGoStagesCommandsWithTheirPass: a Go stage polled in a
// loop that ran a command on its first and third passes but not its
// second (a cached answer) left two rows for three executions; explain
// pairs a path's rows with its executions by count, found them unequal,
// and showed no command under any pass, so every answer the stage wrote
// lost the evidence it rested on. A Go stage's row names the execution
// that ran it (label.Row.Execution), so each pass shows its own.
func TestExplainPairsAGoStagesCommandsWithTheirPass(t *testing.T) {
	pass := 0
	res := runGo(t, flow.New("poll").Stage("poll", func(ctx context.Context, s *flow.Scope) error {
		pass++
		s.Set("pass", pass)
		if pass == 2 {
			return nil // the cached answer: no command this pass
		}
		_, err := runbook.RunCommand(ctx, s, runbook.Command{Shell: fmt.Sprintf("echo pass %d", pass)})
		return err
	}).Loop("again", flow.Loop{To: "poll", While: rules.MustCompile("pass < 3"), Max: 5}), nil)
	b, err := json.Marshal(res.RunRecord())
	if err != nil {
		t.Fatal(err)
	}
	rec, problems, err := record.ParseRecord(b)
	if err != nil || len(problems) > 0 {
		t.Fatalf("the record does not read back: %v %v", err, problems)
	}
	x := runbook.NewExplain(rec, nil)
	var got []string
	for j, c := range rec.Log.Commits() {
		if c.Stage != "poll" {
			continue
		}
		shell := "none"
		if row := x.Script(j); row != nil && row.Ran != nil {
			shell = row.Ran.Shell
		}
		got = append(got, c.Path+": "+shell)
	}
	want := []string{"poll#0: echo pass 1", "poll#2: none", "poll#4: echo pass 3"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("explain paired\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
