package chart

import "testing"

// TestChecksumStatusSilenceIsNoted: `sha256sum --status -c SUMS` prints
// nothing, not even that a line of the list could not be read, and exits
// 0 over a manifest whose line for a file was mangled (a digest cut
// short): under `exitCodes: {0: all-match, 1: drift}` the check said
// all-match over a file nobody checked, and a run had no stderr to read
// it by (testdata/wave-drift/status). --strict makes that line exit 1.
// runbook plan notes --status without --strict, in a command or a shell:
// line, and a run warns of it once.
func TestChecksumStatusSilenceIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{cmd: []string{"sha256sum", "--status", "-c", "SUMS"}, want: true},
		{cmd: []string{"/usr/bin/md5sum", "-c", "--status", "${list}"}, want: true},
		{shell: `cd "$D" && sha512sum --status -c SHA512SUMS`, want: true},
		{shell: "b2sum --check --status list.b2 || exit 1", want: true},
		{cmd: []string{"sha256sum", "--status", "--strict", "-c", "SUMS"}, want: false},
		{shell: `sha256sum --strict --status -c SUMS`, want: false},
		{cmd: []string{"sha256sum", "-c", "SUMS"}, want: false},
		{cmd: []string{"sha256sum", "--quiet", "-c", "SUMS"}, want: false},
		{cmd: []string{"git", "status", "--porcelain"}, want: false},
		{shell: `sha256sum -c SUMS; echo --status`, want: false},
		// --ignore-missing's "no file was verified" is not printed under --status
		{cmd: []string{"sha256sum", "--status", "--strict", "--ignore-missing", "-c", "SUMS"}, want: true},
		{shell: `sha256sum --ignore-missing --strict --status -c SUMS`, want: true},
		{cmd: []string{"sha256sum", "--quiet", "--ignore-missing", "-c", "SUMS"}, want: false},
	} {
		if got := (&ExecSpec{Command: tc.cmd, Shell: tc.shell}).ChecksumStatusSilence() != ""; got != tc.want {
			t.Errorf("%q %q: noted %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
}

// TestChecksumStatusSilenceIsARunWarning: the note is one of the run's
// warnings, so runbook plan notes it and a run warns of it once.
func TestChecksumStatusSilenceIsARunWarning(t *testing.T) {
	t.Parallel()
	e := &ExecSpec{Command: []string{"sha256sum", "--status", "-c", "SUMS"}}
	if w := e.RunWarnings(); len(w) != 1 || w[0] != e.ChecksumStatusSilence() {
		t.Errorf("run warnings %q; want the --status note alone", w)
	}
}

// TestChecksumCheckIsKnown: a run reads a checksum tool's check that
// printed nothing under a declared exit and said a file was not there as
// a list it could not open (cmd/runbook TestChecksumListNotThereIsNoAnswer);
// which execs run one is ChecksumCheck's.
func TestChecksumCheckIsKnown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{cmd: []string{"sha256sum", "--quiet", "-c", "--", "/var/lib/a.sha256"}, want: true},
		{cmd: []string{"/usr/bin/md5sum", "--check", "SUMS"}, want: true},
		{shell: `cd "$D" && sha256sum --quiet -c -- "$M"`, want: true},
		{shell: `cd "$D" && sha256sum -c -- "$M"`, want: true},
		{shell: "sha512sum --check SHA512SUMS | grep -v ': OK$'", want: true},
		{cmd: []string{"sha256sum", "/etc/passwd"}, want: false},
		{cmd: []string{"stat", "-c", "%a", "/etc/passwd"}, want: false},
		{shell: `sha256sum /etc/passwd > /tmp/x; bash -c true`, want: false},
	} {
		if got := (&ExecSpec{Command: tc.cmd, Shell: tc.shell}).ChecksumCheck(); got != tc.want {
			t.Errorf("%q %q: %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
}
