package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDebsumsMissingFileIsNoWholeAnswer: debsums -c (3.0.2) lists a
// changed file's path on stdout but writes a file a package installed that
// is not there on stderr, `debsums: missing file … (from … package)`, and
// exits 2 over either. `debsums -ca` under `exitCodes: {0: clean, 2:
// changed}`, `parse: lines`, a row per line and `result.empty: answer`
// said `OK - no verdict rows`, Consistent, exit 0, over a package whose
// file was deleted (testdata/wave-integrity/debsums). Now a not-checked
// item (finding-elsewhere) quoting the line: Not sure, UNKNOWN; beside a
// changed file's row, CRITICAL still. A chart that reads the exit code
// alone (no parse:) reads 2 as changed, and is not judged so.
func TestDebsumsMissingFileIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const missing = "debsums: missing file /usr/sbin/sshd (from openssh-server package)\n"
	tool := func(name, stdout, stderr string, code int) string {
		return fakeTool(t, filepath.Join(dir, name), stdout, stderr, code)
	}
	rows := `      parse: lines
  - id: per
    foreach:
      items: sums.stdout
      as: path
      maxBranches: 100
      stages:
        - {id: c, verdict: {subject: path, verdict: '"changed"'}}
`
	status := `  - id: judge
    name: Changed
    decide:
      rules:
        - {when: sums.status == "changed", then: changed, label: a file changed or missing}
      default: {branch: clean, label: every file matches}
    branches:
      changed: [{id: c, verdict: {subject: '"packages"', verdict: '"changed"'}}]
      clean: [{id: k, verdict: {subject: '"packages"', verdict: '"clean"'}}]
`
	for _, tc := range []struct {
		name, debsums, body, status string
		code                        int
		said                        string
	}{
		{"a missing file alone", tool("debsums-missing", "", missing, 2), rows,
			"debsums UNKNOWN - 1 stage did not check everything (sums), no verdict rows", 3,
			`"debsums: missing file /usr/sbin/sshd (from openssh-server package)"`},
		{"a missing file beside a changed one", tool("debsums-both", "/etc/ssh/sshd_config\n", missing, 2), rows,
			"debsums CRITICAL - 1 stage did not check everything (sums), 1 changed (/etc/ssh/sshd_config)", 2,
			`debsums -c lists changed files on stdout but writes a missing file on stderr`},
		{"a changed file alone", tool("debsums-changed", "/etc/ssh/sshd_config\n", "", 2), rows,
			"debsums CRITICAL - 1 changed (/etc/ssh/sshd_config)", 2, "Consistent"},
		{"the exit code alone", tool("debsums-status", "", missing, 2), status,
			"debsums CRITICAL - 1 changed (packages)", 2, "Consistent"},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: debsums
result: {kind: verdict/package-file, empty: answer, nagios: {critical: [changed]}}
stages:
  - id: sums
    exec:
      command: [`+tc.debsums+`, -ca]
      exitCodes: {0: clean, 2: changed}
`+tc.body)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}

// TestDebsumsPackageWithoutDigestsIsNoWholeAnswer: debsums given a
// package with no md5sums file says `debsums: no md5sums for PKG` on
// stderr and checks none of its files; `debsums -ca nginx
// openssh-server` exited 2 over the other's changed file, and the check
// said `CRITICAL - 1 changed`, Consistent, its table read as every
// changed file of both. Now a not-checked item quoting the line (as
// sha256sum's improperly formatted line is, under every code).
func TestDebsumsPackageWithoutDigestsIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "debsums")
	script := "#!/bin/sh\necho /etc/nginx/nginx.conf\necho 'debsums: no md5sums for openssh-server' >&2\nexit 2\n"
	if err := writeExec(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	chart := writeChart(t, dir, "pkgs.yaml", `version: 1
runbook: debsums
result: {kind: verdict/package-file, empty: answer, nagios: {critical: [changed]}}
stages:
  - id: sums
    exec:
      command: [`+p+`, -ca, nginx, openssh-server]
      exitCodes: {0: clean, 2: changed}
      parse: lines
  - id: per
    foreach:
      items: sums.stdout
      as: path
      maxBranches: 100
      stages:
        - {id: c, verdict: {subject: path, verdict: '"changed"'}}
`)
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	const status, said = "debsums CRITICAL - 1 stage did not check everything (sums), 1 changed (/etc/nginx/nginx.conf)", `"debsums: no md5sums for openssh-server"`
	if !strings.HasPrefix(r.stdout, status) || r.code != 2 || !strings.Contains(r.stdout, said) {
		t.Errorf("exit %d:\n%s\nwant exit 2, %q first, saying %q", r.code, r.stdout, status, said)
	}
}
