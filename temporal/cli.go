package temporal

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"

	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
	"github.com/openrunbook/runbook/temporal/codec"
)

// CodecKeyEnv names the key file the commands read when given no
// --codec-key: a worker under a supervisor is given its key without a
// change to its command line.
const CodecKeyEnv = "RUNBOOK_TEMPORAL_CODEC_KEY"

// Exit codes of Main, as `runbook exec` gives them.
const (
	ExitCompleted = 0 // the run completed (or paused at an ask:)
	ExitFailed    = 1 // the run failed or was cancelled, or its record could not be saved
	ExitUsage     = 2 // bad usage, a chart that does not load, bad inputs, no server
	// ExitInterrupted: exec was interrupted (SIGINT, SIGTERM, SIGHUP) and
	// the run it cancelled ended so, or was left running on a second one.
	ExitInterrupted = 130
)

const usage = `runbook-temporal runs runbooks on Temporal (docs/SCALE.md).

  runbook-temporal exec --temporal ADDR [--namespace NS] [--task-queue Q] [--codec-key FILE] [--input name=value]... [--inputs FILE]
                        [--max-rows N] [--narrative] [--timeout D] [--workflow-id ID] [--resume-command CMD] [--record FILE] [--quiet] CHART
      run CHART as one workflow; print its result record as JSON; with
      --record, save the run record (for runbook explain) to FILE; --inputs
      reads a JSON object of inputs; --max-rows and --narrative are runbook
      exec's --max-rows and --verbose, kept in the record; --timeout is
      exec's, up to the run's end or first pause, on a workflow timer;
      --resume-command
      is what a paused record says to answer it with, the workflow id
      added after it (default runbook-temporal resume --temporal ADDR
      --namespace NS); --quiet prints nothing but errors (the record file
      is the result)
  runbook-temporal resume --temporal ADDR [--namespace NS] [--codec-key FILE] [--answer name=value]... [--answers FILE] [--reject REASON] [--answered-by WHO] [--record FILE] WORKFLOW_ID
      answer the question of a run waiting at an ask: stage (exec names its
      workflow), as runbook resume answers a paused record; --answers reads
      a JSON object of answers (a secret input given again: not in argv,
      where ps shows it; --answer wins over it); print the result
      record when the run ends or asks again (--quiet: nothing but errors);
      --save-chart writes the chart the run was started with to FILE, as
      JSON {"File", "Chart", "Sources"} (its name, bytes, mounted charts)
  runbook-temporal worker --temporal ADDR [--namespace NS] [--task-queue Q] [--codec-key FILE]
      run the workflows and the exec stages' processes of that task queue,
      on this machine, until interrupted

  --codec-key FILE (or the file $RUNBOOK_TEMPORAL_CODEC_KEY names) encrypts
  every payload (AES-256-GCM), so charts with secret inputs run: one key a
  line, the first encrypts, any decrypts; make one with
      head -c32 /dev/urandom | base64 > runbook.key
  Every client and worker of a run needs the key that encrypted it.
`

// Main is the runbook-temporal command: args are its arguments (without
// the program's name). It returns the exit code.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return ExitUsage
	}
	fs := flag.NewFlagSet("runbook-temporal "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	addr := fs.String("temporal", "", "the Temporal frontend, host:port")
	ns := fs.String("namespace", client.DefaultNamespace, "the Temporal namespace")
	q := fs.String("task-queue", DefaultTaskQueue, "the task queue the workers of runbook runs poll")
	keyFile := fs.String("codec-key", "", "encrypt every payload with the keys in FILE (default: the file $"+CodecKeyEnv+" names)")
	var inputs inputFlags
	var recordFile, answeredBy, reject, inputsFile, workflowID, resumeCmd *string
	var quiet, narrative *bool
	var saveChart *string
	var maxRows *int
	var timeout *time.Duration
	switch args[0] {
	case "exec":
		fs.Var(&inputs, "input", "an input as name=value (repeatable)")
		inputsFile = fs.String("inputs", "", "read inputs from FILE, a JSON object (--input wins over it)")
		recordFile = fs.String("record", "", "write the full run record to FILE")
		maxRows = fs.Int("max-rows", 0, "show at most N verdict rows in the record")
		timeout = fs.Duration("timeout", 0, "cancel the run after this duration, up to its end or first pause (a workflow timer)")
		narrative = fs.Bool("narrative", false, "keep the run's narrative in the record")
		workflowID = fs.String("workflow-id", "", "the run's workflow id (default: one made up)")
		resumeCmd = fs.String("resume-command", "", "what a paused record says to answer it with")
		quiet = fs.Bool("quiet", false, "print nothing but errors")
	case "resume":
		fs.Var(&inputs, "answer", "an answer as name=value (repeatable), converted to the type the question expects")
		inputsFile = fs.String("answers", "", "read answers from FILE, a JSON object (--answer wins over it): a secret input given again stays out of argv")
		recordFile = fs.String("record", "", "write the full run record to FILE")
		answeredBy = fs.String("answered-by", "", "who answered (default: the OS user)")
		reject = fs.String("reject", "", "reject the question with this reason: the run ends failed")
		quiet = fs.Bool("quiet", false, "print nothing but errors")
		saveChart = fs.String("save-chart", "", "write the chart the run was started with to FILE (JSON: File, Chart, Sources)")
	case "worker":
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return ExitCompleted
	default:
		fmt.Fprintf(stderr, "runbook-temporal: unknown command %q\n\n%s", args[0], usage)
		return ExitUsage
	}
	// Flags may follow the argument too (`resume ID --answer k=v`): the
	// flag package stops at the first argument, so parsing goes on after it.
	var pos []string
	for rest := args[1:]; ; {
		if err := fs.Parse(rest); err != nil {
			return ExitUsage
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if *addr == "" {
		fmt.Fprintf(stderr, "runbook-temporal %s: --temporal ADDR is required (the Temporal frontend, host:port)\n", args[0])
		return ExitUsage
	}
	// What the command line says is checked before any server is asked.
	var given map[string]any
	if args[0] == "exec" {
		var err error
		if given, err = inputs.with("--inputs", *inputsFile); err != nil {
			fmt.Fprintf(stderr, "runbook-temporal exec: %v\n", err)
			return ExitUsage
		}
		if *maxRows < 0 {
			fmt.Fprintf(stderr, "runbook-temporal exec: --max-rows %d: want a whole number of rows ≥ 1\n", *maxRows)
			return ExitUsage
		}
		if *timeout < 0 {
			fmt.Fprintf(stderr, "runbook-temporal exec: --timeout %s: want a positive duration\n", *timeout)
			return ExitUsage
		}
	}
	// With no key, a codec that only says so, should a payload come
	// encrypted (a worker started without the run's key).
	opts := client.Options{HostPort: *addr, Namespace: *ns, Logger: quietLogger(stderr), DataConverter: codec.DataConverter(codec.Keyless())}
	encrypted := false
	if *keyFile == "" {
		*keyFile = os.Getenv(CodecKeyEnv)
	}
	if *keyFile != "" {
		keys, err := codec.ReadKeyFile(*keyFile)
		if err != nil {
			fmt.Fprintf(stderr, "runbook-temporal %s: %v\n", args[0], err)
			return ExitUsage
		}
		c, err := codec.New(keys)
		if err != nil {
			fmt.Fprintf(stderr, "runbook-temporal %s: codec key file %s: %v\n", args[0], *keyFile, err)
			return ExitUsage
		}
		opts.DataConverter, encrypted = codec.DataConverter(c), true
	}
	c, err := client.DialContext(ctx, opts)
	if err != nil {
		fmt.Fprintf(stderr, "runbook-temporal: connect to Temporal at %s: %v\n", *addr, err)
		return ExitUsage
	}
	defer c.Close()
	if args[0] == "worker" {
		if len(pos) != 0 {
			fmt.Fprintf(stderr, "runbook-temporal worker: takes no arguments, got %q\n", pos)
			return ExitUsage
		}
		return runWorker(ctx, c, *q, stderr)
	}
	what := "CHART"
	if args[0] == "resume" {
		what = "WORKFLOW_ID"
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "runbook-temporal %s: wants one %s, got %d arguments\n", args[0], what, len(pos))
		return ExitUsage
	}
	ex := &Executor{Client: c, TaskQueue: *q, SecretsEncrypted: encrypted}
	// How the person answers a run that asks: this same server.
	again := fmt.Sprintf("runbook-temporal resume --temporal %s --namespace %s", *addr, *ns)
	if args[0] == "resume" {
		if *reject != "" && (len(inputs.m) > 0 || *inputsFile != "") {
			fmt.Fprintln(stderr, "runbook-temporal resume: --reject answers the question: give no --answer with it")
			return ExitUsage
		}
		answers, err := inputs.with("--answers", *inputsFile)
		if err != nil {
			fmt.Fprintf(stderr, "runbook-temporal resume: %v\n", err)
			return ExitUsage
		}
		run, err := ex.Answer(ctx, pos[0], Answer{Answers: answers, Reject: *reject, By: *answeredBy})
		if ies, ok := err.(runbook.InputErrors); ok {
			for _, ie := range ies {
				fmt.Fprintf(stderr, "runbook-temporal resume: %v%s\n", ie, giveAgain(ie))
			}
			return ExitUsage
		}
		if err != nil {
			fmt.Fprintf(stderr, "runbook-temporal resume: %v\n", err)
			return ExitUsage
		}
		if *saveChart != "" {
			b, err := json.Marshal(run.Chart)
			if err == nil {
				err = os.WriteFile(*saveChart, b, 0o600)
			}
			if err != nil {
				fmt.Fprintf(stderr, "runbook-temporal resume: %v\n", err)
				return ExitFailed
			}
		}
		return report(run, "resume", again, *recordFile, *quiet, stdout, stderr)
	}
	// The workflow id is chosen here so the paused record can name it.
	ex.WorkflowID = *workflowID
	if ex.WorkflowID == "" {
		ex.WorkflowID = newWorkflowID(pos[0])
	}
	in := RunInput{Inputs: given, MaxRows: *maxRows, Narrative: *narrative, Timeout: *timeout, ResumeCommand: again + " " + ex.WorkflowID}
	if *resumeCmd != "" {
		in.ResumeCommand = *resumeCmd + " " + ex.WorkflowID
	}
	warnNoWorker(ctx, c, queue(*q), *addr, *ns, stderr)
	waitCtx, leave := context.WithCancel(ctx)
	defer leave()
	interrupted, stopWatch := onInterrupt(func(n int) {
		if n > 1 {
			fmt.Fprintf(stderr, "runbook-temporal exec: left running: workflow %s goes on on Temporal\n", ex.WorkflowID)
			leave()
			return
		}
		// As a local run stops when interrupted: the workflow is asked to
		// cancel, the run ends cancelled, and its record is saved.
		fmt.Fprintf(stderr, "runbook-temporal exec: interrupted: cancelling the run (workflow %s); again to leave it running\n", ex.WorkflowID)
		cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := c.CancelWorkflow(cctx, ex.WorkflowID, ""); err != nil {
			fmt.Fprintf(stderr, "runbook-temporal exec: the run could not be cancelled: %v\n", err)
		}
	})
	defer stopWatch()
	run, err := ex.ExecFileWith(waitCtx, pos[0], in)
	switch {
	case err != nil && interrupted():
		return ExitInterrupted
	case err != nil:
		fmt.Fprintf(stderr, "runbook-temporal exec: %v\n", err)
		return ExitUsage
	}
	code := report(run, "exec", again, *recordFile, *quiet, stdout, stderr)
	if code == ExitFailed && interrupted() {
		return ExitInterrupted
	}
	return code
}

// onInterrupt calls f with 1, 2, … for each SIGINT, SIGTERM or SIGHUP
// this process gets until stop (runbook passes its own on), in place of
// their ending it; came says whether one came.
func onInterrupt(f func(n int)) (came func() bool, stop func()) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	var n atomic.Int32
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-sigs:
				f(int(n.Add(1)))
			case <-done:
				return
			}
		}
	}()
	return func() bool { return n.Load() > 0 }, func() {
		signal.Stop(sigs)
		close(done)
	}
}

// warnNoWorker says on stderr, before a run starts, that no worker polls
// its task queue: the run would wait for one without a word (a mistyped
// --task-queue, a worker not started). It is a warning, not a refusal: a
// worker may yet come.
func warnNoWorker(ctx context.Context, c client.Client, q, addr, ns string, stderr io.Writer) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	resp, err := c.DescribeTaskQueue(ctx, q, enums.TASK_QUEUE_TYPE_WORKFLOW)
	if err != nil || len(resp.GetPollers()) > 0 {
		return // a server that cannot say is no reason to warn
	}
	fmt.Fprintf(stderr, "runbook-temporal exec: no worker polls task queue %q: the run waits until one does (runbook worker --temporal %s --namespace %s --task-queue %s)\n", q, addr, ns, q)
}

// newWorkflowID is a run's workflow id when none is given: the chart
// file's base name, for a person reading Temporal's UI, and 64 random
// bits, so two runs of a chart never share one.
func newWorkflowID(chartPath string) string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand does not fail on Linux
	name := strings.TrimSuffix(filepath.Base(chartPath), filepath.Ext(chartPath))
	return fmt.Sprintf("runbook-%s-%x", name, b)
}

// report prints a run's result record (unless quiet), saves its run
// record, and, when the run waits at an ask: stage, says so with the
// command that answers it (unless quiet: the record says it too). The
// exit code is the run's.
func report(run *Run, cmd, again, recordFile string, quiet bool, stdout, stderr io.Writer) int {
	rec, err := run.RunRecord()
	if err != nil {
		fmt.Fprintf(stderr, "runbook-temporal %s: %v\n", cmd, err)
		return ExitFailed
	}
	b, err := json.MarshalIndent(rec.Result, "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "runbook-temporal %s: %v\n", cmd, err)
		return ExitFailed
	}
	if quiet {
		b = nil
	}
	if run.Paused && rec.Checkpoint != nil && !quiet {
		p := rec.Checkpoint.Pause
		var names []string
		for _, k := range slices.Sorted(maps.Keys(p.Expects)) {
			names = append(names, "--answer "+k+"=…")
		}
		defer fmt.Fprintf(stderr, "runbook-temporal %s: the run waits for an answer to %q (stage %s) in workflow %s; answer it with:\n  %s %s %s\n",
			cmd, p.Question, runbook.RecordPath(p.Path), run.WorkflowID, again, strings.Join(names, " "), run.WorkflowID)
	}
	if b != nil {
		fmt.Fprintf(stdout, "%s\n", b)
	}
	code := ExitCompleted
	if s := rec.Result.Status; s != "completed" && s != "paused" {
		code = ExitFailed
	}
	if recordFile != "" {
		if err := record.WriteBytes(recordFile, run.Record); err != nil { // sealed, as a local run's
			fmt.Fprintf(stderr, "runbook-temporal %s: %v\n", cmd, err)
			return ExitFailed
		}
	}
	return code
}

// runWorker polls the task queue until ctx ends or the process is asked to
// stop (SIGINT, SIGTERM).
func runWorker(ctx context.Context, c client.Client, q string, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	w := NewWorker(c, q)
	if err := w.Start(); err != nil {
		fmt.Fprintf(stderr, "runbook-temporal worker: %v\n", err)
		return ExitFailed
	}
	fmt.Fprintf(stderr, "runbook-temporal worker: polling task queue %q\n", queue(q))
	<-ctx.Done()
	w.Stop()
	return ExitCompleted
}

// quietLogger is the SDK's log as warnings and errors only, on stderr:
// its per-activity debug lines are not the command's output.
func quietLogger(w io.Writer) log.Logger {
	return log.NewStructuredLogger(slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn})))
}

// inputFlags are --input name=value, repeatable; the value stays a string
// (the run converts it to the input's declared type).
// giveAgain says how a secret input the resume must be given again is
// given: the refusal said only that the record does not keep it, and the
// command the paused run printed had named the answers alone.
func giveAgain(ie *runbook.InputError) string {
	if ie.Fix != runbook.FixGiveAgain {
		return ""
	}
	return fmt.Sprintf("; give it again in a file only you can read ({%q: …}): runbook resume --inputs FILE, runbook-temporal resume --answers FILE (on the command line it would be in argv, where ps shows it)", ie.Input)
}

type inputFlags struct{ m map[string]any }

func (f *inputFlags) String() string { return "" }

// with is the inputs of the JSON object in file (none when file is ""),
// each --input over it, as runbook exec takes --inputs and --input; flag
// is the file's flag (--inputs, or resume's --answers), as errors name it.
func (f *inputFlags) with(flag, file string) (map[string]any, error) {
	if file == "" {
		return f.m, nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	// Numbers decode as a local run's --inputs decodes them
	// (runbook.Inputs), and reach the workflow the same way.
	var m runbook.Inputs
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&m); err != nil || m == nil {
		return nil, fmt.Errorf("%s %s: want a JSON object of inputs ({\"host\": \"db-1\"}): %v", flag, file, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s %s: want one JSON object of inputs, found more after it", flag, file)
	}
	maps.Copy(m, f.m)
	return m, nil
}

func (f *inputFlags) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return errors.New("want name=value")
	}
	if f.m == nil {
		f.m = map[string]any{}
	}
	f.m[k] = v
	return nil
}
