package record

import (
	"fmt"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemUnparsed is the kind of the not-checked item filed for a stage whose
// parse: mode could not read every line of its text (internal/parse's
// problems): what those lines said is in no value the chart decided on, so
// the answer does not cover them, and the assessment reads the item as a
// coverage gap — the standing cannot be Known over lines nobody read.
const ItemUnparsed = "unparsed"

// UnparsedEntry is the ledger's entry for the lines one parse could not
// read: filed under the stage's path, counting them (counted, "2 lines",
// parse.Counted; one says it is one), with the first (and why) as the
// parser said it. of names the text ("its output", "the file /etc/x");
// mode is the parse mode. first must be masked already.
func UnparsedEntry(path, of, mode, counted string, one bool, first string) coverage.Entry {
	what := counted + " of " + of
	them, they := "them", "they"
	if one {
		them, they = "it", "it"
	}
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{
			What: what,
			Why:  fmt.Sprintf("parse: %s could not read %s, so no value holds what %s said; the first: %s", mode, them, they, first),
			Kind: ItemUnparsed,
		}},
	}}
}

// ItemWithheld is the kind of the not-checked item filed for a stage whose
// text (a command's output, a file) passed the output cap and was withheld
// from the scope: no value holds what it said, so a chart's nil-safe
// reading of it (`out.stdout ?? []`) is of nothing, and the standing
// cannot be Known or Consistent over it.
const ItemWithheld = "withheld"

// WithheldEntry is the ledger's entry for a text past the output cap of
// limit bytes, filed under the stage's path; of names the text ("its
// output", "the file /var/log/big.log"), raise the key that lifts the
// cap (an exec's maxOutput:, a read's maxSize:), which the item names:
// it said only that the text was withheld, and where the fix is was the
// reader's to find (wave-logs).
func WithheldEntry(path, of string, limit int, raise string) coverage.Entry {
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{
			What: of,
			Why:  fmt.Sprintf("it passed the %d-byte cap and was withheld from the scope, so no value holds what it said; raise the cap with %s (up to 1GiB), or have it give less", limit, raise),
			Kind: ItemWithheld,
		}},
	}}
}
