package chart

import "testing"

// TestMdadmDetailScanIsFound: the spellings of mdadm --detail --scan, in a
// command and a shell: line, are found, and mdadm over one array named or
// --examine are not.
func TestMdadmDetailScanIsFound(t *testing.T) {
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{[]string{"mdadm", "--detail", "--test", "--scan"}, "", true},
		{[]string{"/sbin/mdadm", "-Dts"}, "", true},
		{[]string{"mdadm", "-D", "-s"}, "", true},
		{nil, "mdadm --detail --scan --test >/dev/null", true},
		{nil, "LC_ALL=C /usr/sbin/mdadm -Ds | grep ARRAY", true},
		{[]string{"mdadm", "--detail", "--test", "/dev/md0"}, "", false},
		{[]string{"mdadm", "--examine", "--scan"}, "", false},
		{nil, "mdadm --detail /dev/md0; lsblk --scan", false},
	} {
		if got := (&ExecSpec{Command: tc.cmd, Shell: tc.shell}).MdadmDetailScan(); got != tc.want {
			t.Errorf("%q %q: %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
}
