package chart

import "testing"

// TestPdbeditHashesAreNoted: pdbedit -L -w prints each account's NT
// hash, which logs in as the password does, and a chart reading its
// account flags kept every hash in the record, with nothing said. A
// pdbedit given -w is noted; -L -v, which prints no hash, is not.
func TestPdbeditHashesAreNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		e     ExecSpec
		noted bool
	}{
		{"-L -w", ExecSpec{Command: []string{"pdbedit", "-L", "-w"}}, true},
		{"-Lw", ExecSpec{Command: []string{"/usr/bin/pdbedit", "-Lw"}}, true},
		{"--smbpasswd-style", ExecSpec{Command: []string{"pdbedit", "-L", "--smbpasswd-style", "-s", "/etc/samba/smb.conf"}}, true},
		{"shell", ExecSpec{Shell: "pdbedit -L -w | grep -v '^#'"}, true},
		{"-L -v", ExecSpec{Command: []string{"pdbedit", "-L", "-v"}}, false},
		{"another program", ExecSpec{Command: []string{"who", "-w"}}, false},
	} {
		note := tc.e.PdbeditPrintsHashes()
		if (note != "") != tc.noted {
			t.Errorf("%s: note %q, want noted %v", tc.name, note, tc.noted)
		}
	}
}
