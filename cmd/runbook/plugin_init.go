package main

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"text/template"

	"github.com/spf13/cobra"
)

// pluginStarter is what `runbook plugin init` writes: a plugin module whose
// test (TestIssue17PluginInitBuildsAndTests) builds it and runs its go test
// as generated.
//
//go:embed plugin_starter/*.tmpl
var pluginStarter embed.FS

// pluginStarterFiles: template → file written, in the order written.
var pluginStarterFiles = [][2]string{
	{"go.mod.tmpl", "go.mod"},
	{"main.go.tmpl", "main.go"},
	{"main_test.go.tmpl", "main_test.go"},
	{"README.md.tmpl", "README.md"},
}

var rePluginName = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

func newPluginInitCmd(stdout io.Writer) *cobra.Command {
	var module, replace string
	cmd := &cobra.Command{
		Use:   "init NAME [DIR]",
		Short: "Write a stage plugin module: go.mod, main.go, a test through the real host, README",
		Long: `init writes a Go module for a stage plugin called NAME into DIR (default
runbook-plugin-NAME; made if missing): go.mod, main.go with one stage,
main_test.go (sdk.TestServe, and sdktest.Run through the real host) and a
README. It never overwrites a file. --replace points the runbook module at
a local checkout (a replace directive), for working against unreleased SDK
changes.`,
		Example: `  runbook plugin init http-probe && cd runbook-plugin-http-probe && go test ./...`,
		Args:    args(cobra.RangeArgs(1, 2)),
		RunE: func(_ *cobra.Command, a []string) error {
			name := a[0]
			if !rePluginName.MatchString(name) {
				return exit(exitUsage, "plugin init: name %q: want lower-case letters, digits and dashes, starting with a letter (such as http-probe)", name)
			}
			dir := "runbook-plugin-" + name
			if len(a) == 2 {
				dir = a[1]
			}
			if module == "" {
				module = "example.com/runbook-plugin-" + name
			}
			if replace != "" {
				abs, err := filepath.Abs(replace)
				if err != nil {
					return exit(exitUsage, "plugin init: --replace: %v", err)
				}
				replace = abs
			}
			return initPlugin(stdout, dir, pluginTemplateData{Name: name, Module: module, Replace: replace, Go: goLine(), Version: runbookVersion()})
		},
	}
	cmd.Flags().StringVar(&module, "module", "", "the module `path` (default example.com/runbook-plugin-NAME)")
	cmd.Flags().StringVar(&replace, "replace", "", "point github.com/openrunbook/runbook at this local checkout `DIR`")
	return cmd
}

type pluginTemplateData struct {
	Name, Module, Replace, Go, Version string
}

func initPlugin(stdout io.Writer, dir string, data pluginTemplateData) error {
	for _, f := range pluginStarterFiles {
		p := filepath.Join(dir, f[1])
		if _, err := os.Lstat(p); err == nil {
			return exit(exitUsage, "plugin init: %s already exists: init writes only new files and wrote none; give another DIR", p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return exit(exitUsage, "plugin init: %s: %v", p, err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return exit(exitFailed, "plugin init: %v", err)
	}
	var wrote []string
	for _, f := range pluginStarterFiles {
		tmpl, err := template.ParseFS(pluginStarter, "plugin_starter/"+f[0])
		if err != nil {
			return exit(exitFailed, "plugin init: %v", err) // the build embeds every template
		}
		var b bytes.Buffer
		if err := tmpl.Execute(&b, data); err != nil {
			return exit(exitFailed, "plugin init: %s: %v", f[0], err)
		}
		p := filepath.Join(dir, f[1])
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			return exit(exitFailed, "plugin init: %v (wrote %s)", err, strings.Join(append(wrote, "nothing else"), ", "))
		}
		wrote = append(wrote, p)
	}
	fmt.Fprintf(stdout, "wrote %s\n", strings.Join(wrote, ", "))
	replace := ""
	if data.Replace == "" && data.Version == devVersion {
		// No released module is v0.0.0: go mod tidy would ask the proxy for
		// it and fail, so the first step is the replace --replace writes.
		fmt.Fprintf(stdout, "this runbook is a development build: go.mod requires github.com/openrunbook/runbook %s, which no public proxy serves; point it at your runbook checkout first (or init again with --replace DIR)\n", devVersion)
		replace = "  go mod edit -replace github.com/openrunbook/runbook=/PATH/TO/runbook\n"
	}
	fmt.Fprintf(stdout, "next:\n  cd %s\n%s  go mod tidy\n  go test ./...\n  go build -o runbook-plugin-%s . && runbook plugins check ./runbook-plugin-%s\n", dir, replace, data.Name, data.Name)
	return nil
}

// goLine is the go directive for the module: this toolchain's language
// version (go1.26.8 → 1.26).
func goLine() string {
	v := strings.TrimPrefix(runtime.Version(), "go")
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return "1.26"
	}
	return parts[0] + "." + strings.TrimFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' })
}

// devVersion is what a development build requires: no release has it.
const devVersion = "v0.0.0"

// runbookVersion is the runbook module version this binary was built at,
// or devVersion for a development build (then use --replace).
func runbookVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return devVersion
}
