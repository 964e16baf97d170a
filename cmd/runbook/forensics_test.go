package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// askChart pauses at its question, then writes one verdict row.
const askChart = `
version: 1
runbook: approve
result: {kind: verdict/release, decider: Approval}
stages:
  - id: confirm
    ask: {question: '"Go on?"', expects: {go: bool}}
  - id: decision
    name: Approval
    decide:
      rules: [{when: go, then: yes, label: approved}]
      default: {branch: no, label: not approved}
    branches:
      yes: [{id: mark-yes, verdict: {subject: '"release"', verdict: '"go"'}}]
      no: [{id: mark-no, verdict: {subject: '"release"', verdict: '"stop"'}}]
`

// TestExplainSaysTheRunDidNotFinish: explain of a record whose run paused,
// failed or was answered into another file printed its state as the state
// the run ended in — "The state as of commit 0, key by key" over a paused
// record, nothing said of the question, of the answer a person gave since,
// or of the file that holds what the run did after it. It says so first.
func TestExplainSaysTheRunDidNotFinish(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "ask.yaml", askChart)
	paused := filepath.Join(dir, "paused.json")
	if r := runCLI(t, dir, "exec", chart, "--record", paused); r.code != 0 {
		t.Fatalf("exec: exit %d: %s", r.code, r.stderr)
	}
	r := runCLI(t, dir, "explain", paused)
	if want := `The run paused at confirm to ask "Go on?", and this record holds no answer to it: it holds the run up to its question.` + "\n"; !strings.HasPrefix(r.stdout, want) {
		t.Errorf("explain of a paused record does not open with %q:\n%s", want, r.stdout)
	}
	// A resume that took the lock and wrote no record (SIGKILLed while
	// the stages after the question ran): the record alone reads as a
	// question nobody answered.
	lock := paused + ".lock"
	if err := os.WriteFile(lock, []byte("pid 6052 on web1 since 2026-12-07T11:54:44Z\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, dir, "explain", paused)
	if want := "A resume of it began (pid 6052 on web1 since 2026-12-07T11:54:44Z) and has written no record: it is running, or it was stopped and the stages after the question may have run with nothing recorded"; !strings.Contains(r.stdout, want) {
		t.Errorf("explain of a paused record under a resume's lock does not say %q:\n%s", want, r.stdout)
	}
	r = runCLI(t, dir, "resume", paused, "--input", "go=true")
	if want := "a resume was stopped before it wrote its record, and the stages after the question may have run: see what they did before you remove"; r.code != 2 || !strings.Contains(r.stderr, want) {
		t.Errorf("resume under a stale lock: exit %d, does not say %q: %s", r.code, want, r.stderr)
	}
	if err := os.Remove(lock); err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, dir, "resume", paused, "--input", "go=true", "--answered-by", "ann", "--record", "done.json"); r.code != 0 {
		t.Fatalf("resume: exit %d: %s", r.code, r.stderr)
	}
	r = runCLI(t, dir, "explain", paused, "--format", "json")
	if want := `and was resumed by ann at `; !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, `into done.json. This record holds the run up to its question: the answer, and what the run did after it, are in done.json.`) {
		t.Errorf("explain of a record answered into another file does not say where the run went on:\n%s", r.stdout)
	}
	if r := runCLI(t, dir, "explain", "done.json", "verdicts[0]"); strings.Contains(r.stdout, "The run ") {
		t.Errorf("explain of the completed record says it did not finish:\n%s", r.stdout)
	}

	failing := writeChart(t, dir, "fail.yaml", failingChart)
	failed := filepath.Join(dir, "failed.json")
	runCLI(t, dir, "exec", failing, "--record", failed)
	r = runCLI(t, dir, "explain", failed)
	if want := "The run failed at stage boom before it finished: it broke. This record holds what it did before it stopped."; !strings.HasPrefix(r.stdout, want) {
		t.Errorf("explain of a failed record does not open with %q:\n%s", want, r.stdout)
	}
}

// cappedChart judges four hosts, of which maxBranches lets two run; the
// third is the one a rule would call down.
const cappedChart = `
version: 1
runbook: capped
inputs:
  hosts: {type: list, default: [{name: a, up: true}, {name: b, up: true}, {name: c, up: false}, {name: d, up: true}]}
result: {kind: verdict/reach, decider: Reach}
stages:
  - id: per-host
    foreach:
      items: hosts
      as: h
      maxBranches: 2
      stages:
        - id: reach
          name: Reach
          decide:
            rules: [{when: '!h.up', then: down, label: it is down}]
            default: {branch: up, label: it is up}
          branches:
            down: [{id: mark-down, verdict: {subject: h.name, verdict: '"down"'}}]
            up: [{id: mark-up, verdict: {subject: h.name, verdict: '"up"'}}]
`

// TestWhyNotSaysWhichItemsMaxBranchesCut: a foreach cut by maxBranches
// ran two of four hosts, and `explain --why-not mark-down` listed what the
// two that ran chose, never that the other two — host c, down — did not
// run at all; asked of per-host~2 it said "the log holds no item 2 of
// per-host", as of an item the run never had.
func TestWhyNotSaysWhichItemsMaxBranchesCut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "capped.yaml", cappedChart)
	rec := filepath.Join(dir, "run.json")
	runCLI(t, dir, "exec", chart, "--record", rec)
	r := runCLI(t, dir, "explain", rec, "--why-not", "mark-down")
	if want := "  at the top level: per-host ran 2 of its 4 items: items 2 to 3 never ran (maxBranches is 2), so nothing of them is judged here\n"; !strings.Contains(r.stdout, want) {
		t.Errorf("--why-not mark-down does not say %q:\n%s", want, r.stdout)
	}
	r = runCLI(t, dir, "explain", rec, "--why-not", "per-host~2/mark-down")
	if want := "item 2 of per-host never ran: per-host ran 2 of its 4 items (maxBranches is 2), so nothing of it is judged"; !strings.Contains(r.stdout, want) {
		t.Errorf("--why-not per-host~2/mark-down does not say %q:\n%s", want, r.stdout)
	}
	r = runCLI(t, dir, "explain", rec, "--why-not", "per-host~0/mark-down")
	if strings.Contains(r.stdout, "never ran") {
		t.Errorf("--why-not of an item that ran speaks of the cut:\n%s", r.stdout)
	}
	r = runCLI(t, dir, "explain", rec, "--why-not", "down", "--format", "json")
	if !strings.Contains(r.stdout, `"because": "cut"`) {
		t.Errorf("--why-not down in JSON has no reason \"cut\":\n%s", r.stdout)
	}
}

// TestResumeOfARunThatTimedOutSaysSo: resume of a record its --timeout
// ended said "the run is cancelled", as of a Ctrl-C.
func TestResumeOfARunThatTimedOutSaysSo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	arg := uniqueSleep()
	chart := writeChart(t, dir, "sleepy.yaml", sleepChart(arg))
	t.Cleanup(func() { killSleeps(arg) })
	rec := filepath.Join(dir, "run.json")
	runCLI(t, dir, "exec", chart, "--record", rec, "--timeout", "300ms")
	r := runCLI(t, dir, "resume", rec)
	if want := "the run timed out before it finished: only a run paused at an ask: stage can be resumed; run the chart again"; r.code != 2 || !strings.Contains(r.stderr, want) {
		t.Errorf("resume of a timed-out record: exit %d, does not say %q: %s", r.code, want, r.stderr)
	}
}

// TestExplainToolNamesNoLockOfTheServer: the MCP explain tool of a paused
// run under a resume's lock says a resume began, naming no pid, host or
// file of the server's.
func TestExplainToolNamesNoLockOfTheServer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "ask.yaml", askChart)
	paused := filepath.Join(dir, "paused.json")
	if r := runCLI(t, dir, "exec", chart, "--record", paused); r.code != 0 {
		t.Fatalf("exec: exit %d: %s", r.code, r.stderr)
	}
	if err := os.WriteFile(paused+".lock", []byte("pid 6052 on web1 since 2026-12-07T11:54:44Z\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errs strings.Builder
	f := explainFlags{at: -1, format: "text", tool: true}
	if err := explainRecord(paused, "", f, false, &out, &errs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "A resume of it began and has written no record") {
		t.Errorf("the tool's explain does not say a resume began:\n%s", out.String())
	}
	if strings.Contains(out.String(), "6052") || strings.Contains(out.String(), ".lock") {
		t.Errorf("the tool's explain names the server's pid or lock file:\n%s", out.String())
	}
}
