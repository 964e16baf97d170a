package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// A pipeline handed to sh -c without pipefail exits with its last
// command's code, so a collector that is not installed reads as a success
// through `| wc -l`. plan notes it under the stage, and a run warns of it
// once, not once per foreach item; a shell: stage (bash -o pipefail) is
// not noted. Before, nothing said so, and the run stood Consistent.
func TestUnguardedPipelineIsNoted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `version: 1
runbook: failed-units
stages:
  - id: per
    foreach:
      items: '["a", "b", "c"]'
      as: h
      maxBranches: 5
      stages:
        - id: units
          exec: {command: [sh, -c, "runbook-test-no-such-tool --failed | wc -l"]}
  - id: guarded
    exec: {shell: "runbook-test-no-such-tool --failed | wc -l"}
`)
	notedOnce(t, dir, chart, "its command runs a pipeline with sh -c and no pipefail")
}

// notedOnce wants note once in chart's plan, and once in its run's
// warnings (the record's and stderr), though the stage ran for every item
// of a foreach.
func notedOnce(t *testing.T, dir, chart, note string) {
	t.Helper()
	r := runCLI(t, dir, "plan", chart)
	if strings.Count(r.stdout, "note: "+note) != 1 {
		t.Errorf("plan: want the note once:\n%s", r.stdout)
	}
	r = runCLI(t, dir, "exec", chart, "--format", "json")
	var rec struct {
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rec); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	n := 0
	for _, w := range rec.Warnings {
		if strings.Contains(w, note) {
			n++
		}
	}
	if n != 1 || strings.Count(r.stderr, note) != 1 {
		t.Errorf("%d warnings in the record, %d on stderr; want one each:\n%+v\n%s", n, strings.Count(r.stderr, note), rec.Warnings, r.stderr)
	}
}

// TestShellScriptEarlierPipelineFailureIsNotSure: the checklist's
// "dmesg | tail" on a host that denies dmesg, with a line after it. The
// script exited with its last command's 0, the stage completed, a rule
// found no OOM in what it printed, and the answer stood Consistent, an
// OK over a kernel log nobody read. Now the failing pipeline ends the
// script with its code: script-failed, Not sure.
func TestShellScriptEarlierPipelineFailureIsNotSure(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `version: 1
runbook: kernel
result: {kind: verdict/kernel, decider: K}
stages:
  - id: logs
    exec:
      shell: |
        runbook-test-no-such-dmesg | tail -n 20
        echo "-- end of kernel log"
      parse: lines
  - id: k
    name: K
    decide:
      rules:
        - {when: 'any(logs.stdout, # contains "Out of memory")', then: bad, label: OOM in the kernel log}
      default: {branch: ok, label: No OOM in the kernel log}
    branches:
      bad: [{id: b, verdict: {subject: '"kernel"', verdict: '"bad"'}}]
      ok: [{id: o, verdict: {subject: '"kernel"', verdict: '"ok"'}}]
`)
	r := runCLI(t, dir, "exec", chart)
	if !strings.Contains(r.stdout, `Not sure — script "logs" completed with failure, exit 127`) || strings.Contains(r.stdout, "end of kernel log") {
		t.Errorf("want the script failed at its pipeline, Not sure:\n%s\n%s", r.stdout, r.stderr)
	}
}

// TestShellReadingAChartInputIsWarned: `shell: seq 1 ${n}` over an input
// n: 3 ran `seq 1` — a script is no template, and bash's n is empty — so
// a foreach over its lines judged one item where three were meant, and
// nothing said why. plan notes it under the stage, and a run warns of it
// once, as it does of a pipeline without pipefail.
func TestShellReadingAChartInputIsWarned(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `version: 1
runbook: seq-items
inputs:
  n: {type: number, default: 3}
stages:
  - id: per
    foreach:
      items: '["a", "b"]'
      as: h
      maxBranches: 5
      stages:
        - id: gen
          exec: {shell: 'seq 1 ${n}', parse: lines}
  - id: given
    exec: {shell: 'seq 1 $N', parse: lines, envFrom: {N: string(n)}}
`)
	notedOnce(t, dir, chart, "its shell script reads $n as a bash variable, which is empty here")
}
