package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
)

// Runs on Temporal are handed to runbook-temporal, a command of the
// repository's temporal/ module: the Temporal SDK is a large dependency
// set this command keeps out of its own (docs/SCALE.md).

// executors are the --executor values exec accepts.
var executors = []string{"local", "temporal"}

// temporalCommand is the hand-off command's name.
const temporalCommand = "runbook-temporal"

// temporalFlags are the flags that say where a Temporal run goes; exec
// takes them with --executor temporal, worker always.
type temporalFlags struct {
	addr, queue, namespace string
	codecKey               string // the key file runbook-temporal encrypts payloads with
}

func (t *temporalFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&t.addr, "temporal", "", "the Temporal frontend `host:port`")
	fl.StringVar(&t.queue, "task-queue", "", "the Temporal task queue `Q` the workers poll (runbook when not given)")
	fl.StringVar(&t.namespace, "namespace", "", "the Temporal namespace `NS` (default when not given)")
	fl.StringVar(&t.codecKey, "codec-key", "", "encrypt Temporal payloads with the keys in `FILE` (default: the file $RUNBOOK_TEMPORAL_CODEC_KEY names); needed for secret inputs")
}

// args are the flags as runbook-temporal takes them, only those given.
func (t *temporalFlags) args() []string {
	a := []string{"--temporal", t.addr}
	if t.queue != "" {
		a = append(a, "--task-queue", t.queue)
	}
	if t.namespace != "" {
		a = append(a, "--namespace", t.namespace)
	}
	if t.codecKey != "" {
		a = append(a, "--codec-key", t.codecKey)
	}
	return a
}

// onTemporalOnly are exec's flags that mean something only on Temporal.
var onTemporalOnly = []string{"temporal", "task-queue", "namespace", "codec-key"}

// passedToTemporal are exec's own flags a run on Temporal takes too, and
// resumePassedToTemporal resume's. The rest (the plugin and chart-path
// flags, and resume's --timeout) are refused by checkExecutor, said in words.
var (
	passedToTemporal       = []string{"input", "inputs", "record", "format", "fail-on", "max-rows", "verbose", "quiet", "timeout"}
	resumePassedToTemporal = []string{"input", "inputs", "record", "reject", "answered-by", "format", "fail-on", "quiet"}
)

// checkExecutor refuses an unknown --executor, Temporal's flags on a local
// run, and on a Temporal run the flags it does not take yet: a flag that
// would be dropped silently is a lie.
func checkExecutor(fl *pflag.FlagSet, executor string, t temporalFlags, passed []string) error {
	switch executor {
	case "local":
		for _, name := range onTemporalOnly {
			if fl.Changed(name) {
				return &usageError{err: fmt.Errorf("--%s: only with --executor temporal", name), showUsage: true}
			}
		}
		return nil
	case "temporal":
	default:
		return &usageError{err: fmt.Errorf("--executor %q: want one of %s", executor, strings.Join(executors, ", ")), showUsage: true}
	}
	if t.addr == "" {
		return &usageError{err: errors.New("--executor temporal: give --temporal host:port (the Temporal frontend)"), showUsage: true}
	}
	var refused []string
	fl.Visit(func(f *pflag.Flag) {
		if f.Name != "executor" && !contains(onTemporalOnly, f.Name) && !contains(passed, f.Name) {
			refused = append(refused, "--"+f.Name)
		}
	})
	if len(refused) > 0 {
		takes := make([]string, len(passed))
		for i, p := range passed {
			takes[i] = "--" + p
		}
		return &usageError{err: fmt.Errorf("%s: not with --executor temporal yet (it takes %s; docs/SCALE.md)", strings.Join(refused, ", "), strings.Join(takes, ", ")), showUsage: true}
	}
	if fl.Lookup("format").Value.String() == "ndjson" {
		return &usageError{err: errors.New("--format ndjson streams a run's events as they happen, and a Temporal run's happen in its workflow: use --format json (the result record) with --executor temporal"), showUsage: true}
	}
	return nil
}

// execOnTemporal is `runbook exec --executor temporal`: the chart and the
// inputs are checked here as a local run checks them, runbook-temporal
// exec runs it and saves its record, and the record is printed and judged
// (--format, --fail-on) by the code a local run's goes through, so the
// two say the same of the same record.
func execOnTemporal(ctx context.Context, path string, f execFlags, t temporalFlags, stdout, stderr io.Writer) error {
	if err := f.checkRunFlags(); err != nil {
		return err
	}
	if f.timeout < 0 {
		return &usageError{err: fmt.Errorf("--timeout %s: want a positive duration", f.timeout), showUsage: true}
	}
	if path == stdinChart {
		return &usageError{err: errors.New("--executor temporal: give the chart as a file (the workflow carries its bytes and its name), not -")}
	}
	if err := refuseOverRead(f.record, path, f.inputsFile); err != nil {
		return err
	}
	if err := refuseWaiting(f.record); err != nil {
		return err
	}
	given, at, err := readInputsAt(f.inputsFile, f.inputs)
	if err != nil {
		return exit(exitUsage, "%v", err)
	}
	rb, ok := load(path, nil, stderr)
	if !ok {
		return quietExit(exitUsage)
	}
	if err := f.checkWords(rb); err != nil {
		return err
	}
	if _, err := rb.PlanInputs(given); err != nil {
		if printInputErrors(stderr, err, at) {
			return quietExit(exitUsage)
		}
		return exit(exitUsage, "%s: %v", path, err)
	}
	tmp, err := os.MkdirTemp("", "runbook-temporal-")
	if err != nil {
		return exit(exitFailed, "%v", err)
	}
	defer os.RemoveAll(tmp)
	// The inputs never go in argv, where ps shows a secret input's value,
	// nor, on Linux, on disk (inputsChannel).
	b, err := json.Marshal(given)
	if err != nil {
		return exit(exitFailed, "%v", err)
	}
	inputsFile, in, err := inputsChannel(tmp, b)
	if err != nil {
		return exit(exitFailed, "%v", err)
	}
	// runbook-temporal saves the record in our folder, never at --record:
	// a --record it cannot write would lose a run that happened, where
	// reportTemporal prints the run and then says the write failed.
	recordPath := filepath.Join(tmp, "run.json")
	a := append([]string{"exec"}, t.args()...)
	// The resume command names where the secret inputs are given again,
	// as a local pause's does: it named the answers alone, and the
	// command the run printed was refused (input "token": is secret).
	a = append(a, "--inputs", inputsFile, "--record", recordPath, "--quiet", "--resume-command", t.resumeCommand()+secretsAgain(rb, given, f, at))
	if f.maxRows.set {
		a = append(a, "--max-rows", strconv.Itoa(f.maxRows.n))
	}
	if f.verbose {
		a = append(a, "--narrative")
	}
	if f.timeout > 0 {
		a = append(a, "--timeout", f.timeout.String())
	}
	interrupted, err := ranOnTemporal(handOff(ctx, append(a, "--", path), in, stdout, stderr))
	if err != nil {
		return err
	}
	return reportTemporal(recordPath, rb, f, interrupted, "writing the run record", stdout, stderr)
}

// resumeCommand is how a person answers a run that waits on Temporal
// through this command (the workflow id follows it).
func (t *temporalFlags) resumeCommand() string {
	a := []string{"runbook", "resume", "--executor", "temporal", "--temporal", t.addr}
	if t.namespace != "" {
		a = append(a, "--namespace", t.namespace)
	}
	if t.codecKey != "" {
		a = append(a, "--codec-key", t.codecKey)
	}
	for i, w := range a {
		a[i] = shellQuote(w)
	}
	return strings.Join(a, " ")
}

// ranOnTemporal is nil when runbook-temporal ran the run to its end or
// its pause, whatever the run's status (exit 0 or 1: the record says
// which), or was interrupted (130: it cancelled the run, whose record
// says so, or left it running on a second interrupt, with no record);
// the error otherwise (bad usage, no server, not found).
func ranOnTemporal(err error) (interrupted bool, _ error) {
	var ee *exitError
	switch {
	case err == nil:
		return false, nil
	case errors.As(err, &ee) && ee.err == nil && ee.code == exitFailed:
		return false, nil
	case errors.As(err, &ee) && ee.err == nil && ee.code == exitInterrupted:
		return true, nil
	}
	return false, err
}

// reportTemporal prints and judges the record a Temporal run saved at
// recordPath, as a local run's: the same renderers, gates and exit codes,
// and f.record written here, a failure to write it said after the result
// (writing words what was written) as a local run says it. interrupted:
// runbook-temporal was interrupted (exit 130), the run cancelled or, with
// no record, left running.
func reportTemporal(recordPath string, rb *runbook.Runbook, f execFlags, interrupted bool, writing string, stdout, stderr io.Writer) error {
	if _, err := os.Stat(recordPath); interrupted && errors.Is(err, fs.ErrNotExist) {
		return quietExit(exitInterrupted) // left running: runbook-temporal said where
	}
	rr, problems, err := record.ReadRecord(recordPath)
	if err == nil && len(problems) > 0 {
		err = fmt.Errorf("the record runbook-temporal saved at %s: %s", recordPath, problems[0])
	}
	if err != nil || rr.Result == nil {
		return exit(exitFailed, "reading the run's record: %v", err)
	}
	rec := rr.Result
	var recordErr error
	if f.record != "" {
		// The bytes the workflow made, as runbook-temporal writes them: a
		// record decoded and encoded again would sort a row's columns.
		// Written as a local run's record is, atomically and sealed.
		b, err := os.ReadFile(recordPath)
		if err == nil {
			err = record.WriteBytes(f.record, b)
		}
		if err != nil {
			recordErr = fmt.Errorf("%s: %w", writing, err)
		}
	}
	check := judge(rec, f, rb, recordErr)
	code, held := runExit(rec, f, check, interrupted)
	out := stdout
	var raw json.RawMessage
	if f.format == "json" {
		// The result as the workflow wrote it: a value read back from the
		// file is a map, whose keys JSON would print sorted, where the run
		// kept a verdict row's columns in the chart's order.
		if raw, err = resultBytes(recordPath); err != nil {
			return exit(exitFailed, "reading the run's record: %v", err)
		}
		out = io.Discard
	}
	if err := reportRun(out, stderr, rec, f, nil, rb, check, interrupted); err != nil {
		return err
	}
	if raw != nil {
		var b bytes.Buffer
		if err := json.Indent(&b, raw, "", "  "); err != nil {
			return exit(exitFailed, "reading the run's record: %v", err)
		}
		b.WriteByte('\n')
		if _, err := stdout.Write(b.Bytes()); err != nil {
			return exit(exitFailed, "writing the result: %v", err)
		}
	}
	if waitsOnTemporal(rec) {
		// Always, --quiet and a record not written alike: this line may be
		// the only place the workflow id is said.
		fmt.Fprintf(stderr, "run paused; it waits on Temporal; answer it with: %s\n", clean(resumeCommand(rec.Pause)))
	} else if rec.Status == "paused" {
		fmt.Fprintln(stderr, "run paused; it waits on Temporal for the answer")
	}
	return endRun(stderr, code, held, f, recordErr)
}

// waitsOnTemporal says whether rec is a paused run whose workflow waits on
// Temporal for the answer, by the command its pause says answers it (the
// one runbook and runbook-temporal hand the workflow). Such a run is
// answered there only: a local resume of its record would answer it a
// second time.
func waitsOnTemporal(rec *record.Record) bool {
	return rec != nil && rec.Status == "paused" && answeredOnTemporal(rec.Pause)
}

// answeredOnTemporal says whether a pause is answered on Temporal (its
// resume command goes there), not from the record that holds it.
func answeredOnTemporal(p *record.PauseRecord) bool {
	if p == nil {
		return false
	}
	return strings.HasPrefix(p.Resume, "runbook resume --executor temporal ") || strings.HasPrefix(p.Resume, "runbook-temporal resume ")
}

// resultBytes is the result record's JSON as the record file at path
// holds it.
func resultBytes(path string) (json.RawMessage, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rr struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(b, &rr); err != nil {
		return nil, err
	}
	var c bytes.Buffer
	if err := json.Compact(&c, rr.Result); err != nil {
		return nil, err
	}
	// The file's JSON escapes <, > and &; the result printed leaves them.
	return jsonv.UnescapeHTML(c.Bytes()), nil
}

// resumeOnTemporal is `runbook resume --executor temporal WORKFLOW_ID`:
// runbook-temporal resume, each --input an answer, and its record printed
// and judged as exec's.
func resumeOnTemporal(ctx context.Context, workflowID string, f resumeFlags, t temporalFlags, stdout, stderr io.Writer) error {
	given, _, err := f.answers()
	if err != nil {
		return err
	}
	if err := refuseOverRead(f.record, "", f.inputsFile); err != nil {
		return err
	}
	if err := refuseWaiting(f.record); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "runbook-temporal-")
	if err != nil {
		return exit(exitFailed, "%v", err)
	}
	defer os.RemoveAll(tmp)
	a := append([]string{"resume"}, t.args()...)
	// The answers go as exec's inputs go, never in argv: a secret input
	// given again (in an --inputs file only its owner reads, as a resume
	// asks) was put on runbook-temporal's command line as --answer
	// token=…, where ps shows it to every user of the machine.
	answers := make(map[string]string, len(given))
	for k, v := range given {
		text, err := answerText(v)
		if err != nil {
			return exit(exitUsage, "--input %s: %v", k, err)
		}
		answers[k] = text
	}
	var in *pipedInputs
	if len(answers) > 0 {
		b, err := json.Marshal(answers)
		if err != nil {
			return exit(exitFailed, "%v", err)
		}
		var file string
		if file, in, err = inputsChannel(tmp, b); err != nil {
			return exit(exitFailed, "%v", err)
		}
		a = append(a, "--answers", file)
	}
	if f.reject != "" {
		a = append(a, "--reject", f.reject)
	}
	if f.answeredBy != "" {
		a = append(a, "--answered-by", f.answeredBy)
	}
	recordPath := filepath.Join(tmp, "run.json") // --record: as exec's
	chartPath := filepath.Join(tmp, "chart.json")
	a = append(a, "--record", recordPath, "--save-chart", chartPath, "--quiet")
	if _, err := ranOnTemporal(handOff(ctx, append(a, "--", workflowID), in, stdout, stderr)); err != nil {
		return err
	}
	// The chart the run was started with, for what the record's printing
	// reads of it (result.nagios, each script's into key).
	var rc struct {
		File    string
		Chart   []byte
		Sources map[string][]byte
	}
	data, err := os.ReadFile(chartPath)
	if err == nil {
		err = json.Unmarshal(data, &rc)
	}
	if err != nil {
		return exit(exitFailed, "reading the run's chart: %v", err)
	}
	spec, err := chart.Parse(rc.File, rc.Chart, chart.Sources(rc.Sources))
	var rb *runbook.Runbook
	if err == nil {
		rb, err = runbook.Build(spec)
	}
	if err != nil {
		return exit(exitFailed, "the run's chart: %v", err)
	}
	return reportTemporal(recordPath, rb, f.execFlags, false, "writing the continued record", stdout, stderr)
}

// answerText is an answer as runbook-temporal's --answer takes it: a
// string as it is, anything else (from an --inputs file) as JSON, which
// the question's type reads back.
func answerText(v any) (string, error) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	b, err := json.Marshal(v)
	return string(b), err
}

func newWorkerCmd(stdout, stderr io.Writer) *cobra.Command {
	var t temporalFlags
	cmd := &cobra.Command{
		Use:   "worker --temporal ADDR [--task-queue Q] [--namespace NS]",
		Short: "Run the Temporal workflows and exec stages of a task queue on this machine",
		Long: `worker polls a Temporal task queue and runs what runbook runs put there:
the charts' workflows and their exec and read: stages' commands, on this
machine, until interrupted. Start runs with runbook exec --executor temporal;
a run waits until a worker polls its task queue. If this process is killed,
runbook-temporal is sent SIGTERM on Linux (elsewhere it keeps running; a
signal this process catches is passed on everywhere).

It hands off to runbook-temporal, a command of the repository's temporal/
module (found beside the runbook executable, then on PATH), so this command
does not carry Temporal's SDK; build it with
  (cd temporal && go build -o ~/bin/runbook-temporal ./cmd/runbook-temporal)
See docs/SCALE.md. Exit codes are runbook-temporal's: 0 stopped when asked,
1 the worker failed, 2 bad usage, no server, or runbook-temporal not found.`,
		Example: `  runbook worker --temporal temporal.example:7233 --task-queue db-hosts`,
		Args:    args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if t.addr == "" {
				return &usageError{err: errors.New("--temporal host:port is required (the Temporal frontend)"), showUsage: true}
			}
			return handOff(cmd.Context(), append([]string{"worker"}, t.args()...), nil, stdout, stderr)
		},
	}
	t.register(cmd.Flags())
	return cmd
}

// findTemporal is runbook-temporal beside this executable, else on PATH.
func findTemporal() (string, error) {
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), temporalCommand)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return exec.LookPath(temporalCommand)
}

// handOff runs runbook-temporal with args, its stdin, stdout and stderr
// ours, and ends with its exit code.
func handOff(ctx context.Context, a []string, in *pipedInputs, stdout, stderr io.Writer) error {
	bin, err := findTemporal()
	if err != nil {
		beside := "this executable's folder"
		if self, err := os.Executable(); err == nil {
			beside = filepath.Dir(self)
		}
		return exit(exitUsage, "Temporal runs are run by %s, found neither in %s nor on PATH: from a clone of runbook build it with (cd temporal && go build -o %s ./cmd/runbook-temporal) (docs/SCALE.md)",
			temporalCommand, beside, filepath.Join(beside, temporalCommand))
	}
	c := exec.CommandContext(ctx, bin, a...)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, stdout, stderr
	// Linux signals the child when the thread that started it ends, not
	// the process: this goroutine keeps its thread until the child ends.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	dieWithParent(c)
	// A stop asked of this process is passed on, so that a supervisor
	// signalling only runbook stops the worker and leaves no orphan; the
	// exit is then runbook-temporal's.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	in.attach(c)
	if err := c.Start(); err != nil {
		in.close()
		return exit(exitUsage, "start %s: %v", bin, err)
	}
	in.feed()
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				_ = c.Process.Signal(s) // it may have just ended
			case <-done:
				return
			}
		}
	}()
	err = c.Wait()
	close(done)
	var ee *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return quietExit(ee.ExitCode())
	case errors.As(err, &ee):
		return exit(exitInterrupted, "%s: %v", temporalCommand, err) // ended by a signal
	}
	return exit(exitFailed, "%s: %v", temporalCommand, err)
}

// pipedInputs are a run's inputs handed to runbook-temporal through a pipe
// it reads as a file (inputsChannel): nil hands none.
type pipedInputs struct {
	r, w *os.File
	data []byte
}

// attach gives the child the pipe's read end as its first extra file,
// descriptor 3 (the name inputsChannel handed it).
func (p *pipedInputs) attach(c *exec.Cmd) {
	if p != nil {
		c.ExtraFiles = []*os.File{p.r}
	}
}

// feed writes the inputs once the child has started, and closes the pipe
// behind them (the child reads to its end); a goroutine, since a pipe
// holds 64 KiB and a child that has not read yet would block a larger
// write here for ever.
func (p *pipedInputs) feed() {
	if p == nil {
		return
	}
	_ = p.r.Close() // the child holds its own
	go func() {
		_, _ = p.w.Write(p.data)
		_ = p.w.Close()
	}()
}

// close is for a child that never started.
func (p *pipedInputs) close() {
	if p != nil {
		_ = p.r.Close()
		_ = p.w.Close()
	}
}
