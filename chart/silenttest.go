package chart

import (
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// fileTestOps are test's operators that ask about a file by its path:
// each is false, printing nothing, when the path cannot be looked up.
const fileTestOps = "bcdefghkLprsSuwxGNO"

// shellFileTest is a shell: script that is one file test and nothing
// else: `test -f "$P"`, `[ -e /x ]`, `[[ -d $D ]]`.
var shellFileTest = regexp.MustCompile(`^\s*(?:test|\[\[?)\s+-[` + fileTestOps + `]\s+[^;&|\n]*$`)

// SilentFileTest is the note for an exec stage whose answer is test's
// (or `[`'s) exit over a file, when exitCodes: declares a non-zero code
// an answer ("" otherwise): test exits 1, printing nothing, for a file
// that is not there and as much for one behind a folder it may not
// search, so the word for 1 would be said of a file nobody could look
// at. A monitoring user asking `[test, -f, /etc/ssl/private/site.key]`
// with `{0: present, 1: missing}` is told missing of a key that is there
// (/etc/ssl/private is 0710 root:ssl-cert). No run can tell the two
// apart from what test printed, so it is a note and a warning, not a
// reason; stat says which on stderr.
//
//	[test, -f, /etc/ssl/private/a.key] with {0: present, 1: missing}   noted
//	shell: '[ -e "$P" ]' with {0: present, 1: absent}                  noted
//	[test, -f, X] with no exitCodes (1 is a failure)                   not noted
func (e *ExecSpec) SilentFileTest() string {
	if e == nil {
		return ""
	}
	isTest := false
	switch {
	case len(e.Command) >= 3:
		name := filepath.Base(e.Command[0])
		op := e.Command[1]
		isTest = (name == "test" || name == "[") && len(op) == 2 && op[0] == '-' && strings.IndexByte(fileTestOps, op[1]) >= 0
	case e.Shell != "":
		isTest = shellFileTest.MatchString(strings.TrimSpace(e.Shell))
	}
	if !isTest {
		return ""
	}
	for _, c := range slices.Sorted(maps.Keys(e.ExitCodes)) {
		if c == 0 {
			continue
		}
		word := e.ExitCodes[c]
		return "its answer is test's exit code, and test exits " + strconv.Itoa(c) + ", printing nothing, for a file that is not there and as much for one behind a folder this user may not search, so exitCodes' word for " + strconv.Itoa(c) + " (\"" + word + "\") would be said of a file nobody could look at; ask stat, which says why on stderr: command: [stat, -c, '%n', PATH] with exitCodes: {0: present, 1: {word: " + word + ", stderr: No such file or directory}}"
	}
	return ""
}
