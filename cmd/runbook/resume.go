package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/openrunbook/runbook/record"

	"github.com/spf13/cobra"

	"github.com/openrunbook/runbook/runbook"
)

// resumeFlags are resume's flags: exec's output flags, the answer, and who
// gave it.
type resumeFlags struct {
	execFlags
	chart      string
	answeredBy string
	reject     string
}

func newResumeCmd(stdout, stderr io.Writer) *cobra.Command {
	var f resumeFlags
	var executor string
	var t temporalFlags
	cmd := &cobra.Command{
		Use:   "resume RECORD.json --input NAME=VALUE…",
		Short: "Continue a run that paused at an ask: stage, with the answer",
		Long: `resume continues a run that paused to ask a question, from the checkpoint in
its record, in this process: another machine, days later. The answer is given
with --input name=value (one per name the question expects; converted to the
expected type) or --inputs FILE (JSON or YAML). A secret input the person
gave to the paused run is not in its record: give it again with --input
(not with --reject: a rejection runs nothing and needs no secret).

--reject "reason" answers no: the run ends failed at the asking stage with
the reason recorded. --answered-by names who answered (default: the OS user);
the record keeps who and when.

The continued record is written back to RECORD.json, or to --record FILE (the
paused record is then marked resumed; a --record path that plainly cannot be
written is refused before the answer is given, exit 2). A record is resumed
once: a second resume is refused, and of two resumes at once one wins
(RECORD.json.lock). A copy of the paused record is another file: it does not
know that the first was answered, and answering it runs the rest of the run
again (docs/RELIABILITY.md says why this is not refused; for one answer
guaranteed, run the chart with --executor temporal).
The result is printed as exec prints it, with exec's exit codes: --fail-on
exits 3 when a condition holds for the continued run, and --format nagios
exits as the check's state (see runbook exec --help).

A run started with runbook exec --executor temporal waits on Temporal, not
in a record: answer it with --executor temporal --temporal ADDR and the
workflow id runbook exec printed in place of RECORD.json; --input, --inputs,
--reject, --answered-by, --record, --format, --fail-on and --quiet work as
here, the continued run printed and judged as a local one (a --record that
cannot be written is said after the result, exit 1). Refused with
--executor temporal, exit 2: --chart, --timeout, --max-rows, --verbose,
--honesty, --plugin-dir, --allow-chart-path and --format ndjson. A record
saved (--record) while its run waits on Temporal is not resumed without
--executor temporal: its workflow still waits, and answering the record too
would answer the question twice; exit 2, naming the command that answers it
(see docs/SCALE.md).`,
		Example: `  runbook resume approval.paused.json --input approve=true
  runbook resume run.json --reject "not during the freeze" --answered-by ann
  runbook resume --executor temporal --temporal temporal.example:7233 9d1f0c6e-2b7a-4c1e-8f3a-6e5d4c3b2a10 --input approve=true`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, a []string) error {
			if err := checkExecutor(cmd.Flags(), executor, t, resumePassedToTemporal); err != nil {
				return err
			}
			defer keepOnBrokenPipe()()
			if executor == "temporal" {
				return resumeOnTemporal(cmd.Context(), a[0], f, t, stdout, stderr)
			}
			return resumeRecord(cmd.Context(), a[0], f, stdout, stderr)
		},
	}
	cmd.Flags().StringVar(&executor, "executor", "local", "where the paused run waits: "+strings.Join(executors, " or ")+" (docs/SCALE.md)")
	t.register(cmd.Flags())
	f.register(cmd.Flags(), runFlagWords{
		input:   "an answer (or a secret input) as `name=value` (repeatable)",
		inputs:  "a `FILE` of answers, a JSON or YAML object (--input overrides it)",
		record:  "write the continued record to `FILE` instead of back to RECORD.json",
		timeout: "cancel the continued run after this `duration` (exit 1)",
	})
	fl := cmd.Flags()
	fl.StringVar(&f.chart, "chart", "", "the chart `FILE` (default: the one the record names)")
	fl.StringVar(&f.answeredBy, "answered-by", "", "who answered (default: the OS user)")
	fl.StringVar(&f.reject, "reject", "", "reject the question with this `reason`: the run ends failed")
	return cmd
}

// answers checks what resume's flags say alike wherever the run waits (a
// record, or Temporal) and reads the answers they give.
func (f *resumeFlags) answers() (map[string]any, inputsAt, error) {
	if err := f.checkRunFlags(); err != nil {
		return nil, nil, err
	}
	if f.reject != "" && (len(f.inputs) > 0 || f.inputsFile != "") {
		// Secret inputs may still be needed for nothing: a rejection runs nothing.
		return nil, nil, &usageError{err: errors.New("--reject answers the question: give no --input with it"), showUsage: true}
	}
	given, at, err := readInputsAt(f.inputsFile, f.inputs)
	if err != nil {
		return nil, nil, exit(exitUsage, "%v", err)
	}
	return given, at, nil
}

func resumeRecord(ctx context.Context, path string, f resumeFlags, stdout, stderr io.Writer) error {
	given, at, err := f.answers()
	if err != nil {
		return err
	}
	logger := newLogger(stderr)
	honesty, stopHonesty, err := startHonesty(f.plugins, logger)
	if err != nil {
		return err
	}
	defer stopHonesty() // none outlives the command
	unlock, err := runbook.LockRecord(path)
	if err != nil {
		return exit(exitUsage, "%v", err)
	}
	defer unlock()
	rec, problems, err := record.ReadRecord(path)
	if err != nil {
		return exit(exitUsage, "%v", err)
	}
	if len(problems) > 0 {
		printProblems(stderr, problems)
		return exit(exitUsage, "%s: a damaged record is not resumed (runbook explain reads what is sound)", path)
	}
	if waitsOnTemporal(rec.Result) {
		// Its workflow holds the run and still waits: finishing the record
		// here would answer the question a second time, apart from it.
		return exit(exitUsage, "%s: the run waits on Temporal, not in this record; answer it there with: %s", path, clean(resumeCommand(rec.Result.Pause)))
	}
	chart := f.chart
	if chart == "" {
		chart = chartOf(rec, path)
	}
	if chart == "" {
		return exit(exitUsage, "%s: the record names no chart file: give it with --chart FILE", path)
	}
	rb, ok := load(chart, f.allow, stderr)
	if !ok {
		return quietExit(exitUsage)
	}
	if err := f.checkWords(rb); err != nil {
		return err
	}
	warnSecretsInArgv(stderr, rb, f.inputs)
	out := f.record
	if out == "" {
		out = path
	}
	if err := refuseOverRead(out, chart, f.inputsFile); err != nil {
		return err
	}
	if !sameFile(out, path) {
		if err := refuseWaiting(out); err != nil {
			return err
		}
	}

	// A hangup (the terminal closed) is an interrupt too, as in exec.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	execOpts, stream := runOptions(f.execFlags, out, secretsAgain(rb, given, f.execFlags, at), logger, honesty, stdout)
	execOpts, prog := withProgress(execOpts, f.execFlags, stdout, stderr)
	opts := []runbook.ResumeOption{runbook.ResumeExec(execOpts...)}
	if f.answeredBy != "" {
		opts = append(opts, runbook.AnsweredBy(f.answeredBy))
	}
	if f.reject != "" {
		opts = append(opts, runbook.ResumeReject(f.reject))
	}
	res, err := rb.Resume(ctx, rec, given, opts...)
	wasInterrupted := ctx.Err() != nil
	prog.stop()
	if err != nil {
		if printInputErrors(stderr, err, at) {
			return quietExit(exitUsage)
		}
		return exit(exitUsage, "%s: %v", path, err)
	}
	// A record that cannot be written still lets the result be printed
	// (a check must say something), as in exec; the exit code says so.
	var recordErr error
	write := res.WriteRecord
	if !sameFile(out, path) {
		// Another file: written as exec writes, under its folder's lock
		// and never over a question another run left there meanwhile.
		write = func(out string) error {
			_, _, err := writeRunRecord(res, out, false, "", "")
			return err
		}
	}
	if err := write(out); err != nil {
		recordErr = fmt.Errorf("writing the continued record: %w", err)
		unsaved(res.Record)
	} else if out != path {
		last := res.RunRecord().Answers
		by, at := "", time.Now().UTC().Format(time.RFC3339)
		if len(last) > 0 {
			by, at = last[len(last)-1].By, last[len(last)-1].At
		}
		if err := runbook.MarkResumed(path, rec, by, at, out); err != nil {
			recordErr = fmt.Errorf("marking %s resumed: %w", path, err)
		}
	}
	r := res.Record
	check := judge(r, f.execFlags, rb, recordErr)
	code, held := runExit(r, f.execFlags, check, wasInterrupted)
	if err := reportRun(stdout, stderr, r, f.execFlags, stream, rb, check, wasInterrupted); err != nil {
		return err
	}
	if recordErr == nil {
		switch r.Status {
		case "paused":
			fmt.Fprintf(stderr, "run paused again; record written to %s\n", out)
			if why := cannotResume(res); why != "" {
				fmt.Fprintf(stderr, "runbook: warning: this record cannot be resumed: %s\n", why)
			}
		case "completed":
			fmt.Fprintf(stderr, "run resumed; record written to %s\n", out)
		}
	}
	return endRun(stderr, code, held, f.execFlags, recordErr)
}

// cannotResume says why paused run res can never be resumed, cleaned to
// one line without resume's own "resume: ", or "" when it can be (or did
// not pause at an ask). It is said at the pause (exec, resume, the MCP
// result), not when a person has answered.
func cannotResume(res *runbook.Result) string {
	err := res.CannotResume()
	if err == nil {
		return ""
	}
	return clean(strings.TrimPrefix(err.Error(), "resume: "))
}

// chartOf is the chart file a record names: as written, else beside the
// record (a record moved with its chart).
func chartOf(rec *record.RunRecord, recordPath string) string {
	c := rec.Chart
	if c == "" || filepath.IsAbs(c) {
		return c
	}
	if _, err := os.Stat(c); err == nil {
		return c
	}
	beside := filepath.Join(filepath.Dir(recordPath), filepath.Base(c))
	if _, err := os.Stat(beside); err == nil {
		return beside
	}
	return c
}
