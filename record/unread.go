package record

import (
	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemUnreadDeclaration is the kind of the not-checked item filed for a
// stage whose result declared its coverage in a form the coverage stage
// could not read (coverage.Read's warnings: a not_checked that is not a
// list, an absence whose checked item has no what). The part is left off
// the record, never repaired, so what the stage declared there — ground it
// did not cover, or an absence — is on no record, and the standing cannot
// be Known or Consistent over it.
const ItemUnreadDeclaration = "unread-declaration"

// UnreadDeclarationEntry is the ledger's entry for one coverage warning,
// filed under the stage's path: part is where in the value (as
// coverage.Warning.Part writes it, "af_coverage.not_checked"), problem
// why it could not be read. problem must be masked already.
func UnreadDeclarationEntry(path, part, problem string) coverage.Entry {
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{
			What: "what it declared at " + part,
			Why:  problem,
			Kind: ItemUnreadDeclaration,
		}},
	}}
}
