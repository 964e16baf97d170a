package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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

// passedToTemporal are exec's own flags runbook-temporal exec takes too,
// and resumePassedToTemporal resume's that runbook-temporal resume takes.
var (
	passedToTemporal       = []string{"input", "record"}
	resumePassedToTemporal = []string{"input", "record", "reject", "answered-by"}
)

// checkExecutor refuses an unknown --executor, Temporal's flags on a local
// run, and on a Temporal run the flags runbook-temporal does not take
// (it prints the result record as JSON and has no renderers, gates or
// plugins yet): a flag that would be dropped silently is a lie.
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
		return &usageError{err: fmt.Errorf("%s: not with --executor temporal yet (it takes %s, and prints the result record as JSON; docs/SCALE.md)", strings.Join(refused, ", "), strings.Join(takes, ", ")), showUsage: true}
	}
	return nil
}

// execOnTemporal is `runbook exec --executor temporal`: runbook-temporal
// exec with the same chart, inputs and record file.
func execOnTemporal(ctx context.Context, path string, f execFlags, t temporalFlags, stdout, stderr io.Writer) error {
	a := append([]string{"exec"}, t.args()...)
	for _, in := range f.inputs {
		a = append(a, "--input", in)
	}
	if f.record != "" {
		a = append(a, "--record", f.record)
	}
	return handOff(ctx, append(a, "--", path), stdout, stderr)
}

// resumeOnTemporal is `runbook resume --executor temporal WORKFLOW_ID`:
// runbook-temporal resume, each --input an answer.
func resumeOnTemporal(ctx context.Context, workflowID string, f resumeFlags, t temporalFlags, stdout, stderr io.Writer) error {
	a := append([]string{"resume"}, t.args()...)
	for _, in := range f.inputs {
		a = append(a, "--answer", in)
	}
	if f.reject != "" {
		a = append(a, "--reject", f.reject)
	}
	if f.answeredBy != "" {
		a = append(a, "--answered-by", f.answeredBy)
	}
	if f.record != "" {
		a = append(a, "--record", f.record)
	}
	return handOff(ctx, append(a, "--", workflowID), stdout, stderr)
}

func newWorkerCmd(stdout, stderr io.Writer) *cobra.Command {
	var t temporalFlags
	cmd := &cobra.Command{
		Use:   "worker --temporal ADDR [--task-queue Q] [--namespace NS]",
		Short: "Run the Temporal workflows and exec stages of a task queue on this machine",
		Long: `worker polls a Temporal task queue and runs what runbook runs put there:
the charts' workflows and their exec and read: stages' commands, on this
machine, until interrupted. Start runs with runbook exec --executor temporal.

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
			return handOff(cmd.Context(), append([]string{"worker"}, t.args()...), stdout, stderr)
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
func handOff(ctx context.Context, a []string, stdout, stderr io.Writer) error {
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
	// A stop asked of this process is passed on, so that a supervisor
	// signalling only runbook stops the worker and leaves no orphan; the
	// exit is then runbook-temporal's.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	if err := c.Start(); err != nil {
		return exit(exitUsage, "start %s: %v", bin, err)
	}
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
