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
// fail, and wrote no verdict row: where the foreach's other items did, or
// where none did though its body has a verdict stage.
const ItemNoRow = "no-row"

// VerdictType is the structure type (flow.NodeInfo.Type) of a stage that
// appends a verdict row: a chart.yaml `verdict:` stage is built with it
// (its kind is its type), and a Go chart's stage that appends rows says
// so with flow.Type(record.VerdictType). A foreach whose body holds one
// can write rows, so items of it that wrote none left subjects unjudged.
const VerdictType = "verdict"

// maxNamed is how many quiet items a no-row item names; the rest are
// counted.
const maxNamed = 10

// noRowEntries are the ledger's entries for foreach items that ran, did
// not fail and wrote no verdict row (key): a select no rule matched, or a
// branch with no verdict stage, leaves its subject out of the table, and
// nothing else says so. Two cases, one rule — the foreach could have
// written a row for the item and did not:
//
//	some items of the execution wrote rows    the others are named
//	none did, its body has a verdict stage    every item is named (an
//	                                          empty table is no answer)
//	none did, no verdict stage in its body    nothing: it gathers facts
//	it ran no item (an empty list)            nothing: no subject to judge
//
// An item that failed is the failure's (ItemFailed), an item never run
// the cut's (ItemTruncated), a null items list NullItems'. Whether a body
// has a verdict stage is read from st, the chart's static structure (nil:
// only the first case is known).
//
// A foreach execution's join commit gathers its items' rows (the write of
// key naming the branch commits in From); its items' commits are the ones
// just before it in the log, in the item's scope below the join's.
func noRowEntries(l *flow.Log, key string, st *flow.Structure) []coverage.Entry {
	var out []coverage.Entry
	var rows *rowBodies // made at the first foreach that wrote no row
	cs := l.Commits()
	for j := 1; j < len(cs); j++ {
		join := &cs[j]
		if _, ok := flow.ItemStep(cs[j-1].Scope, join.Scope, join.Stage); !ok {
			continue // not a foreach that ran an item
		}
		wrote := map[int]bool{}
		for _, from := range gatheredFrom(join, key) {
			if pos, err := flow.ParsePath(from); err == nil {
				if k, ok := flow.ItemStep(pos.Scope, join.Scope, join.Stage); ok {
					wrote[k] = true
				}
			}
		}
		if len(wrote) == 0 {
			if rows == nil {
				rows = &rowBodies{loc: flow.NewLocator(st), known: map[*flow.NodeInfo]bool{}}
			}
			if !rows.can(join) {
				continue
			}
		}
		ran, failed := map[int]bool{}, map[int]bool{}
		for i := j - 1; i >= 0; i-- {
			c := &cs[i]
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

// rowBodies says which foreach nodes can write a verdict row, each
// foreach's body walked once however many times it ran.
type rowBodies struct {
	loc   *flow.Locator
	known map[*flow.NodeInfo]bool
}

// can says whether the foreach that made commit c has a verdict stage in
// its body (false when the structure does not hold it).
func (r *rowBodies) can(c *flow.Commit) bool {
	n, ok := r.loc.Node(c.Scope, c.Stage)
	if !ok || n.ForEach == nil {
		return false
	}
	can, seen := r.known[n]
	if !seen {
		can = writesRows(n.ForEach.Body.Nodes)
		r.known[n] = can
	}
	return can
}

// writesRows says whether any of nodes, or any node in their branches,
// foreach bodies or mounted subflows, is a verdict stage.
func writesRows(nodes []flow.NodeInfo) bool {
	for i := range nodes {
		n := &nodes[i]
		if n.Type == VerdictType {
			return true
		}
		for _, br := range n.Branches {
			if writesRows(br.Nodes) {
				return true
			}
		}
		if n.ForEach != nil && writesRows(n.ForEach.Body.Nodes) {
			return true
		}
		if n.Subflow != nil && writesRows(n.Subflow.Nodes) {
			return true
		}
	}
	return false
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

// noRowItem names the items of foreach id that wrote no row, of ran: the
// first maxNamed of them, the rest counted.
func noRowItem(id string, items []int, ran int) coverage.Item {
	names := make([]string, 0, min(len(items), maxNamed)+1)
	for _, k := range items[:min(len(items), maxNamed)] {
		names = append(names, id+"~"+strconv.Itoa(k))
	}
	if more := len(items) - maxNamed; more > 0 {
		names = append(names, fmt.Sprintf("and %d more", more))
	}
	list := strings.Join(names, ", ")
	const cause = "a select no rule matched, or a branch with no verdict stage"
	switch {
	case ran == 1 && len(items) == 1:
		return coverage.Item{What: fmt.Sprintf("its 1 item (%s)", list), Kind: ItemNoRow,
			Why: "it ran and wrote no verdict row though the foreach has a verdict stage — " + cause + " — so the table says nothing of it"}
	case len(items) == ran:
		return coverage.Item{What: fmt.Sprintf("all %d of its items (%s)", ran, list), Kind: ItemNoRow,
			Why: "they ran and none wrote a verdict row though the foreach has a verdict stage — " + cause + " — so the table says nothing of them"}
	case len(items) == 1:
		return coverage.Item{What: fmt.Sprintf("1 of its %d items (%s)", ran, list), Kind: ItemNoRow,
			Why: "it ran and wrote no verdict row where the others did — " + cause + " — so the table says nothing of it"}
	}
	return coverage.Item{What: fmt.Sprintf("%d of its %d items (%s)", len(items), ran, list), Kind: ItemNoRow,
		Why: "they ran and wrote no verdict row where the others did — " + cause + " — so the table says nothing of them"}
}
