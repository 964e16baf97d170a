package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestHostKeyChangedIsNoAnswerOfTheHost: `ssh -o StrictHostKeyChecking=no
// web1 'pgrep -x sshd'` over a host whose key differs from the one
// known_hosts holds (a reinstalled host, its address given to another
// machine) prints `WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!` on
// stderr, and runs the command anyway, with a key: exit 0, and the fleet
// check said `fleet-service OK - 2 ok`, Consistent, exit 0, over answers
// from machines ssh could not name (testdata/wave-fleet/service). Now a
// not-checked item (host-unverified) quoting the line: Not sure, UNKNOWN.
// A first contact's `Permanently added` warning is no such line.
func TestHostKeyChangedIsNoAnswerOfTheHost(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const changed = "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\nIT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!\nOffending ED25519 key in /home/ops/.ssh/known_hosts:1\nPassword authentication is disabled to avoid man-in-the-middle attacks.\n"
	tool := func(name, stderr string, code int) string {
		return fakeTool(t, filepath.Join(dir, name), "", stderr, code)
	}
	for _, tc := range []struct {
		name, ssh, status string
		code              int
		said              string
	}{
		{"a changed key under StrictHostKeyChecking no", tool("ssh-changed", changed, 0),
			"fleet UNKNOWN - 1 stage did not check everything (state), 1 ok", 3,
			`it said on stderr that the host it reached is not the one it knows by its key though it exited 0, which the chart declares the answer "running"`},
		{"a changed key under a declared code", tool("ssh-changed-1", changed, 1),
			"fleet CRITICAL - 1 stage did not check everything (state), 1 stopped (web1)", 2, // a CRITICAL row keeps its state
			`not the one it knows by its key though it exited 1`},
		{"a first contact", tool("ssh-new", "Warning: Permanently added 'web1' (ED25519) to the list of known hosts.\n", 0),
			"fleet OK - 1 ok", 0, "Consistent"},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: fleet
result: {kind: verdict/host, decider: State, nagios: {critical: [stopped]}}
stages:
  - id: state
    exec:
      command: [`+tc.ssh+`, -o, StrictHostKeyChecking=no, web1, pgrep -x sshd]
      exitCodes: {0: running, 1: stopped}
  - id: judge
    name: State
    decide:
      rules:
        - {when: state.status == "stopped", then: stopped, label: No such process}
      default: {branch: ok, label: The process runs}
    branches:
      stopped: [{id: s, verdict: {subject: '"web1"', verdict: '"stopped"'}}]
      ok: [{id: o, verdict: {subject: '"web1"', verdict: '"ok"'}}]
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}
