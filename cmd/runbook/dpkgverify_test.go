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

// TestDpkgVerifyAsAUserIsNoWholeAnswer: dpkg --verify run as a user exits
// 0, says nothing on stderr, and prints `missing     PATH (Permission
// denied)` for a file behind a folder it may not search, and `?????????
// c /etc/sudoers` for one it may not read: a check of changed package
// files said CRITICAL over a polkit rule that was there, and judged
// /etc/sudoers' digest by a line that held none, Consistent. Both marks
// are a not-checked item now (kind denied), as lspci's `<access
// denied>`: Not sure. As root every line is read as before, Consistent;
// a log line that quotes a refusal mid-line is not the mark
// (testdata/wave-drift/dpkg-verify).
func TestDpkgVerifyAsAUserIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, out, said string
	}{
		{"a folder it may not search", `??5??????   /usr/bin/x\nmissing     /usr/share/polkit-1/rules.d/50-default.rules (Permission denied)\n`, `its output's first such line: "missing     /usr/share/polkit-1/rules.d/50-default.rules (Permission denied)"`},
		{"a file it may not read", `????????? c /etc/sudoers\n`, `its output's first such line: "????????? c /etc/sudoers"`},
		{"as root", `??5??????   /usr/bin/x\nmissing   c /etc/gone.conf\n`, ""},
		{"a log line", `??5??????   /srv/log/open() failed (13: Permission denied) while reading\n`, ""},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: verify
result: {kind: verdict/package-file, decider: Changed, empty: answer, nagios: {critical: [missing], warning: [modified, unverified]}}
stages:
  - id: verify
    exec:
      parse: {as: regex, pattern: '^(?P<flags>missing  |[?.0-9A-Za-z]{9}) (?P<conf>[c ]) (?P<path>/.*)$'}
      shell: |
        printf '`+tc.out+`'
  - id: per
    foreach:
      items: verify.stdout
      as: f
      maxBranches: 64
      stages:
        - id: changed
          name: Changed
          decide:
            rules:
              - {when: 'f.flags == "missing  "', then: missing, label: not there}
              - {when: 'f.flags[2:3] == "5"', then: modified, label: its digest differs}
            default: {branch: unverified, label: not checked}
          branches:
            missing: [{id: m, verdict: {subject: f.path, verdict: '"missing"'}}]
            modified: [{id: d, verdict: {subject: f.path, verdict: '"modified"'}}]
            unverified: [{id: u, verdict: {subject: f.path, verdict: '"unverified"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if tc.said == "" {
			if !strings.Contains(r.stdout, "\nConsistent with the run's record") {
				t.Errorf("%s: want Consistent, nothing flagged:\n%s", tc.name, r.stdout)
			}
			continue
		}
		if !strings.Contains(r.stdout, `Not sure — stage "verify" did not check its output (`) || !strings.Contains(r.stdout, tc.said) {
			t.Errorf("%s: want Not sure, saying %s:\n%s", tc.name, tc.said, r.stdout)
		}
	}
}
