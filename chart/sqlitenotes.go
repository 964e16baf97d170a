package chart

import (
	"path/filepath"
	"strings"
)

// sqliteValued are the sqlite3 options that take the next argument as
// their value, so that it is not read as the database's name.
var sqliteValued = map[string]bool{"cmd": true, "init": true, "separator": true, "newline": true, "nullvalue": true, "maxsize": true, "mmap": true, "lookaside": true, "pagecache": true, "heap": true, "vfs": true, "escape": true}

// SQLiteMakesMissingDatabase notes sqlite3 opening a database without
// -readonly: a file that is not there it makes, a new empty database, so
// a misspelt or missing path is checked as that — `PRAGMA
// integrity_check` printed ok with exit 0 over /tmp/sq/sessons.db, which
// did not exist, and left an empty file by its name (sqlite3 3.40.1;
// TestSQLiteOpeningWithoutReadonlyIsNoted). With -readonly, or a
// file:PATH?mode=ro (or mode=rw) URI, a missing file is `unable to open
// database`, exit 1. "" for none.
func (e *ExecSpec) SQLiteMakesMissingDatabase() string {
	return e.noteOfEachCommand(func(argv []string) string {
		if filepath.Base(argv[0]) != "sqlite3" {
			return ""
		}
		for i := 1; i < len(argv); i++ {
			a := argv[i]
			if opt, isOpt := strings.CutPrefix(a, "-"); isOpt && a != "-" {
				opt = strings.TrimPrefix(opt, "-")
				switch {
				case opt == "readonly":
					return ""
				case opt == "version" || opt == "help":
					return ""
				case sqliteValued[opt]:
					i++
				}
				continue
			}
			// the database's name: a URI that will not create it, or
			// the in-memory database, is fine
			if a == ":memory:" || strings.HasPrefix(a, "file:") && (strings.Contains(a, "mode=ro") || strings.Contains(a, "mode=rw") && !strings.Contains(a, "mode=rwc") || strings.Contains(a, "mode=memory")) {
				return ""
			}
			return "it runs sqlite3 without -readonly, and sqlite3 opens a database file that is not there by making a new, empty one: a misspelt or missing path is checked as that empty database (PRAGMA integrity_check prints ok, exit 0, and sqlite_master lists no table) and the empty file is left behind; give -readonly (or open it as file:PATH?mode=ro), and a missing file is an error: unable to open database, exit 1"
		}
		return "" // no database named: sqlite3 reads its standard input
	})
}
