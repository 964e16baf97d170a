package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// binary is the runbook command built once for the end-to-end tests, which
// run it as a real process.
var binary string

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	flag.Parse()
	if fuzzing() {
		return m.Run() // fuzz targets run no binary: save every worker a build
	}
	dir, err := os.MkdirTemp("", "runbook-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	// open to all, so a test may run the binary as another user
	// (runAsUser) without writing a copy of it while others fork
	if err := os.Chmod(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	binary = filepath.Join(dir, "runbook")
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the runbook binary:", err)
		return 1
	}
	// pluginDir's plugins, built once for the tests that use them: left
	// behind, every run of this package left a runbook-e2e-plugins-* in
	// $TMPDIR.
	defer func() {
		if pluginBinsDir != "" {
			os.RemoveAll(pluginBinsDir)
		}
	}()
	return m.Run()
}

// fuzzing reports whether this process runs a fuzz target (-test.fuzz, or
// as one of its workers).
func fuzzing() bool {
	for _, name := range []string{"test.fuzz", "test.fuzzworker"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" && f.Value.String() != "false" {
			return true
		}
	}
	return false
}

// result is one finished run of the binary.
type result struct {
	stdout, stderr string
	code           int
}

// runCLI runs the binary in dir with args and waits at most a minute.
func runCLI(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return runCLIEnv(t, dir, nil, args...)
}

// runCLIEnv is runCLI with more environment (later entries win).
func runCLIEnv(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "NO_COLOR=1"), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("runbook %v: %v", args, err)
	}
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

// writeChart writes a chart file into dir and returns its path.
func writeChart(t *testing.T, dir, name, yaml string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(strings.TrimLeft(yaml, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const tinyChart = `
version: 1
runbook: tiny
description: One volume, one verdict
inputs:
  used: {type: number, required: true, description: percent of the disk used}
result:
  kind: verdict/posture
  decider: Posture
stages:
  - id: seed
    set:
      name: '"vol-0"'
  - id: posture
    name: Posture
    decide:
      rules:
        - when: used > 90
          then: at-risk
          label: Nearly full
      default: {branch: ok, label: Room to spare}
    branches:
      at-risk:
        description: Less than a tenth is free
        stages:
          - id: mark-risk
            verdict: {subject: name, verdict: '"at-risk"'}
      ok:
        - id: mark-ok
          verdict: {subject: name, verdict: '"ok"'}
`

const failChart = `
version: 1
runbook: failing
stages:
  - id: seed
    set: {x: 1}
  - id: guard
    fail: '"the disk is full"'
`

// typoChart has a typo'd stage kind key (sett).
const typoChart = `
version: 1
runbook: typo
stages:
  - id: seed
    sett: {x: 1}
`

func sleepChart(arg string) string {
	return fmt.Sprintf(`
version: 1
runbook: sleepy
stages:
  - id: nap
    exec:
      command: [sleep, %q]
      timeout: 120s
      into: nap
`, arg)
}

func TestHelp(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"help"}, []string{"exec", "validate", "graph", "schema", "version"}},
		{[]string{"-h"}, []string{"exec", "validate"}},
		{[]string{"exec", "-h"}, []string{"--input", "--inputs", "--format", "--record", "--timeout", "-v"}},
		{[]string{"help", "graph"}, []string{"--format"}},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			r := runCLI(t, t.TempDir(), tc.args...)
			if r.code != 0 || r.stderr != "" {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("help lacks %q:\n%s", w, r.stdout)
				}
			}
		})
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	r := runCLI(t, t.TempDir(), "version")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, w := range []string{"runbook: ", "go: " + runtime.Version(), "plugin protocol: 1"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("version lacks %q:\n%s", w, r.stdout)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "tiny.yaml", tinyChart)
	tests := []struct {
		name string
		args []string
		want []string // on stderr
	}{
		{"unknown command", []string{"frobnicate"}, []string{`unknown command "frobnicate" for "runbook"`}},
		{"unknown flag", []string{"exec", chart, "--nope"}, []string{"unknown flag: --nope", "--help"}},
		{"no chart", []string{"exec"}, []string{"accepts 1 arg", "--help"}},
		{"bad format", []string{"exec", chart, "--format", "yaml"}, []string{`--format "yaml"`}},
		{"bad input pair", []string{"exec", chart, "--input", "used"}, []string{"want name=value"}},
		{"bad timeout", []string{"exec", chart, "--timeout=soon"}, []string{"invalid argument"}},
		{"graph format", []string{"graph", chart, "--format=svg"}, []string{"mermaid or dot"}},
		{"explain format", []string{"explain", "r.json", "--format", "yaml"}, []string{"want text or json"}},
		{"explain no record", []string{"explain"}, []string{"accepts between 1 and 2 arg"}},
		{"resume no record", []string{"resume"}, []string{"accepts 1 arg"}},
		{"validate nothing", []string{"validate"}, []string{"requires at least 1 arg"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := runCLI(t, dir, tc.args...)
			if r.code != 2 {
				t.Errorf("exit %d, want 2", r.code)
			}
			if r.stdout != "" {
				t.Errorf("stdout not empty: %q", r.stdout)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
		})
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := writeChart(t, dir, "tiny.yaml", tinyChart)
	bad := writeChart(t, dir, "bad.yaml", typoChart)

	r := runCLI(t, dir, "validate", good)
	if r.code != 0 || r.stdout != "" || r.stderr != "" {
		t.Errorf("valid chart: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}

	r = runCLI(t, dir, "validate", good, bad, filepath.Join(dir, "missing.yaml"))
	if r.code != 1 {
		t.Errorf("exit %d, want 1", r.code)
	}
	if r.stdout != "" {
		t.Errorf("stdout not empty: %q", r.stdout)
	}
	if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(bad) + `:\d+:\d+: .*`).MatchString(r.stderr) {
		t.Errorf("no file:line:col error for %s:\n%s", bad, r.stderr)
	}
	if !strings.Contains(r.stderr, "missing.yaml") {
		t.Errorf("the missing file is not named:\n%s", r.stderr)
	}
	if strings.Contains(r.stderr, good) {
		t.Errorf("the valid chart is reported:\n%s", r.stderr)
	}

	// exec refuses a chart that does not load with exit 2, printing the same errors.
	r = runCLI(t, dir, "exec", bad)
	if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, bad+":") {
		t.Errorf("exec of a bad chart: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

func TestGraph(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "tiny.yaml", tinyChart)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"graph", chart}, "flowchart"},
		{[]string{"graph", chart, "--format", "mermaid"}, "flowchart"},
		{[]string{"graph", chart, "--format=dot"}, "digraph"},
	}
	for _, tc := range tests {
		r := runCLI(t, dir, tc.args...)
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("%v: exit %d, stderr %q", tc.args, r.code, r.stderr)
		}
		if !strings.Contains(r.stdout, tc.want) || !strings.Contains(r.stdout, "posture") {
			t.Errorf("%v: want %q and the stage ids:\n%s", tc.args, tc.want, r.stdout)
		}
	}
}

func TestSchema(t *testing.T) {
	t.Parallel()
	r := runCLI(t, t.TempDir(), "schema")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
		t.Fatalf("schema is not a JSON object: %v\n%s", err, r.stdout)
	}
}

func TestExecJSON(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "tiny.yaml", tinyChart)
	r := runCLI(t, dir, "exec", chart, "--input", "used=95", "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.HasSuffix(r.stdout, "}\n") || !strings.HasPrefix(r.stdout, "{\n  \"") {
		t.Errorf("want indented JSON with a trailing newline:\n%s", r.stdout)
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &rec); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, r.stdout)
	}
	for _, k := range []string{"runbook", "status", "error", "inputs", "state", "verdicts", "decisions", "scripts", "coverage", "assessment", "stats"} {
		if _, ok := rec[k]; !ok {
			t.Errorf("record lacks %q", k)
		}
	}
	if rec["runbook"] != "tiny" || rec["status"] != "completed" {
		t.Errorf("runbook %v, status %v", rec["runbook"], rec["status"])
	}
	vs, _ := rec["verdicts"].(map[string]any)
	rows, _ := vs["rows"].([]any)
	if len(rows) != 1 || rows[0].(map[string]any)["verdict"] != "at-risk" {
		t.Errorf("rows = %v", vs["rows"])
	}
}

func TestExecText(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "tiny.yaml", tinyChart)
	in := filepath.Join(dir, "in.json")
	if err := os.WriteFile(in, []byte(`{"used": 95}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// --input overrides --inputs.
	r := runCLI(t, dir, "exec", chart, "--inputs", in, "--input=used=10", "-v")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, w := range []string{"| subject | verdict |", "| vol-0 | ok |", "ok — ", "Narrative"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("text lacks %q:\n%s", w, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "\033[") {
		t.Errorf("colour on a pipe:\n%q", r.stdout)
	}

	r = runCLI(t, dir, "exec", chart, "--input", "used=95", "--format", "markdown")
	if r.code != 0 || !strings.Contains(r.stdout, "## Verdicts") || !strings.HasPrefix(r.stdout, "# tiny\n") {
		t.Errorf("markdown: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

func TestExecNDJSON(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "tiny.yaml", tinyChart)
	r := runCLI(t, dir, "exec", chart, "--input", "used=95", "--format", "ndjson")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) < 3 {
		t.Fatalf("too few lines:\n%s", r.stdout)
	}
	runEnds := 0
	for i, l := range lines {
		var ev struct {
			Event  string         `json:"event"`
			Result map[string]any `json:"result"`
		}
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("line %d is not JSON: %v\n%s", i+1, err, l)
		}
		if ev.Event == "run.end" {
			runEnds++
			if i != len(lines)-1 || ev.Result["status"] != "completed" {
				t.Errorf("run.end on line %d of %d, result %v", i+1, len(lines), ev.Result)
			}
		}
	}
	if runEnds != 1 {
		t.Errorf("%d run.end lines, want 1", runEnds)
	}
	if !strings.Contains(lines[0], `"event":"run.start"`) {
		t.Errorf("first line: %s", lines[0])
	}
}

func TestExecBadInputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "tiny.yaml", tinyChart)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing required", nil, "used"},
		{"wrong type", []string{"--input", "used=lots"}, "used"},
		{"unknown name", []string{"--input", "used=1", "--input", "hostt=x"}, "hostt"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := runCLI(t, dir, append([]string{"exec", chart}, tc.args...)...)
			if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 naming %q", r.code, r.stdout, r.stderr, tc.want)
			}
		})
	}
}

func TestExecRecord(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "tiny.yaml", tinyChart)
	path := filepath.Join(dir, "run.json")
	r := runCLI(t, dir, "exec", chart, "--input", "used=95", "--record", path)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	rec := readRecord(t, path)
	if rec["recordVersion"] != 2.0 {
		t.Errorf("recordVersion = %v", rec["recordVersion"])
	}
	if res, _ := rec["result"].(map[string]any); res["status"] != "completed" {
		t.Errorf("result = %v", rec["result"])
	}
}

func TestExecFailed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "fail.yaml", failChart)
	r := runCLI(t, dir, "exec", chart, "--format", "json")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "run failed at guard: the disk is full") {
		t.Errorf("stderr: %q", r.stderr)
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &rec); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, r.stdout)
	}
	if rec["status"] != "failed" || rec["error"] == nil {
		t.Errorf("status %v, error %v", rec["status"], rec["error"])
	}
}

func TestExecTimeout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	arg := uniqueSleep()
	chart := writeChart(t, dir, "sleepy.yaml", sleepChart(arg))
	t.Cleanup(func() { killSleeps(arg) })
	start := time.Now()
	r := runCLI(t, dir, "exec", chart, "--timeout", "300ms", "--format", "json")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1: %s", r.code, r.stderr)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %s", d)
	}
	if pids := sleepPIDs(arg); len(pids) > 0 {
		t.Errorf("sleep %s still running: %v", arg, pids)
	}
}

func TestExecInterrupt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	arg := uniqueSleep()
	chart := writeChart(t, dir, "sleepy.yaml", sleepChart(arg))
	t.Cleanup(func() { killSleeps(arg) })
	path := filepath.Join(dir, "partial.json")

	cmd := exec.Command(binary, "exec", chart, "--record", path)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	deadline := time.Now().Add(15 * time.Second)
	for len(sleepPIDs(arg)) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("sleep %s never started; stderr: %s", arg, errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var err error
	select {
	case err = <-waited:
	case <-time.After(5 * time.Second):
		t.Fatalf("still running 5s after SIGINT; stderr: %s", errb.String())
	}
	t.Logf("exited %s after SIGINT", time.Since(start))
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Errorf("exit %v, want 130; stderr: %s", err, errb.String())
	}
	if pids := sleepPIDs(arg); len(pids) > 0 {
		t.Errorf("sleep %s left running: %v", arg, pids)
	}
	rec := readRecord(t, path)
	res, _ := rec["result"].(map[string]any)
	if st := res["status"]; st != "cancelled" && st != "failed" {
		t.Errorf("partial record status %v", st)
	}
	if !strings.Contains(errb.String(), "interrupted") {
		t.Errorf("stderr: %s", errb.String())
	}
}

func TestExecPaused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "ask.yaml", `
version: 1
runbook: asker
stages:
  - id: confirm
    ask:
      question: '"Which host?"'
      expects: {host: string}
  - id: after
    set: {done: true}
`)
	r := runCLI(t, dir, "exec", chart)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, w := range []string{"Which host?", "runbook resume", "--input host="} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("stdout lacks %q:\n%s", w, r.stdout)
		}
	}
	rec := readRecord(t, filepath.Join(dir, "asker.paused.json"))
	if res, _ := rec["result"].(map[string]any); res["status"] != "paused" {
		t.Errorf("status = %v", res["status"])
	}
}

func readRecord(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no record: %v", err)
	}
	var rec map[string]any
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatalf("record is not JSON: %v", err)
	}
	return rec
}

// uniqueSleep is a sleep argument no other process on the machine uses, so
// that /proc can tell our test's child apart.
func uniqueSleep() string {
	return fmt.Sprintf("31.%d%06d", os.Getpid(), time.Now().UnixNano()%1_000_000)
}

// sleepPIDs lists the processes whose command line is `sleep ARG`.
func sleepPIDs(arg string) []int {
	want := "sleep\x00" + arg + "\x00"
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.HasSuffix(string(cmdline), want) {
			continue
		}
		if filepath.Base(strings.SplitN(string(cmdline), "\x00", 2)[0]) != "sleep" || zombie(pid) {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

// zombie reports whether pid has exited and waits for its parent to reap it.
func zombie(pid int) bool {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return true
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if s, ok := strings.CutPrefix(sc.Text(), "State:"); ok {
			return strings.HasPrefix(strings.TrimSpace(s), "Z")
		}
	}
	return false
}

// killSleeps kills what a failed test left behind (our own sleep only).
func killSleeps(arg string) {
	for _, pid := range sleepPIDs(arg) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// TestTwoSignalsAtOnceStillWriteTheRecord: `timeout -s INT 600 runbook
// exec …` sends its signal to runbook and then to its own process group,
// runbook included, so runbook gets two at once; a process group's kill
// does the same. The second was taken as "again to quit at once" and
// runbook died by it, leaving no record (or yesterday's at the path, which
// the CI job archived as this run's). Signals that come together are one
// interruption; a second one later still quits at once.
func TestTwoSignalsAtOnceStillWriteTheRecord(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			arg := uniqueSleep()
			chart := writeChart(t, dir, "sleepy.yaml", sleepChart(arg))
			t.Cleanup(func() { killSleeps(arg) })
			path := filepath.Join(dir, "partial.json")
			cmd := exec.Command(binary, "exec", chart, "--record", path)
			cmd.Dir = dir
			var errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &bytes.Buffer{}, &errb
			cmd.WaitDelay = 5 * time.Second
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waited := make(chan error, 1)
			go func() { waited <- cmd.Wait() }()
			t.Cleanup(func() { _ = cmd.Process.Kill() })
			deadline := time.Now().Add(15 * time.Second)
			for len(sleepPIDs(arg)) == 0 {
				if time.Now().After(deadline) {
					t.Fatalf("sleep %s never started; stderr: %s", arg, errb.String())
				}
				time.Sleep(20 * time.Millisecond)
			}
			_ = cmd.Process.Signal(sig)
			_ = cmd.Process.Signal(sig)
			var err error
			select {
			case err = <-waited:
			case <-time.After(10 * time.Second):
				t.Fatalf("still running 10s after two %v; stderr: %s", sig, errb.String())
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 130 {
				t.Errorf("exit %v, want 130 (the record written); stderr: %s", err, errb.String())
			}
			rec := readRecord(t, path)
			if st := rec["result"].(map[string]any)["status"]; st != "cancelled" {
				t.Errorf("record status %v, want cancelled", st)
			}
		})
	}
}
