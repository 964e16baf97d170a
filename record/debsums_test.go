package record

import "testing"

// TestFindingOnStderrReadsDebsumsFindings: debsums' missing and changed
// file lines are the rule; its other lines (a file it may not open, a
// package not installed) and another tool's are not.
func TestFindingOnStderrReadsDebsumsFindings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ stderr, want string }{
		{"debsums: missing file /usr/sbin/sshd (from openssh-server package)\n", "debsums: missing file /usr/sbin/sshd (from openssh-server package)"},
		{"debsums: changed file /etc/ssh/sshd_config (from openssh-server package)\n", "debsums: changed file /etc/ssh/sshd_config (from openssh-server package)"},
		{"debsums: can't open demo file /opt/demo/lib (Permission denied)\ndebsums: package nosuch is not installed\n", ""},
		{"rsync: missing file /srv/a\n", ""},
	} {
		if got := FindingOnStderr(tc.stderr); got != tc.want {
			t.Errorf("FindingOnStderr(%q) = %q, want %q", tc.stderr, got, tc.want)
		}
	}
}
