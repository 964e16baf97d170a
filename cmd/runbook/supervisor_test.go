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

// TestMonitDaemonUnreachedIsNoAnswer: monit 5.33 exits 1 over a service
// name its control file does not give (`Service 'ghots' not found`) and as
// much when it asked no daemon (`Monit: the monit daemon is not running`;
// a daemon running without `set httpd`, `the monit HTTP interface is not
// enabled`; `Cannot connect to [127.0.0.1]:2812 -- Connection refused`)
// or was refused (`You are not authorized to access monit`), and `monit
// -t` exits 1 over a control file the user may not read (`The control
// file '/etc/monit/monitrc' is not readable`) as over a syntax error. A
// check of expected services under `{0: found, 1: not-configured}` said
// every service not-configured, Consistent, with the daemon stopped, and
// a config check under `{0: valid, 1: invalid}` said a monitrc nobody read
// invalid. The row is not judged now, the standing Not sure (a critical
// row not judged stays CRITICAL, as every one does); the not found line,
// and the syntax error, are still the answer declared.
func TestMonitDaemonUnreachedIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stderr string
		status       string
		exit         int
		said         string
	}{
		{"daemon not running", "Monit: the monit daemon is not running\n",
			"svc CRITICAL - 1 stage did not check everything (s), 1 bad", 2,
			`but it said on stderr that it could not reach the monit daemon it asks`},
		{"http interface not enabled", "Monit: the monit HTTP interface is not enabled, please add the 'set httpd' statement and use the 'allow' option to allow monit to connect\n",
			"svc CRITICAL - 1 stage did not check everything (s), 1 bad", 2,
			`the monit HTTP interface is not enabled`},
		{"port refused", "Cannot connect to [127.0.0.1]:12899 -- Connection refused\n",
			"svc CRITICAL - 1 stage did not check everything (s), 1 bad", 2,
			`Cannot connect to [127.0.0.1]:12899 -- Connection refused`},
		{"credentials refused", "You are not authorized to access monit. Either you supplied the wrong credentials (e.g. bad password), or your browser doesn't understand how to supply the credentials required\n",
			"svc CRITICAL - 1 stage did not check everything (s), 1 bad", 2,
			`You are not authorized to access monit`},
		{"control file not readable", "The control file '/etc/monit/monitrc' is not readable\n",
			"svc CRITICAL - 1 stage did not check everything (s), 1 bad", 2,
			`is not readable`},
		{"service not found", "Service 'ghots' not found\n",
			"svc CRITICAL - 1 bad", 2, "Consistent"},
		{"syntax error", "/etc/monit/monitrc:13: syntax error 'path'\n",
			"svc CRITICAL - 1 bad", 2, "Consistent"},
	} {
		tool := fakeTool(t, filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"), "monit"), "", tc.stderr, 1)
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: svc
result: {kind: verdict/service, decider: Found, nagios: {ok: [good], critical: [bad]}}
stages:
  - id: s
    exec:
      command: [`+tool+`, status, web]
      exitCodes: {0: good, 1: bad}
  - id: found
    name: Found
    decide:
      rules:
        - {when: s.status == "bad", then: bad, label: monit says no}
      default: {branch: good, label: monit says yes}
    branches:
      bad: [{id: b, verdict: {subject: '"web"', verdict: '"bad"'}}]
      good: [{id: g, verdict: {subject: '"web"', verdict: '"good"'}}]
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.exit, tc.said, "exec", chart, "--format", "nagios")
	}
}

// TestRunitSvRefusalOnStdoutIsNoAnswer: runit's sv prints on stdout, not
// stderr, that it could not ask a service's runsv, and exits with the
// count of such services: `warning: /etc/service/web: unable to open
// supervise/ok: file does not exist` (no runsv for the directory) and, run
// as a user, `warning: /etc/service/web: unable to open supervise/ok:
// access denied`. A check under `exitCodes: {0: read, 1: not-supervised}`
// said a running service not-supervised, Consistent, when the account
// running it could not open its supervise/ok. The refusal is now read on
// stdout: the row is not judged, Not sure.
func TestRunitSvRefusalOnStdoutIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stdout string
		code         int
		status       string
		exit         int
		said         string
	}{
		{"access denied", "warning: /etc/service/web: unable to open supervise/ok: access denied\n", 1,
			"svc CRITICAL - 1 stage did not check everything (s), 1 not-supervised", 2,
			`but it said on stdout that it was refused`},
		{"no runsv", "warning: /etc/service/web: unable to open supervise/ok: file does not exist\n", 1,
			"svc CRITICAL - 1 not-supervised", 2, "Consistent"},
		{"running", "run: /etc/service/web: (pid 5030) 634s; run: log: (pid 5023) 634s\n", 0,
			"svc OK - 1 read", 0, "Consistent"},
	} {
		tool := fakeTool(t, filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"), "sv"), tc.stdout, "", tc.code)
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: svc
result: {kind: verdict/service, decider: Supervised, nagios: {ok: [read], critical: [not-supervised]}}
stages:
  - id: s
    exec:
      command: [`+tool+`, status, /etc/service/web]
      exitCodes: {0: read, 1: not-supervised}
  - id: supervised
    name: Supervised
    decide:
      rules:
        - {when: s.status == "not-supervised", then: not-supervised, label: sv could not ask a runsv}
      default: {branch: read, label: sv read its state}
    branches:
      not-supervised: [{id: n, verdict: {subject: '"web"', verdict: '"not-supervised"'}}]
      read: [{id: r, verdict: {subject: '"web"', verdict: '"read"'}}]
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.exit, tc.said, "exec", chart, "--format", "nagios")
	}
}
