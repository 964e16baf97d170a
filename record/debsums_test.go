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

// TestSkippedLinesReadsDebsumsPackageWithoutDigests: debsums' `no md5sums
// for PKG` is a package it was given and skipped, read under every code
// as sha256sum's improperly formatted line is.
func TestSkippedLinesReadsDebsumsPackageWithoutDigests(t *testing.T) {
	t.Parallel()
	const line = "debsums: no md5sums for openssh-server"
	if got := SkippedLines("debsums: missing file /x (from p package)\n" + line + "\n"); got != line {
		t.Errorf("SkippedLines = %q, want %q", got, line)
	}
	if got := Denied(line + "\n"); got != line {
		t.Errorf("Denied = %q, want %q", got, line)
	}
}
