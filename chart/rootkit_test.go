package chart

import "testing"

// TestRootkitHuntersAreKnown: rkhunter and chkrootkit print their
// refusal on stdout (RefusesOnStdout); rkhunter's checks, not its
// --propupd or --update, are read for warnings it printed in no
// `Warning:` line (RkhunterCheck).
func TestRootkitHuntersAreKnown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		e             ExecSpec
		stdout, check bool
	}{
		{ExecSpec{Command: []string{"rkhunter", "--check", "--sk", "--rwo"}}, true, true},
		{ExecSpec{Command: []string{"/usr/bin/rkhunter", "-c", "--sk"}}, true, true},
		{ExecSpec{Shell: `rkhunter --cronjob --rwo || true`}, true, true},
		{ExecSpec{Command: []string{"rkhunter", "--propupd"}}, true, false},
		{ExecSpec{Command: []string{"chkrootkit", "-q"}}, true, false},
		{ExecSpec{Shell: `/usr/sbin/chkrootkit -q | grep INFECTED`}, true, false},
		{ExecSpec{Command: []string{"clamscan", "-r", "/srv"}}, false, false},
	} {
		if got := tc.e.RefusesOnStdout(); got != tc.stdout {
			t.Errorf("%v %q: RefusesOnStdout %v, want %v", tc.e.Command, tc.e.Shell, got, tc.stdout)
		}
		if got := tc.e.RkhunterCheck(); got != tc.check {
			t.Errorf("%v %q: RkhunterCheck %v, want %v", tc.e.Command, tc.e.Shell, got, tc.check)
		}
	}
}
