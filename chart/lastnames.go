package chart

import (
	"path/filepath"
	"strings"
)

// LastCutsNames is the note for an exec stage that runs last or lastb
// without -w (--fullnames), "" otherwise: they print a user name cut at 8
// characters and a host at 16, with nothing to mark the cut, so the
// failed logins of administrator and administrative were both
// administ's, and those of 2001:db8:85a3::8a2e:370:7334 and of
// …:370:9999 one 2001:db8:85a3::8's: a chart watching administrator
// found no failure of it, ok, Consistent (wave-f2b).
//
//	[lastb, -s, -1hour]                       noted
//	shell: lastb | awk '{print $1}' | uniq -c  noted
//	[lastb, -w, --time-format, iso]           not noted
func (e *ExecSpec) LastCutsNames() string {
	if e == nil {
		return ""
	}
	tool := ""
	e.noteOfEachCommand(func(argv []string) string {
		if len(argv) == 0 {
			return ""
		}
		name := filepath.Base(argv[0])
		if name != "last" && name != "lastb" {
			return ""
		}
		for _, a := range argv[1:] {
			if a == "--fullnames" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'w') && onlyLetters(a[1:]) {
				return ""
			}
		}
		tool = name
		return name
	})
	if tool == "" {
		return ""
	}
	return tool + " without -w (--fullnames) prints a user name cut at 8 characters and a host at 16, with nothing to mark the cut: administrator and administrative are both administ, and two IPv6 addresses that begin alike one 2001:db8:85a3::8, so a row per user or per address may stand for several and a name looked for is not found; give it -w"
}
