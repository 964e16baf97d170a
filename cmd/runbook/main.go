// Command runbook runs, checks and draws runbook charts (chart.yaml).
//
// It is the CLI only: flags, formats and exit codes. Everything a library
// user would also need lives in package runbook; this command parses the
// command line, calls the library and renders its result record.
//
// It owns one rule, the exit code (cli.md):
//
//	0    the run completed, or paused at an ask: with its record written
//	1    the run failed or was cancelled by --timeout; validate found errors
//	2    bad usage, a chart that does not load, bad inputs
//	3    the run completed (or paused) and a --fail-on condition holds: the
//	     run worked and the answer is bad (3 means nothing else)
//	130  interrupted (SIGINT, SIGTERM or SIGHUP): children stopped, partial record written
//
// Under --format nagios a run that started exits as its check state, the
// plugin API's 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN (internal/gate
// judges it); bad usage, a chart that does not load and bad inputs still
// exit 2.
//
// Nothing but the result goes to stdout; errors, warnings and progress go to
// stderr.
//
// Example:
//
//	$ runbook exec disk.yaml --input host=db-1 --format json > result.json
//	$ echo $?
//	0
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

// Exit codes (cli.md).
const (
	exitOK          = 0
	exitFailed      = 1
	exitUsage       = 2
	exitFailOn      = 3
	exitInterrupted = 130
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line args and returns the process exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	root := newRootCmd(stdout, stderr)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	return report(cmd, err, stderr)
}

// exitError ends the command with a code; its message (when any) has
// already been printed, or is printed by report.
type exitError struct {
	code int
	err  error // nil: nothing more to print
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// exit returns an exitError with a message to print on stderr.
func exit(code int, format string, a ...any) error {
	return &exitError{code: code, err: fmt.Errorf(format, a...)}
}

// quietExit returns an exitError whose explanation is already on stderr.
func quietExit(code int) error { return &exitError{code: code} }

// usageError is a command line cobra or we refused: a bad flag (shown with
// the command's usage) or a bad argument count.
type usageError struct {
	err       error
	showUsage bool
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// report prints err on stderr and returns its exit code. Errors cobra
// returns untyped (an unknown command) are usage errors.
func report(cmd *cobra.Command, err error, stderr io.Writer) int {
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(stderr, "runbook: %v\n", ee.err)
		}
		return ee.code
	}
	fmt.Fprintf(stderr, "Error: %v\n", err)
	var ue *usageError
	if errors.As(err, &ue) && ue.showUsage && cmd != nil {
		fmt.Fprint(stderr, cmd.UsageString())
	} else if cmd != nil {
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
	}
	return exitUsage
}

// newRootCmd builds the command tree writing to stdout and stderr.
func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "runbook",
		Short: "Run explainable runbooks",
		Long: `runbook runs charts (chart.yaml): stages that collect, decide and classify,
and prints the result with the evidence behind it: the verdicts and what they
mean, what was and was not checked, how each script ended, and how far the
answer can be trusted.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// No completion subcommand: its output would be a second kind of stdout.
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &usageError{err: err, showUsage: true}
	})
	root.AddCommand(
		newExecCmd(stdout, stderr),
		newValidateCmd(stderr),
		newGraphCmd(stdout),
		newSchemaCmd(stdout),
		newExplainCmd(stdout, stderr), // explain.go
		newResumeCmd(stdout, stderr),  // resume.go
		newVersionCmd(stdout),
		newPluginsCmd(stdout, stderr),
		newHonestyPluginCmd(),
		newTestCmd(stdout, stderr), // test.go
		newMCPCmd(stderr),          // mcp.go
	)
	return root
}

// args wraps a cobra argument check so that a wrong count is a usage error.
func args(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, a []string) error {
		if err := check(cmd, a); err != nil {
			return &usageError{err: err, showUsage: true}
		}
		return nil
	}
}
