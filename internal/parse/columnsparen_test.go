package parse

import (
	"strings"
	"testing"
)

// TestColumnsParenthesizedNameSplitIsAProblem: /proc/PID/stat writes a
// process's name in parentheses as it is, spaces and all. Read as columns
// with names [pid, comm, state] and last: rest, "7223 (my proc (x)) D 1 …"
// gave comm "(my" and state "proc", and a check for processes stuck in D
// state said ok, Consistent, over a state nobody read. A field that opens
// a parenthesis a later word closes is a problem now, not a row; a name in
// parentheses with no space ("(sshd)", who's "(10.0.0.7)") reads, and so
// does one in the last value under last: rest (ps's args).
func TestColumnsParenthesizedNameSplitIsAProblem(t *testing.T) {
	t.Parallel()
	stat := map[string]any{"header": false, "names": []any{"pid", "comm", "state", "rest"}, "last": "rest"}
	for _, tc := range []struct {
		name, text string
		opts       map[string]any
		problem    string // "" when the row reads
	}{
		{"a name with spaces", "7223 (my proc (x)) D 1 7217 4068 0 -1\n", stat, `its field "(my" opens a parenthesis that "(x))", a later word of the row, closes`},
		{"a name of one word", "812 (sshd) S 1 812 812 0 -1\n", stat, ""},
		{"split, every field named", "7223 (Web Content) D\n", map[string]any{"header": false, "names": []any{"pid", "comm", "x", "state"}}, `its field "(Web" opens a parenthesis that "Content)"`},
		{"in the last value", "PID ARGS\n7223 sleep (for a while)\n", map[string]any{"last": "rest"}, ""},
		{"who", "root     pts/0        2026-12-07 03:10 (10.0.0.7)\n", map[string]any{"header": false, "names": []any{"user", "tty", "date", "time", "from"}}, ""},
	} {
		res, err := Parse(tc.text, Spec{Mode: "columns", Options: tc.opts})
		if err != nil {
			t.Fatal(err)
		}
		if tc.problem == "" {
			if res.Problems != 0 {
				t.Errorf("%s: %d problems (%s); want the row read", tc.name, res.Problems, res.FirstProblem)
			}
			continue
		}
		if l, ok := res.Value.([]any); !ok || len(l) != 0 || res.Problems != 1 || !strings.Contains(res.FirstProblem, tc.problem) {
			t.Errorf("%s: value %#v, %d problems (%s); want no row and the problem %s", tc.name, res.Value, res.Problems, res.FirstProblem, tc.problem)
		}
	}
}
