package record

import "testing"

// TestSearchedNothingInOutputReadsACountOfZero: aide's `Number of
// entries:` is read on stdout only when its count is 0; the stderr rules
// (pgrep's, journalctl's, sha256sum's) are not read on stdout, which is
// the data a chart reads.
func TestSearchedNothingInOutputReadsACountOfZero(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ stdout, want string }{
		{"AIDE found NO differences between database and filesystem. Looks okay!!\n\nNumber of entries:\t0\n", "Number of entries:\t0"},
		{"Number of entries:\t6\n", ""},
		{"  Total number of entries:\t10\n", ""},
		{"Number of entries:\t0 (of 3)\n", ""},
		{"Dec 07 host app: no journal files were found\n", ""},
	} {
		if got := SearchedNothingInOutput(tc.stdout, false); got != tc.want {
			t.Errorf("SearchedNothingInOutput(%q) = %q, want %q", tc.stdout, got, tc.want)
		}
	}
	if got := SearchedNothing("Number of entries: 0\n", true, false); got != "Number of entries: 0" {
		t.Errorf("aide's report on stderr (report_url=stderr): %q", got)
	}
}

// TestNmapHostsDownReadOnlyOverAPortScan: nmap's count of hosts up below
// the addresses it scanned (`1 IP address (0 hosts up)`, -oX's summary
// `2 IP addresses (1 host up)`) is a host whose ports it never scanned,
// read only where the command scans ports, as is a host it gave up on at
// --host-timeout (-oG's `Status: Timeout`, the normal report's `Skipping
// host`, -oX's `timedout="true"`); a count of every host up, and
// the same line of a ping sweep (-sn), where the hosts down are the
// answer, are not.
func TestNmapHostsDownReadOnlyOverAPortScan(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		stdout   string
		portScan bool
		want     string
	}{
		{"Nmap done: 1 IP address (0 hosts up) scanned in 3.02 seconds\n", true, "Nmap done: 1 IP address (0 hosts up) scanned in 3.02 seconds"},
		{`<finished summary="Nmap done at Mon Dec  7 16:51:44 2026; 2 IP addresses (1 host up) scanned in 3.03 seconds"/>` + "\n", true, `<finished summary="Nmap done at Mon Dec  7 16:51:44 2026; 2 IP addresses (1 host up) scanned in 3.03 seconds"/>`},
		{"# Nmap done at Mon Dec  7 16:51:07 2026 -- 8 IP addresses (8 hosts up) scanned in 0.08 seconds\n", true, ""},
		{"Nmap done: 1 IP address (0 hosts up) scanned in 3.02 seconds\n", false, ""},
		{"Nmap done: 0 IP addresses (0 hosts up) scanned in 0.03 seconds\n", true, ""},
		{"Host: 127.0.0.1 ()\tStatus: Up\nHost: 127.0.0.1 ()\tStatus: Timeout\n", true, "Host: 127.0.0.1 ()\tStatus: Timeout"},
		{"Host is up (0.0000070s latency).\nSkipping host 127.0.0.1 due to host timeout\n", true, "Skipping host 127.0.0.1 due to host timeout"},
		{`<host starttime="1796663353" endtime="1796663353" timedout="true"><status state="up" reason="user-set" reason_ttl="0"/>` + "\n", true, `<host starttime="1796663353" endtime="1796663353" timedout="true"><status state="up" reason="user-set" reason_ttl="0"/>`},
		{"Host: 127.0.0.1 ()\tStatus: Timeout\n", false, ""},
	} {
		if got := SearchedNothingInOutput(tc.stdout, tc.portScan); got != tc.want {
			t.Errorf("SearchedNothingInOutput(%q, %v) = %q, want %q", tc.stdout, tc.portScan, got, tc.want)
		}
	}
	if got := SearchedNothing("::1 looks like an IPv6 target specification -- you have to use the -6 option.\n", true, true); got != "::1 looks like an IPv6 target specification -- you have to use the -6 option." {
		t.Errorf("nmap's IPv6 address given without -6: %q", got)
	}
	if got := SearchedNothing("setup_target: failed to determine route to ::1\n", true, true); got != "setup_target: failed to determine route to ::1" {
		t.Errorf("nmap's host it found no route to: %q", got)
	}
	if got := SearchedNothing("Failed to resolve \"localhots\".\nWARNING: No targets were specified, so 0 hosts scanned.\n", true, true); got != `Failed to resolve "localhots".` {
		t.Errorf("nmap's name not resolved: %q", got)
	}
}
