package main

// The habits of a Go CLI (cli.md "Second wave" → Habits, issue 15): one
// test per habit, each against the built binary as a real process.

import (
	"bytes"
	"context"
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/spf13/cobra"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/internal/display"
	"github.com/openrunbook/runbook/internal/golden"
	"github.com/openrunbook/runbook/internal/parse"
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

// ptyRun runs the binary in dir with stdout and stderr on one
// pseudo-terminal of cols columns, and returns what the terminal showed
// (\r\n read as \n) and the exit code.
func ptyRun(t *testing.T, dir string, cols uint16, env []string, args ...string) (string, int) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: cols}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close() // the child holds it now; the master reads EOF (EIO) when it exits
	var out bytes.Buffer
	read := make(chan struct{})
	go func() {
		defer close(read)
		_, _ = io.Copy(&out, ptmx) // ends with EIO on Linux once the child is gone
	}()
	err = cmd.Wait()
	<-read
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(out.String(), "\r\n", "\n"), code
}

// napsChart is a foreach of 12 items, each an exec of sleep for a longer
// time than the one before, so that its branches end one after another
// over about three seconds.
const napsChart = `
version: 1
runbook: naps
stages:
  - id: plan
    set:
      naps: '[0.3, 0.5, 0.7, 0.9, 1.1, 1.3, 1.5, 1.7, 1.9, 2.1, 2.3, 2.5]'
  - id: each
    foreach:
      items: naps
      as: nap
      maxBranches: 20
      stages:
        - id: doze
          exec:
            command: [sleep, '${nap}']
            timeout: 30s
            into: slept
`

// TestHabitProgressMoves: under a pseudo-terminal, a run over a second
// shows progress on stderr that counts foreach branches as they end (the
// count goes up while the foreach runs, not only at its end) and names the
// stage running; the line is erased before the result.
func TestHabitProgressMoves(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "naps.yaml", napsChart)
	out, code := ptyRun(t, dir, 100, nil, "exec", chart)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	checkProgressMoves(t, out, 12, `running each~\d+/doze`)
}

// TestHabitProgressOnResume: a resumed run is a run, and shows the same
// moving progress. Regression: resume never wired the progress line, so a
// long foreach after an answer ran with nothing on the terminal.
func TestHabitProgressOnResume(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "naps.yaml", strings.Replace(napsChart, "stages:\n", `stages:
  - id: go
    ask:
      question: '"Doze?"'
      expects: {approve: bool}
`, 1))
	if r := runCLI(t, dir, "exec", chart); r.code != 0 || !strings.Contains(r.stdout+r.stderr, "naps.paused.json") {
		t.Fatalf("exec: exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	out, code := ptyRun(t, dir, 100, nil, "resume", "naps.paused.json", "--input", "approve=true")
	if code != 0 {
		t.Fatalf("resume: exit %d:\n%s", code, out)
	}
	checkProgressMoves(t, out, 12, `running each~\d+/doze`)
}

// checkProgressMoves asserts a terminal's output shows progress counting
// total foreach branches upward while they run, naming a running stage
// (stage, a pattern), and erased before the result.
func checkProgressMoves(t *testing.T, out string, total int, stage string) {
	t.Helper()
	var counts []int
	for _, m := range regexp.MustCompile(`branches (\d+)/(\d+)`).FindAllStringSubmatch(out, -1) {
		if m[2] != strconv.Itoa(total) {
			t.Fatalf("branches of %s, want of %d:\n%q", m[2], total, out)
		}
		n, _ := strconv.Atoi(m[1])
		counts = append(counts, n)
	}
	if len(counts) == 0 {
		t.Fatalf("no progress line:\n%q", out)
	}
	distinct := 0
	for i, n := range counts {
		if i > 0 && n < counts[i-1] {
			t.Fatalf("branch count went down: %v", counts)
		}
		if i == 0 || n != counts[i-1] {
			distinct++
		}
	}
	if distinct < 3 || counts[0] >= total {
		t.Errorf("branch counts did not move while the foreach ran: %v", counts)
	}
	if !regexp.MustCompile(stage).MatchString(out) {
		t.Errorf("progress never names the running stage %s:\n%q", stage, out)
	}
	if !strings.Contains(out, "\r\x1b[K") {
		t.Errorf("the progress line is never erased:\n%q", out)
	}
}

// TestHabitNoColor: colour on a terminal unless NO_COLOR is set and not
// empty (no-color.org). Regression: NO_COLOR= (empty) turned colour off.
func TestHabitNoColor(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "tiny.yaml", tinyChart)
	tests := []struct {
		name   string
		env    []string
		colour bool
	}{
		{"NO_COLOR empty keeps colour", []string{"NO_COLOR="}, true},
		{"NO_COLOR=1 turns it off", []string{"NO_COLOR=1"}, false},
		{"NO_COLOR=0 turns it off too (any value)", []string{"NO_COLOR=0"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, code := ptyRun(t, dir, 120, tc.env, "exec", chart, "--input", "used=95")
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, out)
			}
			if got := strings.Contains(out, "\x1b[1m"); got != tc.colour {
				t.Errorf("colour %v, want %v:\n%q", got, tc.colour, out)
			}
		})
	}
	// Not a terminal: never colour, whatever NO_COLOR says.
	r := runCLIEnv(t, dir, []string{"NO_COLOR="}, "exec", chart, "--input", "used=95")
	if strings.Contains(r.stdout, "\x1b[") {
		t.Errorf("colour on a pipe:\n%q", r.stdout)
	}
}

// wideChart has subjects of different widths, wide runes among them, and
// a standing line longer than a narrow terminal.
const wideChart = `
version: 1
runbook: wide
result:
  kind: verdict/posture
stages:
  - id: rows
    set:
      verdicts: '[{"subject": "vol-0", "verdict": "ok"}, {"subject": "データベース", "verdict": "at-risk"}, {"subject": "a|b", "verdict": "filling up"}]'
`

// TestHabitTerminalLayout: on a terminal the verdict table is aligned
// (wide runes counted as two columns) and the standing line wrapped at
// word boundaries to the terminal's width; on a pipe both are as the
// record has them. Goldens for both.
func TestHabitTerminalLayout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "wide.yaml", wideChart)
	tty, code := ptyRun(t, dir, 50, []string{"NO_COLOR=1"}, "exec", chart)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, tty)
	}
	pipe := runCLI(t, dir, "exec", chart)
	if pipe.code != 0 {
		t.Fatalf("exit %d:\n%s", pipe.code, pipe.stderr)
	}
	golden.Check(t, filepath.Join("testdata", "habits", "layout.tty.txt"), []byte(tty))
	golden.Check(t, filepath.Join("testdata", "habits", "layout.pipe.txt"), []byte(pipe.stdout))
	for _, l := range strings.Split(tty, "\n") {
		if display.Width(l) > 50 && strings.Contains(l, " ") && !strings.HasPrefix(l, "|") {
			t.Errorf("a line wider than the terminal that could have been wrapped: %q", l)
		}
	}
	words := func(s string) string {
		s = strings.NewReplacer("-", "", " ", "").Replace(s)
		return strings.Join(strings.Fields(s), "")
	}
	if words(tty) != words(pipe.stdout) {
		t.Errorf("the layout changed words:\n%s\nvs\n%s", tty, pipe.stdout)
	}
}

func TestAlignTable(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"columns padded", "| subject | verdict |\n|---|---|\n| vol-0 | protected |\n| v | x |",
			"| subject | verdict   |\n|---------|-----------|\n| vol-0   | protected |\n| v       | x         |"},
		{"wide runes are two columns", "| s | v |\n|---|---|\n| データ | ok |\n| abcdefg | no |",
			"| s       | v  |\n|---------|----|\n| データ  | ok |\n| abcdefg | no |"},
		{"an escaped pipe stays in its cell", "| s |\n|---|\n| a\\|b |\n| c |",
			"| s    |\n|------|\n| a\\|b |\n| c    |"},
		{"not a table: unchanged", "(no rows)", "(no rows)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := alignTable(tc.in); got != tc.want {
				t.Errorf("alignTable:\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestWrapWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		cols     int
		want     string
	}{
		{"fits", "Not sure — a reason.", 40, "Not sure — a reason."},
		{"at word boundaries", "Consistent with the run's record — two checks ran", 20,
			"Consistent with the\nrun's record — two\nchecks ran"},
		{"a word longer than the line stays whole", "see /var/lib/a-very-long-path-name here", 10,
			"see\n/var/lib/a-very-long-path-name\nhere"},
		{"wide runes count two", "データ データ データ", 14, "データ データ\nデータ"},
		{"no width: unchanged", "a b c", 0, "a b c"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := wrapWords(tc.in, tc.cols)
			if got != tc.want {
				t.Errorf("wrapWords(%q, %d):\n%s\nwant\n%s", tc.in, tc.cols, got, tc.want)
			}
			if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(tc.in), " ") {
				t.Errorf("words changed: %q", got)
			}
		})
	}
}

// runCLIStdin is runCLI with stdin given.
func runCLIStdin(t *testing.T, dir, stdin string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

// TestHabitStdinChart: `-` as CHART reads the chart from stdin; its errors
// name <stdin>:L:C; its relative paths resolve from the working directory.
func TestHabitStdinChart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "note.txt"), []byte("from the working directory\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reads := `
version: 1
runbook: from-stdin
stages:
  - id: note
    read: {path: '"note.txt"', into: note}
  - id: said
    set: {text: note.content}
`
	r := runCLIStdin(t, dir, reads, "exec", "-", "-o", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var rec struct {
		Runbook string         `json:"runbook"`
		State   map[string]any `json:"state"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Runbook != "from-stdin" || rec.State["text"] != "from the working directory\n" {
		t.Errorf("runbook %q, text %q", rec.Runbook, rec.State["text"])
	}

	bad := "version: 1\nrunbook: typo\nstages:\n  - id: seed\n    sett: {x: 1}\n"
	for _, cmd := range [][]string{{"exec", "-"}, {"validate", "-"}, {"graph", "-"}} {
		r := runCLIStdin(t, dir, bad, cmd...)
		want := "<stdin>:5:5: stage \"seed\": unknown key \"sett\""
		if r.code == 0 || !strings.HasPrefix(r.stderr, want) {
			t.Errorf("%v: exit %d, stderr %q; want it to start %q", cmd, r.code, r.stderr, want)
		}
	}
	if r := runCLIStdin(t, dir, "", "validate", "-"); r.code == 0 || !strings.HasPrefix(r.stderr, "<stdin>") {
		t.Errorf("an empty stdin: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestHabitYAMLInputs: --inputs takes YAML as well as JSON, to the same
// inputs; a bad file is refused at file:line:col without quoting it (a
// secret's value may be in it); a secret from a YAML file is masked as
// from a JSON one.
func TestHabitYAMLInputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "inputs.yaml", `
version: 1
runbook: inputs
inputs:
  host: {type: string, required: true}
  used: {type: number, required: true}
  tags: {type: list}
  token: {type: string, secret: true}
stages:
  - id: seen
    set: {host_seen: host, used_seen: used, tags_seen: tags, token_len: len(token)}
`)
	write := func(name, text string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const secret = "s3cr3t-VALUE-42"
	yamlFile := write("in.yaml", "# the inputs\nhost: db-1\nused: 95\ntags: [a, b]\ntoken: "+secret+"\n")
	jsonFile := write("in.json", `{"host": "db-1", "used": 95, "tags": ["a", "b"], "token": "`+secret+`"}`)
	states := map[string]any{}
	for _, f := range []string{yamlFile, jsonFile} {
		r := runCLI(t, dir, "exec", chart, "--inputs", f, "-o", "json")
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", f, r.code, r.stderr)
		}
		if strings.Contains(r.stdout, secret) || strings.Contains(r.stderr, secret) {
			t.Errorf("%s: the secret is in the output", f)
		}
		var rec struct {
			State map[string]any `json:"state"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &rec); err != nil {
			t.Fatal(err)
		}
		delete(rec.State, "token")
		states[filepath.Ext(f)] = rec.State
	}
	if got, want := fmt.Sprint(states[".yaml"]), fmt.Sprint(states[".json"]); got != want {
		t.Errorf("YAML inputs gave state %s, JSON %s", got, want)
	}
	if s, _ := states[".yaml"].(map[string]any); s["host_seen"] != "db-1" || s["used_seen"] != float64(95) || s["token_len"] != float64(len(secret)) {
		t.Errorf("YAML inputs: state %v", s)
	}

	tests := []struct{ name, text, want string }{
		{"unclosed flow list", "host: db-1\ntoken: " + secret + "\ntags: [a, b\n", "bad.yaml:3:"},
		{"a list, not an object", "- " + secret + "\n- b\n", "bad.yaml:1:1: the file holds a list"},
		{"two documents", "host: a\n---\nhost: b\n", "bad.yaml:3:1: a second YAML document"},
		{"JSON with a syntax error", "{\"host\": \"db-1\",\n \"token\": \"" + secret + "\",,}", "bad.yaml:2:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Not parallel: each case rewrites bad.yaml.
			f := write("bad.yaml", tc.text)
			r := runCLI(t, dir, "exec", chart, "--inputs", f)
			if r.code != exitUsage {
				t.Errorf("exit %d, want 2", r.code)
			}
			if !strings.Contains(r.stderr, tc.want) || !strings.Contains(r.stderr, "want ") && !strings.Contains(r.stderr, "want one") {
				t.Errorf("stderr %q lacks %q", r.stderr, tc.want)
			}
			if strings.Contains(r.stderr, secret) {
				t.Errorf("the refusal quotes the file's secret: %q", r.stderr)
			}
		})
	}
}

// fiveRowsChart files five verdict rows and caps them at two.
const fiveRowsChart = `
version: 1
runbook: certs
result:
  kind: verdict/expiry
  maxRows: 2
stages:
  - id: rows
    set:
      verdicts: '[{"subject": "a", "verdict": "expired"}, {"subject": "b", "verdict": "expired"}, {"subject": "c", "verdict": "expired"}, {"subject": "d", "verdict": "ok"}, {"subject": "e", "verdict": "expired"}]'
`

// TestHabitMaxRows: --max-rows N overrides result.maxRows for one run and
// the one-number law holds: the rows, the table and the count agree, and
// the rows left out are said. 0 or less is a usage error.
func TestHabitMaxRows(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "certs.yaml", fiveRowsChart)
	tests := []struct {
		name      string
		flags     []string
		shown     int
		complete  bool
		shownLine string // in the text form; "" when all are shown
	}{
		{"the chart's cap", nil, 2, false, "2 of 5 rows shown"},
		{"raised for one run", []string{"--max-rows", "4"}, 4, false, "4 of 5 rows shown"},
		{"raised past the rows", []string{"--max-rows=50"}, 5, true, ""},
		{"lowered", []string{"--max-rows", "1"}, 1, false, "1 of 5 rows shown"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := runCLI(t, dir, append([]string{"exec", chart, "-o", "json"}, tc.flags...)...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			var rec struct {
				Verdicts struct {
					Rows         []map[string]any `json:"rows"`
					RowsShown    int              `json:"rowsShown"`
					RowsTotal    int              `json:"rowsTotal"`
					RowsComplete bool             `json:"rowsComplete"`
					Table        string           `json:"table"`
				} `json:"verdicts"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &rec); err != nil {
				t.Fatal(err)
			}
			v := rec.Verdicts
			tableRows := strings.Count(v.Table, "\n") - 1 // header and rule
			if len(v.Rows) != tc.shown || v.RowsShown != tc.shown || tableRows != tc.shown || v.RowsTotal != 5 || v.RowsComplete != tc.complete {
				t.Errorf("rows %d, rowsShown %d, table rows %d, rowsTotal %d, complete %v; want %d, %d, %d, 5, %v",
					len(v.Rows), v.RowsShown, tableRows, v.RowsTotal, v.RowsComplete, tc.shown, tc.shown, tc.shown, tc.complete)
			}
			text := runCLI(t, dir, append([]string{"exec", chart}, tc.flags...)...)
			if got := strings.Count(text.stdout, "| expired |") + strings.Count(text.stdout, "| ok |"); got != tc.shown {
				t.Errorf("the text table shows %d rows, want %d:\n%s", got, tc.shown, text.stdout)
			}
			if tc.shownLine != "" && !strings.Contains(text.stdout, tc.shownLine) {
				t.Errorf("the text does not say %q:\n%s", tc.shownLine, text.stdout)
			}
			if tc.shownLine == "" && strings.Contains(text.stdout, "rows shown") {
				t.Errorf("all rows shown, yet the text says some are not:\n%s", text.stdout)
			}
		})
	}
	for _, bad := range []string{"0", "-3", "many"} {
		r := runCLI(t, dir, "exec", chart, "--max-rows", bad)
		if r.code != exitUsage || !strings.Contains(r.stderr, "want a whole number of rows ≥ 1") || !strings.Contains(r.stderr, "--help") {
			t.Errorf("--max-rows %s: exit %d, stderr %q", bad, r.code, r.stderr)
		}
	}
}

// TestHabitQuiet: -q prints, in the text format, only the verdict table
// (with the rows left out said) and the standing line; no meanings,
// coverage, scripts or narrative; and no progress on a terminal.
func TestHabitQuiet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "tiny.yaml", tinyChart)
	full := runCLI(t, dir, "exec", chart, "--input", "used=95")
	quiet := runCLI(t, dir, "exec", chart, "--input", "used=95", "-q")
	if full.code != 0 || quiet.code != 0 {
		t.Fatalf("exit %d / %d: %s %s", full.code, quiet.code, full.stderr, quiet.stderr)
	}
	if !strings.Contains(full.stdout, "at-risk — Nearly full") {
		t.Fatalf("the full text lacks the meaning this test expects to vanish:\n%s", full.stdout)
	}
	want := "| subject | verdict |\n|---|---|\n| vol-0 | at-risk |\n\n"
	if !strings.HasPrefix(quiet.stdout, want) || strings.Contains(quiet.stdout, "Nearly full") {
		t.Errorf("quiet text:\n%s\nwant the table, then the standing line", quiet.stdout)
	}
	lines := strings.Split(strings.TrimSpace(quiet.stdout), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "Consistent with the run's record") || len(lines) != 5 {
		t.Errorf("quiet text has %d lines, the last %q:\n%s", len(lines), last, quiet.stdout)
	}
	if r := runCLI(t, dir, "exec", chart, "--input", "used=95", "--quiet", "-o", "json"); r.code != 0 || !json.Valid([]byte(r.stdout)) {
		t.Errorf("--quiet -o json: exit %d, not the record", r.code)
	}
	r := runCLI(t, dir, "exec", chart, "--input", "used=95", "-q", "-v")
	if r.code != exitUsage || !strings.Contains(r.stderr, "--quiet and --verbose") {
		t.Errorf("-q -v: exit %d, stderr %q", r.code, r.stderr)
	}
	// Five rows capped at two: the rows left out are said even when quiet.
	capped := runCLI(t, dir, "exec", writeChart(t, dir, "certs.yaml", fiveRowsChart), "-q")
	if !strings.Contains(capped.stdout, "2 of 5 rows shown") {
		t.Errorf("quiet hides that rows were left out:\n%s", capped.stdout)
	}
	// Under a terminal a long run shows no progress line.
	out, code := ptyRun(t, dir, 100, []string{"NO_COLOR=1"}, "exec", writeChart(t, dir, "sleepy.yaml", sleepChart("1.5")), "-q")
	if code != 0 || strings.Contains(out, "stages done") {
		t.Errorf("exit %d; quiet on a terminal shows progress:\n%q", code, out)
	}
}

// docTables reads the markdown tables of doc whose header's first cell is
// head: each row's first cell (one `name` in backticks) and its second.
func docTables(doc, head string) [][2]string {
	var rows [][2]string
	in := false
	for _, l := range strings.Split(doc, "\n") {
		cells, ok := tableCells(strings.TrimSpace(l))
		switch {
		case !ok:
			in = false
		case len(cells) > 0 && cells[0] == head:
			in = true
		case in && !isRule(cells) && len(cells) > 1:
			rows = append(rows, [2]string{strings.Trim(cells[0], "`"), cells[1]})
		}
	}
	return rows
}

// schemaKeys is every property name anywhere in a JSON Schema, with where
// it first appears.
func schemaKeys(n any, at string, into map[string]string) {
	switch t := n.(type) {
	case map[string]any:
		for k, v := range t {
			if k == "properties" {
				if props, ok := v.(map[string]any); ok {
					for name, sub := range props {
						if _, seen := into[name]; !seen {
							into[name] = at + "." + name
						}
						schemaKeys(sub, at+"."+name, into)
					}
				}
				continue
			}
			schemaKeys(v, at+"/"+k, into)
		}
	case []any:
		for _, v := range t {
			schemaKeys(v, at, into)
		}
	}
}

// TestHabitChartsDocMatchesSchema: docs/CHARTS.md and `runbook schema`
// cannot drift. Every key the schema has is in a key (or parse option)
// table of CHARTS.md; every key CHARTS.md documents is in the schema; every
// parse option it documents is one the parser (internal/parse, its one
// home) takes for the modes it names; every whole chart it shows loads;
// and the schema's description points at it.
func TestHabitChartsDocMatchesSchema(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "CHARTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	r := runCLI(t, t.TempDir(), "schema")
	if r.code != 0 {
		t.Fatalf("runbook schema: exit %d: %s", r.code, r.stderr)
	}
	var schema map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &schema); err != nil {
		t.Fatal(err)
	}
	if d, _ := schema["description"].(string); !strings.Contains(d, "docs/CHARTS.md") {
		t.Errorf("the schema's description does not point at docs/CHARTS.md: %q", d)
	}
	inSchema := map[string]string{}
	schemaKeys(schema, "", inSchema)

	documented := map[string]bool{}
	keys := docTables(doc, "key")
	if len(keys) < 50 {
		t.Fatalf("CHARTS.md documents %d keys; the reader of its tables is broken", len(keys))
	}
	for _, k := range keys {
		documented[k[0]] = true
		if _, ok := inSchema[k[0]]; !ok {
			t.Errorf("CHARTS.md documents the key %q, which the schema does not have", k[0])
		}
	}
	options := docTables(doc, "option")
	for _, o := range options {
		documented[o[0]] = true
	}
	for name, at := range inSchema {
		if !documented[name] {
			t.Errorf("the schema's key %q (%s) is not in a table of docs/CHARTS.md", name, at)
		}
	}

	// The parse options, against the parser itself.
	samples := map[string]any{"sep": "=", "trim": true, "header": false, "names": []any{"a"}, "skip": 1, "last": "rest", "numbers": false, "pattern": "(?P<a>x)", "records": "nul"}
	for _, spec := range []string{"as", "sep", "trim", "header", "names", "skip", "last", "numbers", "pattern"} { // chart-yaml.md "Parse modes"
		if !documented[spec] {
			t.Errorf("the parse option %q (chart-yaml.md) is not in CHARTS.md's option table", spec)
		}
	}
	for _, o := range options {
		if o[0] == "as" {
			continue
		}
		sample, ok := samples[o[0]]
		if !ok {
			t.Errorf("CHARTS.md documents the parse option %q, which no spec names", o[0])
			continue
		}
		modes := regexp.MustCompile("`([a-z]+)`").FindAllStringSubmatch(o[1], -1)
		if len(modes) == 0 {
			t.Errorf("the parse option %q names no mode it belongs to: %q", o[0], o[1])
		}
		for _, m := range modes {
			err := parse.Check(parse.Spec{Mode: m[1], Options: map[string]any{o[0]: sample}})
			if err != nil && (strings.Contains(err.Error(), "has no option") || strings.Contains(err.Error(), "takes no options") || strings.Contains(err.Error(), "is not one of")) {
				t.Errorf("CHARTS.md says %s takes %q; the parser says: %v", m[1], o[0], err)
			}
		}
	}

	// Every whole chart the page shows loads.
	shown := 0
	for _, block := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(doc, -1) {
		if !strings.HasPrefix(block[1], "version: 1\n") {
			continue
		}
		shown++
		if _, err := chart.Parse("CHARTS.md", []byte(block[1])); err != nil {
			t.Errorf("a chart CHARTS.md shows does not load: %v\n%s", err, block[1])
		}
	}
	if shown == 0 {
		t.Error("CHARTS.md shows no whole chart")
	}
}

// TestOutputFlagSaysFormat: kubectl, helm and the cloud CLIs spell -o's
// long form --output; a DBA who wrote `runbook exec chart.yaml --output
// json` was told `unknown flag: --output` and no more, since --format
// is no spelling away from it. Another tool's name for a flag is said.
func TestOutputFlagSaysFormat(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "tiny.yaml", tinyChart)
	for _, args := range [][]string{{"exec", chart, "--output", "json"}, {"explain", "r.json", "--output=json"}} {
		r := runCLI(t, dir, args...)
		want := "Error: unknown flag: --output (did you mean --format?)\nRun 'runbook " + args[0] + " --help' for usage.\n"
		if r.code != exitUsage || r.stderr != want {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant:\n%s", args, r.code, r.stderr, want)
		}
	}
}
