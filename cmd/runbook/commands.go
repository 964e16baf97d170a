package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/internal/version"
	"github.com/openrunbook/runbook/record"

	"github.com/spf13/cobra"

	"github.com/openrunbook/runbook/runbook"
)

// pluginProtocol is the stage plugin protocol version this binary speaks
// (plugins.md). It lives here until the plugin host package exports its
// own; bump both together.
const pluginProtocol = 1

func newValidateCmd(stderr io.Writer) *cobra.Command {
	var allow []string
	var pluginDir string
	var noPlugins bool
	cmd := &cobra.Command{
		Use:   "validate CHART.yaml...",
		Short: "Load and check charts; print every error; run no stage",
		Long: `validate loads and checks each chart and prints every error of every file on
stderr, one a line (file:line:col: …). It runs no stage. Each stage plugin a
chart uses is started once and asked to describe itself — found where a run
would find it, its sha256 pin and version constraint held — and every plugin
stage's arguments are held to that description: each one declared, each
required one given, each literal value of a fitting type (a value computed
from the run is checked when the stage runs). --no-plugins starts none.
A valid chart prints nothing. Exit 0 when all are valid, 1 when any is not.`,
		Example: `  runbook validate examples/disk/chart.yaml
  runbook validate --plugin-dir ./bin examples/plugins/file-age/chart.yaml`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, paths []string) error {
			bad := 0
			for _, p := range paths {
				rb, ok := load(p, allow, stderr)
				if !ok {
					bad++
					continue
				}
				if noPlugins {
					continue
				}
				if errs := rb.CheckPlugins(cmd.Context(), pluginDir, pluginDirHint); len(errs) > 0 {
					printLoadError(stderr, p, errs)
					bad++
				}
			}
			if bad > 0 {
				return quietExit(exitFailed)
			}
			return nil
		},
	}
	allowChartPath(cmd.Flags(), &allow)
	addPluginDirFlag(cmd.Flags(), &pluginDir)
	cmd.Flags().BoolVar(&noPlugins, "no-plugins", false, "start no stage plugin: check the chart alone")
	return cmd
}

func newGraphCmd(stdout io.Writer) *cobra.Command {
	var format string
	var allow []string
	cmd := &cobra.Command{
		Use:   "graph CHART.yaml",
		Short: "Draw the chart's structure (Mermaid or DOT)",
		Args:  args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, a []string) error {
			var draw func(*runbook.Runbook) string
			switch format {
			case "mermaid":
				draw = func(rb *runbook.Runbook) string { return rb.Chart().Mermaid() }
			case "dot":
				draw = func(rb *runbook.Runbook) string { return rb.Chart().DOT() }
			default:
				return &usageError{err: fmt.Errorf("--format %q: want mermaid or dot", format), showUsage: true}
			}
			rb, ok := load(a[0], allow, cmd.ErrOrStderr())
			if !ok {
				return quietExit(exitUsage)
			}
			out := draw(rb)
			if !strings.HasSuffix(out, "\n") {
				out += "\n"
			}
			_, err := io.WriteString(stdout, out)
			return err
		},
	}
	cmd.Flags().StringVar(&format, "format", "mermaid", "drawing format: mermaid or dot")
	allowChartPath(cmd.Flags(), &allow)
	return cmd
}

func newSchemaCmd(stdout io.Writer) *cobra.Command {
	var ofRecord bool
	cmd := &cobra.Command{
		Use:   "schema",
		Short: "Print the chart JSON Schema (or, with --record, the run record's)",
		Args:  args(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			s := chart.ChartSchema()
			if ofRecord {
				s = record.RecordSchema()
			}
			if len(s) > 0 && s[len(s)-1] != '\n' {
				s = append(s[:len(s):len(s)], '\n')
			}
			_, err := stdout.Write(s)
			return err
		},
	}
	cmd.Flags().BoolVar(&ofRecord, "record", false, "print the run record's schema instead (its version is the record's)")
	return cmd
}

func newVersionCmd(stdout io.Writer) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the runbook, Go and plugin protocol versions",
		Long: `version prints the runbook release, the Go version that built it and the
stage plugin protocol it speaks; runbook --version prints the same. With
-o json it also gives what the build info says: the module's path and
version and the VCS revision the binary was built at (with its time, and
whether the checkout had uncommitted changes).`,
		Args: args(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			switch format {
			case "text":
				_, err := io.WriteString(stdout, versionText())
				return err
			case "json":
				b := version.Current()
				return writeJSON(stdout, struct {
					version.Build
					PluginProtocol int `json:"pluginProtocol"`
				}{b, pluginProtocol}, "  ")
			}
			return &usageError{err: fmt.Errorf("--format %q: want text or json", format), showUsage: true}
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output `format`: text or json")
	return cmd
}

// versionText is what `runbook version` and `runbook --version` print.
func versionText() string {
	return fmt.Sprintf("runbook: %s\ngo: %s\nplugin protocol: %d\n",
		runbook.Version, runtime.Version(), pluginProtocol)
}
