package chart

import "testing"

// TestDpkgVerifyExitIsNoted: dpkg 1.21.22's --verify exits 0 over a
// changed or missing file and 1 over a package not installed, so
// `dpkg --verify openssh-server` under `exitCodes: {0: intact, 1:
// modified}` said intact, OK, Consistent, over a changed sshd
// (testdata/wave-integrity/dpkg-verify-exit). runbook plan notes a dpkg
// --verify whose exitCodes: declares a non-zero code, and a run warns of
// it once.
func TestDpkgVerifyExitIsNoted(t *testing.T) {
	t.Parallel()
	one := map[int]string{0: "intact", 1: "modified"}
	for _, tc := range []struct {
		cmd   []string
		shell string
		codes map[int]string
		want  bool
	}{
		{cmd: []string{"dpkg", "--verify", "openssh-server"}, codes: one, want: true},
		{cmd: []string{"/usr/bin/dpkg", "-V"}, codes: one, want: true},
		{shell: `dpkg --root "$R" --verify "$P"`, codes: one, want: true},
		{cmd: []string{"dpkg", "--verify"}, want: false},
		{cmd: []string{"dpkg", "--verify"}, codes: map[int]string{0: "verified"}, want: false},
		{cmd: []string{"dpkg", "-s", "openssh-server"}, codes: one, want: false},
	} {
		e := &ExecSpec{Command: tc.cmd, Shell: tc.shell, ExitCodes: tc.codes}
		if got := e.DpkgVerifyExitAnswer() != ""; got != tc.want {
			t.Errorf("%q %q %v: noted %v, want %v", tc.cmd, tc.shell, tc.codes, got, tc.want)
		}
	}
	e := &ExecSpec{Command: []string{"dpkg", "--verify", "openssh-server"}, ExitCodes: one}
	if w := e.RunWarnings(); len(w) != 1 || w[0] != e.DpkgVerifyExitAnswer() {
		t.Errorf("run warnings %q; want the dpkg --verify note alone", w)
	}
}
