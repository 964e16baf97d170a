package temporal

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
)

// Exit codes of Main, as `runbook exec` gives them.
const (
	ExitCompleted = 0 // the run completed (or paused at an ask:)
	ExitFailed    = 1 // the run failed or was cancelled, or its record could not be saved
	ExitUsage     = 2 // bad usage, a chart that does not load, bad inputs, no server
)

const usage = `runbook-temporal runs runbooks on Temporal (docs/SCALE.md).

  runbook-temporal exec --temporal ADDR [--namespace NS] [--task-queue Q] [--input name=value]... [--record FILE] CHART
      run CHART as one workflow; print its result record as JSON; with
      --record, save the run record (for runbook explain) to FILE
  runbook-temporal worker --temporal ADDR [--namespace NS] [--task-queue Q]
      run the workflows and the exec stages' processes of that task queue,
      on this machine, until interrupted
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
	var inputs inputFlags
	var recordFile *string
	switch args[0] {
	case "exec":
		fs.Var(&inputs, "input", "an input as name=value (repeatable)")
		recordFile = fs.String("record", "", "write the full run record to FILE")
	case "worker":
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return ExitCompleted
	default:
		fmt.Fprintf(stderr, "runbook-temporal: unknown command %q\n\n%s", args[0], usage)
		return ExitUsage
	}
	if err := fs.Parse(args[1:]); err != nil {
		return ExitUsage
	}
	if *addr == "" {
		fmt.Fprintf(stderr, "runbook-temporal %s: --temporal ADDR is required (the Temporal frontend, host:port)\n", args[0])
		return ExitUsage
	}
	c, err := client.DialContext(ctx, client.Options{HostPort: *addr, Namespace: *ns, Logger: quietLogger(stderr)})
	if err != nil {
		fmt.Fprintf(stderr, "runbook-temporal: connect to Temporal at %s: %v\n", *addr, err)
		return ExitUsage
	}
	defer c.Close()
	if args[0] == "worker" {
		if fs.NArg() != 0 {
			fmt.Fprintf(stderr, "runbook-temporal worker: takes no arguments, got %q\n", fs.Args())
			return ExitUsage
		}
		return runWorker(ctx, c, *q, stderr)
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "runbook-temporal exec: wants one CHART, got %d arguments\n", fs.NArg())
		return ExitUsage
	}
	return execChart(ctx, &Executor{Client: c, TaskQueue: *q}, fs.Arg(0), inputs.m, *recordFile, stdout, stderr)
}

func execChart(ctx context.Context, ex *Executor, path string, inputs map[string]any, recordFile string, stdout, stderr io.Writer) int {
	run, err := ex.ExecFile(ctx, path, inputs)
	if err != nil {
		fmt.Fprintf(stderr, "runbook-temporal exec: %v\n", err)
		return ExitUsage
	}
	rec, err := run.RunRecord()
	if err != nil {
		fmt.Fprintf(stderr, "runbook-temporal exec: %v\n", err)
		return ExitFailed
	}
	b, err := json.MarshalIndent(rec.Result, "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "runbook-temporal exec: %v\n", err)
		return ExitFailed
	}
	fmt.Fprintf(stdout, "%s\n", b)
	code := ExitCompleted
	if s := rec.Result.Status; s != "completed" && s != "paused" {
		code = ExitFailed
	}
	if recordFile != "" {
		if err := os.WriteFile(recordFile, run.Record, 0o600); err != nil {
			fmt.Fprintf(stderr, "runbook-temporal exec: %v\n", err)
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
type inputFlags struct{ m map[string]any }

func (f *inputFlags) String() string { return "" }

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
