package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestExplainSaysWhatAVarWasComputedFrom: a decider read warn, a var
// (vars: {warn: limit - 10}), and the run was given --input limit=70.
// explain said `read warn = 60: the chart's constant (vars:)` and nothing
// under it: a reviewer read 60 as written in the chart, while it came
// from the limit the run was given. The record keeps each var's inputs
// (result.inputs.varsFrom), and explain says the var rests on them, after
// a pause and resume too.
func TestExplainSaysWhatAVarWasComputedFrom(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart, err := filepath.Abs("../../testdata/wave-trace/var-from-input/chart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, dir, "exec", chart, "--input", "used=65", "--input", "limit=70", "--record", "run.json"); r.code != 0 {
		t.Fatalf("exec: exit %d: %s", r.code, r.stderr)
	}
	if r := runCLI(t, dir, "resume", "run.json", "--input", "go=true"); r.code != 0 {
		t.Fatalf("resume: exit %d: %s", r.code, r.stderr)
	}
	r := runCLI(t, dir, "explain", "run.json", "verdicts[0]")
	if r.code != 0 {
		t.Fatalf("explain: exit %d: %s", r.code, r.stderr)
	}
	want := "read warn = 60: the chart's var (vars:), computed before the first stage from\n" +
		"        read limit = 70: an input, given\n"
	if !strings.Contains(r.stdout, want) {
		t.Errorf("explain does not say warn was computed from the limit given:\n%s", r.stdout)
	}
}
