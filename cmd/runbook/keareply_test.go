package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestKeaErrorReplyIsNoAnswer: Kea's Control Agent answers HTTP 200 and
// a JSON list whatever became of the command, and curl -f exits 0 over
// it: with kea-dhcp4 stopped behind it, statistic-get-all got `[{"result":
// 1, "text": "unable to forward command to the dhcp4 service: … The
// server is likely to be offline"}]`, and a pool check reading each
// statistic with ?. and ?? 0, as the runtime's own advice over a member
// that may be absent says, said `OK subnet 1: ok (assigned: 0, total:
// 0)`, Consistent, of a DHCP server that was down (wave-radius,
// testdata/wave-radius/kea-pools-guarded). A reply whose result is 1
// (error), 2 (command not supported) or 4 (conflict) is the server's
// refusal; 3 (empty: `0 IPv4 lease(s) found.`) is an answer of none, and
// 0 the answer.
func TestKeaErrorReplyIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	curl := filepath.Join(dir, "curl")
	if err := writeExec(curl, []byte("#!/bin/sh\nprintf '%s' \"$OUT\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, out string
		flagged   bool
	}{
		{"the dhcp4 server down behind the agent", `[ { "result": 1, "text": "unable to forward command to the dhcp4 service: No such file or directory. The server is likely to be offline" } ]`, true},
		{"a command it does not know", `[ { "result": 2, "text": "'statistic-get-al' command not supported." } ]`, true},
		{"no leases", `[ { "arguments": { "leases": [  ] }, "result": 3, "text": "0 IPv4 lease(s) found." } ]`, false},
		{"its statistics", `[ { "arguments": { "subnet[1].assigned-addresses": [ [ 8, "2026-12-08 01:20:06.374598" ] ], "subnet[1].total-addresses": [ [ 10, "2026-12-08 01:19:59.779558" ] ] }, "result": 0 } ]`, false},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: pools
result: {kind: verdict/pool, decider: Usage, nagios: {ok: ok, critical: full}}
stages:
  - id: stats
    exec:
      command: [`+curl+`, -sSf, -X, POST, -d, '{"command": "statistic-get-all", "service": ["dhcp4"]}', "http://127.0.0.1:8000/"]
      env: {OUT: '`+strings.ReplaceAll(tc.out, "'", "''")+`'}
      parse: json
  - id: pool
    set:
      assigned: 'stats.stdout?.[0]?.arguments?.["subnet[1].assigned-addresses"]?.[0]?.[0] ?? 0'
      total: 'stats.stdout?.[0]?.arguments?.["subnet[1].total-addresses"]?.[0]?.[0] ?? 0'
  - id: usage
    name: Usage
    decide:
      rules: [{when: 'total > 0 && assigned * 100 / total >= 90', then: full, label: at or above 90%}]
      default: {branch: ok, label: below 90%}
    branches:
      full: [{id: f, verdict: {subject: '"subnet 1"', verdict: '"full"'}}]
      ok: [{id: o, verdict: {subject: '"subnet 1"', verdict: '"ok"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		const said = `stage "stats" did not check its output (it printed Kea's error reply as its output though it exited 0`
		if !tc.flagged {
			if r.code != 0 || strings.Contains(r.stdout, "did not check") {
				t.Errorf("%s: exit %d; want 0, nothing flagged:\n%s%s", tc.name, r.code, r.stdout, r.stderr)
			}
			continue
		}
		if r.code != 3 || !strings.HasPrefix(r.stdout, "pools UNKNOWN") || !strings.Contains(r.stdout, said) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %s:\n%s%s", tc.name, r.code, said, r.stdout, r.stderr)
		}
	}
}

// TestKeaReplyJudgedByItsResultIsTheAnswer: a chart asking whether the
// DHCP server answers its control channel judges the reply's result
// itself (`all(up.stdout, .result == 0)`: result 1, "The server is likely
// to be offline", is its answer down); that refusal is the answer it
// asks for, and the run must not call its own answer unchecked (a false
// alarm: UNKNOWN over a DHCP server the check saw down).
func TestKeaReplyJudgedByItsResultIsTheAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	curl := filepath.Join(dir, "curl")
	if err := writeExec(curl, []byte("#!/bin/sh\nprintf '%s' '[ { \"result\": 1, \"text\": \"unable to forward command to the dhcp4 service: No such file or directory. The server is likely to be offline\" } ]'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, rule := range []string{`all(up.stdout, .result == 0)`, `up.stdout[0].result == 0`, `up.stdout[0]["result"] == 0`} {
		chart := writeChart(t, dir, "up.yaml", `version: 1
runbook: up
result: {kind: verdict/dhcp, decider: Answering, nagios: {ok: answering, critical: down}}
stages:
  - id: up
    exec:
      command: [`+curl+`, -sSf, -X, POST, -d, '{"command": "version-get", "service": ["dhcp4"]}', "http://127.0.0.1:8000/"]
      parse: json
  - id: answering
    name: Answering
    decide:
      rules: [{when: '`+rule+`', then: answering, label: result 0}]
      default: {branch: down, label: a result other than 0}
    branches:
      answering: [{id: a, verdict: {subject: '"dhcp4"', verdict: '"answering"'}}]
      down: [{id: d, verdict: {subject: '"dhcp4"', verdict: '"down"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if r.code != 2 || !strings.HasPrefix(r.stdout, "up CRITICAL - 1 down") || strings.Contains(r.stdout, "did not check") {
			t.Errorf("%s: exit %d; want 2, CRITICAL, nothing flagged:\n%s%s", rule, r.code, r.stdout, r.stderr)
		}
	}
}
