package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fileAgeChart is a chart calling the file-age example plugin with the
// args given (YAML flow mappings), the plugin mapped beside the chart.
const fileAgeChart = `version: 1
runbook: age-check
inputs:
  where: {type: string, default: /etc/hostname}
plugins:
  file-age: {command: ./runbook-plugin-file-age}
stages:
  - id: first
    plugin:
      name: file-age
      args: %s
  - id: hosts
    foreach:
      items: '["a", "b"]'
      as: h
      maxBranches: 2
      stages:
        - id: again
          plugin:
            name: file-age
            args: %s
`

// fileAgeDir is a folder holding the chart (fileAgeChart with args) and
// the file-age plugin beside it.
func fileAgeDir(t *testing.T, first, again string) string {
	t.Helper()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", fmt.Sprintf(fileAgeChart, first, again))
	copyExec(t, filepath.Join(pluginDir(t), "runbook-plugin-file-age"), filepath.Join(dir, "runbook-plugin-file-age"))
	return dir
}

// TestIssue17ValidateHappyPath: a chart whose plugin exists and is given
// what it declares validates clean, an argument computed from the run
// (an input, an item) judged by name only. Before and after: exit 0.
func TestIssue17ValidateHappyPath(t *testing.T) {
	t.Parallel()
	dir := fileAgeDir(t, `{path: where, maxAge: '"1h"'}`, `{path: '"/etc/" + h'}`)
	if r := runCLI(t, dir, "validate", "chart.yaml"); r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if r := runCLI(t, dir, "plan", "chart.yaml"); r.code != 0 {
		t.Fatalf("plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestIssue17ValidateMissingPluginBinary: a plugin binary that is not
// there fails validate at the stage's line, for a mapped plugin and for
// one looked for in no directory (naming how to give one). Before, exit 0.
func TestIssue17ValidateMissingPluginBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", `version: 1
runbook: missing
plugins:
  gone: {command: ./runbook-plugin-gone}
stages:
  - id: mapped
    plugin: {name: gone}
  - id: unmapped
    plugin: {name: nowhere}
`)
	r := runCLIEnv(t, dir, []string{"RUNBOOK_PLUGIN_DIR="}, "validate", "chart.yaml")
	if r.code != exitFailed {
		t.Errorf("exit %d, want %d", r.code, exitFailed)
	}
	for _, w := range []string{
		`chart.yaml:6:5: stage "mapped": plugin "gone"`,
		`chart.yaml:8:5: stage "unmapped": plugin "nowhere"`,
		`--plugin-dir or RUNBOOK_PLUGIN_DIR`,
	} {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
		}
	}
	// --no-plugins checks the chart alone.
	if r := runCLI(t, dir, "validate", "--no-plugins", "chart.yaml"); r.code != 0 {
		t.Errorf("--no-plugins: exit %d\n%s", r.code, r.stderr)
	}
}

// TestIssue17ValidateUndeclaredArgument: an argument the plugin does not
// declare is named at its own line:col with the plugin's nearest name,
// and a required one not given at the stage, every problem of every
// stage at once (the foreach's stage by its general path). Before, exit 0
// and the run failed at exec.
func TestIssue17ValidateUndeclaredArgument(t *testing.T) {
	t.Parallel()
	dir := fileAgeDir(t, `{pathh: where}`, `{path: '"/etc/" + h', maxage: '"1h"'}`)
	r := runCLI(t, dir, "validate", "chart.yaml")
	if r.code != exitFailed {
		t.Errorf("exit %d, want %d", r.code, exitFailed)
	}
	want := []string{
		`chart.yaml:11:21: stage "first": plugin "file-age" argument "pathh": no such argument (did you mean "path"?); it takes: path, maxAge`,
		`chart.yaml:8:5: stage "first": plugin "file-age" argument "path": required, and not given (the file to check)`,
		`chart.yaml:21:49: stage "hosts~*/again": plugin "file-age" argument "maxage": no such argument (did you mean "maxAge"?)`,
	}
	for _, w := range want {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
		}
	}
	if n := strings.Count(r.stderr, "\n"); n != len(want) {
		t.Errorf("%d lines, want %d:\n%s", n, len(want), r.stderr)
	}
	// plan says the same, as checks.
	p := runCLI(t, dir, "plan", "-o", "json", "chart.yaml")
	var got struct {
		Checks []struct{ Stage, Message string }
	}
	if err := json.Unmarshal([]byte(p.stdout), &got); err != nil {
		t.Fatalf("plan -o json: %v\n%s%s", err, p.stdout, p.stderr)
	}
	if p.code != exitUsage || len(got.Checks) != len(want) || got.Checks[0].Stage != "first" || !strings.Contains(got.Checks[0].Message, `argument "pathh": no such argument`) {
		t.Errorf("plan: exit %d, checks %+v", p.code, got.Checks)
	}
}

// TestIssue17ValidateWrongLiteralType: a literal that does not fit the
// declared type is refused at its line:col, quoting the chart's words.
// Before, exit 0.
func TestIssue17ValidateWrongLiteralType(t *testing.T) {
	t.Parallel()
	dir := fileAgeDir(t, `{path: 42}`, `{path: '"/etc/" + h', maxAge: '"soon"'}`)
	r := runCLI(t, dir, "validate", "chart.yaml")
	if r.code != exitFailed {
		t.Errorf("exit %d, want %d", r.code, exitFailed)
	}
	for _, w := range []string{
		`chart.yaml:11:20: stage "first": plugin "file-age" argument "path": is a number, want a string (the stage gives 42)`,
		`chart.yaml:21:49: stage "hosts~*/again": plugin "file-age" argument "maxAge": is a string, want a duration (the stage gives "soon")`,
	} {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
		}
	}
}

// TestIssue17ValidateStartsNoProcessLeft: validate starts the plugin once
// for all the stages that use it, and stops it before it exits.
func TestIssue17ValidateStartsNoProcessLeft(t *testing.T) {
	t.Parallel()
	dir := fileAgeDir(t, `{path: where}`, `{path: '"/etc/" + h'}`)
	// A wrapper that notes each start's pid, then becomes the plugin.
	real := filepath.Join(dir, "real-file-age")
	if err := os.Rename(filepath.Join(dir, "runbook-plugin-file-age"), real); err != nil {
		t.Fatal(err)
	}
	pids := filepath.Join(dir, "pids")
	wrapper := fmt.Sprintf("#!/bin/sh\necho $$ >> %s\nexec %s \"$@\"\n", pids, real)
	if err := writeExec(filepath.Join(dir, "runbook-plugin-file-age"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, dir, "validate", "chart.yaml"); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	b, err := os.ReadFile(pids)
	if err != nil {
		t.Fatalf("the plugin was never started: %v", err)
	}
	lines := strings.Fields(string(b))
	if len(lines) != 1 {
		t.Fatalf("started %d times (%v), want once for both stages", len(lines), lines)
	}
	pid, _ := strconv.Atoi(lines[0])
	if alive(pid) {
		t.Errorf("plugin process %d still runs after validate exited", pid)
	}
}
