package main

import (
	"strings"
	"testing"
)

// TestNagiosRowWrittenBeforeTheRunStoppedKeepsItsState: a check whose
// run stopped early (--timeout, a stage that failed, an ask:) said
// UNKNOWN, exit 3, over a row its own chart had written CRITICAL before
// it stopped — the long text even showed "CRITICAL crit: critical". The
// monitoring-plugins order (OK < UNKNOWN < WARNING < CRITICAL) ranks
// CRITICAL worse: a host whose users check said CRITICAL was paged, if
// at all, as UNKNOWN because a later, slow check was cut off. A run with
// no finished answer is no better than UNKNOWN; a row it wrote keeps a
// worse state.
func TestNagiosRowWrittenBeforeTheRunStoppedKeepsItsState(t *testing.T) {
	t.Parallel()
	const chart = `
version: 1
runbook: seq
result: {kind: verdict/plugin}
stages:
  - id: crit
    exec: {shell: 'echo "USERS CRITICAL - 12 users currently logged in |users=12;5;10;0"; exit 2', exitCodes: nagios, parse: nagios}
  - id: crit-row
    verdict: {subject: '"users"', verdict: crit.status}
  - id: ok
    exec: {shell: 'echo "LOAD OK - load average: 0.1"', exitCodes: nagios, parse: nagios}
  - id: ok-row
    verdict: {subject: '"load"', verdict: ok.status}
%s
`
	cases := []struct {
		name, tail string
		args       []string
		first      string
	}{
		{"timed out", `  - id: slow
    exec: {shell: 'sleep 30', exitCodes: nagios, parse: nagios}`, []string{"--timeout", "1s"},
			"seq CRITICAL - the run was cancelled at slow: the run timed out while this stage ran: context deadline exceeded; before it stopped it wrote 1 critical (users), 1 ok"},
		{"failed", `  - id: broken
    set: {n: 'int("many")'}`, nil,
			"seq CRITICAL - the run failed at broken: "},
		{"paused", `  - id: q
    ask: {question: '"Log the users out?"', expects: {logout: bool}}`, []string{"--record", "run.json"},
			"seq CRITICAL - the run is paused at q, waiting for an answer: Log the users out?; before it paused it wrote 1 critical (users), 1 ok"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeChart(t, dir, "chart.yaml", strings.Replace(chart, "%s", tc.tail, 1))
			r := runCLI(t, dir, append([]string{"exec", "chart.yaml", "-o", "nagios"}, tc.args...)...)
			first, long, _ := strings.Cut(r.stdout, "\n")
			if r.code != 2 || !strings.HasPrefix(first, tc.first) {
				t.Errorf("exit %d, first line %q\nwant exit 2 (CRITICAL) and a line starting %q\nstdout %s\nstderr %s", r.code, first, tc.first, r.stdout, r.stderr)
			}
			if !strings.Contains(first, "1 critical (users)") || strings.Contains(first, "|") {
				t.Errorf("first line %q: want the critical row named and no perfdata (no finished answer)", first)
			}
			if !strings.Contains(long, "CRITICAL users: critical") {
				t.Errorf("long text lost the row\n%s", long)
			}
		})
	}
}

// TestVerdictWordWithALineEndIsRefused: a wrapper whose script prints its
// state word, read with parse: text, kept echo's line end: the row read
// "critical" in the table, yet `--fail-on verdict=critical` exited 0 over
// it and a Nagios check said UNKNOWN, "verdict critical  has no check
// state". A verdict word with spaces or a line end around it is refused
// at its stage, saying to trim it, as a verdict that is not text is.
func TestVerdictWordWithALineEndIsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", `
version: 1
runbook: word
result: {kind: verdict/state}
stages:
  - id: p
    exec: {shell: 'echo critical', parse: text}
  - id: v
    verdict: {subject: '"p"', verdict: p.stdout}
`)
	r := runCLI(t, dir, "exec", "chart.yaml", "--fail-on", "verdict=critical")
	if r.code != 1 || !strings.Contains(r.stderr, `p.stdout gave the text "critical\n"`) || !strings.Contains(r.stderr, "trim(p.stdout)") {
		t.Errorf("exit %d, want 1 (the stage refuses the word, saying to trim it)\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, dir, "exec", "chart.yaml", "-o", "nagios")
	if first, _, _ := strings.Cut(r.stdout, "\n"); r.code != 3 || !strings.HasPrefix(first, "word UNKNOWN - the run failed at v: ") {
		t.Errorf("exit %d, first line %q, want 3 and the failure named", r.code, first)
	}
}

// TestNagiosStoppedRunSaysItsPluginsAnswers: a run that timed out before
// any row was written said only "UNKNOWN - the run was cancelled at
// slow", though a plugin had answered CRITICAL before it: the admin saw
// no trace of it (it was in the text output's Scripts section alone). The
// long text names each script that answered WARNING or CRITICAL before the
// run stopped; the state stays UNKNOWN, what the chart would have made of
// it being no finished answer.
func TestNagiosStoppedRunSaysItsPluginsAnswers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", `
version: 1
runbook: two
result: {kind: verdict/plugin}
stages:
  - id: users
    exec: {shell: 'echo "USERS CRITICAL - 12 users currently logged in"; exit 2', exitCodes: nagios, parse: nagios}
  - id: load
    exec: {shell: 'echo "LOAD OK"', exitCodes: nagios, parse: nagios}
  - id: slow
    exec: {shell: 'sleep 30', exitCodes: nagios, parse: nagios}
  - id: rows
    verdict: {subject: '"users"', verdict: users.status}
`)
	r := runCLI(t, dir, "exec", "chart.yaml", "-o", "nagios", "--timeout", "1s")
	first, long, _ := strings.Cut(r.stdout, "\n")
	if r.code != 3 || !strings.HasPrefix(first, "two UNKNOWN - the run was cancelled at slow") {
		t.Errorf("exit %d, first line %q, want 3, UNKNOWN naming the stage", r.code, first)
	}
	if want := "script users answered critical (exit 2) before the run stopped"; !strings.Contains(long, want) || strings.Contains(long, "script load") {
		t.Errorf("long text\n%s\nwant it to hold %q, and no line of load's OK", long, want)
	}
}
