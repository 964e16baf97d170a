package chart

import "testing"

// TestNmapPortScanIsNotAPingSweep: an nmap run as a command or in a
// shell: script scans ports unless it is a ping sweep (-sn, -sP), whose
// hosts down are its answer.
func TestNmapPortScanIsNotAPingSweep(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{cmd: []string{"nmap", "-n", "-p", "1-65535", "-oG", "-", "127.0.0.1"}, want: true},
		{cmd: []string{"/usr/bin/nmap", "-sU", "-p", "53", "::1"}, want: true},
		{shell: `nmap -sT -p 22 "$H" | grep open`, want: true},
		{cmd: []string{"nmap", "-sn", "127.0.0.0/29"}, want: false},
		{shell: "nmap -sP 127.0.0.1", want: false},
		{cmd: []string{"ss", "-ltn"}, want: false},
	} {
		if got := (&ExecSpec{Command: tc.cmd, Shell: tc.shell}).NmapPortScan(); got != tc.want {
			t.Errorf("%v %q: NmapPortScan() = %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
}
