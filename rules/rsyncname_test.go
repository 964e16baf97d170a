package rules

import (
	"testing"
)

// TestTextsThatDifferOnlyByRsyncEscapesAreNoEquality: rsync -n -i lists a
// file named with a newline as new\#012line, and a check that a named
// file is in sync, `f in map(dry.stdout, #.name)`, was a plain no: it
// said in-sync, Consistent, of a file missing from the mirror
// (testdata/wave-rsync/named). A text that is the other as rsync prints
// a name is no equality now; rsyncName(x) reads the escapes back.
func TestTextsThatDifferOnlyByRsyncEscapesAreNoEquality(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"listed": []any{`new\#012line`, "a"},
		"utf8C":  `caf\#303\#251.conf`,
		"latin1": `caf\#351`,
		"f":      "new\nline",
	}
	for _, tc := range []struct {
		src     string
		err     string // "" for no error
		matched bool
	}{
		{`f in listed`, `as rsync prints a name`, false},
		{`f not in listed`, `as rsync prints a name`, false},
		{`utf8C == "café.conf"`, `compare rsyncName(x) == y`, false},
		{`f in map(listed, rsyncName(#))`, "", true},
		{`rsyncName(utf8C) == "café.conf"`, "", true},
		{`rsyncName(latin1) == "café"`, `not UTF-8`, false},
		{`"a" in listed`, "", true},
		{`"b" in listed`, "", false},
		{`rsyncName(nil) == nil`, "", true},
	} {
		evalWants(t, env, tc.src, tc.err, tc.matched)
	}
}
