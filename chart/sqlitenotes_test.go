package chart

import "testing"

// TestSQLiteOpeningWithoutReadonlyIsNoted: sqlite3 made the database a
// misspelt path named, empty, and `PRAGMA integrity_check` over it printed
// ok, exit 0: a list of databases whose second did not exist said ok for
// both. An sqlite3 that may create its database is noted; one given
// -readonly, a URI that will not create, or no database is not.
func TestSQLiteOpeningWithoutReadonlyIsNoted(t *testing.T) {
	for _, tc := range []struct {
		e    ExecSpec
		want bool
	}{
		{ExecSpec{Command: []string{"sqlite3", "/var/lib/app/app.db", "PRAGMA integrity_check"}}, true},
		{ExecSpec{Command: []string{"/usr/bin/sqlite3", "-json", "-cmd", ".timeout 500", "app.db", "select 1"}}, true},
		{ExecSpec{Shell: `sqlite3 "$DB" 'PRAGMA quick_check' | head -n 5`}, true},
		{ExecSpec{Command: []string{"sqlite3", "-readonly", "app.db", "PRAGMA integrity_check"}}, false},
		{ExecSpec{Command: []string{"sqlite3", "--readonly", "app.db", ".tables"}}, false},
		{ExecSpec{Command: []string{"sqlite3", "file:/var/lib/app/app.db?mode=ro", "select 1"}}, false},
		{ExecSpec{Command: []string{"sqlite3", "file:app.db?mode=rwc", "select 1"}}, true},
		{ExecSpec{Command: []string{"sqlite3", "-cmd", "app.db"}}, false}, // -cmd's value, no database
		{ExecSpec{Command: []string{"sqlite3", "-version"}}, false},
		{ExecSpec{Command: []string{"sqlite3", ":memory:", "select 1"}}, false},
		{ExecSpec{Command: []string{"psql", "-c", "select 1"}}, false},
	} {
		if got := tc.e.SQLiteMakesMissingDatabase() != ""; got != tc.want {
			t.Errorf("%v %q: noted %v, want %v", tc.e.Command, tc.e.Shell, got, tc.want)
		}
	}
}
