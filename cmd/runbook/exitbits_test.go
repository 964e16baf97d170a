package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestExitBitsReadABitmaskCode: a real process exiting with a sum of
// bits. exitCodes: listed whole codes alone, so e2fsck's 12 (errors left,
// and an operational error) and smartctl's 72 were failures of the
// command whatever they held (wave-fsck's design question). Under
// exitBits: a code every bit of which is listed is an answer: status the
// first listed bit it holds, bits each listed bit's word; a bit not
// listed leaves it a failure, status and bits absent.
func TestExitBitsReadABitmaskCode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		code   int
		status any
		bits   any
	}{
		{0, "clean", []any{}},
		{4, "errors", []any{"errors"}},
		{12, "errors", []any{"errors", "incomplete"}},
		{8, "incomplete", []any{"incomplete"}},
		{16, nil, nil},
	} {
		name := fmt.Sprintf("bits%d.yaml", tc.code)
		writeChart(t, dir, name, fmt.Sprintf(`version: 1
runbook: bits
stages:
  - id: check
    exec:
      command: [sh, -c, 'exit %d']
      exitCodes: {0: clean}
      exitBits: {4: errors, 8: incomplete}
`, tc.code))
		r := runCLI(t, dir, "exec", name, "--format", "json")
		var out struct {
			State map[string]map[string]any `json:"state"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("exit %d: %v\n%s%s", tc.code, err, r.stdout, r.stderr)
		}
		got := out.State["check"]
		if got["status"] != tc.status || !reflect.DeepEqual(got["bits"], tc.bits) {
			t.Errorf("exit %d: status %v, bits %#v; want %v, %#v", tc.code, got["status"], got["bits"], tc.status, tc.bits)
		}
	}
}

// TestExitBitsAreAnEmptyListOverExitZeroWithoutAWord: CHARTS.md says
// into.bits is an empty list over exit 0, but it was set only beside a
// status, so a chart declaring exitBits: and no exitCodes: word for 0
// (`exitBits: {8: failing, 64: logged}` over smartctl -H) had no bits
// over a healthy disk, and a rule `"failing" in health.bits` could not be
// evaluated there: Not sure of every healthy disk
// (testdata/wave-bits/fsck-order). Exit 0 is no failure: bits is [].
func TestExitBitsAreAnEmptyListOverExitZeroWithoutAWord(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "zero.yaml", `version: 1
runbook: bits
stages:
  - id: check
    exec:
      command: [sh, -c, 'exit 0']
      exitBits: {4: errors, 8: incomplete}
`)
	r := runCLI(t, dir, "exec", "zero.yaml", "--format", "json")
	var out struct {
		State map[string]map[string]any `json:"state"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("%v\n%s%s", err, r.stdout, r.stderr)
	}
	got := out.State["check"]
	if _, has := got["status"]; has || !reflect.DeepEqual(got["bits"], []any{}) {
		t.Errorf("exit 0: status %v, bits %#v; want no status, bits []", got["status"], got["bits"])
	}
}

// TestPlanSaysWhatExitBitsReadUnderAShellAndOverZero: runbook plan said
// of a shell: stage `a code of the bits … alone; anything else is a
// failure`, though 137 (128+8+1) under bash is a command killed, no bits
// (chart.ExecSpec.RelaysCode), and of a stage with exitBits: alone it
// called exit 0 a failure, which is no failure but an exit with no word
// and no bits. It says both now, and notes a script of several commands
// (cd's 1 is the bit 1).
func TestPlanSaysWhatExitBitsReadUnderAShellAndOverZero(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "plan.yaml", `version: 1
runbook: bits
stages:
  - id: check
    exec:
      shell: cd /srv && e2fsck -fn disk.img
      exitBits: {4: errors, 128: library, 1: corrected}
`)
	r := runCLI(t, dir, "plan", "plan.yaml")
	for _, want := range []string{
		"0 no word (status absent, bits empty)",
		"not 124-127 or past 128, the shell's or timeout's own codes",
		"exitBits: declares a code of the bit 1 an answer",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("plan lacks %q:\n%s%s", want, r.stdout, r.stderr)
		}
	}
}

// TestDeclaredCodeRefusedSaysWhy: a code the chart declared an answer
// that is not one here (its stderr text absent, a shell's signal code
// under exitBits:) read only "completed with failure, exit 1", and the
// reader could not tell why a declared 1 was a failure (wave-bits). The
// script's line now says it.
func TestDeclaredCodeRefusedSaysWhy(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct{ name, exec, want string }{
		{"stderr text absent", `{shell: "echo 'stat: cannot statx x: Permission denied' >&2; exit 1", exitCodes: {0: present, 1: {word: missing, stderr: No such file}}}`,
			`completed with failure, exit 1: exitCodes: gives 1 the word "missing" only when stderr says "No such file", and it did not`},
		{"a signal's code under bits", `{shell: "sh -c 'kill -KILL $$'", exitCodes: {0: clean}, exitBits: {128: library, 8: incomplete, 1: corrected}}`,
			`exitBits: covers 137, but it is the shell's or timeout's own code`},
	} {
		name := strings.ReplaceAll(tc.name, " ", "-") + ".yaml"
		writeChart(t, dir, name, `version: 1
runbook: why
stages:
  - id: s
    exec: `+tc.exec+`
`)
		r := runCLI(t, dir, "exec", name)
		if !strings.Contains(r.stdout, tc.want) {
			t.Errorf("%s:\n%s%s\nwant it to say %q", tc.name, r.stdout, r.stderr, tc.want)
		}
	}
}
