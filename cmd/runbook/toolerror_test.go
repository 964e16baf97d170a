package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestNpmErrorUnderDeclaredCodeIsNoAnswer: npm audit exits 1 when it finds
// a vulnerability and as much when it could not audit at all (the
// registry's advisory endpoint refused, no lockfile, no network); npm
// outdated exits 1 over an outdated package and over a registry it could
// not reach. Then it prints an error object on stdout (no
// "vulnerabilities") and its own `npm error …` lines on stderr. A release
// gate with `exitCodes: {0: clean, 1: vulnerable}`, rows from
// `values(audit.stdout.vulnerabilities ?? {})` and `result.empty: answer`
// said `npm-audit OK - no verdict rows`, Consistent, over an audit that
// never ran. npm's error lines under a declared code are a not-checked
// item now (kind tool-error): UNKNOWN, Not sure; a real finding (exit 1,
// nothing on stderr) is still CRITICAL, Consistent, and a clean audit OK.
func TestNpmErrorUnderDeclaredCodeIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const found = `{"auditReportVersion":2,"vulnerabilities":{"lodash":{"name":"lodash","severity":"critical","isDirect":true,"via":[],"effects":[],"range":"<=4.17.20","nodes":["node_modules/lodash"],"fixAvailable":true}},"metadata":{"vulnerabilities":{"info":0,"low":0,"moderate":0,"high":0,"critical":1,"total":1}}}`
	const clean = `{"auditReportVersion":2,"vulnerabilities":{},"metadata":{"vulnerabilities":{"info":0,"low":0,"moderate":0,"high":0,"critical":0,"total":0}}}`
	for _, tc := range []struct {
		name, stdout, stderr, exit string
		want                       int
		line, standing             string
	}{
		{"registry refused", `{"message":"405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk","statusCode":405,"error":{"summary":"","detail":""}}`,
			"npm warn audit 405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk\nnpm error audit endpoint returned an error\n", "1",
			3, "npm-audit UNKNOWN - 1 stage did not check everything (audit), no verdict rows", `Not sure — stage "audit" did not check its answer (it exited 1, which exitCodes: declares the answer "vulnerable", but npm said on stderr that it failed`},
		{"no lockfile", `{"error":{"code":"ENOLOCK","summary":"This command requires an existing lockfile."}}`,
			"npm error code ENOLOCK\nnpm error audit This command requires an existing lockfile.\n", "1",
			3, "npm-audit UNKNOWN - 1 stage did not check everything (audit), no verdict rows", `stderr's first such line: "npm error code ENOLOCK"`},
		{"npm 8", `{"error":{"code":"ENOLOCK"}}`, "npm ERR! code ENOLOCK\n", "1",
			3, "npm-audit UNKNOWN - 1 stage did not check everything (audit), no verdict rows", `stderr's first such line: "npm ERR! code ENOLOCK"`},
		{"found", found, "", "1", 2, "npm-audit CRITICAL - 1 fix-now (lodash)", "Consistent with the run's record"},
		{"clean", clean, "", "0", 0, "npm-audit OK - no verdict rows", "Consistent with the run's record"},
	} {
		npm := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".npm")
		script := "#!/bin/sh\nprintf '%s\\n' '" + tc.stdout + "'\nprintf '" + strings.ReplaceAll(tc.stderr, "\n", `\n`) + "' >&2\nexit " + tc.exit + "\n"
		if err := writeExec(npm, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: npm-audit
result: {kind: verdict/advisory, decider: Severity, empty: answer, nagios: {critical: [fix-now], warning: [review]}}
stages:
  - id: audit
    exec: {command: [`+npm+`, audit, --json], exitCodes: {0: clean, 1: vulnerable}, parse: json}
  - id: pkgs
    set: {vulns: 'values(audit.stdout.vulnerabilities ?? {})'}
  - id: per
    foreach:
      items: vulns
      as: v
      maxBranches: 100
      stages:
        - id: severity
          name: Severity
          decide:
            rules:
              - {when: 'v.severity in ["high", "critical"]', then: fix-now, label: High or critical}
            default: {branch: review, label: Moderate or lower}
          branches:
            fix-now: [{id: f, verdict: {subject: v.name, verdict: '"fix-now"'}}]
            review: [{id: r, verdict: {subject: v.name, verdict: '"review"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if r.code != tc.want || !strings.HasPrefix(r.stdout, tc.line) || !strings.Contains(r.stdout, tc.standing) {
			t.Errorf("%s: exit %d; want %d, the line %q and %q:\n%s", tc.name, r.code, tc.want, tc.line, tc.standing, r.stdout)
		}
	}
}
