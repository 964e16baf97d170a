package record

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemNoRow is the ledger item kind of a foreach's items that ran, did not
// fail, and wrote no verdict row where the foreach's other items did.
const ItemNoRow = "no-row"

// noRowEntries are the ledger's entries for foreach items that wrote no
// verdict row (key) while items of the same foreach execution did: a
// select no rule matched, or a branch with no verdict stage, leaves its
// subject out of the table, and nothing else says so — the table of the
// others reads as the whole answer. An item that failed is the failure's
// (ItemFailed), an item never run the cut's (ItemTruncated). A foreach
// none of whose items wrote a row is left alone: its rows were not
// subjects' (a foreach that gathers facts), or the table says it is empty.
//
// A foreach execution's join commit gathers its items' rows (the write of
// key naming the branch commits in From); its items' commits are the ones
// just before it in the log, in the item's scope below the join's.
func noRowEntries(l *flow.Log, key string) []coverage.Entry {
	var out []coverage.Entry
	for j := range l.Commits {
		join := &l.Commits[j]
		gathered := gatheredFrom(join, key)
		if len(gathered) == 0 {
			continue
		}
		wrote := map[int]bool{}
		for _, from := range gathered {
			if pos, err := flow.ParsePath(from); err == nil {
				if k, ok := flow.ItemStep(pos.Scope, join.Scope, join.Stage); ok {
					wrote[k] = true
				}
			}
		}
		if len(wrote) == 0 {
			continue
		}
		ran, failed := map[int]bool{}, map[int]bool{}
		for i := j - 1; i >= 0; i-- {
			c := &l.Commits[i]
			k, ok := flow.ItemStep(c.Scope, join.Scope, join.Stage)
			if !ok {
				break
			}
			ran[k] = true
			failed[k] = failed[k] || c.Err != ""
		}
		var none []int
		for k := range ran {
			if !wrote[k] && !failed[k] {
				none = append(none, k)
			}
		}
		if len(none) == 0 {
			continue
		}
		slices.Sort(none)
		out = append(out, coverage.Entry{Path: join.Path, Declaration: coverage.Declaration{
			Kind:       coverage.KindLedger,
			NotChecked: []coverage.Item{noRowItem(join.Stage, none, len(ran))},
		}})
	}
	return out
}

// gatheredFrom is the branch commits a join gathered key's rows from (nil
// when the commit gathered none).
func gatheredFrom(c *flow.Commit, key string) []string {
	for i := range c.Writes {
		if w := &c.Writes[i]; w.Key == key {
			return w.From
		}
	}
	return nil
}

// noRowItem names the items of foreach id that wrote no row, of ran.
func noRowItem(id string, items []int, ran int) coverage.Item {
	names := make([]string, len(items))
	for i, k := range items {
		names[i] = id + "~" + strconv.Itoa(k)
	}
	what := fmt.Sprintf("%d of its %d items (%s)", len(items), ran, strings.Join(names, ", "))
	why := "they ran and wrote no verdict row where the others did — a select no rule matched, or a branch with no verdict stage — so the table says nothing of them"
	if len(items) == 1 {
		why = "it ran and wrote no verdict row where the others did — a select no rule matched, or a branch with no verdict stage — so the table says nothing of it"
	}
	return coverage.Item{What: what, Why: why, Kind: ItemNoRow}
}
