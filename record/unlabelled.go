package record

import (
	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemUnlabelled is the kind of the not-checked item filed for a code call
// (a command, a plugin that runs code) made while the chart turns the label
// honesty stage off: no script row is filed, so whether the call answered —
// ran and exited, or was never started, killed, timed out — is on no
// record, and the standing cannot be Known or Consistent over what it
// printed, as a Nagios check of it is no better than UNKNOWN (gate's
// Check.Unlabelled).
const ItemUnlabelled = "unlabelled"

// UnlabelledEntry is the ledger's entry for one code call at path whose
// script row the label honesty stage being off left unfiled.
func UnlabelledEntry(path string) coverage.Entry {
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{
			What: "how the code it ran ended",
			Why:  "the chart's honesty: leaves out the label stage, so no script row holds it",
			Kind: ItemUnlabelled,
		}},
	}}
}
