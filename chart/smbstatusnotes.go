package chart

import (
	"path/filepath"
	"strings"
)

// SmbstatusTable is the note for an exec stage that runs smbstatus
// without --json (-j), "" otherwise: its tables are words and dates
// separated by spaces, and a share's path, a file's name, a group's name
// (`domain users`) and the time (`Mon Dec  7 18:33:20 2026`) hold spaces
// too, with nothing to say where one column ends. smbstatus -L pads no
// column, so a file held open in `/srv/samba/share two` was read under
// `{as: columns, last: rest}` as SharePath `/srv/samba/share`, Name
// `two` and Time `a b.txt   Mon Dec  7 18:33:20 2026`, with no problem
// said, and a chart of stale locks judged a file nobody named, Consistent
// (testdata/wave-samba/locks). --json (Samba 4.16 on) writes each value
// whole.
//
//	[smbstatus, -L]                      noted
//	shell: smbstatus -b | tail -n +5     noted
//	[smbstatus, -L, --json]              not noted
//	[smbstatus, -V]                      not noted
func (e *ExecSpec) SmbstatusTable() string {
	return e.noteOfEachCommand(func(argv []string) string {
		if len(argv) == 0 || filepath.Base(argv[0]) != "smbstatus" {
			return ""
		}
		for _, a := range argv[1:] {
			if a == "--json" || a == "-V" || a == "--version" || a == "--help" || a == "-?" ||
				len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'j') && onlyLetters(a[1:]) {
				return ""
			}
		}
		return "smbstatus prints its tables as words separated by spaces, and a share's path, a file's name, a group's name and its dates hold spaces too, with nothing to say where a column ends (-L pads none): a file open in \"share two\" was read as the path \".../share\" and the name \"two\", with no problem said; give it --json (Samba 4.16 on), which writes each value whole (open_files, sessions, tcons)"
	})
}
