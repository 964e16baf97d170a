package record

import (
	"fmt"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemFailed is the kind of the not-checked item the record adds for a
// stage that failed under `onError: continue` (honesty.md §6): what that
// stage would have given is not in the answer, so the answer does not
// cover it, and the assessment reads the item as a coverage gap.
const ItemFailed = "failed"

// continuedEntry is the ledger's entry for one failure the run went on
// past: filed under the failed stage's path, naming the stage and the
// error (masked), and where inside it the failure happened when that is a
// stage of one of its branches.
//
// The error is given by its Headline: the item's words are read into the
// standing line. The whole error is on the record, in the stage's
// `into.error`.
func continuedEntry(c flow.Continued, m Masker) coverage.Entry {
	msg, more := Headline(m.Text(c.Message))
	if more {
		msg += " (its first line; the whole error is the stage's into.error)"
	}
	why := "it failed, and onError: continue let the run go on: " + msg
	if at := Path(c.At); at != Path(c.Path) {
		why = fmt.Sprintf("it failed at %s, and onError: continue let the run go on: %s", at, msg)
	}
	return coverage.Entry{Path: c.Path, Declaration: coverage.Declaration{
		Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{
			What: "its result",
			Why:  why,
			Kind: ItemFailed,
		}},
	}}
}
