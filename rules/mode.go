package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// modeWithinFunc is `modeWithin(mode, limit)`: whether a file's mode grants
// nothing its limit does not, bit by bit (set-id and sticky bits too), the
// question a hardening check asks of /etc/shadow. Each is a file mode's
// text: its octal digits as `stat -c %a` and `find -printf %m` print them
// ("640", "0640", "0o640", "4755"), or its letters as `stat -c %A` and
// `ls -l` do ("-rw-r-----", "rwsr-xr-x", and ls's "-rw-r-----." of a
// file with an SELinux context; its "+" of an access control list is
// refused, the list granting what the letters do not say).
//
// A number is refused, not read: `stat -c %a` prints 604, a parse reads it
// as the decimal number 604, and `f.mode > 640` said pass over a
// world-readable /etc/shadow, Consistent; which of 604 (its digits) and
// 388 (0o604, the same mode as a YAML 0o604 reads) a number means, nothing
// in it says, so the chart gives the text (string(f.mode), or the stage's
// parse with numbers off).
//
//	modeWithin("640", "0640")          true
//	modeWithin("604", "640")           false: others may read it
//	modeWithin("-rwsr-xr-x", "0755")   false: the set-user-id bit
//	modeWithin(604, "640")             error: a number is no mode's text …
func modeWithinFunc(params ...any) (any, error) {
	if len(params) != 2 {
		return nil, fmt.Errorf("modeWithin takes 2 arguments (the file's mode and the most it may grant, such as modeWithin(f.mode, \"0640\")), not %d", len(params))
	}
	mode, err := fileMode(params[0], "the mode")
	if err != nil {
		return nil, err
	}
	limit, err := fileMode(params[1], "the limit")
	if err != nil {
		return nil, err
	}
	return mode&^limit == 0, nil
}

// fileMode reads a file mode's permission bits (07777) from its text,
// octal digits or ls's letters (modeWithinFunc); what names the argument
// in an error.
func fileMode(v any, what string) (uint32, error) {
	t, ok := v.(string)
	if !ok {
		if jsonv.Of(v) == jsonv.Number {
			return 0, fmt.Errorf("modeWithin: %s is the number %v, and a number is no mode's text: stat -c %%a's 604 read as a number is six hundred and four, not the octal 0o604 (388); give the text it printed (string(x), or the stage's parse with numbers: false)", what, v)
		}
		return 0, fmt.Errorf("modeWithin: %s is %s, want a mode's text (\"0640\" or \"-rw-r-----\")", what, jsonv.Describe(v))
	}
	s := strings.TrimSpace(t)
	if len(s) == 11 && s[10] == '+' {
		return 0, fmt.Errorf("modeWithin: %s %q ends in ls's +: the file has an access control list, which may grant a user or a group the mode's letters do not name (its group letters are the list's mask, the most any entry of it grants), so the letters do not say who may read it; read the list with getfacl, or compare the letters without the + only where the list is the chart's question elsewhere", what, t)
	}
	if len(s) == 11 && s[10] == '.' {
		// ls -l's mark of an SELinux context, no permission.
		s = s[:10]
	}
	if m, ok := octalMode(s); ok {
		return m, nil
	}
	if m, ok := letterMode(s); ok {
		return m, nil
	}
	return 0, fmt.Errorf("modeWithin: %s %q is no file mode: write its octal digits as stat -c %%a prints them (\"640\", \"0640\") or its letters as stat -c %%A does (\"-rw-r-----\")", what, t)
}

// octalMode reads "640", "0640", "0o640", "4755": up to four octal
// digits after an optional 0o (or a leading 0 of a four-digit mode).
// stat -c %a and find -printf %m write no leading zero, so a mode under
// 0100 has fewer than three: RHEL's /etc/shadow, mode 0000, is "0", and
// 0064 is "64".
func octalMode(s string) (uint32, bool) {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "0o"), "0O")
	if len(s) == 5 && s[0] == '0' {
		s = s[1:]
	}
	if len(s) < 1 || len(s) > 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 8, 32)
	return uint32(n), err == nil
}

// letterMode reads ls's nine letters, after an optional file-type letter:
// r w x or -, with s/S (set-id, with and without x) in the owner's and the
// group's execute place and t/T (sticky) in the others'.
func letterMode(s string) (uint32, bool) {
	if len(s) == 10 && strings.ContainsRune("-dlcbps", rune(s[0])) {
		s = s[1:]
	}
	if len(s) != 9 {
		return 0, false
	}
	var m uint32
	for i := 0; i < 9; i++ {
		bit := uint32(1) << (8 - i)
		c := s[i]
		switch i % 3 {
		case 0:
			if c == 'r' {
				m |= bit
			} else if c != '-' {
				return 0, false
			}
		case 1:
			if c == 'w' {
				m |= bit
			} else if c != '-' {
				return 0, false
			}
		case 2:
			special := map[int]uint32{2: 04000, 5: 02000, 8: 01000}[i]
			set, x := byte('s'), byte('S')
			if i == 8 {
				set, x = 't', 'T'
			}
			switch c {
			case 'x':
				m |= bit
			case set:
				m |= bit | special
			case x:
				m |= special
			case '-':
			default:
				return 0, false
			}
		}
	}
	return m, true
}
