package main

// The habits of a Go CLI (cli.md "Second wave" → Habits, issue 15): one
// test per habit, each against the built binary as a real process.

import (
	"debug/buildinfo"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/openrunbook/runbook/internal/version"
)

// allCommands is c and every command under it.
func allCommands(c *cobra.Command) []*cobra.Command {
	out := []*cobra.Command{c}
	for _, sub := range c.Commands() {
		out = append(out, allCommands(sub)...)
	}
	return out
}

// TestHabitCompletion: `runbook completion SHELL` prints cobra's script for
// each shell, on stdout, and bash's script parses as bash.
func TestHabitCompletion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		shell string
		want  string // a line only that shell's script has
	}{
		{"bash", "complete -o default -F __start_runbook runbook"},
		{"zsh", "#compdef runbook"},
		{"fish", "complete -c runbook"},
		{"powershell", "Register-ArgumentCompleter"},
	}
	for _, tc := range tests {
		t.Run(tc.shell, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			r := runCLI(t, dir, "completion", tc.shell)
			if r.code != 0 || r.stderr != "" {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			if !strings.Contains(r.stdout, tc.want) {
				t.Fatalf("the %s script lacks %q:\n%.400s", tc.shell, tc.want, r.stdout)
			}
			if tc.shell == "bash" {
				if _, err := exec.LookPath("bash"); err == nil {
					check := exec.Command("bash", "-n")
					check.Stdin = strings.NewReader(r.stdout)
					if out, err := check.CombinedOutput(); err != nil {
						t.Fatalf("bash -n refuses the script: %v\n%s", err, out)
					}
				}
			}
		})
	}
	// The completion cobra answers is of this command tree: exec's flags.
	r := runCLI(t, t.TempDir(), "__complete", "exec", "x.yaml", "--fo")
	if r.code != 0 || !strings.Contains(r.stdout, "--format") {
		t.Errorf("__complete exec --fo: exit %d, stdout %q", r.code, r.stdout)
	}
}

// TestHabitVersion: --version on the root prints what `runbook version`
// prints, and `version -o json` adds what the binary's build info says
// (read here with debug/buildinfo, the toolchain's reader, not ours).
func TestHabitVersion(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	plain := runCLI(t, dir, "version")
	flag := runCLI(t, dir, "--version")
	if plain.code != 0 || flag.code != 0 || plain.stdout == "" || flag.stdout != plain.stdout {
		t.Fatalf("--version (exit %d):\n%s\nversion (exit %d):\n%s", flag.code, flag.stdout, plain.code, plain.stdout)
	}

	bi, err := buildinfo.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	var revision string
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" {
			revision = s.Value
		}
	}
	for _, form := range [][]string{{"version", "-o", "json"}, {"version", "--format=json"}} {
		r := runCLI(t, dir, form...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d: %s", form, r.code, r.stderr)
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
			t.Fatalf("%v: not JSON: %v\n%s", form, err, r.stdout)
		}
		want := map[string]any{
			"release":        version.Release,
			"go":             bi.GoVersion,
			"module":         "github.com/openrunbook/runbook",
			"moduleVersion":  bi.Main.Version,
			"pluginProtocol": float64(pluginProtocol),
		}
		if revision != "" {
			want["revision"] = revision
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%v: %s = %v, want %v", form, k, got[k], v)
			}
		}
		if _, ok := got["revision"]; ok != (revision != "") {
			t.Errorf("%v: revision %v, build info's %q", form, got["revision"], revision)
		}
	}
	if r := runCLI(t, dir, "version", "-o", "yaml"); r.code != exitUsage || !strings.Contains(r.stderr, "want text or json") {
		t.Errorf("version -o yaml: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestHabitShortFormat: every command with --format takes -o for it, and
// --format still works; the help shows both.
func TestHabitShortFormat(t *testing.T) {
	t.Parallel()
	root := newRootCmd(nil, nil)
	var with []string
	for _, c := range allCommands(root) {
		f := c.Flags().Lookup("format")
		if f == nil {
			continue
		}
		with = append(with, c.CommandPath())
		if f.Shorthand != "o" || c.Flags().ShorthandLookup("o") != f {
			t.Errorf("%s: --format has short form %q, want o", c.CommandPath(), f.Shorthand)
		}
	}
	for _, must := range []string{"runbook exec", "runbook resume", "runbook graph", "runbook explain", "runbook version", "runbook test"} {
		if !contains(with, must) {
			t.Errorf("%s has no --format (commands with one: %v)", must, with)
		}
	}

	dir := t.TempDir()
	chart := writeChart(t, dir, "tiny.yaml", tinyChart)
	for _, form := range [][]string{{"-o", "json"}, {"--format", "json"}, {"-ojson"}, {"--format=json"}} {
		r := runCLI(t, dir, append([]string{"exec", chart, "--input", "used=95"}, form...)...)
		var rec map[string]any
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &rec) != nil || rec["status"] != "completed" {
			t.Errorf("exec %v: exit %d, stdout %.200q, stderr %q", form, r.code, r.stdout, r.stderr)
		}
	}
	if r := runCLI(t, dir, "graph", chart, "-o", "dot"); r.code != 0 || !strings.HasPrefix(r.stdout, "digraph") {
		t.Errorf("graph -o dot: exit %d, stdout %.100q", r.code, r.stdout)
	}
	if r := runCLI(t, dir, "exec", "-h"); !strings.Contains(r.stdout, "-o, --format") {
		t.Errorf("exec -h does not show -o, --format:\n%s", r.stdout)
	}
}

// TestHabitShortUsageErrors: a usage error prints the error and one line
// pointing at --help, never the whole usage; an unknown flag or command
// near a known one gets "did you mean".
func TestHabitShortUsageErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "tiny.yaml", tinyChart)
	tests := []struct {
		name string
		args []string
		want string // the whole of stderr
	}{
		{"misspelt flag", []string{"exec", chart, "--formt", "json"},
			"Error: unknown flag: --formt (did you mean --format?)\nRun 'runbook exec --help' for usage.\n"},
		{"one dash for a long flag", []string{"exec", chart, "-input", "used=1"},
			"Error: unknown shorthand flag: 'i' in -input (did you mean --input?)\nRun 'runbook exec --help' for usage.\n"},
		{"misspelt flag with a value", []string{"resume", "r.json", "--answerd-by=ann"},
			"Error: unknown flag: --answerd-by (did you mean --answered-by?)\nRun 'runbook resume --help' for usage.\n"},
		{"nothing near", []string{"exec", chart, "--zzzzzz"},
			"Error: unknown flag: --zzzzzz\nRun 'runbook exec --help' for usage.\n"},
		{"misspelt command", []string{"exce", chart},
			"Error: unknown command \"exce\" for \"runbook\" (did you mean \"exec\"?)\nRun 'runbook --help' for usage.\n"},
		{"wrong argument count", []string{"exec"},
			"Error: accepts 1 arg(s), received 0\nRun 'runbook exec --help' for usage.\n"},
		{"bad format", []string{"exec", chart, "-o", "jsn"},
			"Error: --format \"jsn\": did you mean \"json\"? (formats: text, json, ndjson, markdown, nagios)\nRun 'runbook exec --help' for usage.\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := runCLI(t, dir, tc.args...)
			if r.code != exitUsage || r.stdout != "" {
				t.Errorf("exit %d, stdout %q; want 2 and nothing", r.code, r.stdout)
			}
			if r.stderr != tc.want {
				t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, tc.want)
			}
		})
	}
}
