package chart

import "testing"

// TestKadminPasswordInArgvIsNoted: `[kadmin, -p, root/admin, -w,
// adminpw1, -q, getprinc bob]` ran Consistent with the admin password
// in the record's argv and nothing said; a plan notes it now, and a run
// warns of it once. A keytab given with -k -t is not noted.
func TestKadminPasswordInArgvIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		e    ExecSpec
		want bool
	}{
		{ExecSpec{Command: []string{"kadmin", "-p", "root/admin", "-w", "adminpw1", "-q", "getprinc bob"}}, true},
		{ExecSpec{Command: []string{"/usr/bin/kadmin", "-p", "root/admin", "-wadminpw1", "-q", "getprinc bob"}}, true},
		{ExecSpec{Shell: `kadmin -p root/admin -w "$PW" -q "getprinc $P" | grep expiration`}, true},
		{ExecSpec{Command: []string{"kadmin", "-k", "-t", "/etc/monitor.keytab", "-p", "monitor/admin", "-q", "getprinc bob"}}, false},
		{ExecSpec{Command: []string{"kadmin.local", "-q", "getprinc bob"}}, false},
		{ExecSpec{Shell: `kadmin.local -q "getprinc -w"`}, false},
		{ExecSpec{Command: []string{"ldapsearch", "-x", "-w", "secret"}}, false},
	} {
		if got := tc.e.KadminPasswordInArgv() != ""; got != tc.want {
			t.Errorf("%v %q: noted %v, want %v", tc.e.Command, tc.e.Shell, got, tc.want)
		}
		if warned := contains(tc.e.RunWarnings(), tc.e.KadminPasswordInArgv()); tc.want && !warned {
			t.Errorf("%v %q: a run does not warn of it", tc.e.Command, tc.e.Shell)
		}
	}
}
