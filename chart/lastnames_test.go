package chart

import "testing"

// TestLastWithoutFullNamesIsNoted: lastb (and last) print a user name cut
// at 8 characters and a host at 16 unless given -w, so the failed logins
// of administrator and administrative were both administ's, and of two
// IPv6 sources one 2001:db8:85a3::8: a chart watching administrator found
// no failure of it, ok, Consistent. Plan notes lastb or last without -w,
// and a run warns of it once.
func TestLastWithoutFullNamesIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		e     ExecSpec
		noted bool
	}{
		{"lastb", ExecSpec{Command: []string{"lastb"}}, true},
		{"lastb -F -s", ExecSpec{Command: []string{"/usr/bin/lastb", "-F", "-s", "-1hour"}}, true},
		{"last -x", ExecSpec{Command: []string{"last", "-x", "reboot"}}, true},
		{"shell lastb | awk", ExecSpec{Shell: `lastb -s -1hour | awk '{print $1}' | sort | uniq -c`}, true},
		{"lastb -w", ExecSpec{Command: []string{"lastb", "-w", "--time-format", "iso"}}, false},
		{"lastb --fullnames", ExecSpec{Command: []string{"lastb", "--fullnames"}}, false},
		{"a cluster with w", ExecSpec{Command: []string{"last", "-wF"}}, false},
		{"shell lastb -w", ExecSpec{Shell: `lastb -w -s -1hour | head -n 100`}, false},
		{"lastlog", ExecSpec{Command: []string{"lastlog"}}, false},
		{"a file named last", ExecSpec{Command: []string{"cat", "last"}}, false},
	} {
		note := tc.e.LastCutsNames()
		if (note != "") != tc.noted {
			t.Errorf("%s: note %q, want noted %v", tc.name, note, tc.noted)
		}
	}
}
