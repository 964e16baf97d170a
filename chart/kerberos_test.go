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

// TestKinitPasswordInScriptIsNoted: `echo 'alicepw1' | kinit alice` ran
// Consistent with the password in the record's copy of the script and
// nothing said; a plan notes it now, and a run warns of it once. A
// value the script expands ("$PW", a secret input's, which the run
// masks) and a keytab are not noted.
func TestKinitPasswordInScriptIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		shell string
		want  bool
	}{
		{`echo 'alicepw1' | kinit -c MEMORY:x alice`, true},
		{`printf '%s\n' alicepw1 | /usr/bin/kinit alice`, true},
		{`echo "alicepw1" | kinit alice | tail -1`, true},
		{`kinit alice <<< 'alicepw1'`, true},
		{`printf '%s' "$PW" | kinit alice`, false},
		{`kinit alice <<< "$PW"`, false},
		{`kinit -k -t /etc/krb5.keytab host/web.example.com && klist`, false},
		{`echo hello | grep h`, false},
	} {
		e := ExecSpec{Shell: tc.shell}
		if got := e.KinitPasswordInScript() != ""; got != tc.want {
			t.Errorf("%q: noted %v, want %v", tc.shell, got, tc.want)
		}
		if warned := contains(e.RunWarnings(), e.KinitPasswordInScript()); tc.want && !warned {
			t.Errorf("%q: a run does not warn of it", tc.shell)
		}
	}
}
