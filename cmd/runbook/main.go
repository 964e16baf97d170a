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
// judges it); bad usage, a chart that does not load and bad inputs exit
// 3, UNKNOWN, with a status line on stdout (the error stays on stderr).
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
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/openrunbook/runbook/internal/suggest"
	"github.com/openrunbook/runbook/internal/version"
)

// Exit codes (cli.md).
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
	exitFailOn = 3
	// exitUnsound is explain's answer from a record that is not sound:
	// its seal does not hold, or parts of it could not be read.
	exitUnsound     = 4
	exitInterrupted = 130
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line args and returns the process exit code.
//
// A Nagios check (exec or resume with --format nagios) that ends before
// it printed its state — a chart that does not load, a bad flag or input
// — exits 3, UNKNOWN, with a status line saying why (refusedCheck): the
// plugin API's answer to invalid arguments. Its 2 read as CRITICAL. A
// check's stderr is held until its stdout is written (heldStderr), so the
// status line is the first line where stderr and stdout are read as one.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	check := nagiosCheck(newRootCmd(io.Discard, io.Discard), args)
	out, errs := &countingWriter{w: stdout}, &heldStderr{w: stderr}
	if check {
		stdout, stderr = out, errs
		defer errs.release() // after the status line, whatever it is
	}
	root := newRootCmd(stdout, stderr)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	code := report(cmd, err, stderr)
	if check && out.written() == 0 {
		return refusedCheck(out, code, errs.text())
	}
	return code
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

// usageError is a command line cobra or we refused: a bad flag, a bad
// flag value or a bad argument count. Every one prints the same short form
// (cli.md Habits): the error and one line pointing at --help, never the
// whole usage. showUsage says the refusal is of the command line's shape;
// it is kept so that every caller words its refusal the same way, and
// report treats both alike.
type usageError struct {
	err       error
	showUsage bool
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// report prints err on stderr and returns its exit code. Errors cobra
// returns untyped (an unknown command) are usage errors: the error, a
// "did you mean" when a command is near, and where the help is.
func report(cmd *cobra.Command, err error, stderr io.Writer) int {
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(stderr, "runbook: %v\n", ee.err)
		}
		return ee.code
	}
	msg := err.Error()
	if cmd != nil && strings.HasPrefix(msg, "unknown command ") {
		msg += nearCommand(cmd, msg)
	}
	fmt.Fprintf(stderr, "Error: %s\n", msg)
	if cmd != nil {
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
answer can be trusted.

A chart's format is described in docs/CHARTS.md; runbook schema prints its
JSON Schema. Shell completion: runbook completion bash|zsh|fish|powershell.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// report says "did you mean" through suggest.Nearest, the one
		// home of that closeness rule, not cobra's own.
		DisableSuggestions: true,
		// --version prints what `runbook version` prints (the template).
		Version: version.Release,
	}
	root.Flags().Bool("version", false, "print what runbook version prints")
	root.SetVersionTemplate(versionText())
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &usageError{err: nearFlag(c, err), showUsage: true}
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
		newTestCmd(stdout, stderr),   // test.go
		newPlanCmd(stdout, stderr),   // plan.go
		newInitCmd(stdout),           // init.go
		newMCPCmd(stderr),            // mcp.go
		newWorkerCmd(stdout, stderr), // temporal.go
	)
	shortFormat(root)
	return root
}

// shortFormat gives --format the short form -o on c and every command
// under it that has one (cli.md Habits), so that a command added later
// cannot miss it. pflag files a short form only when a flag is added, so
// the command's flags are added again, the same *pflag.Flag values (their
// completion functions and annotations stay theirs), with the short form.
func shortFormat(c *cobra.Command) {
	fl := c.Flags()
	if f := fl.Lookup("format"); f != nil && f.Shorthand == "" && fl.ShorthandLookup("o") == nil {
		var local, persistent []*pflag.Flag
		fl.VisitAll(func(f *pflag.Flag) { local = append(local, f) })
		c.PersistentFlags().VisitAll(func(f *pflag.Flag) { persistent = append(persistent, f) })
		c.ResetFlags()
		f.Shorthand = "o"
		for _, f := range local {
			c.Flags().AddFlag(f)
		}
		for _, f := range persistent {
			c.PersistentFlags().AddFlag(f)
		}
	}
	for _, sub := range c.Commands() {
		shortFormat(sub)
	}
}

// nearFlag adds "did you mean --xyz?" to pflag's refusal of an unknown flag
// when one of the command's flags is near: `--formt` → --format, and
// `-input` (one dash, read as the short flags i, n, p…) → --input.
func nearFlag(c *cobra.Command, err error) error {
	msg := err.Error()
	var written string
	switch {
	case strings.HasPrefix(msg, "unknown flag: --"):
		written = strings.TrimPrefix(msg, "unknown flag: --")
	case strings.HasPrefix(msg, "unknown shorthand flag: "):
		// "unknown shorthand flag: 'i' in -input"
		if i := strings.LastIndex(msg, " in -"); i >= 0 {
			written = msg[i+len(" in -"):]
		}
	default:
		return err
	}
	written, _, _ = strings.Cut(written, "=")
	if written == "" {
		return err
	}
	var names []string
	add := func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	}
	c.Flags().VisitAll(add)
	c.InheritedFlags().VisitAll(add)
	near := suggest.Nearest(written, names)
	if other, ok := otherToolsFlags[written]; near == "" && ok && slices.Contains(names, other) {
		near = other
	}
	if near == "" {
		return err
	}
	return fmt.Errorf("%w (did you mean --%s?)", err, near)
}

// otherToolsFlags are flags other tools name otherwise, with this CLI's
// name for each: kubectl's and helm's -o is --output, here --format, and
// no spelling is near the other.
var otherToolsFlags = map[string]string{"output": "format"}

// nearCommand is " (did you mean \"exec\"?)" for cobra's `unknown command
// "exce" for "runbook"` when a command of root's is near, else "".
func nearCommand(root *cobra.Command, msg string) string {
	var written string
	if _, err := fmt.Sscanf(msg, "unknown command %q", &written); err != nil || written == "" {
		return ""
	}
	var names []string
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	if near := suggest.Nearest(written, names); near != "" {
		return fmt.Sprintf(" (did you mean %q?)", near)
	}
	return ""
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
