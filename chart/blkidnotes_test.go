package chart

import "testing"

// TestBlkidOfDevicesReadsItsArguments: blkid's silence under exit 0 is no
// answer when it names devices, reads them through its cache and asks
// for every tag or TYPE; -p says its errors, -L and -U look a device up,
// and -s LABEL is blank over a filesystem with no label.
func TestBlkidOfDevicesReadsItsArguments(t *testing.T) {
	for _, tc := range []struct {
		exec ExecSpec
		want bool
	}{
		{ExecSpec{Command: []string{"blkid", "/dev/sdb1"}}, true},
		{ExecSpec{Command: []string{"/sbin/blkid", "-s", "TYPE", "-o", "value", "${dev}"}}, true},
		{ExecSpec{Command: []string{"blkid", "-sTYPE", "-ovalue", "/dev/sdb1"}}, true},
		{ExecSpec{Command: []string{"blkid", "--match-tag=TYPE", "--output", "export", "/dev/sdb1"}}, true},
		{ExecSpec{Command: []string{"blkid", "-c", "/dev/null", "/dev/sdb1"}}, true},
		{ExecSpec{Command: []string{"blkid", "-s", "TYPE", "-s", "LABEL", "/dev/sdb1"}}, true},
		{ExecSpec{Shell: `blkid -s TYPE -o value "$DEV" | tr a-z A-Z`}, true},
		{ExecSpec{Command: []string{"blkid", "-p", "/dev/sdb1"}}, false},
		{ExecSpec{Command: []string{"blkid", "-po", "value", "/dev/sdb1"}}, false},
		{ExecSpec{Command: []string{"blkid", "-s", "LABEL", "-o", "value", "/dev/sdb1"}}, false},
		{ExecSpec{Command: []string{"blkid", "-L", "data"}}, false},
		{ExecSpec{Command: []string{"blkid", "-o", "value"}}, false},
		{ExecSpec{Command: []string{"blkid"}}, false},
		{ExecSpec{Command: []string{"lsblk", "/dev/sdb1"}}, false},
	} {
		if got := tc.exec.BlkidOfDevices(); got != tc.want {
			t.Errorf("%v %q: BlkidOfDevices = %v, want %v", tc.exec.Command, tc.exec.Shell, got, tc.want)
		}
	}
}
