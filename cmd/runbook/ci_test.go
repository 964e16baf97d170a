package main

// Tests of what a CI job meets: inputs given twice, the JSON a gate reads.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestInputGivenTwiceOnTheCommandLineIsRefused: a second --input of one
// name is refused, naming the name and which --input gave it each time,
// never the values (one may be a secret); --input over the --inputs file
// still overrides it. Before, the last --input won in silence: a CI job
// whose pipeline template gave --input repo=/srv/app and whose step gave
// --input repo=/srv/ap checked the misspelt one.
func TestInputGivenTwiceOnTheCommandLineIsRefused(t *testing.T) {
	t.Parallel()
	_, _, err := readInputsAt("", []string{"repo=/srv/app", "env=prod", "repo=s3cr3t"})
	if err == nil {
		t.Fatal("a name given twice was taken")
	}
	want := "--input repo is given twice (the 1st and the 3rd --input); give each input once"
	if !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("error %q; want it to hold %q and no value", err, want)
	}
	file := filepath.Join(t.TempDir(), "in.yaml")
	if err := os.WriteFile(file, []byte("repo: /srv/app\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	given, _, err := readInputsAt(file, []string{"repo=/srv/web"})
	if err != nil || given["repo"] != "/srv/web" {
		t.Errorf("--input over the file: %v, %v; want /srv/web", given, err)
	}
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 101: "101st", 111: "111th"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestJSONSaysItsRowsAreUnjudged: --format json carries, under
// verdicts.unjudged, why a completed run's rows are not all judged (the
// judgement a Nagios check's UNKNOWN and a --fail-on verdict condition
// ask), and no such key over rows that are. Before, a program gating on
// the JSON read the row "clean" a git that exited 128 left as the default
// exactly as one a clean checkout gave: only the standing, which also
// reads an assumed input, hinted at it.
func TestJSONSaysItsRowsAreUnjudged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "chart.yaml", `
version: 1
runbook: tree
inputs:
  code: {type: number, required: true}
result: {kind: verdict/git, decider: Tree}
stages:
  - id: status
    exec: {shell: 'exit $CODE', envFrom: {CODE: string(code)}, parse: lines}
  - id: tree
    name: Tree
    decide:
      rules:
        - {when: len(status.stdout) > 0, then: dirty, label: changes}
      default: {branch: clean, label: no changes}
    branches:
      dirty: [{id: d, verdict: {subject: '"app"', verdict: '"dirty"'}}]
      clean: [{id: c, verdict: {subject: '"app"', verdict: '"clean"'}}]
`)
	for code, want := range map[string][]string{"128": {"1 script gave no answer (status)"}, "0": nil} {
		r := runCLI(t, dir, "exec", chart, "--input", "code="+code, "-o", "json")
		var out struct {
			Verdicts struct {
				Rows     []map[string]any `json:"rows"`
				Unjudged []string         `json:"unjudged"`
			} `json:"verdicts"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("exit %s: %v: %s", code, err, r.stderr)
		}
		if !reflect.DeepEqual(out.Verdicts.Unjudged, want) || len(out.Verdicts.Rows) != 1 || out.Verdicts.Rows[0]["verdict"] != "clean" {
			t.Errorf("git exit %s: rows %v, unjudged %q; want one clean row and %q", code, out.Verdicts.Rows, out.Verdicts.Unjudged, want)
		}
	}
}

// TestJUnitReportCountsATestFileThatDidNotLoad: runbook test -o junit
// reports a test file that did not load as a suite of one case in error
// (errors="1"), with its load errors, and -o json and the text summary
// name it: none of its cases ran. Before, the report held only the files
// that loaded: tests="0" failures="0" over a test file with one typo,
// which a CI server reading the report (the job's exit code ignored, as a
// report step's is) showed green.
func TestJUnitReportCountsATestFileThatDidNotLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", "version: 1\nrunbook: c\nstages:\n  - id: s\n    set: {x: 1}\n")
	writeChart(t, dir, "chart_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n  - name: one\n    expct: {state: {x: 1}}\n")
	r := runCLI(t, dir, "test", ".", "-o", "junit")
	if r.code != 2 {
		t.Errorf("exit %d, want 2", r.code)
	}
	for _, want := range []string{`<testsuites name="runbook test" tests="1" failures="0" errors="1"`, `<testsuite name="chart_test.yaml" tests="1" failures="0" errors="1"`, `<error message="the test file did not load: none of its cases ran" type="load">chart_test.yaml:5:5: case &#34;one&#34; has no key &#34;expct&#34;`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("junit report does not hold %q:\n%s", want, r.stdout)
		}
	}
	if r := runCLI(t, dir, "test", ".", "-o", "json"); !strings.Contains(r.stdout, `{"passed":0,"failed":0,"notLoaded":[{"file":"chart_test.yaml","errors":["chart_test.yaml:5:5: case \"one\" has no key \"expct\"`) {
		t.Errorf("json summary names no file that did not load:\n%s", r.stdout)
	}
	if r := runCLI(t, dir, "test", "."); !strings.Contains(r.stdout, "0 passed, 0 failed, 1 test file did not load, its cases not run (chart_test.yaml)") {
		t.Errorf("text summary:\n%s", r.stdout)
	}
}

// TestDumbTerminalGetsNoColour: TERM=dumb turns colour (and the progress
// line) off as NO_COLOR does; an empty NO_COLOR and another TERM leave it
// on. Before, a dumb terminal was sent `^[[31m…^[[0m`.
func TestDumbTerminalGetsNoColour(t *testing.T) {
	t.Parallel()
	cases := []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{"TERM": "xterm-256color"}, true},
		{map[string]string{"TERM": "dumb"}, false},
		{map[string]string{"TERM": "xterm", "NO_COLOR": "1"}, false},
		{map[string]string{"TERM": "xterm", "NO_COLOR": ""}, true},
	}
	for _, tc := range cases {
		if got := colourWanted(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("%v: colour %v, want %v", tc.env, got, tc.want)
		}
	}
}
