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
