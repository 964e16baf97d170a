package chart

import "testing"

// TestSmbstatusTableIsNoted: smbstatus -L read with {as: columns, last:
// rest} split a file open in "/tmp/samba/share two" as SharePath
// "/tmp/samba/share", Name "two" and Time "a b.txt   Mon Dec  7 …", with
// no problem said, and a chart of stale locks read it Consistent. A
// smbstatus without --json is noted; with it, not.
func TestSmbstatusTableIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		e     ExecSpec
		noted bool
	}{
		{"-L", ExecSpec{Command: []string{"smbstatus", "-L"}}, true},
		{"-b with a path", ExecSpec{Command: []string{"/usr/bin/smbstatus", "-s", "/etc/samba/smb.conf", "-b"}}, true},
		{"shell", ExecSpec{Shell: "smbstatus -L | grep -v '^---'"}, true},
		{"--json", ExecSpec{Command: []string{"smbstatus", "-L", "--json"}}, false},
		{"-Lj", ExecSpec{Command: []string{"smbstatus", "-Lj"}}, false},
		{"shell --json", ExecSpec{Shell: "smbstatus --json | jq .open_files"}, false},
		{"version", ExecSpec{Command: []string{"smbstatus", "-V"}}, false},
		{"another program", ExecSpec{Command: []string{"smbclient", "-L", "//127.0.0.1", "-N"}}, false},
	} {
		note := tc.e.SmbstatusTable()
		if (note != "") != tc.noted {
			t.Errorf("%s: note %q, want noted %v", tc.name, note, tc.noted)
		}
	}
}
