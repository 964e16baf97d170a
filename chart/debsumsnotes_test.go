package chart

import "testing"

// TestDebsumsOverAnotherRootIsNoted: `debsums -ca --root ROOT` over a
// root with no dpkg database (a path misspelt) prints nothing and exits 0,
// as it does when every file matches, and a check of changed package
// files said `OK - no verdict rows`, Consistent, over no file checked
// (testdata/wave-integrity/debsums). runbook plan notes a debsums given
// --root or --admindir, in a command or a shell: line, and a run warns of
// it once.
func TestDebsumsOverAnotherRootIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{cmd: []string{"debsums", "-ca", "--root", "${root}"}, want: true},
		{cmd: []string{"/usr/bin/debsums", "-s", "--admindir=/srv/x/var/lib/dpkg"}, want: true},
		{cmd: []string{"debsums", "-cr", "/srv/chroot"}, want: true},
		{shell: `debsums -ca --root "$R" 2>&1`, want: true},
		{cmd: []string{"debsums", "-ca"}, want: false},
		{shell: `test -s "$R/var/lib/dpkg/status" && debsums -ca --root "$R" 2>&1`, want: false},
		{cmd: []string{"debsums", "-m/srv/dir/md5sums", "-c"}, want: false},
		{cmd: []string{"debsums", "-s", "openssh-server"}, want: false},
		{cmd: []string{"dpkg", "--root", "/srv/chroot", "--verify"}, want: false},
	} {
		e := &ExecSpec{Command: tc.cmd, Shell: tc.shell}
		if got := e.DebsumsSilentOverNoDatabase() != ""; got != tc.want {
			t.Errorf("%q %q: noted %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
	e := &ExecSpec{Command: []string{"debsums", "-ca", "--root", "/srv/chroot"}}
	if w := e.RunWarnings(); len(w) != 1 || w[0] != e.DebsumsSilentOverNoDatabase() {
		t.Errorf("run warnings %q; want the debsums note alone", w)
	}
}
