package chart

import "testing"

// TestE2fsckWithoutForceIsNoted: e2fsck -n without -f checks nothing over
// a filesystem its superblock calls clean (testdata/wave-fsck/
// e2fsck-noforce): noted, for e2fsck, its fsck.ext* names and fsck.
func TestE2fsckWithoutForceIsNoted(t *testing.T) {
	for _, tc := range []struct {
		e    ExecSpec
		want bool
	}{
		{ExecSpec{Command: []string{"e2fsck", "-n", "${dev}"}}, true},
		{ExecSpec{Command: []string{"/sbin/fsck.ext4", "-nv", "/dev/sdb1"}}, true},
		{ExecSpec{Command: []string{"fsck", "-n", "/dev/sdb1"}}, true},
		{ExecSpec{Shell: `e2fsck -n "$DEV" 2>&1`}, true},
		{ExecSpec{Command: []string{"e2fsck", "-n", "-b", "32768", "/dev/sdb1"}}, true},
		{ExecSpec{Command: []string{"e2fsck", "-fn", "${dev}"}}, false},
		{ExecSpec{Command: []string{"e2fsck", "-n", "-f", "${dev}"}}, false},
		{ExecSpec{Command: []string{"fsck", "-n", "-f", "/dev/sdb1"}}, false},
		{ExecSpec{Command: []string{"e2fsck", "-p", "/dev/sdb1"}}, false},
		{ExecSpec{Command: []string{"e2fsck", "-C", "0", "-fn", "/dev/sdb1"}}, false},
		{ExecSpec{Command: []string{"xfs_repair", "-n", "/dev/sdb1"}}, false},
	} {
		if got := tc.e.E2fsckWithoutForce() != ""; got != tc.want {
			t.Errorf("%v %q: noted %v, want %v", tc.e.Command, tc.e.Shell, got, tc.want)
		}
	}
}
