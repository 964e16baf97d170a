package chart

import (
	"strings"
	"testing"
)

// TestSilentFileTestIsNoted: test (or `[`) over a file exits 1, printing
// nothing, for a file that is not there and as much for one behind a
// folder the user may not search; a chart declaring that 1 an answer
// (`[test, -f, /etc/ssl/private/site.key]` with {0: present, 1:
// missing}) was told missing of a key that is there. plan notes it and a
// run warns of it (RunWarnings), naming stat.
func TestSilentFileTestIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		e     ExecSpec
		noted bool
	}{
		{"test -f under a declared 1", ExecSpec{Command: []string{"test", "-f", "/etc/ssl/private/a.key"}, ExitCodes: map[int]string{0: "present", 1: "missing"}}, true},
		{"/usr/bin/[ -e", ExecSpec{Command: []string{"/usr/bin/[", "-e", "/x", "]"}, ExitCodes: map[int]string{1: "absent"}}, true},
		{"shell [ -e ]", ExecSpec{Shell: `[ -e "$P" ]`, ExitCodes: map[int]string{0: "present", 1: "absent"}}, true},
		{"shell [[ -d ]]", ExecSpec{Shell: `[[ -d /srv/backup ]]`, ExitCodes: map[int]string{1: "absent"}}, true},
		{"shell test -r", ExecSpec{Shell: `test -r /etc/shadow`, ExitCodes: map[int]string{1: "unreadable"}}, true},
		{"no exitCodes", ExecSpec{Command: []string{"test", "-f", "/x"}}, false},
		{"only 0 declared", ExecSpec{Command: []string{"test", "-f", "/x"}, ExitCodes: map[int]string{0: "present"}}, false},
		{"a string test", ExecSpec{Command: []string{"test", "-n", "x"}, ExitCodes: map[int]string{1: "empty"}}, false},
		{"a script of more", ExecSpec{Shell: "test -e /x && cat /x", ExitCodes: map[int]string{1: "absent"}}, false},
		{"stat", ExecSpec{Command: []string{"stat", "/x"}, ExitCodes: map[int]string{1: "absent"}}, false},
	} {
		note := tc.e.SilentFileTest()
		if (note != "") != tc.noted {
			t.Errorf("%s: note %q, want noted %v", tc.name, note, tc.noted)
		}
		if tc.noted && !strings.Contains(note, "ask stat, which says why on stderr") {
			t.Errorf("%s: note %q does not name stat", tc.name, note)
		}
		if tc.noted && !strings.Contains(strings.Join(tc.e.RunWarnings(), "\n"), note) {
			t.Errorf("%s: not among the run warnings", tc.name)
		}
	}
}
