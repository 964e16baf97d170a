package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestDeniedOnStderrIsNoWholeAnswer: `sysctl -a` run as a user prints
// every key it can read, says `sysctl: permission denied on key
// 'net.core.bpf_jit_harden'` on stderr for each it cannot, and exits 0;
// `find /etc -name '*.conf' -exec grep -l NOPASSWD {} \;` ignores grep's
// exit, so it exits 0 too over files grep was refused. A chart over the
// rows they printed judged every key or file they left out as absent,
// Consistent, a Nagios check OK. Output with a refusal on stderr from a
// command that ended as no failure is now a not-checked ledger item
// (kind denied) quoting the line: Not sure, UNKNOWN. A warning of any
// other kind beside the rows is not flagged, nor is a refusal from a
// command that exited otherwise than 0: a failure is said as one, and a
// code the chart declared an answer may be the refusal itself (a check
// that /etc/shadow is not readable by others).
func TestDeniedOnStderrIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const said = `stage "out" did not check its output (it said on stderr that it was refused access though it exited 0, so its output holds only what it could read, and what it left out is not known to be absent; stderr's first such line: `
	for _, tc := range []struct {
		name, shell string
		flagged     bool
		line        string
	}{
		{"sysctl as a user", `echo 'kernel.dmesg_restrict = 1'; echo "sysctl: permission denied on key 'net.core.bpf_jit_harden'" >&2`, true,
			`"sysctl: permission denied on key 'net.core.bpf_jit_harden'"`},
		{"find -exec grep", `echo '/etc/sudoers.d/ops'; echo 'grep: /etc/sudoers.d/dev: Permission denied' >&2`, true,
			`"grep: /etc/sudoers.d/dev: Permission denied"`},
		{"EPERM", `echo 'a'; echo 'x: Operation not permitted' >&2`, true, `"x: Operation not permitted"`},
		{"rows and a warning", `echo 'a'; echo 'Hint: some entries are not shown' >&2`, false, ""},
		{"a refusal that failed", `echo 'a'; echo 'cat: /etc/shadow: Permission denied' >&2; exit 1`, false, ""},
		{"a refusal that is the answer", `echo 'a'; echo 'cat: /etc/shadow: Permission denied' >&2; exit 1`, false, "exitCodes"},
	} {
		exitCodes := ""
		if tc.line == "exitCodes" {
			exitCodes = ", exitCodes: {0: readable, 1: refused}"
		}
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", perRowChart("audit", "Entry",
			fmt.Sprintf(" {shell: %q, parse: lines%s}", tc.shell, exitCodes), "e", `
              - {when: 'e == "bad"', then: bad, label: A bad entry}`, "e"))
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if got := strings.Contains(r.stdout, said+tc.line); got != tc.flagged {
			t.Errorf("%s: flagged %v, want %v:\n%s", tc.name, got, tc.flagged, r.stdout)
		}
		if tc.flagged && (r.code != 3 || !strings.HasPrefix(r.stdout, "audit UNKNOWN")) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN:\n%s", tc.name, r.code, r.stdout)
		}
		if !tc.flagged && strings.Contains(r.stdout, "refused access") {
			t.Errorf("%s: said refused access:\n%s", tc.name, r.stdout)
		}
	}
}
