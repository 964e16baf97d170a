package record

import (
	"strings"
	"testing"
)

// TestUnparsedLinesSayTheySaid: the ledger's words for lines a parse could
// not read are English in the plural too: "could not read them, so no
// value holds what they said". Before, they said "what them said" (free
// -b under parse: columns, whose header names one column fewer).
func TestUnparsedLinesSayTheySaid(t *testing.T) {
	t.Parallel()
	for count, want := range map[int]string{
		1: "parse: columns could not read it, so no value holds what it said; the first: line 2: x",
		2: "parse: columns could not read them, so no value holds what they said; the first: line 2: x",
	} {
		counted := map[int]string{1: "1 line", 2: "2 lines"}[count]
		e := UnparsedEntry("free", "its output", "columns", counted, count == 1, "line 2: x")
		if got := e.NotChecked[0].Why; got != want {
			t.Errorf("%d lines: %q, want %q", count, got, want)
		}
		if strings.Contains(e.NotChecked[0].Why, "them said") {
			t.Errorf("%d lines: %q", count, e.NotChecked[0].Why)
		}
	}
}
