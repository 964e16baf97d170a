package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/openrunbook/runbook/plugins/host"
	"github.com/openrunbook/runbook/plugins/sdk"
	"github.com/openrunbook/runbook/runbook"
)

// honestyPluginCmd is the hidden subcommand that serves the built-in
// honesty stages as a plugin process: `runbook exec` re-executes its own
// binary with it, so `go run ./cmd/runbook` needs nothing else built.
const honestyPluginCmd = "__honesty-plugin"

// pluginDirHint is how a user gives a plugin directory: what a "plugin
// not found" error says when none was given.
const pluginDirHint = "--plugin-dir or RUNBOOK_PLUGIN_DIR"

// addPluginDirFlag declares --plugin-dir, the same on every command that
// finds a chart's plugins (exec, plan, validate).
func addPluginDirFlag(fl *pflag.FlagSet, dir *string) {
	fl.StringVar(dir, "plugin-dir", os.Getenv("RUNBOOK_PLUGIN_DIR"), "look for stage plugins the chart does not map in this `DIR`, as runbook-plugin-NAME (default $RUNBOOK_PLUGIN_DIR)")
}

// pluginFlags are exec's plugin flags.
type pluginFlags struct {
	dir     string // --plugin-dir (default $RUNBOOK_PLUGIN_DIR)
	honesty string // --honesty plugin|inprocess
}

func addPluginFlags(fl *pflag.FlagSet, f *pluginFlags) {
	addPluginDirFlag(fl, &f.dir)
	fl.StringVar(&f.honesty, "honesty", "plugin", "run the honesty stages as a plugin process (plugin) or in this process (inprocess); the result is the same")
}

// pluginOptions turns exec's plugin flags into run options; h is where the
// honesty stages run, as startHonesty chose.
func pluginOptions(f pluginFlags, h runbook.Honesty) []runbook.ExecOption {
	opts := []runbook.ExecOption{runbook.WithHonestyVia(h), runbook.WithPluginDirHint(pluginDirHint)}
	if f.dir != "" {
		opts = append(opts, runbook.WithPluginDir(f.dir))
	}
	return opts
}

// startHonesty readies the honesty stages --honesty asks for: in this
// process, or a plugin process serving them from this binary, started here,
// as early as exec and resume can, so its start overlaps with loading the
// chart rather than competing with the run for the cores. The caller calls
// stop on every path; it waits until the process is gone.
func startHonesty(f pluginFlags, logger *slog.Logger) (h runbook.Honesty, stop func(), err error) {
	switch f.honesty {
	case "inprocess":
		return runbook.InProcess(), func() {}, nil
	case "plugin", "":
		exe, err := os.Executable()
		if err != nil {
			return nil, nil, fmt.Errorf("--honesty=plugin: cannot find this binary to serve the honesty plugin: %v (use --honesty=inprocess)", err)
		}
		// This binary serves this build's coverage rules: results that
		// declare nothing need no round trip.
		p := host.StartHonesty(host.Source{Name: "honesty", Path: exe, Args: []string{honestyPluginCmd}},
			host.WithSameCoverageRules(), host.WithLogger(logger))
		return p, p.Close, nil
	default:
		return nil, nil, &usageError{err: fmt.Errorf("--honesty %q: want plugin or inprocess", f.honesty), showUsage: true}
	}
}

func newHonestyPluginCmd() *cobra.Command {
	return &cobra.Command{
		Use:    honestyPluginCmd,
		Short:  "Serve the built-in honesty stages as a plugin (runbook exec starts it)",
		Hidden: true,
		Args:   args(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			sdk.ServeHonesty(runbook.InProcess())
			return nil
		},
	}
}

func newPluginsCmd(stdout, stderr io.Writer) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use: "plugins [--dir D]",
		// `runbook plugin init NAME` reads as it should.
		Aliases: []string{"plugin"},
		Short:   "List the stage plugins found, their protocol and what each declares",
		Long: `plugins lists the stage plugins in the plugin directory (--dir, default
$RUNBOOK_PLUGIN_DIR): each executable named runbook-plugin-NAME is started,
asked what it is, and stopped. For each: name, version, protocol, whether it
runs code, and its arguments (type, default). A plugin that cannot be started
is listed with the reason.`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dir == "" {
				return &usageError{err: fmt.Errorf("no plugin directory: give --dir D or set RUNBOOK_PLUGIN_DIR"), showUsage: true}
			}
			srcs, err := host.Discover(dir)
			if err != nil {
				return exit(exitFailed, "%v", err)
			}
			if len(srcs) == 0 {
				fmt.Fprintf(stderr, "runbook: no plugins in %s (executables named %sNAME)\n", dir, host.Prefix)
				return nil
			}
			return listPlugins(cmd.Context(), stdout, srcs)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", os.Getenv("RUNBOOK_PLUGIN_DIR"), "the plugin `directory` (default $RUNBOOK_PLUGIN_DIR)")
	cmd.AddCommand(newPluginsCheckCmd(stdout), newPluginInitCmd(stdout))
	return cmd
}

func listPlugins(ctx context.Context, w io.Writer, srcs []host.Source) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVERSION\tPROTOCOL\tRUNS CODE\tARGUMENTS")
	bad := 0
	for _, src := range srcs {
		line, err := describe(ctx, src)
		var named misnamed
		switch {
		case errors.As(err, &named):
			bad++
			fmt.Fprintf(tw, "%s\t-\t-\t-\trefused: %v\n", src.Name, named.err)
			continue
		case err != nil:
			bad++
			fmt.Fprintf(tw, "%s\t-\t-\t-\tcannot start: %v\n", src.Name, err)
			continue
		}
		fmt.Fprintln(tw, line)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if bad > 0 {
		return quietExit(exitFailed)
	}
	return nil
}

// misnamed is a plugin that started and described itself under another
// name than its file's (host.NameMismatch): refused, not unstartable.
type misnamed struct{ err error }

func (m misnamed) Error() string { return m.err.Error() }

func describe(ctx context.Context, src host.Source) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	p, err := host.Start(ctx, src)
	if err != nil {
		return "", err
	}
	defer p.Kill()
	st, err := p.Stage(ctx)
	if err != nil {
		return "", err
	}
	d := st.Description()
	if err := host.NameMismatch(d.Name, src.Name, src.Path, true); err != nil {
		return "", misnamed{err}
	}
	var as []string
	for _, a := range d.Args {
		as = append(as, argWords(a))
	}
	runs := "no"
	if d.RunsCode {
		runs = "yes"
	}
	return fmt.Sprintf("%s\t%s\t%d\t%s\t%s", d.Name, d.Version, p.Protocol(), runs, strings.Join(as, "; ")), nil
}
