package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSupervisordUnreachedIsNoAnswer: supervisorctl 4.2.5 exits 4 over a
// program name no [program:] or [group:] section gives (`wbe: ERROR (no
// such process)`) and as much when it reached no supervisord (`unix:///…
// refused connection`, the socket file a killed supervisord left behind;
// `unix:///… no such file`, none; `http://127.0.0.1:9001 refused
// connection`), and it prints both on stdout. A check of expected programs
// under `exitCodes: {0: running, 3: not-running, 4: not-configured}` said
// every program `not-configured`, Consistent, with supervisord stopped, and
// one whose program was removed on purpose (`4: removed`) said OK. The row
// is not judged now, the standing Not sure; the no-such-process line is
// still the answer it declares.
func TestSupervisordUnreachedIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stdout string
		code         int
		status       string
		exit         int
		said         string
	}{
		{"socket left by a killed supervisord", "unix:///run/supervisor.sock refused connection\n", 4,
			"progs UNKNOWN - 1 stage did not check everything (s), 1 removed", 3,
			`but it said on stdout that it could not reach the supervisord it asks`},
		{"no socket file", "unix:///run/supervisor.sock no such file\n", 4,
			"progs UNKNOWN - 1 stage did not check everything (s), 1 removed", 3,
			`unix:///run/supervisor.sock no such file`},
		{"inet_http_server refused", "http://127.0.0.1:9001 refused connection\n", 4,
			"progs UNKNOWN - 1 stage did not check everything (s), 1 removed", 3,
			`http://127.0.0.1:9001 refused connection`},
		{"no such process", "oldjob: ERROR (no such process)\n", 4,
			"progs OK - 1 removed", 0, "Consistent"},
		{"still configured and running", "oldjob                           RUNNING   pid 812, uptime 2 days, 3:04:05\n", 0,
			"progs CRITICAL - 1 configured", 2, "Consistent"},
	} {
		tool := fakeTool(t, filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"), "supervisorctl"), tc.stdout, "", tc.code)
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: progs
result: {kind: verdict/program, decider: Removed, nagios: {ok: [removed], critical: [configured]}}
stages:
  - id: s
    exec:
      command: [`+tool+`, status, oldjob]
      exitCodes: {0: configured, 3: configured, 4: removed}
  - id: removed
    name: Removed
    decide:
      rules:
        - {when: s.status == "removed", then: removed, label: supervisorctl says no such process}
      default: {branch: configured, label: supervisorctl knows the program}
    branches:
      removed: [{id: r, verdict: {subject: '"oldjob"', verdict: '"removed"'}}]
      configured: [{id: c, verdict: {subject: '"oldjob"', verdict: '"configured"'}}]
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.exit, tc.said, "exec", chart, "--format", "nagios")
	}
}
