package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDpkgVerifyFindingsUnderExitZeroAreNoAnswerOfIntact: dpkg 1.21.22's
// --verify prints each file it finds changed or missing and exits 0, so
// `dpkg --verify openssh-server` under `exitCodes: {0: intact, 1:
// modified}`, with no parse:, said `OK - 1 intact`, Consistent, exit 0,
// over a changed sshd (testdata/wave-integrity/dpkg-verify-exit). Now a
// not-checked item (code-not-answer) quoting the first line: Not sure,
// UNKNOWN. Exit 0 with nothing printed is still intact.
func TestDpkgVerifyFindingsUnderExitZeroAreNoAnswerOfIntact(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tool := func(name, stdout string) string {
		return fakeTool(t, filepath.Join(dir, name, "dpkg"), stdout, "", 0)
	}
	for _, tc := range []struct {
		name, dpkg, status string
		code               int
		said               string
	}{
		{"a changed file", tool("found", "??5??????   /usr/sbin/sshd\n"),
			"verify UNKNOWN - 1 stage did not check everything (verify), 1 intact (1 not judged: openssh-server)", 3,
			`dpkg --verify exits 0 over the files it finds changed or missing too, and it printed 1 line of them, the first: "??5??????   /usr/sbin/sshd"`},
		{"nothing found", tool("quiet", ""), "verify OK - 1 intact", 0, "Consistent"},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: verify
result: {kind: verdict/package, decider: Intact, nagios: {critical: [modified], ok: [intact]}}
stages:
  - id: verify
    exec:
      command: [`+tc.dpkg+`, --verify, openssh-server]
      exitCodes: {0: intact, 1: modified}
  - id: intact
    name: Intact
    decide:
      rules:
        - {when: verify.status == "modified", then: modified, label: dpkg found a change}
      default: {branch: intact, label: every file as installed}
    branches:
      modified: [{id: m, verdict: {subject: '"openssh-server"', verdict: '"modified"'}}]
      intact: [{id: i, verdict: {subject: '"openssh-server"', verdict: '"intact"'}}]
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}
