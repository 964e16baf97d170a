package record

import (
	"strconv"
	"strings"

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
		LookedFor: lookedForFiles + strconv.Quote(pattern),
		Checked:   []coverage.Item{{What: searchedFileSystem + strconv.Quote(pattern)}},
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
		LookedFor: lookedForFile + strconv.Quote(file),
		Checked:   []coverage.Item{{What: searchedFileSystem + strconv.Quote(file)}},
	}}
}

// The words of a read: that found no file, which FoundNoFile reads back.
const (
	lookedForFiles     = "files matching "
	lookedForFile      = "the file "
	searchedFileSystem = "the file system, for "
)

// FoundNoFile says whether e is the ledger's entry of a read: stage that
// found no file (NoMatchEntry, NoFileEntry), and what it looked for (`files
// matching "/var/lgo/*.log"`). What the rows say over it (a glob's [] is
// every subject a foreach judges; `content ?? []` is a log with no lines)
// is said of nothing, so a check's state is no better than UNKNOWN over
// one (gate.Judge), as the standing is Not sure. Read from the entry's
// words, so a record read back from JSON says the same; a script that
// declares an absence in these words is judged as one.
func FoundNoFile(e coverage.Entry) (string, bool) {
	d := e.Declaration
	if d.Kind != coverage.KindAbsence || len(d.Checked) != 1 || len(d.NotChecked)+len(d.CannotCover) > 0 {
		return "", false
	}
	for _, prefix := range []string{lookedForFiles, lookedForFile} {
		if q, ok := strings.CutPrefix(d.LookedFor, prefix); ok && d.Checked[0].What == searchedFileSystem+q {
			return d.LookedFor, true
		}
	}
	return "", false
}
