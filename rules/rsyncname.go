package rules

import (
	"fmt"
	"regexp"
	"strconv"
	"unicode/utf8"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// rsyncEscape is one byte of a name as rsync prints it in its itemized
// and verbose lines: a backslash, "#" and the byte in three octal digits.
// rsync writes so a name's control bytes (a newline is \#012), bytes that
// are not UTF-8 (Latin-1's é is \#351), under a C locale every byte past
// ASCII (UTF-8's é is \#303\#251), and a backslash that comes before "#"
// (\#134).
var rsyncEscape = regexp.MustCompile(`\\#[0-7]{3}`)

// rsyncUnescaped is s with rsync's escapes read back into the bytes
// they stand for, and whether s held any.
func rsyncUnescaped(s string) (string, bool) {
	if !rsyncEscape.MatchString(s) {
		return s, false
	}
	return rsyncEscape.ReplaceAllStringFunc(s, func(e string) string {
		n, _ := strconv.ParseUint(e[2:], 8, 8)
		return string([]byte{byte(n)})
	}), true
}

// rsyncEscaped is why two unequal texts are not known to differ: one is
// the other as rsync prints a name (rsyncEscape). A check that each
// named file of a mirror is in sync, `f in map(dry.stdout, #.name)` over
// `rsync -n -i`, was a plain no for a file named with a newline, which
// rsync listed as new\#012line, and said in-sync, Consistent, of a file
// not on the mirror (TestTextsThatDifferOnlyByRsyncEscapesAreNoEquality,
// testdata/wave-rsync/named). "" for any other pair.
func rsyncEscaped(a, b string) string {
	for _, p := range [2][2]string{{a, b}, {b, a}} {
		if plain, ok := rsyncUnescaped(p[0]); ok && plain == p[1] {
			return strconv.Quote(p[0]) + " is " + strconv.Quote(p[1]) + " as rsync prints a name (a control byte, a byte that is not UTF-8, or under a C locale one past ASCII, written \\#ooo in octal), so the two are one name: compare rsyncName(x) == y (a list: y in map(list, rsyncName(#)))"
		}
	}
	return ""
}

// rsyncNameFunc is `rsyncName(text)`: a name as rsync printed it, its
// escapes read back (rsyncUnescaped). A name whose bytes are not UTF-8
// (a Latin-1 é) is an error, since no text of a chart or a record holds
// it. null stays null.
func rsyncNameFunc(params ...any) (any, error) {
	if len(params) != 1 {
		return nil, fmt.Errorf("rsyncName takes 1 argument (the name as rsync printed it), not %d", len(params))
	}
	if params[0] == nil {
		return nil, nil
	}
	s, ok := params[0].(string)
	if !ok {
		return nil, fmt.Errorf("rsyncName: the value is %s, want a string", jsonv.Describe(params[0]))
	}
	plain, _ := rsyncUnescaped(s)
	if !utf8.ValidString(plain) {
		return nil, fmt.Errorf("rsyncName: %q names bytes that are not UTF-8 (a name written in Latin-1 or another 8-bit code), which no text here can hold: rename the file, or compare the name as rsync printed it", s)
	}
	return plain, nil
}
