package chart

import "testing"

// TestAideCheckIsKnown: an aide that compares (--check, --update, no
// mode) is one a run reads for a report sent elsewhere; --init and
// --config-check are not.
func TestAideCheckIsKnown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{cmd: []string{"aide", "--config", "/etc/aide/aide.conf", "--check"}, want: true},
		{cmd: []string{"/usr/bin/aide", "-C"}, want: true},
		{shell: `aide --update -c "$C"`, want: true},
		{cmd: []string{"aide", "--init"}, want: false},
		{cmd: []string{"aide", "-D"}, want: false},
		{cmd: []string{"aideinit"}, want: false},
	} {
		if got := (&ExecSpec{Command: tc.cmd, Shell: tc.shell}).AideCheck(); got != tc.want {
			t.Errorf("%q %q: %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
}
