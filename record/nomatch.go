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

// NoFileEntry is the ledger's entry for a read: path whose file does not
// exist: an absence (it looked, and found none), filed under the stage's
// path, as NoMatchEntry is for a glob. The scope still gets exists: false
// and content null; as an absence the standing says so, since a chart's
// nil-safe reading of it (`log.content ?? []`) is of nothing, and a
// misspelled path must not read as a log with no errors in it. file is the
// path as the stage evaluated it, masked.
func NoFileEntry(path, file string) coverage.Entry {
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind:      coverage.KindAbsence,
		LookedFor: "the file " + strconv.Quote(file),
		Checked:   []coverage.Item{{What: "the file system, for " + strconv.Quote(file)}},
	}}
}
