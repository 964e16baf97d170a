package chart

import "testing"

// TestShellRunsCdBesideOne: a script of cd and one other command is
// known as one (its code is that command's unless a cd said it failed);
// a pipeline, a second command, a cd in a subshell or a function are not.
func TestShellRunsCdBesideOne(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		shell string
		want  bool
	}{
		{`cd "$D" && sha256sum -c -- "$M"`, true},
		{"cd /srv/app\nsha256sum --quiet -c SHA256SUMS", true},
		{`cd "$D" || exit 3; md5sum -c MD5SUMS`, true},
		{`cd "$D" && grep -c ERROR app.log | tee /dev/null`, false},
		{`cd "$D" && make && sha256sum -c SUMS`, false},
		{`(cd "$D") && sha256sum -c SUMS`, false},
		{`sha256sum -c SUMS`, false},
		{`cd "$D" && echo "$(sha256sum -c SUMS)"`, false},
	} {
		if got := (&ExecSpec{Shell: tc.shell}).ShellRunsCdBesideOne(); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.shell, got, tc.want)
		}
	}
}
