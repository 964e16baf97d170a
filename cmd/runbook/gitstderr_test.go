package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGitAmbiguousRefIsNoAnswer: git goes on past what it could not
// tell, read or run, prints what it has, and exits 0, saying so on
// stderr alone. `git rev-list --count HEAD..origin/main` beside a local
// branch named origin/main (git ranks it before the remote-tracking
// branch) printed 0 with `warning: refname 'origin/main' is ambiguous.`,
// and a checkout a commit behind said up-to-date, OK, Consistent;
// `git log --format=%G?` printed N for an SSH-signed commit it could not
// check (`error: gpg.ssh.allowedSignersFile needs to be configured …`),
// and `for-each-ref` left a broken ref out of its listing. Each is now a
// not-checked item (kind git-stderr): Not sure, UNKNOWN. A warning git
// prints beside a whole answer (a CRLF note), and gc --auto's report of an
// earlier gc, are not judged, nor the same
// words from a tool that is not git.
func TestGitAmbiguousRefIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, tool, stderr string
		want               int
		line, standing     string
	}{
		{"ambiguous ref", "git", `warning: refname 'origin/main' is ambiguous.`, 3,
			"behind UNKNOWN - 1 stage did not check everything (count), 1 up-to-date (1 not judged",
			`Not sure — stage "count" did not check its output (git said on stderr, though it exited 0, that it was given a name that names more than one ref, and answered of the one it ranks first`},
		{"broken ref", "git", `warning: ignoring broken ref refs/heads/weird/ref`, 3,
			"behind UNKNOWN", `that it left out a ref it could not read`},
		{"ssh signature unchecked", "git", `error: gpg.ssh.allowedSignersFile needs to be configured and exist for ssh signature verification`, 3,
			"behind UNKNOWN", `that it met an error it went on past`},
		{"gpg not found", "git", `fatal: cannot run gpg: No such file or directory`, 3,
			"behind UNKNOWN", `stderr's first such line: "fatal: cannot run gpg: No such file or directory"`},
		{"a warning beside a whole answer", "git", `warning: in the working copy of 'a.txt', CRLF will be replaced by LF the next time Git touches it`, 0,
			"behind OK - 1 up-to-date", "Consistent with the run's record"},
		{"auto gc's old log", "git", `error: The last gc run reported the following. Please correct the root cause`, 0,
			"behind OK - 1 up-to-date", "Consistent with the run's record"},
		{"not git", "othertool", `warning: refname 'origin/main' is ambiguous.`, 0,
			"behind OK - 1 up-to-date", "Consistent with the run's record"},
	} {
		sub := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		tool := filepath.Join(sub, tc.tool)
		script := "#!/bin/sh\necho 0\necho \"" + strings.ReplaceAll(tc.stderr, `"`, `\"`) + "\" >&2\nexit 0\n"
		if err := writeExec(tool, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		chart := writeChart(t, sub, "chart.yaml", `version: 1
runbook: behind
result: {kind: verdict/checkout, decider: Behind, nagios: {critical: [behind], ok: [up-to-date]}}
stages:
  - id: count
    exec: {command: [`+tool+`, -C, /srv/app, rev-list, --count, HEAD..origin/main], parse: text}
  - id: behind
    name: Behind
    decide:
      rules:
        - {when: 'int(trim(count.stdout)) > 0', then: behind, label: origin/main has commits HEAD lacks}
      default: {branch: up-to-date, label: HEAD has every commit of origin/main}
    branches:
      behind: [{id: b, verdict: {subject: '"/srv/app"', verdict: '"behind"'}}]
      up-to-date: [{id: u, verdict: {subject: '"/srv/app"', verdict: '"up-to-date"'}}]
`)
		r := runCLI(t, sub, "exec", chart, "--format", "nagios")
		if r.code != tc.want || !strings.HasPrefix(r.stdout, tc.line) || !strings.Contains(r.stdout, tc.standing) {
			t.Errorf("%s: exit %d; want %d, the line %q and %q:\n%s", tc.name, r.code, tc.want, tc.line, tc.standing, r.stdout)
		}
	}
}

// TestGitErrorUnderDeclaredCodeIsNoAnswer: git verify-commit exits 1
// over a commit with no signature and over a signature it could not
// check (`error: gpg.ssh.allowedSignersFile needs to be configured …`
// for an SSH signature, `fatal: cannot run gpg` where gpg is missing),
// and `exitCodes: {0: verified, 1: unsigned}` called an SSH-signed commit
// unsigned, Consistent. git's own error line under a declared code is a
// not-checked item now (kind git-stderr); the 1 with nothing on stderr
// is the answer still.
func TestGitErrorUnderDeclaredCodeIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stderr string
		want         int
		line, said   string
	}{
		// a not-judged row keeps its CRITICAL (internal/gate's order), and
		// says it rests on nothing
		{"ssh signature unchecked", `error: gpg.ssh.allowedSignersFile needs to be configured and exist for ssh signature verification`, 2,
			"verify-head CRITICAL - 1 stage did not check everything (verify), 1 unsigned (HEAD)\nCRITICAL HEAD: unsigned (not judged: verify did not check its answer)", `git said on stderr that it failed, though it exited 1, which exitCodes: declares the answer "unsigned", so "unsigned" is not known`},
		{"gpg not found", `fatal: cannot run gpg: No such file or directory`, 2,
			"verify-head CRITICAL - 1 stage did not check everything (verify)", `stderr's first such line: "fatal: cannot run gpg: No such file or directory"`},
		{"no signature", ``, 2, "verify-head CRITICAL - 1 unsigned (HEAD)", "Consistent with the run's record"},
	} {
		sub := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		git := filepath.Join(sub, "git")
		script := "#!/bin/sh\n"
		if tc.stderr != "" {
			script += "echo \"" + tc.stderr + "\" >&2\n"
		}
		if err := writeExec(git, []byte(script+"exit 1\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		chart := writeChart(t, sub, "chart.yaml", `version: 1
runbook: verify-head
result: {kind: verdict/commit, decider: Sig, nagios: {critical: [unsigned], ok: [verified]}}
stages:
  - id: verify
    exec: {command: [`+git+`, -C, /srv/app, verify-commit, HEAD], exitCodes: {0: verified, 1: unsigned}}
  - id: sig
    name: Sig
    decide:
      rules:
        - {when: 'verify.status == "verified"', then: verified, label: a signature git verified}
      default: {branch: unsigned, label: no signature git verified}
    branches:
      verified: [{id: v, verdict: {subject: '"HEAD"', verdict: '"verified"'}}]
      unsigned: [{id: u, verdict: {subject: '"HEAD"', verdict: '"unsigned"'}}]
`)
		r := runCLI(t, sub, "exec", chart, "--format", "nagios")
		if r.code != tc.want || !strings.HasPrefix(r.stdout, tc.line) || !strings.Contains(r.stdout, tc.said) {
			t.Errorf("%s: exit %d; want %d, the line %q and %q:\n%s", tc.name, r.code, tc.want, tc.line, tc.said, r.stdout)
		}
	}
}
