package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRevokedKeySignatureIsNoAnswerOfGood: gpg --verify (2.2.40) over a
// release signed by a key revoked since prints `Good signature from`,
// then `WARNING: This key has been revoked by its owner!` and `This could
// mean that the signature is forged.`, and exits 0; over a key expired
// since, `Note: This key has expired!`, exit 0. A release check under
// `exitCodes: {0: good, 1: bad}` said `release-signature OK - 1 good`,
// Consistent, exit 0 (testdata/wave-integrity/release-sig). Now a
// not-checked item (key-not-valid) quoting the line: Not sure, UNKNOWN. A
// good signature by a valid key, whose stderr says nothing of the kind, is
// still OK.
func TestRevokedKeySignatureIsNoAnswerOfGood(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const made = "gpg: Signature made Mon Dec  7 14:18:44 2026 UTC\ngpg:                using EDDSA key F9B4AC69A4CB9C117D189FC404592D414B963C47\n"
	tool := func(name, stderr string, code int) string {
		return fakeTool(t, filepath.Join(dir, name), "", stderr, code)
	}
	for _, tc := range []struct {
		name, gpg, status string
		code              int
		said              string
	}{
		{"a key revoked since", tool("gpg-revoked", made+"gpg: Good signature from \"Old <old@example.org>\" [ultimate]\ngpg: WARNING: This key has been revoked by its owner!\ngpg:          This could mean that the signature is forged.\ngpg: reason for revocation: No reason specified\n", 0),
			"release-signature UNKNOWN - 1 stage did not check everything (verify), 1 good (1 not judged: Release)", 3,
			`"gpg: WARNING: This key has been revoked by its owner!"`},
		{"a key expired since", tool("gpg-expired", made+"gpg: Good signature from \"Rel <rel@example.org>\" [expired]\ngpg: Note: This key has expired!\n", 0),
			"release-signature UNKNOWN - 1 stage did not check everything (verify), 1 good (1 not judged: Release)", 3,
			`"gpg: Note: This key has expired!"`},
		{"a valid key", tool("gpg-good", made+"gpg: Good signature from \"Rel <rel@example.org>\" [ultimate]\n", 0),
			"release-signature OK - 1 good", 0, "Consistent"},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: release-signature
result: {kind: verdict/signature, decider: Signature, nagios: {critical: [bad], ok: [good]}}
stages:
  - id: verify
    exec:
      command: [`+tc.gpg+`, --batch, --verify, Release.gpg, Release]
      exitCodes: {0: good, 1: bad}
  - id: judge
    name: Signature
    decide:
      rules:
        - {when: verify.status == "bad", then: bad, label: the signature does not match the file}
      default: {branch: good, label: a good signature}
    branches:
      bad: [{id: b, verdict: {subject: '"Release"', verdict: '"bad"'}}]
      good: [{id: g, verdict: {subject: '"Release"', verdict: '"good"'}}]
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}
