package chart

import "testing"

// TestSambaPasswordInArgvIsNoted: smbclient given -U alice%S3cretPw
// loaded, ran Consistent and left the password in the record, in ps's
// view of the host while it ran, with nothing said. A Samba client given
// a password in argv is noted; -U with the user alone, PASSWD or -A is
// not.
func TestSambaPasswordInArgvIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		e     ExecSpec
		noted bool
	}{
		{"-U user%pw", ExecSpec{Command: []string{"smbclient", "//127.0.0.1/share1", "-U", "alice%S3cretPw", "-c", "ls"}}, true},
		{"-U glued", ExecSpec{Command: []string{"/usr/bin/smbclient", "-L", "//h", "-Ualice%${pw}"}}, true},
		{"--user=", ExecSpec{Command: []string{"rpcclient", "--user=alice%x", "-c", "srvinfo", "h"}}, true},
		{"--password", ExecSpec{Command: []string{"smbclient", "//h/s", "-U", "alice", "--password", "x"}}, true},
		{"shell", ExecSpec{Shell: `smbclient -L //127.0.0.1 -U "alice%$PW" | grep Disk`}, true},
		{"user alone", ExecSpec{Command: []string{"smbclient", "//h/s", "-U", "alice", "-c", "ls"}, EnvFrom: nil}, false},
		{"auth file", ExecSpec{Command: []string{"smbclient", "//h/s", "-A", "/etc/samba/auth", "-c", "ls"}}, false},
		{"a % in -c", ExecSpec{Command: []string{"smbclient", "//h/s", "-N", "-c", "get 100%.txt"}}, false},
		{"shell user alone", ExecSpec{Shell: "smbclient -L //h -U alice -N"}, false},
		{"another program", ExecSpec{Command: []string{"printf", "-U", "a%b"}}, false},
	} {
		note := tc.e.SambaPasswordInArgv()
		if (note != "") != tc.noted {
			t.Errorf("%s: note %q, want noted %v", tc.name, note, tc.noted)
		}
	}
}
