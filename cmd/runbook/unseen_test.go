package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestSubstitutionFailureBashDoesNotSeeIsNoAnswer: a hardening chart read
// sshd's config as `echo "{\"conf\": \"$(cat /etc/ssh/sshd_config)\"}"`;
// with the file missing (another path on this distribution) cat failed
// inside the word of echo, bash -e did not see it, the script printed
// `{"conf": ""}` and exited 0, and "PermitRootLogin yes" was not found:
// pass, Consistent, Nagios OK. A script that wrote on stderr over such a
// substitution files an unseen-failure item; one that assigns first
// fails, and one that wrote nothing on stderr gives no sign.
func TestSubstitutionFailureBashDoesNotSeeIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const said = `bash does not see a command inside $(cat /nonexistent/sshd_config) (line 1:`
	for _, tc := range []struct {
		name, shell string
		flagged     bool
		code        int
	}{
		{"inside a word of echo", `echo "$(cat /nonexistent/sshd_config)" | grep -i permitrootlogin || echo none`, true, 3},
		{"assigned first", `c=$(cat /nonexistent/sshd_config); echo "$c" | grep -i permitrootlogin || echo none`, false, 3},
		{"no stderr", `echo "$(echo x)" >/dev/null; echo none`, false, 0},
		{"stderr, no substitution", `echo none; echo 'a warning' >&2`, false, 0},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", perRowChart("sshd", "Entry",
			fmt.Sprintf(" {shell: %q, parse: lines}", tc.shell), "e", `
              - {when: 'e != "none"', then: bad, label: Root login named}`, "e"))
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if got := strings.Contains(r.stdout, said); got != tc.flagged {
			t.Errorf("%s: flagged %v, want %v:\n%s", tc.name, got, tc.flagged, r.stdout)
		}
		if r.code != tc.code {
			t.Errorf("%s: exit %d, want %d:\n%s", tc.name, r.code, tc.code, r.stdout)
		}
	}
}

// TestPipedAnswerWithStderrIsNoAnswer: `cat "$D"/* | grep …` under
// `exitCodes: {1: none}` over a folder misspelt exited 1, cat's, then
// grep's over nothing: the declared none, Nagios OK over nginx's
// certificates never read (testdata/wave-pki/nginx-certs-naive.yaml).
// A declared non-zero code that came with stderr through a pipeline is
// a not-checked item; one with no stderr, or with no pipeline, is the
// answer.
func TestPipedAnswerWithStderrIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const said = `which the chart declares the answer "none", but ` // its script runs more than one command, or its pipeline's codes say so
	for _, tc := range []struct {
		name, shell string
		flagged     bool
		code        int
	}{
		{"a folder misspelt", `cat /nonexistent/* | grep -o cert`, true, 3},
		{"no line matched", `echo none-here | grep -o cert`, false, 0},
		{"no pipeline", `grep -o cert /dev/null; echo x >&2`, false, 0},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", fmt.Sprintf(`
version: 1
runbook: certs
result: {kind: verdict/cert, empty: answer, nagios: {critical: [bad], ok: [ok]}}
stages:
  - id: named
    exec: {shell: %q, exitCodes: {0: found, 1: none}, parse: lines}
  - id: per
    foreach:
      items: named.stdout
      as: c
      maxBranches: 10
      stages:
        - {id: m, verdict: {subject: c, verdict: '"ok"'}}
`, tc.shell))
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if got := strings.Contains(r.stdout, said); got != tc.flagged {
			t.Errorf("%s: flagged %v, want %v:\n%s", tc.name, got, tc.flagged, r.stdout)
		}
		if r.code != tc.code {
			t.Errorf("%s: exit %d, want %d:\n%s", tc.name, r.code, tc.code, r.stdout)
		}
	}
}
