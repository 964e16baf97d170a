package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/gate"
	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/internal/suggest"
	"github.com/openrunbook/runbook/record"

	"github.com/openrunbook/runbook/chart"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/runbook"
)

// execFlags are exec's flags.
type execFlags struct {
	inputs     []string // --input k=v, in the order given
	inputsFile string   // --inputs FILE (JSON or YAML)
	format     string
	record     string
	timeout    time.Duration
	verbose    bool
	quiet      bool        // -q: text is the table and the standing line; no progress
	maxRows    rowCap      // --max-rows N
	plugins    pluginFlags // plugins.go
	allow      []string    // --allow-chart-path DIR
	failOn     []string    // --fail-on COND[,COND…], as given
	conds      []gate.Condition
}

// formats are the --format values exec accepts.
var formats = []string{"text", "json", "ndjson", "markdown", "nagios"}

func newExecCmd(stdout, stderr io.Writer) *cobra.Command {
	var f execFlags
	var executor string
	var t temporalFlags
	cmd := &cobra.Command{
		Use:   "exec CHART.yaml",
		Short: "Run a chart and print its result",
		Long: `exec runs the chart and prints its result on stdout.

Inputs: --input name=value (repeatable, once a name; the value is converted
to the input's declared type) and --inputs FILE (an object of inputs, JSON or
YAML); --input overrides the file, and a name given by two --input is
refused. Give a secret input in the file: a command line
is visible to ps.

CHART may be - : the chart is read from stdin (errors name <stdin>:L:C) and
its relative paths (subflow charts, read: files) resolve from the working
directory.

Formats: text (default, for a person), json (the result record), ndjson (the
run's events as they happen, then {"event":"run.end","result":{…}}), markdown
(the text form as a document), nagios (a Nagios/Icinga/Sensu check: the line
NAME STATE - SUMMARY | PERFDATA, the rows and the standing line; each verdict
word's state comes from the chart's result.nagios, else the words ok,
warning, critical, unknown are their own state and any other is UNKNOWN).

Colour and the progress line go only to a terminal; NO_COLOR (not empty)
or TERM=dumb turns them off.

Exit codes: 0 completed (or paused at an ask: — the record is written to
--record, else ./<runbook>.paused.json, or ./<runbook>.paused-2.json (-3, …)
when that one holds an earlier question not yet answered, and the resume
command is printed),
1 failed or cancelled by --timeout, or the --record file could not be
written after the run (the result is still printed; a paused run then prints
no resume command: there is no record to resume), or stdout could not be
written (a reader that went away: the run goes on and its record is written),
2 bad usage, a chart that does not load, bad inputs, or a --record path that
plainly cannot be written (a missing or read-only directory, a directory, a
pipe or a device; - or /dev/stdout: --format json prints the result on
stdout), that names the chart or the --inputs file, or that holds a paused
run not yet answered: refused before anything runs, 3 the run completed (or paused) and a
--fail-on condition holds, 130 interrupted (the partial record is still
written when --record was given).
With --format nagios the exit code is the check's state: 0 OK, 1 WARNING,
2 CRITICAL, 3 UNKNOWN (a run that failed, was cancelled or paused is UNKNOWN,
and so, at least, is one whose script gave no answer: not found, timed out,
killed, a failure its exitCodes: do not declare; or that left a subject
unjudged: onError: continue past a failure, items past maxBranches, output
withheld, a line its parse mode could not read); bad usage, a chart that does not load and bad inputs
exit 3 too, with "runbook UNKNOWN - " and the error as the status line (the
plugin API's invalid arguments; Nagios reads 2 as CRITICAL).

--fail-on conditions: not-sure, ask, not-assessed, consistent (the standing),
check-failed (an answer check failed), verdict=WORD[|WORD…] (a row, shown or
not, has one of the words, or none has and the rows do not rule them out: a
script gave no answer, a subject was left unjudged, a rule could not be
evaluated, an answer check failed or the run paused, as under --format
nagios's UNKNOWN; a word no row of the chart can have, when every verdict
stage writes a constant word or an exec stage's declared answer (d.status
under exitCodes:), is bad usage, exit 2); several joined by commas or given
again.

Executors: local (default) runs the chart in this process. temporal runs it
as a Temporal workflow whose commands run on workers (runbook worker) on the
task queue: give --temporal host:port, and --task-queue and --namespace when
not runbook and default. The run waits for a worker on that task queue: with
none polling it, it waits (for ever) until one starts. It hands off to
runbook-temporal (beside the runbook executable, else on PATH; build it with
(cd temporal && go build -o ~/bin/runbook-temporal ./cmd/runbook-temporal)),
and prints and judges the run's record as a local run's: --input, --inputs,
--record, --format, --fail-on, --max-rows, --verbose, --quiet and --timeout
work as above, with the same exit codes (2 also when no server answers or
runbook-temporal is not found; a --record that cannot be written is said
after the result, exit 1). Refused with --executor temporal, exit 2, before
anything runs: --honesty, --plugin-dir, --allow-chart-path, --format ndjson
and a chart from stdin (-). A run that asks waits on Temporal: stderr says
the runbook resume command, with the workflow id, that answers it (with
--quiet too), and the text shows it. If runbook is killed, runbook-temporal
gets SIGTERM (Linux only). See docs/SCALE.md.`,
		Example: `  runbook exec disk.yaml --input host=db-1
  runbook exec disk.yaml --inputs inputs.json --format json --record run.json
  runbook exec disk.yaml --fail-on verdict=at-risk,not-sure     # a CI gate: exit 3
  runbook exec disk.yaml --format nagios                        # a Nagios check
  runbook exec disk.yaml --executor temporal --temporal temporal.example:7233`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, a []string) error {
			if err := checkExecutor(cmd.Flags(), executor, t, passedToTemporal); err != nil {
				return err
			}
			defer keepOnBrokenPipe()()
			if executor == "temporal" {
				return execOnTemporal(cmd.Context(), a[0], f, t, stdout, stderr)
			}
			return execChart(cmd.Context(), a[0], f, stdout, stderr)
		},
	}
	cmd.Flags().StringVar(&executor, "executor", "local", "where the run runs: "+strings.Join(executors, " or ")+" (docs/SCALE.md)")
	t.register(cmd.Flags())
	f.register(cmd.Flags(), runFlagWords{
		input:   "an input as `name=value` (repeatable)",
		inputs:  "a `FILE` of inputs, a JSON or YAML object (--input overrides it)",
		record:  "write the full run record to `FILE` (for explain and resume)",
		timeout: "cancel the run after this `duration` (exit 1); 0, the default, is no limit",
	})
	return cmd
}

// rowCap is --max-rows: a whole number, and whether it was given (the
// chart's result.maxRows holds when not).
type rowCap struct {
	n   int
	set bool
}

func (c *rowCap) String() string {
	if !c.set {
		return ""
	}
	return strconv.Itoa(c.n)
}

func (c *rowCap) Set(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return errors.New("want a whole number of rows ≥ 1")
	}
	c.n, c.set = n, true
	return nil
}

func (c *rowCap) Type() string { return "N" }

// runFlagWords are the help words of the flags exec and resume share that
// mean a little differently in each.
type runFlagWords struct{ input, inputs, record, timeout string }

// register declares the flags every command that runs a chart takes, so
// exec and resume cannot drift apart.
func (f *execFlags) register(fl *pflag.FlagSet, w runFlagWords) {
	fl.StringArrayVar(&f.inputs, "input", nil, w.input)
	fl.StringVar(&f.inputsFile, "inputs", "", w.inputs)
	fl.StringVar(&f.format, "format", "text", "output `format`: "+strings.Join(formats, ", "))
	fl.StringVar(&f.record, "record", "", w.record)
	fl.DurationVar(&f.timeout, "timeout", 0, w.timeout)
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "also print the run's narrative")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "text prints only the verdict table and the standing line; no progress")
	fl.Var(&f.maxRows, "max-rows", "show at most `N` verdict rows this run, in the rows and the table alike (overrides result.maxRows)")
	fl.StringArrayVar(&f.failOn, "fail-on", nil, "exit 3 when one of these `conditions` holds: "+strings.Join(gate.Conditions(), ", ")+" (comma-separated, repeatable)")
	addPluginFlags(fl, &f.plugins)
	allowChartPath(fl, &f.allow)
}

// checkRunFlags refuses what exec and resume refuse alike: an unknown
// format, a --record path that plainly cannot be written
// (record.CheckWritable), and --fail-on conditions that do not read or
// that clash with the nagios format. It fills f.conds.
func (f *execFlags) checkRunFlags() error {
	if !contains(formats, f.format) {
		msg := fmt.Sprintf("--format %q: want one of %s", f.format, strings.Join(formats, ", "))
		if near := suggest.Nearest(f.format, formats); near != "" {
			msg = fmt.Sprintf("--format %q: did you mean %q? (formats: %s)", f.format, near, strings.Join(formats, ", "))
		}
		return &usageError{err: errors.New(msg), showUsage: true}
	}
	if f.maxRows.set && f.maxRows.n < 1 {
		return &usageError{err: fmt.Errorf("--max-rows %d: want a whole number of rows ≥ 1 (the rows and the table show that many; the count of the rest is said)", f.maxRows.n)}
	}
	if f.quiet && f.verbose {
		return &usageError{err: errors.New("--quiet and --verbose: give one or the other")}
	}
	if f.record == stdinChart {
		// A chart "-" is stdin, so "-" reads as stdout; it was a file
		// named "-" in the working directory, with nothing said.
		return &usageError{err: errors.New("--record -: the record is written to a file, not to stdout; give the path of a file (--format json prints the run's result on stdout; a file named - is ./-); nothing was run")}
	}
	if f.record != "" {
		// Refused before the run, not after it: a run whose record has
		// nowhere to go has already run its commands, and one that paused
		// would have no record to resume from.
		if err := record.CheckWritable(f.record); err != nil {
			return &usageError{err: fmt.Errorf("--record %s: %v; nothing was run", f.record, err)}
		}
	}
	conds, err := gate.ParseConditions(f.failOn)
	if err != nil {
		return &usageError{err: err}
	}
	if len(conds) > 0 && f.format == "nagios" {
		// Both would set the exit code, and under nagios 3 is UNKNOWN.
		return &usageError{err: errors.New("--fail-on with --format nagios: a check's exit code is its state; give one or the other (map verdict words to states with result.nagios in the chart)")}
	}
	f.conds = conds
	return nil
}

// checkWords refuses, before anything runs, a --fail-on condition that can
// never hold for the chart (gate.CheckWords: a verdict word no row can
// have, check-failed without result.checks).
func (f execFlags) checkWords(rb *runbook.Runbook) error {
	if err := gate.CheckWords(f.conds, rb.Spec()); err != nil {
		return &usageError{err: err}
	}
	return nil
}

// runExit is the exit code of a run that ended (cli.md): under --format
// nagios the check's state; else 130 interrupted, 1 failed or cancelled,
// 3 a --fail-on condition holds (held lists them), 0. A record that could
// not be written is the caller's to add.
func runExit(rec *record.Record, f execFlags, check gate.Check, interrupted bool) (code int, held []string) {
	if f.format == "nagios" {
		return int(check.State), nil
	}
	switch rec.Status {
	case "failed", "cancelled":
		if interrupted {
			return exitInterrupted, nil
		}
		return exitFailed, nil
	}
	if held = gate.Held(rec, f.conds); len(held) > 0 {
		return exitFailOn, held
	}
	return exitOK, nil
}

// judge is the record as a check when the format is nagios (with a record
// that could not be written as a note), else the zero Check.
func judge(rec *record.Record, f execFlags, rb *runbook.Runbook, recordErr error) gate.Check {
	if f.format != "nagios" {
		return gate.Check{}
	}
	c := gate.CheckOf(rb.Spec(), rec)
	if recordErr != nil {
		c.Raise(gate.Unknown, "UNKNOWN: "+recordErr.Error())
	}
	return c
}

// endRun is how exec and resume end after the result is printed: the
// --fail-on conditions that held said on stderr, then the exit code,
// with a record that could not be written failing a run that did not.
func endRun(stderr io.Writer, code int, held []string, f execFlags, recordErr error) error {
	if len(held) > 0 {
		fmt.Fprintf(stderr, "runbook: --fail-on: %s (exit %d)\n", strings.Join(held, ", "), exitFailOn)
	}
	if recordErr != nil {
		if f.format != "nagios" && (code == exitOK || code == exitFailOn) {
			code = exitFailed // the run broke: 1 beats "the answer is bad"
		}
		return exit(code, "%v", recordErr)
	}
	if code != exitOK {
		return quietExit(code)
	}
	return nil
}

// runOptions turns the flags exec and resume share into run options: the
// logger, the resume command a pause prints (for the record at
// recordPath, with again: secretsAgain), the timeout, the narrative, the
// plugin flags with the honesty stages h, and the ndjson stream when that
// is the format.
func runOptions(f execFlags, recordPath, again string, logger *slog.Logger, h runbook.Honesty, stdout io.Writer) ([]runbook.ExecOption, *ndjsonStream) {
	opts := []runbook.ExecOption{
		runbook.WithLogger(logger),
		runbook.WithResumeCommand("runbook resume " + shellQuote(recordPath) + again),
	}
	if f.timeout > 0 {
		opts = append(opts, runbook.WithTimeout(f.timeout))
	}
	if f.verbose {
		opts = append(opts, runbook.WithNarrative())
	}
	if f.maxRows.set {
		opts = append(opts, runbook.WithMaxRows(f.maxRows.n))
	}
	opts = append(opts, pluginOptions(f.plugins, h)...)
	var stream *ndjsonStream
	if f.format == "ndjson" {
		stream = &ndjsonStream{nd: recorder.NewNDJSON(stdout)}
		opts = append(opts, runbook.WithRecorders(stream))
	}
	return opts, stream
}

// newLogger is where exec and resume send diagnostics: stderr, as text,
// each plugin's lines up to pluginLines (cappedPlugins).
func newLogger(stderr io.Writer) *slog.Logger {
	return slog.New(&cappedPlugins{Handler: slog.NewTextHandler(stderr, nil), seen: &pluginCounts{n: map[string]int{}}})
}

// pluginLines is how many lines of one plugin's stderr (and stray stdout)
// the CLI passes on in one run. A plugin that logs without end otherwise
// made the command's own stderr its size: a million lines were 170 MB
// under --format nagios, which a monitoring core reads whole, and a CI
// log buried the run's own words. The lines past it are not shown; a
// plugin's error quotes its last lines (host.Error).
const pluginLines = 200

// cappedPlugins is a slog.Handler that passes on the first pluginLines
// records of each plugin (the records plugins/host logs with a "plugin"
// attribute), then one saying the rest are not shown, then none.
type cappedPlugins struct {
	slog.Handler
	seen *pluginCounts
}

type pluginCounts struct {
	mu sync.Mutex
	n  map[string]int
}

func (h *cappedPlugins) Handle(ctx context.Context, r slog.Record) error {
	name := ""
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "plugin" {
			name = a.Value.String()
			return false
		}
		return true
	})
	if name == "" {
		return h.Handler.Handle(ctx, r)
	}
	h.seen.mu.Lock()
	h.seen.n[name]++
	n := h.seen.n[name]
	h.seen.mu.Unlock()
	switch {
	case n == pluginLines+1:
		cut := slog.NewRecord(r.Time, slog.LevelWarn, fmt.Sprintf("plugin %s wrote more than %d lines: the rest of its output this run is not shown (an error of it quotes its last lines)", name, pluginLines), 0)
		cut.AddAttrs(slog.String("plugin", name))
		return h.Handler.Handle(ctx, cut)
	case n > pluginLines:
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

func (h *cappedPlugins) WithAttrs(as []slog.Attr) slog.Handler {
	return &cappedPlugins{Handler: h.Handler.WithAttrs(as), seen: h.seen}
}

func (h *cappedPlugins) WithGroup(name string) slog.Handler {
	return &cappedPlugins{Handler: h.Handler.WithGroup(name), seen: h.seen}
}

// printInputErrors prints each refused input on its own line, at the
// FILE:LINE:COL where an --inputs file gave it, and says whether err was
// that kind of refusal.
func printInputErrors(stderr io.Writer, err error, at inputsAt) bool {
	ies, ok := inputErrors(err)
	for _, ie := range ies {
		where := ""
		if pos, ok := at[ie.Input]; ok {
			where = "--inputs " + pos + ": "
		}
		fmt.Fprintf(stderr, "runbook: %s%v%s\n", where, ie, inputFix(ie))
	}
	return ok
}

// inputFix words a refused input's fix as this command line takes it. A
// secret to give again is given in an --inputs file: on the command line
// it would sit in runbook's argv, where ps shows it.
func inputFix(ie *runbook.InputError) string {
	switch ie.Fix {
	case runbook.FixGive:
		return fmt.Sprintf("; give it with --input %s=…", ie.Input)
	case runbook.FixGiveAgain:
		return fmt.Sprintf("; give it again in an --inputs file only you can read ({%q: …}), as --input %s=… would put it in runbook's argv, where ps shows it", ie.Input, ie.Input)
	}
	return ""
}

// warnSecretsInArgv warns, once each, of a secret input given on the
// command line (--input NAME=…): runbook's own argv holds it while the
// run lasts, and ps shows it to every user of the host, though the run
// masks it everywhere it writes. A FreeRADIUS check given its shared
// secret so ran with no word of it (wave-radius); an --inputs file only
// the caller can read keeps it out of argv. The value is never printed.
func warnSecretsInArgv(stderr io.Writer, rb *runbook.Runbook, given []string) {
	for _, in := range rb.Inputs() {
		if in.Secret && slices.ContainsFunc(given, func(p string) bool { return strings.HasPrefix(p, in.Name+"=") }) {
			fmt.Fprintf(stderr, "runbook: warning: --input %s=… puts the secret input %q in runbook's own argv, where ps shows it to every user of the host while the run lasts; give it in an --inputs file only you can read ({%q: …})\n", in.Name, in.Name, in.Name)
		}
	}
}

// secretsAgain is what a resume command adds for the secret inputs a run
// was given: the record keeps no secret, so a resume is refused until each
// is given again, and the command a pause printed named only the answers.
// It names the --inputs file they came in, when every one came in it and
// it holds nothing else, or a file to hold them; "" when the run was
// given no secret.
func secretsAgain(rb *runbook.Runbook, given map[string]any, f execFlags, at inputsAt) string {
	var names []string
	fromFile := f.inputsFile != ""
	for _, in := range rb.Inputs() {
		if _, ok := given[in.Name]; !ok || !in.Secret {
			continue
		}
		names = append(names, in.Name)
		if _, inFile := at[in.Name]; !inFile || slices.ContainsFunc(f.inputs, func(p string) bool { return strings.HasPrefix(p, in.Name+"=") }) {
			fromFile = false
		}
	}
	switch {
	case len(names) == 0:
		return ""
	case fromFile && onlyInputs(f.inputsFile, names):
		return " --inputs " + shellQuote(f.inputsFile)
	}
	return " --inputs SECRETS.json"
}

// onlyInputs says whether the --inputs file gives none but these inputs.
// A resume takes answers and the secret inputs again, nothing else: the
// file the run was given, holding a host beside the token, made the
// printed resume refused (`input "host": is not an answer the question
// expects`).
func onlyInputs(file string, names []string) bool {
	given, _, err := readInputsAt(file, nil)
	if err != nil {
		return false
	}
	for k := range given {
		if !slices.Contains(names, k) {
			return false
		}
	}
	return true
}

// oneInterruption is how long after the first signal a second is taken
// as the same interruption, not as "again to quit at once": `timeout`
// and a kill of runbook's process group send two within microseconds,
// and the second ended runbook without its record; a person pressing
// Ctrl-C again is slower than this.
const oneInterruption = 500 * time.Millisecond

// execChart is `runbook exec`.
func execChart(ctx context.Context, path string, f execFlags, stdout, stderr io.Writer) error {
	if err := f.checkRunFlags(); err != nil {
		return err
	}
	if f.timeout < 0 {
		return &usageError{err: fmt.Errorf("--timeout %s: want a positive duration", f.timeout), showUsage: true}
	}
	if err := refuseOverRead(f.record, path, f.inputsFile); err != nil {
		return err
	}
	given, at, err := readInputsAt(f.inputsFile, f.inputs)
	if err != nil {
		return exit(exitUsage, "%v", err)
	}
	logger := newLogger(stderr)
	honesty, stopHonesty, err := startHonesty(f.plugins, logger)
	if err != nil {
		return err
	}
	defer stopHonesty() // none outlives the command
	rb, ok := load(path, f.allow, stderr)
	if !ok {
		return quietExit(exitUsage)
	}
	if err := f.checkWords(rb); err != nil {
		return err
	}
	warnSecretsInArgv(stderr, rb, f.inputs)

	// The record a paused run must leave behind, --record or not. The
	// file --record names may hold an earlier run's unanswered question:
	// refused. The default one is only written if this run pauses, which
	// most runs of a chart that can ask do not: a question waiting there
	// moves this run's pause to the next free name, not the run away.
	pausePath, waitingAt := f.record, ""
	if pausePath == "" {
		pausePath, waitingAt = defaultPausePath(rb.Name())
	} else if err := refuseWaiting(pausePath); err != nil {
		return err
	}

	// A hangup (the terminal closed) is an interrupt too: the run is
	// cancelled, its processes stopped, the partial record written.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	hups := make(chan os.Signal, 1) // never read: later hangups are dropped
	defer signal.Stop(hups)
	runDone := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			select {
			case <-runDone: // stop() after the run, not a signal
				return
			default:
			}
			// A second Ctrl-C or SIGTERM ends the process at once; a second
			// hangup does not (a closing terminal and its shell each send one).
			signal.Notify(hups, syscall.SIGHUP)
			if f.record != "" {
				// A second signal leaves no record, and whatever file was at
				// the path (an earlier run's record) stays there.
				fmt.Fprintf(stderr, "runbook: interrupted: stopping the run and writing its record to %s (again to quit at once, leaving no record)\n", clean(f.record))
			} else {
				fmt.Fprintln(stderr, "runbook: interrupted: stopping the run (again to quit at once)")
			}
			// Signals that come together are one interruption: `timeout`
			// sends its signal to runbook and then to its own process
			// group, runbook included. Until stop() the context's handler
			// takes them; after it, the next one ends runbook without its
			// record.
			select {
			case <-time.After(oneInterruption):
			case <-runDone:
			}
			stop()
		case <-runDone:
		}
	}()

	opts, stream := runOptions(f, pausePath, secretsAgain(rb, given, f, at), logger, honesty, stdout)
	opts, prog := withProgress(opts, f, stdout, stderr)

	res, err := rb.Exec(ctx, given, opts...)
	wasInterrupted := ctx.Err() != nil
	close(runDone)
	prog.stop()
	if err != nil {
		if printInputErrors(stderr, err, at) {
			return quietExit(exitUsage)
		}
		return exit(exitFailed, "%s: %v", path, err)
	}
	rec := res.Record

	recordPath := f.record
	if rec.Status == "paused" {
		recordPath = pausePath
	}
	var recordErr error
	if recordPath != "" {
		recordPath, waitingAt, recordErr = writeRunRecord(res, recordPath, f.record == "", rb.Name(), waitingAt)
		if recordErr != nil {
			recordErr = fmt.Errorf("writing the run record: %w", recordErr)
			unsaved(rec)
		}
	}

	check := judge(rec, f, rb, recordErr)
	code, held := runExit(rec, f, check, wasInterrupted)
	if err := reportRun(stdout, stderr, rec, f, stream, rb, check, wasInterrupted); err != nil {
		return err
	}
	if rec.Status == "paused" && recordErr == nil {
		fmt.Fprintf(stderr, "run paused; record written to %s\n", recordPath)
		if waitingAt != "" {
			fmt.Fprintf(stderr, "runbook: %s\n", waitingAt)
		}
		if why := cannotResume(res); why != "" {
			fmt.Fprintf(stderr, "runbook: warning: this record cannot be resumed: %s\n", why)
		}
	}
	return endRun(stderr, code, held, f, recordErr)
}

// refuseOverRead refuses, before anything runs, a record path that names
// a file the run reads: the chart, or the --inputs file. Written over, the
// chart was gone, and a run that paused could never be resumed: its record
// named a chart that was now a record. "" (and the chart "-") is no file.
func refuseOverRead(record, chart, inputsFile string) error {
	if record == "" {
		return nil
	}
	for _, r := range []struct{ what, path string }{{"the chart", chart}, {"the --inputs file", inputsFile}} {
		if r.path != "" && r.path != stdinChart && sameFile(record, r.path) {
			return exit(exitUsage, "--record %s is %s (%s): the record would be written over it; give another path; nothing was run", record, r.what, r.path)
		}
	}
	return nil
}

// sameFile says whether two paths name one file: the same file when both
// exist, else the same cleaned absolute path.
func sameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(sa, sb)
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}

// defaultPausePath is where a run of the runbook named name that pauses
// without --record writes its record: ./NAME.paused.json, or, when that
// file holds a question not yet answered (waitsHere), the first of
// ./NAME.paused-2.json, -3, … that does not; waitingAt then says the
// files passed over, in a sentence. Before, the run was refused when ./NAME.paused.json held
// one, pause or not: a daily CI check of a chart that can ask stopped
// running for good the day one run paused and nobody answered it.
func defaultPausePath(name string) (path, waitingAt string) {
	base := "./" + fileSafe(name) + ".paused"
	path = base + ".json"
	first := path
	for n := 2; ; n++ {
		if waiting, _, _ := waitsHere(path); !waiting {
			switch n {
			case 2:
			case 3:
				waitingAt = first + " holds an earlier run's question, not yet answered: left as it was"
			default:
				waitingAt = fmt.Sprintf("%s to %s-%d.json hold earlier runs' questions, not yet answered: left as they were", first, base, n-2)
			}
			return path, waitingAt
		}
		path = fmt.Sprintf("%s-%d.json", base, n)
	}
}

// writeRunRecord writes res's record at path, with its folder locked
// (lockDir) against other runbook processes writing there, and returns
// the path it wrote and the sentence of files passed over. Under the lock
// the file is asked again whether it holds a question not yet answered:
// the path was chosen before the run, and a run that started after this
// one may have paused there since. A paused run's default path (chosen
// true) is then chosen again (defaultPausePath); a path --record named is
// not written over, an error. Before, six CI jobs of one chart run at once
// in one workspace each said "run paused; record written to
// ./release.paused.json", and the file held one question: five were lost,
// and the one a person answered was not the one each job named.
func writeRunRecord(res *runbook.Result, path string, chosen bool, name, waitingAt string) (string, string, error) {
	unlock := lockDir(filepath.Dir(path))
	defer unlock()
	if waiting, _, _ := waitsHere(path); waiting {
		if !chosen {
			return path, waitingAt, fmt.Errorf("record %s: another run paused there while this one ran, and its question is not yet answered: this run's record was not written over it; give another --record", path)
		}
		was := path
		path, waitingAt = defaultPausePath(name)
		if p := res.Record.Pause; p != nil {
			// The command was made before the run, with the path then free.
			p.Resume = strings.Replace(p.Resume, "runbook resume "+shellQuote(was), "runbook resume "+shellQuote(path), 1)
		}
	}
	if err := res.WriteRecord(path); err != nil {
		return path, waitingAt, dropEarlier(path, err)
	}
	return path, waitingAt, nil
}

// dropEarlier moves the record an earlier run left at path aside, to
// path.earlier (path.earlier.1, … when that is taken), when this run's
// could not be written over it (a disk that filled up): left at path, it
// was read as this run's by `runbook explain` and by a CI job that
// archives the path, though the run had said its record was not written;
// removed, a record was lost. A rename needs no space on the disk. A
// file holding a question not yet answered is left where it is. err is
// the failed write; what is returned adds what became of the earlier
// file.
func dropEarlier(path string, err error) error {
	target, terr := filepath.EvalSymlinks(path)
	if terr != nil {
		return err // nothing there
	}
	if st, serr := os.Stat(target); serr != nil || !st.Mode().IsRegular() {
		return err
	}
	if waiting, _, _ := waitsHere(target); waiting {
		return err
	}
	aside := target + ".earlier"
	for i := 1; ; i++ {
		if _, serr := os.Lstat(aside); errors.Is(serr, fs.ErrNotExist) {
			break
		}
		aside = fmt.Sprintf("%s.earlier.%d", target, i)
	}
	if rerr := os.Rename(target, aside); rerr != nil {
		return fmt.Errorf("%w; the file at %s is an earlier run's record, not this run's, and could not be moved aside: %v", err, path, rerr)
	}
	return fmt.Errorf("%w; the earlier run's record at %s was moved to %s, so that it is not taken for this run's", err, path, aside)
}

// waitsHere is record.Waiting, less a run that waits on Temporal: it waits
// there, not in the file, whose copy may be replaced.
func waitsHere(path string) (waiting bool, runbook string, pause *record.PauseRecord) {
	waiting, runbook, pause = record.Waiting(path)
	return waiting && !answeredOnTemporal(pause), runbook, pause
}

// refuseWaiting refuses, before anything runs, to write a record at path
// when the file there holds a run waiting for its answer
// (record.Waiting): that file is the question's only home, and replacing
// it lost the first run's record and its question in silence. A run that
// waits on Temporal waits there, not in the file: its copy may be
// replaced. "" is no path.
func refuseWaiting(path string) error {
	if path == "" {
		return nil
	}
	waiting, name, p := waitsHere(path)
	if !waiting {
		return nil
	}
	what, answer := "a run", "runbook resume "+shellQuote(path)
	if name != "" {
		what = "a run of " + name
	}
	if p != nil {
		what += fmt.Sprintf(" paused at %s (%q)", p.Stage, p.Question)
		// Made here, not read from the file: a command is not run from
		// what a file on disk says.
		answer = resumeCommand(&record.PauseRecord{Resume: answer, Expects: p.Expects})
	}
	return exit(exitUsage, "%s holds %s, not yet answered: answer it (%s), reject it (runbook resume %s --reject REASON) or remove it, or give another --record; nothing was run",
		path, clean(what), clean(answer), shellQuote(path))
}

// keepOnBrokenPipe makes a write to a stdout or stderr whose reader has
// gone (runbook exec … | head -1) fail with EPIPE, where Go would end the
// process with SIGPIPE: in the middle of a run streaming ndjson, that left
// its stages after the write unrun and its record unwritten. The run goes
// on to its end, its record is written, and the failed write of the result
// is said and exits 1 (reportRun). The signal is caught, not ignored: an
// ignored SIGPIPE would be inherited by the commands the run starts. It
// returns the function that stops catching it.
func keepOnBrokenPipe() (stop func()) {
	pipes := make(chan os.Signal, 1) // never read: the write's EPIPE says it
	signal.Notify(pipes, syscall.SIGPIPE)
	return func() { signal.Stop(pipes) }
}

// unsaved makes a paused result whose record could not be written say
// so, for it is printed after the failed write: its pause names no resume
// command (the file it named does not exist, or holds an older pause) and
// a warning says the run cannot be resumed (the renderers say it where the
// command would be: resumeLine).
func unsaved(rec *record.Record) {
	if rec.Status != "paused" || rec.Pause == nil {
		return
	}
	rec.Pause.Resume = ""
	rec.Warnings = append(rec.Warnings, notResumable)
}

// reportRun prints the result in the chosen format, then on stderr the
// warnings and, for a run that failed or was cancelled, where it ended.
func reportRun(stdout, stderr io.Writer, rec *record.Record, f execFlags, stream *ndjsonStream, rb *runbook.Runbook, check gate.Check, interrupted bool) error {
	if err := printResult(stdout, rec, f, stream, scriptInto(rb.Spec()), check); err != nil {
		code := exitFailed
		if f.format == "nagios" {
			code = int(gate.Unknown) // a check that said nothing knows nothing; 1 is WARNING
		}
		return exit(code, "writing the result: %v", err)
	}
	for _, w := range rec.Warnings {
		fmt.Fprintf(stderr, "runbook: warning: %s\n", clean(w))
	}
	if rec.Status == "failed" || rec.Status == "cancelled" {
		verb := rec.Status
		if rec.Ended() == "timed out" {
			verb = "timed out"
		}
		if interrupted {
			verb = "interrupted"
		}
		if rec.Error != nil {
			msg, more := record.Headline(rec.Error.Message)
			if more {
				msg += " (its first line; --format json and the --record file hold it whole)"
			}
			fmt.Fprintf(stderr, "run %s at %s: %s\n", verb, clean(rec.Error.Stage), clean(msg))
		} else {
			fmt.Fprintf(stderr, "run %s\n", verb)
		}
	}
	return nil
}

// printResult writes the result in the chosen format; check is the
// record judged as a check (nagios only).
func printResult(w io.Writer, rec *record.Record, f execFlags, stream *ndjsonStream, into map[string]string, check gate.Check) error {
	switch f.format {
	case "nagios":
		return renderNagios(w, rec, check)
	case "json":
		return writeJSON(w, rec, "  ")
	case "ndjson":
		stream.nd.Flush()
		if err := stream.nd.Err(); err != nil {
			return err
		}
		return writeJSON(w, struct {
			Event  string         `json:"event"`
			Result *record.Record `json:"result"`
		}{"run.end", rec}, "")
	case "markdown":
		return renderMarkdown(w, rec, renderOpts{verbose: f.verbose, scriptInto: into})
	default:
		return renderText(w, rec, renderOpts{verbose: f.verbose, quiet: f.quiet, colour: colourOn(w), width: termWidth(w), scriptInto: into})
	}
}

// writeJSON writes v as JSON with a trailing newline, indented when indent
// is set. HTML characters stay as they are: this is not for a browser.
func writeJSON(w io.Writer, v any, indent string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// ndjsonStream is the NDJSON recorder minus its own run.end event: the
// stream's last line is cli.md's {"event":"run.end","result":{…}}, written
// after the run, so there is exactly one run.end line (the run's duration is
// in result.stats.durationMs).
type ndjsonStream struct{ nd *recorder.NDJSON }

func (s *ndjsonStream) Record(e recorder.Event) {
	if e.Kind == recorder.RunEnd {
		return
	}
	s.nd.Record(e)
}

// Flush writes what the stream has buffered (the engine calls it).
func (s *ndjsonStream) Flush() { s.nd.Flush() }

// inputErrors reports whether err refused the inputs, and lists the
// refusals one by one.
func inputErrors(err error) ([]*runbook.InputError, bool) {
	var ies runbook.InputErrors
	if errors.As(err, &ies) {
		return ies, true
	}
	var ie *runbook.InputError
	if errors.As(err, &ie) {
		return []*runbook.InputError{ie}, true
	}
	return nil, false
}

// scriptInto maps the path of each exec stage whose result reaches the
// final state to its `into` key: stages at the root and in decide, select
// and parallel branches (whose writes join the parent), never in foreach
// branches or subflows (whose scopes are their own).
func scriptInto(spec *chart.Spec) map[string]string {
	m := map[string]string{}
	if spec == nil {
		return m
	}
	// The record path of a stage is flow's to spell (flow.Position).
	var walk func(scope []flow.ScopeStep, stages []chart.StageSpec)
	walk = func(scope []flow.ScopeStep, stages []chart.StageSpec) {
		for i := range stages {
			st := &stages[i]
			switch st.Kind {
			case "exec":
				if st.Exec != nil && st.Exec.Into != "" {
					m[flow.Position{Scope: scope, Node: st.ID, N: -1}.String()] = st.Exec.Into
				}
			case "decide":
				for _, b := range st.Branches {
					walk(scope, b.Stages)
				}
			case "select":
				for _, b := range st.Branches {
					walk(append(slices.Clip(scope), flow.ScopeStep{Node: st.ID, Branch: b.Name}), b.Stages)
				}
			case "parallel":
				for _, b := range st.Parallel {
					walk(append(slices.Clip(scope), flow.ScopeStep{Node: st.ID, Branch: b.Name}), b.Stages)
				}
			}
		}
	}
	walk(nil, spec.Stages)
	return m
}

// fileSafe turns a runbook name into a file name: path separators and
// other troublesome characters become '-'.
func fileSafe(name string) string {
	s := strings.Map(func(r rune) rune {
		switch {
		case r == '/' || r == '\\' || r == 0 || r == ':' || r < ' ':
			return '-'
		}
		return r
	}, name)
	if s == "" || s == "." || s == ".." {
		return "runbook"
	}
	return filepath.Base(s)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == '~' || r == '=' || r == ':' || r == '+' ||
			('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9'))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// jsonKind names what a decoded JSON file holds, for messages: jsonv's
// words, save that a file's list is "an array", as JSON calls it.
func jsonKind(v any) string {
	if jsonv.Of(v) == jsonv.List {
		return "an array"
	}
	return jsonv.Describe(v)
}
