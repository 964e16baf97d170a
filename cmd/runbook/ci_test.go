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
