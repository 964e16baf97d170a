package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCdBeforeTheAnsweringCommandKeepsItsCode: `cd "$D" && sha256sum -c
// SHA256SUMS` is how docs/CHARTS.md says to check a manifest in a
// computed folder (dir: is literal), and sha256sum writes `WARNING: 1
// computed checksum did NOT match` on stderr beside every mismatch, its
// 1: the piped-answer rule read that as a script of two commands whose 1
// may be cd's, and every mismatch stood Not sure, Nagios CRITICAL over
// "1 stage did not check everything", though a cd that fails says so on
// stderr (`bash: line 1: cd: …`) and none did. Now the code is
// sha256sum's, Consistent; a cd that failed is still no answer.
func TestCdBeforeTheAnsweringCommandKeepsItsCode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	sum := filepath.Join(bin, "sha256sum")
	script := "#!/bin/sh\nprintf 'a: FAILED\\nb: OK\\n'\necho 'sha256sum: WARNING: 1 computed checksum did NOT match' >&2\nexit 1\n"
	if err := writeExec(sum, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	chart := writeChart(t, dir, "sums.yaml", `version: 1
runbook: sums
inputs: {dir: {type: string, required: true}}
result: {kind: verdict/checksum, nagios: {critical: [mismatch], ok: [ok]}}
stages:
  - id: check
    exec:
      shell: cd "$D" && `+sum+` -c SHA256SUMS
      envFrom: {D: dir}
      exitCodes: {0: all-ok, 1: some-failed}
      parse: {as: regex, pattern: '^(?P<file>.+): (?P<result>OK|FAILED)$'}
  - id: per
    foreach:
      items: check.stdout
      as: f
      maxBranches: 10
      stages:
        - {id: v, verdict: {subject: f.file, verdict: 'f.result == "OK" ? "ok" : "mismatch"'}}
`)
	for _, tc := range []struct {
		name, dir, status string
		code              int
		said              string
	}{
		{"the folder is there", dir, "sums CRITICAL - 1 mismatch (a), 1 ok", 2, "Consistent"},
		{"the folder is not", filepath.Join(dir, "nope"), "sums UNKNOWN - 1 stage did not check everything (check)", 3, "cd: " + filepath.Join(dir, "nope")},
	} {
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--input", "dir="+tc.dir, "--format", "nagios")
	}
}
