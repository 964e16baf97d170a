package parse

import (
	"strings"
	"testing"
)

// TestColumnsBlankCellUnderAFullCountIsAProblem: lastlog leaves Port and
// From blank for an account that never logged in and prints "**Never
// logged in**" under Latest, four words under four names, so parse:
// columns read every such row as Port "**Never", From "logged", Latest
// "in**", with no problem: a chart asking which accounts never logged in
// (.Latest == "**Never logged in**") found none, and one asking how long
// ago each logged in could not read a date it never saw. Under last: rest
// a local login (tty1, no From) put its weekday in From. A row that holds
// nothing under a name while the value keyed by it lies under a later
// name is a problem now. A value pushed right by a wider one before it
// (ps over a large RSS, vmstat after an 8-digit free) and a header offset from its rows (/proc/net/unix)
// are not.
func TestColumnsBlankCellUnderAFullCountIsAProblem(t *testing.T) {
	t.Parallel()
	lastlog := "Username         Port     From                                       Latest\n" +
		"root                                                                **Never logged in**\n" +
		"systemd-timesync                                                    **Never logged in**\n" +
		"acct.dot         tty1                                               Fri Dec  4 06:19:29 +0000 2026\n" +
		"acctsudo         pts/0    10.0.0.5                                  Mon Dec  7 05:19:29 +0000 2026\n"
	for _, tc := range []struct {
		name, text string
		opts       map[string]any
		rows       int
		first      string
	}{
		{"never logged in, split", lastlog, nil, 0, `line 2: it holds nothing under the header's "Port", yet the split keys "**Never" by it, a value that lies under the header's "Latest"`},
		{"never logged in and a local login, rest", lastlog, map[string]any{"last": "rest"}, 1, `line 2: it holds nothing under the header's "Port"`},
	} {
		res, err := Parse(tc.text, Spec{Mode: "columns", Options: tc.opts})
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := res.Value.([]any)
		if len(rows) != tc.rows || !strings.HasPrefix(res.FirstProblem, tc.first) {
			t.Errorf("%s: %d rows %v, %d problems, first %q; want %d rows and the first problem %q…", tc.name, len(rows), rows, res.Problems, res.FirstProblem, tc.rows, tc.first)
		}
	}
	res, _ := Parse(lastlog, Spec{Mode: "columns", Options: map[string]any{"last": "rest"}})
	if res.Problems != 3 {
		t.Errorf("rest: %d problems; want 3 (the never rows and tty1's, whose weekday the split keys by From)", res.Problems)
	}
	for _, tc := range []struct{ name, text string }{
		{"ps aux, a wide RSS pushing the rest right", "USER       PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n" +
			"root         1  0.4  0.0  52388 12440 ?        S<Ll Dec06   2:14 /sbin/init\n" +
			"postgres   812  3.1 41.0 9912388 8123440 ?     Ss   Dec06  92:14 postgres\n"},
		{"/proc/net/unix, its header offset", "Num       RefCount Protocol Flags    Type St Inode Path\n" +
			"00000000f3b195a8: 00000003 00000000 00010000 0001 01 12345 /run/systemd/notify\n"},
		{"vmstat, each value after an 8-digit free pushed right", " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n" +
			" 5  0      0 19086204  54468 5113372    0    0     0     0   95  147  0  0 100  0  0\n"},
		{"df -P", "Filesystem              1024-blocks     Used Available Capacity Mounted on\n" +
			"devtmpfs                   12334760        0  12334760       0% /dev\n"},
	} {
		res, err := Parse(tc.text, Spec{Mode: "columns", Options: map[string]any{"last": "rest"}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Problems != 0 {
			t.Errorf("%s: %d problems, first %q; want none", tc.name, res.Problems, res.FirstProblem)
		}
	}
}
