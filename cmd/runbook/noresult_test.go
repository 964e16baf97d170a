package main

import (
	"strings"
	"testing"
)

// TestVerdictRowsWithNoResultAreNoAnswer: a sysctl check whose author left
// out the result: block wrote the row {subject: kernel.kptr_restrict,
// verdict: fail}, and runbook exec printed no table, only "Consistent
// with the run's record", exit 0: the row was shown and judged by
// nothing. The loader lets a chart with no result: be (a chart others
// mount writes rows for its parent), so the run's ledger says the rows
// are unshown: Not sure, and the item says what to add.
func TestVerdictRowsWithNoResultAreNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "sysctl.yaml", `version: 1
runbook: sysctl
stages:
  - id: value
    exec: {command: [echo, "0"]}
  - id: judge
    decide:
      rules:
        - {when: 'trim(value.stdout) == "2"', then: pass, label: the wanted value}
      default: {branch: fail, label: not the wanted value}
    branches:
      pass: [{id: p, verdict: {subject: '"kernel.kptr_restrict"', verdict: '"pass"'}}]
      fail: [{id: f, verdict: {subject: '"kernel.kptr_restrict"', verdict: '"fail"'}}]
`)
	r := runCLI(t, dir, "exec", chart)
	if strings.Contains(r.stdout, "Consistent") || !strings.Contains(r.stdout, "Not sure") ||
		!strings.Contains(r.stdout, "1 verdict row (the chart has no result: block") || !strings.Contains(r.stdout, "add result: {kind: verdict/NAME}") {
		t.Errorf("exit %d; want Not sure, saying the row is unshown and what to add:\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A chart with no verdict stage and no result: is no such run.
	plain := writeChart(t, dir, "plain.yaml", "version: 1\nrunbook: plain\nstages:\n  - id: value\n    exec: {command: [echo, \"0\"]}\n")
	if r := runCLI(t, dir, "exec", plain); strings.Contains(r.stdout, "verdict row") || !strings.Contains(r.stdout, "Consistent") {
		t.Errorf("no verdict stage: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestPlanSaysVerdictRowsWithNoResultAreUnshown: runbook plan of the same
// chart said nothing of its result, where a run's rows are shown by
// nothing; it says so before any run, and what to add.
func TestPlanSaysVerdictRowsWithNoResultAreUnshown(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "sysctl.yaml", "version: 1\nrunbook: sysctl\nstages:\n  - {id: mark, verdict: {subject: '\"kernel.kptr_restrict\"', verdict: '\"fail\"'}}\n")
	r := runCLI(t, dir, "plan", chart)
	if !strings.Contains(r.stdout, "result none: the rows the verdict stages write are shown and judged by nothing") || !strings.Contains(r.stdout, "add result: {kind: verdict/NAME}") {
		t.Errorf("exit %d; want the plan to say the rows are unshown:\n%s%s", r.code, r.stdout, r.stderr)
	}
	plain := writeChart(t, dir, "plain.yaml", "version: 1\nrunbook: plain\nstages:\n  - id: value\n    exec: {command: [echo, \"0\"]}\n")
	if r := runCLI(t, dir, "plan", plain); strings.Contains(r.stdout, "result none") {
		t.Errorf("no verdict stage: %s", r.stdout)
	}
}
