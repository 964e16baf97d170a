package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/internal/golden"
)

// issue14Dir is testdata/issue14 (the repository root's), absolute.
func issue14Dir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "issue14"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// issue14Golden compares a run's exit code and stdout with
// testdata/issue14/golden/NAME, the temporary directory written RECORD.
func issue14Golden(t *testing.T, name string, r result, tmp string) {
	t.Helper()
	got := fmt.Sprintf("exit %d\n%s", r.code, r.stdout)
	if tmp != "" {
		got = strings.ReplaceAll(got, tmp, "TMP")
	}
	golden.Check(t, filepath.Join(issue14Dir(t), "golden", name), []byte(got))
}

// TestIssue14NagiosStates: --format nagios prints the check line, the rows
// and the standing line, and exits as the plugin API says, for each state
// and for a run that failed, paused or judges nothing.
func TestIssue14NagiosStates(t *testing.T) {
	t.Parallel()
	dir := issue14Dir(t)
	cases := []struct {
		name  string
		args  []string
		code  int
		first string // the first line's start
	}{
		{"ok", []string{"states/chart.yaml", "--input", "rows=a=ok b=ok"}, 0, "states OK - 2 ok | ok=2;;;0"},
		{"warning", []string{"states/chart.yaml", "--input", "rows=a=ok b=warning"}, 1, "states WARNING - 1 warning (b), 1 ok |"},
		{"critical", []string{"states/chart.yaml", "--input", "rows=a=unknown b=critical c=warning d=critical"}, 2, "states CRITICAL - 2 critical (b, d), 1 warning, 1 unknown |"},
		{"unknown", []string{"states/chart.yaml", "--input", "rows=a=ok b=unknown"}, 3, "states UNKNOWN - 1 unknown (b), 1 ok |"},
		// A word nothing maps is UNKNOWN, and the long text says so.
		{"unmapped", []string{"states/chart.yaml", "--input", "rows=a=ok b=weird c=odd"}, 3, "states UNKNOWN - 1 weird (b), 1 odd (c), 1 ok |"},
		// The worst row is past maxRows (3): still the state, still named.
		{"hidden", []string{"states/chart.yaml", "--input", "rows=a=ok b=ok c=ok d=critical"}, 2, "states CRITICAL - 1 critical (d), 3 ok |"},
		// result.nagios maps the chart's own words.
		{"mapped", []string{"disks/chart.yaml", "--input", "listing=/ 40\n/home 80\n/var 95\n/srv 97"}, 2, "disks CRITICAL - 2 at-risk (/var, /srv), 1 filling, 1 ok | at-risk=2;;;0 filling=1;;;0 ok=1;;;0"},
		{"mapped-warning", []string{"disks/chart.yaml", "--input", "listing=/ 40\n/home 80"}, 1, "disks WARNING - 1 filling (/home), 1 ok |"},
		// A failed run is no better than UNKNOWN, naming the stage; a row
		// it wrote before it stopped keeps a worse state (it was UNKNOWN
		// over this critical row: TestNagiosRowWrittenBeforeTheRunStoppedKeepsItsState).
		{"failed", []string{"failed/chart.yaml"}, 2, "broken CRITICAL - the run failed at give-up: the collector exited 4; before it stopped it wrote 1 critical (disk-0)\n"},
		{"no-projection", []string{"plain/chart.yaml"}, 3, "plain UNKNOWN - the chart projects no verdict rows"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := runCLI(t, dir, append([]string{"exec", "--format", "nagios"}, tc.args...)...)
			if r.code != tc.code {
				t.Errorf("exit %d, want %d\nstdout %s\nstderr %s", r.code, tc.code, r.stdout, r.stderr)
			}
			if !strings.HasPrefix(r.stdout, tc.first) {
				t.Errorf("first line:\n%s\nwant it to start %q", r.stdout, tc.first)
			}
			if n := strings.Count(strings.SplitN(r.stdout, "\n", 2)[0], "|"); n > 1 {
				t.Errorf("the first line has %d |; Nagios reads perfdata after the first", n)
			}
			issue14Golden(t, "nagios-"+tc.name+".txt", r, "")
		})
	}
}

// TestIssue14NagiosPausedAndResumed: a run paused at an ask: is UNKNOWN
// (no answer yet) with the resume command in the long text, its record
// still written; resumed, the check is the answer's state, on resume too.
func TestIssue14NagiosPausedAndResumed(t *testing.T) {
	t.Parallel()
	dir, tmp := issue14Dir(t), t.TempDir()
	rec := filepath.Join(tmp, "approve.json")
	r := runCLI(t, dir, "exec", "ask/chart.yaml", "--format", "nagios", "--record", rec)
	if r.code != 3 || !strings.HasPrefix(r.stdout, "approve UNKNOWN - the run is paused at approve, waiting for an answer: Remove the 3 old files?\n") {
		t.Errorf("paused: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(rec); err != nil {
		t.Errorf("the paused record is not written: %v", err)
	}
	issue14Golden(t, "nagios-paused.txt", r, tmp)

	r = runCLI(t, dir, "resume", rec, "--input", "approve=true", "--format", "nagios")
	if r.code != 1 || !strings.HasPrefix(r.stdout, "approve WARNING - 1 remove (/tmp) | remove=1;;;0\n") {
		t.Errorf("resumed: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	issue14Golden(t, "nagios-resumed.txt", r, tmp)
}

// TestIssue14NagiosLabels: a verdict word or subject with "|" never
// starts perfdata early, and a label with a space or "'" is quoted with
// "'" doubled, as the plugin API's perfdata grammar reads it.
func TestIssue14NagiosLabels(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", `
version: 1
runbook: labels
result:
  kind: verdict/state
stages:
  - id: a
    verdict: {subject: '"x|y"', verdict: '"it''s bad"'}
  - id: b
    verdict: {subject: '"z"', verdict: '"a|b"'}
`)
	r := runCLI(t, dir, "exec", "chart.yaml", "--format", "nagios")
	first, rest, _ := strings.Cut(r.stdout, "\n")
	want := `labels UNKNOWN - 1 it's bad (x¦y), 1 a¦b (z) | 'it''s bad'=1;;;0 a¦b=1;;;0`
	if first != want || r.code != 3 {
		t.Errorf("exit %d first line\n%s\nwant\n%s", r.code, first, want)
	}
	if strings.Contains(rest, "|") {
		t.Errorf("the long text holds a |, which Nagios reads as perfdata:\n%s", rest)
	}
}

// TestIssue14NagiosRecordNotWritten: a record that cannot be written
// leaves an OK check UNKNOWN, said in the long text, and exits 3 — never
// OK on a lost record, never 1 (WARNING) under nagios. The record's
// directory goes away during the run (a path that plainly cannot be
// written is refused before it: TestRecordPathRefusedBeforeRun).
func TestIssue14NagiosRecordNotWritten(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	dir := filepath.Join(t.TempDir(), "records")
	chart := writeChart(t, work, "chart.yaml", `
version: 1
runbook: states
inputs:
  word: {type: string, required: true}
result:
  kind: verdict/state
stages:
  - id: vanish
    exec: {command: [rm, -rf, "`+dir+`"]}
  - id: mark
    verdict: {subject: '"a"', verdict: 'word'}
`)
	bad := filepath.Join(dir, "run.json")
	runOnce := func(word string) result {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return runCLI(t, work, "exec", chart, "--input", "word="+word, "--format", "nagios", "--record", bad)
	}
	r := runOnce("ok")
	if r.code != 3 || !strings.HasPrefix(r.stdout, "states UNKNOWN - 1 ok | ok=1;;;0\n") || !strings.Contains(r.stdout, "UNKNOWN: writing the run record:") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A critical answer stays critical: a lost record makes it no better.
	r = runOnce("critical")
	if r.code != 2 || !strings.HasPrefix(r.stdout, "states CRITICAL - ") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestIssue14FailOnExec: exit 3 when a condition holds for a run that
// completed (or paused), 1 for a run that failed whatever holds, 0 for a
// clean run; the conditions that held are said on stderr.
func TestIssue14FailOnExec(t *testing.T) {
	t.Parallel()
	dir := issue14Dir(t)
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr string // on stderr; "" for no --fail-on line
	}{
		{"clean", []string{"states/chart.yaml", "--input", "rows=a=ok b=warning", "--fail-on", "verdict=critical,not-sure"}, 0, ""},
		{"no-conditions", []string{"states/chart.yaml", "--input", "rows=a=critical"}, 0, ""},
		{"verdict", []string{"states/chart.yaml", "--input", "rows=a=ok b=critical c=critical", "--fail-on", "verdict=critical"}, 3, "runbook: --fail-on: verdict=critical (2 rows) (exit 3)"},
		{"verdict-alternatives", []string{"states/chart.yaml", "--input", "rows=a=ok b=warning", "--fail-on", "verdict=critical|warning"}, 3, "verdict=critical|warning (1 row)"},
		{"verdict-hidden-row", []string{"states/chart.yaml", "--input", "rows=a=ok b=ok c=ok d=critical", "--fail-on", "verdict=critical"}, 3, "verdict=critical (1 row)"},
		{"repeated-flag", []string{"states/chart.yaml", "--input", "rows=a=bad", "--fail-on", "ask", "--fail-on", "check-failed,not-sure"}, 3, "runbook: --fail-on: check-failed, not-sure (exit 3)"},
		{"check-failed", []string{"states/chart.yaml", "--input", "rows=a=ok b=bad", "--fail-on", "check-failed"}, 3, "check-failed"},
		{"not-sure", []string{"disks/chart.yaml", "--fail-on", "not-sure"}, 3, "not-sure"},
		{"consistent", []string{"plain/chart.yaml", "--fail-on", "consistent"}, 3, "consistent"},
		{"consistent-not-known", []string{"states/chart.yaml", "--input", "rows=a=ok", "--fail-on", "consistent,not-sure,not-assessed,ask"}, 0, ""},
		// The run broke: 1, never 3, though its critical row is there.
		{"failed-run", []string{"failed/chart.yaml", "--fail-on", "verdict=critical,not-sure"}, 1, ""},
		{"failed-run-no-conditions", []string{"failed/chart.yaml"}, 1, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, format := range []string{"text", "json"} {
				r := runCLI(t, dir, append([]string{"exec", "--format", format}, tc.args...)...)
				if r.code != tc.code {
					t.Errorf("%s: exit %d, want %d\nstdout %s\nstderr %s", format, r.code, tc.code, r.stdout, r.stderr)
				}
				if tc.stderr == "" && strings.Contains(r.stderr, "--fail-on") {
					t.Errorf("%s: stderr says a condition held:\n%s", format, r.stderr)
				}
				if tc.stderr != "" && !strings.Contains(r.stderr, tc.stderr) {
					t.Errorf("%s: stderr\n%s\nwant it to hold %q", format, r.stderr, tc.stderr)
				}
				if format == "json" && !json.Valid([]byte(r.stdout)) {
					t.Errorf("stdout is not the result record: %s", r.stdout)
				}
			}
		})
	}
}

// TestIssue14FailOnPausedAndResume: --fail-on ask fails a paused run (3)
// with its record still written; resume takes --fail-on for the continued
// run: 3 when a condition holds, 0 when none does, 1 when it fails.
func TestIssue14FailOnPausedAndResume(t *testing.T) {
	t.Parallel()
	dir, tmp := issue14Dir(t), t.TempDir()
	pause := func(name string, conds ...string) string {
		t.Helper()
		rec := filepath.Join(tmp, name+".json")
		args := []string{"exec", "ask/chart.yaml", "--record", rec}
		for _, c := range conds {
			args = append(args, "--fail-on", c)
		}
		r := runCLI(t, dir, args...)
		want := 0
		if len(conds) > 0 {
			want = 3
		}
		if r.code != want || !strings.Contains(r.stderr, "run paused; record written to "+rec) {
			t.Fatalf("exec %v: exit %d, want %d\n%s", conds, r.code, want, r.stderr)
		}
		return rec
	}
	pause("ask-clean")
	r := runCLI(t, dir, "exec", "ask/chart.yaml", "--record", filepath.Join(tmp, "ask-cond.json"), "--fail-on", "ask")
	if r.code != 3 || !strings.Contains(r.stderr, "runbook: --fail-on: ask (exit 3)") {
		t.Errorf("--fail-on ask on a pause: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(tmp, "ask-cond.json")); err != nil {
		t.Errorf("a paused run failed on is still recorded: %v", err)
	}

	cases := []struct {
		name string
		args []string
		code int
	}{
		{"holds", []string{"--input", "approve=true", "--fail-on", "verdict=remove"}, 3},
		{"does-not-hold", []string{"--input", "approve=false", "--fail-on", "verdict=remove"}, 0},
		{"no-conditions", []string{"--input", "approve=true"}, 0},
		// A rejection ends the run failed: 1, whatever holds.
		{"rejected", []string{"--reject", "not now", "--fail-on", "verdict=remove,consistent"}, 1},
	}
	for _, tc := range cases {
		rec := pause("resume-" + tc.name)
		r := runCLI(t, dir, append([]string{"resume", rec}, tc.args...)...)
		if r.code != tc.code {
			t.Errorf("resume %s: exit %d, want %d\nstdout %s\nstderr %s", tc.name, r.code, tc.code, r.stdout, r.stderr)
		}
		if held := strings.Contains(r.stderr, "--fail-on:"); held != (tc.code == 3) {
			t.Errorf("resume %s: stderr %q", tc.name, r.stderr)
		}
	}
}

// TestIssue14FailOnUsage: a condition that does not read is bad usage
// (exit 2) saying what would be right, on exec and resume alike, before
// anything runs; so is --fail-on with --format nagios, which as a Nagios
// check is UNKNOWN (exit 3, the plugin API's invalid arguments; Nagios
// read 2 as CRITICAL: TestNagiosRefusedCommandLineIsUnknown).
func TestIssue14FailOnUsage(t *testing.T) {
	t.Parallel()
	dir := issue14Dir(t)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"typo", []string{"--fail-on", "not_sure"}, `--fail-on "not_sure" is not a condition; did you mean "not-sure"? (conditions: not-sure, ask, not-assessed, consistent, check-failed, verdict=WORD[|WORD…])`},
		{"verdict-typo", []string{"--fail-on", "verdit"}, `did you mean "verdict=WORD"?`},
		{"unknown", []string{"--fail-on", "whatever"}, `--fail-on "whatever" is not a condition; want one of not-sure, ask, not-assessed, consistent, check-failed, verdict=WORD[|WORD…]`},
		{"known", []string{"--fail-on", "known"}, `known is the standing of an answer whose checks passed`},
		{"empty-verdict", []string{"--fail-on", "verdict=at-risk|"}, `a verdict word is empty`},
		{"verdict-no-equals", []string{"--fail-on", "verdict:at-risk"}, `want verdict=WORD[|WORD…]`},
		{"empty", []string{"--fail-on", "ask,,not-sure"}, `a condition is empty`},
		{"with-nagios", []string{"--fail-on", "ask", "--format", "nagios"}, `--fail-on with --format nagios: a check's exit code is its state`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, cmd := range [][]string{{"exec", "states/chart.yaml", "--input", "rows=a=ok"}, {"resume", "no-such-record.json", "--input", "approve=true"}} {
				r := runCLI(t, dir, append(cmd, tc.args...)...)
				if tc.name == "with-nagios" {
					if r.code != 3 || !strings.HasPrefix(r.stdout, "runbook UNKNOWN - "+tc.want) || !strings.Contains(r.stderr, tc.want) {
						t.Errorf("%s: exit %d stdout %q\nstderr %s\nwant 3 and %q", cmd[0], r.code, r.stdout, r.stderr, tc.want)
					}
					continue
				}
				if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, tc.want) {
					t.Errorf("%s: exit %d stdout %q\nstderr %s\nwant %q", cmd[0], r.code, r.stdout, r.stderr, tc.want)
				}
			}
		})
	}
}

// TestIssue14NagiosLoadError: a result.nagios state that is not one of
// ok, warning, critical, unknown stops the chart at load (exit 2; as a
// Nagios check, UNKNOWN, exit 3, with the error as its status line), at
// its line and column, with the states to choose from.
func TestIssue14NagiosLoadError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", `
version: 1
runbook: typo
result:
  kind: verdict/state
  nagios:
    critcal: [at-risk]
stages:
  - id: a
    verdict: {subject: '"x"', verdict: '"at-risk"'}
`)
	for _, format := range []string{"nagios", "text"} {
		r := runCLI(t, dir, "exec", "chart.yaml", "--format", format)
		want := `chart.yaml:6:5: result nagios: "critcal" is not a check state; did you mean "critical"? (states: ok, warning, critical, unknown)`
		if format == "nagios" {
			if r.code != 3 || !strings.HasPrefix(r.stdout, "runbook UNKNOWN - "+want+"\n") || !strings.Contains(r.stderr, want) {
				t.Errorf("%s: exit %d stdout %q\nstderr %s\nwant 3 and %q", format, r.code, r.stdout, r.stderr, want)
			}
			continue
		}
		if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: exit %d stdout %q\nstderr %s\nwant %q", format, r.code, r.stdout, r.stderr, want)
		}
	}
}
