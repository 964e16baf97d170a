package record

import (
	"strconv"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// NoMatchEntry is the ledger's entry for a read: glob that matched no file:
// an absence (it looked, and found none), filed under the stage's path. An
// empty list is every subject a foreach over it judges, so a misspelled
// pattern would otherwise read as a host with nothing wrong; as an absence
// the standing says so (declared-absent) and cannot be Consistent or Known
// over it. pattern is the glob as the stage evaluated it, masked (a
// pattern built from a secret input holds the secret).
func NoMatchEntry(path, pattern string) coverage.Entry {
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind:      coverage.KindAbsence,
		LookedFor: "files matching " + strconv.Quote(pattern),
		Checked:   []coverage.Item{{What: "the file system, for " + strconv.Quote(pattern)}},
	}}
}
