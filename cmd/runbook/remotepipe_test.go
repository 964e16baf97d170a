package main

import (
	"path/filepath"
	"testing"
)

// TestRemotePipelineAnswerIsNoAnswer: `ssh web1 'cat ~/app.log | grep -c
// ERROR'` under `exitCodes: {0: found, 1: none}` over a log not there on
// the host: cat said `No such file or directory`, grep counted 0 and
// exited 1, the remote shell (no pipefail) exited with grep's 1, and the
// fleet check said `fleet-errors OK - 1 ok`, Consistent, exit 0, over a
// log nobody read. Now a not-checked item (piped-answer): UNKNOWN. The
// same 1 with nothing on stderr but ssh's first-contact note is the answer.
func TestRemotePipelineAnswerIsNoAnswer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, stderr, status string
		code                 int
		said                 string
	}{
		{"the log not there", "cat: /home/ops/app.log: No such file or directory", "fleet-errors UNKNOWN - 1 stage did not check everything (scan), 1 ok", 3,
			"its ssh command runs more than one command on the host, in the remote user's shell with no pipefail"},
		{"no ERROR line, a first contact", "Warning: Permanently added 'web1' (ED25519) to the list of known hosts.", "fleet-errors OK - 1 ok", 0, "Consistent"},
	} {
		dir := t.TempDir()
		ssh := filepath.Join(dir, "ssh")
		if err := writeExec(ssh, []byte("#!/bin/sh\necho 0\necho \""+tc.stderr+"\" >&2\nexit 1\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		chart := writeChart(t, dir, "errs.yaml", `version: 1
runbook: fleet-errors
result: {kind: verdict/hosts, decider: Errors, nagios: {critical: [errors]}}
stages:
  - id: scan
    exec:
      command: [`+ssh+`, -o, BatchMode=yes, web1, "cat ~/app.log | grep -c ERROR"]
      exitCodes: {0: found, 1: none}
  - id: errs
    name: Errors
    decide:
      rules:
        - {when: 'scan.status == "found"', then: errors, label: ERROR lines in the log}
      default: {branch: ok, label: No ERROR line}
    branches:
      errors: [{id: e, verdict: {subject: '"web1"', verdict: '"errors"'}}]
      ok: [{id: o, verdict: {subject: '"web1"', verdict: '"ok"'}}]
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}
