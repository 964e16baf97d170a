package chart

import "testing"

// TestXFSQuotaReportIsKnown: xfs_quota with a report command, as a
// command or in a shell line, is known; its other commands and other
// tools are not.
func TestXFSQuotaReportIsKnown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		e    ExecSpec
		want bool
	}{
		{ExecSpec{Command: []string{"xfs_quota", "-x", "-c", "report -N -b -u", "/srv"}}, true},
		{ExecSpec{Command: []string{"/usr/sbin/xfs_quota", "-x", "-creport", "/srv"}}, true},
		{ExecSpec{Shell: "xfs_quota -x -c 'report -h' /srv | grep -v root"}, true},
		{ExecSpec{Command: []string{"xfs_quota", "-x", "-c", "state", "/srv"}}, false},
		{ExecSpec{Command: []string{"repquota", "-a"}}, false},
		{ExecSpec{Command: []string{"xfs_quota", "-x", "-c", "report -N -u -L 1000", "/srv"}}, false},
	} {
		if got := tc.e.XFSQuotaReport(); got != tc.want {
			t.Errorf("%v %q: XFSQuotaReport() = %v, want %v", tc.e.Command, tc.e.Shell, got, tc.want)
		}
	}
}
