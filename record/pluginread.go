package record

import (
	"fmt"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemPluginReadAbsent is the kind of the not-checked item filed for a
// plugin stage whose plugin declares it reads a scope key (its
// Description's Reads) that the scope did not hold when it was called: the
// call went out without it, and what the plugin answered rests on a value
// it was never given. A plugin that counts the hosts it reads from
// `hosts`, in a chart that names the list `host`, answered `{count: 0}`;
// the chart said "empty", Consistent, over a fleet the plugin never saw
// (TestPluginReadOfAKeyTheScopeLacksIsNotSure). The standing cannot be
// Consistent over it, and a Nagios check is no better than UNKNOWN, until
// the chart writes the key before the stage (or the plugin takes it as an
// argument with a default, which the record names as assumed).
const ItemPluginReadAbsent = "plugin-read-absent"

// PluginReadAbsentEntry is the ledger's entry for the plugin stage at
// path whose plugin declares it reads key, which the scope lacked.
func PluginReadAbsentEntry(path, plugin, key string) coverage.Entry {
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{
			What: fmt.Sprintf("what plugin %q answered", plugin),
			Why:  fmt.Sprintf("it declares it reads %s from the scope, and the scope held no %s when the stage called it, so the plugin answered without it; write %s before this stage (an input, a set:, a stage's into)", key, key, key),
			Kind: ItemPluginReadAbsent,
		}},
	}}
}
