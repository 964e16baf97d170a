package chart

import "testing"

// TestClamscanPassingOverLimitsIsNoted: clamscan without
// --alert-exceeds-max prints `PATH: OK` for a file past --max-filesize it
// did not scan whole, exit 0, nothing said.
func TestClamscanPassingOverLimitsIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		e    ExecSpec
		want bool
	}{
		{ExecSpec{Command: []string{"clamscan", "-r", "-i", "/srv"}}, true},
		{ExecSpec{Command: []string{"/usr/bin/clamscan", "--max-filesize=1M", "/srv"}}, true},
		{ExecSpec{Shell: `clamscan -r --no-summary "$D"`}, true},
		{ExecSpec{Command: []string{"clamscan", "-r", "--alert-exceeds-max", "/srv"}}, false},
		{ExecSpec{Command: []string{"clamscan", "--alert-exceeds-max=yes", "/srv"}}, false},
		{ExecSpec{Command: []string{"clamscan", "--version"}}, false},
		{ExecSpec{Command: []string{"clamdscan", "/srv"}}, false},
	} {
		if got := tc.e.ClamscanPassesOverLimits() != ""; got != tc.want {
			t.Errorf("%v %q: noted %v, want %v", tc.e.Command, tc.e.Shell, got, tc.want)
		}
	}
}

// TestClamscanHidingItsErrorsIsNoted: clamscan -i --no-summary prints no
// word of a folder it could not open, and exits 1 over a finding as over
// a whole scan.
func TestClamscanHidingItsErrorsIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		e    ExecSpec
		want bool
	}{
		{ExecSpec{Command: []string{"clamscan", "-r", "-i", "--no-summary", "/srv"}}, true},
		{ExecSpec{Command: []string{"clamscan", "-ri", "--no-summary", "/srv"}}, true},
		{ExecSpec{Shell: `clamscan --infected --no-summary -r /srv /home`}, true},
		{ExecSpec{Command: []string{"clamscan", "-r", "-i", "/srv"}}, false},
		{ExecSpec{Command: []string{"clamscan", "-r", "--no-summary", "/srv"}}, false},
		{ExecSpec{Command: []string{"clamscan", "-d", "/tmp/idb", "--no-summary", "/srv"}}, false},
		{ExecSpec{Command: []string{"clamdscan", "-i", "--no-summary", "/srv"}}, false},
	} {
		if got := tc.e.ClamscanErrorsUnsaid() != ""; got != tc.want {
			t.Errorf("%v %q: noted %v, want %v", tc.e.Command, tc.e.Shell, got, tc.want)
		}
	}
}

// TestClamAVScanIsKnown: a ClamAV scanner that scans is one a run reads
// for the paths it said it could not scan; --version is not.
func TestClamAVScanIsKnown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		e    ExecSpec
		want bool
	}{
		{ExecSpec{Command: []string{"clamscan", "-r", "/srv"}}, true},
		{ExecSpec{Command: []string{"/usr/bin/clamdscan", "--fdpass", "-m", "/srv"}}, true},
		{ExecSpec{Shell: `cd /srv && clamscan -r .`}, true},
		{ExecSpec{Command: []string{"clamscan", "--version"}}, false},
		{ExecSpec{Command: []string{"clamdscan", "--ping", "3"}}, false},
		{ExecSpec{Command: []string{"sigtool", "--info", "/var/lib/clamav/daily.cvd"}}, false},
	} {
		if got := tc.e.ClamAVScan(); got != tc.want {
			t.Errorf("%v %q: %v, want %v", tc.e.Command, tc.e.Shell, got, tc.want)
		}
	}
}

// TestClamscanDepthLimitIsNoted: clamscan -r stops 15 folders down and
// says nothing of the deeper ones, exit 0.
func TestClamscanDepthLimitIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		e    ExecSpec
		want bool
	}{
		{ExecSpec{Command: []string{"clamscan", "-r", "-i", "/srv"}}, true},
		{ExecSpec{Command: []string{"clamscan", "-ri", "/srv"}}, true},
		{ExecSpec{Shell: `clamscan --recursive --no-summary "$D"`}, true},
		{ExecSpec{Command: []string{"clamscan", "-r", "--max-dir-recursion=40", "/srv"}}, false},
		{ExecSpec{Command: []string{"clamscan", "--max-dir-recursion", "40", "-r", "/srv"}}, false},
		{ExecSpec{Command: []string{"clamscan", "/srv/upload.zip"}}, false},
		{ExecSpec{Command: []string{"clamscan", "-d", "/var/lib/clamav", "/srv/f"}}, false},
		{ExecSpec{Command: []string{"clamdscan", "-m", "/srv"}}, false},
	} {
		if got := tc.e.ClamscanDepthLimit() != ""; got != tc.want {
			t.Errorf("%v %q: noted %v, want %v", tc.e.Command, tc.e.Shell, got, tc.want)
		}
	}
}
