package rules

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"

	"github.com/openrunbook/runbook/internal/suggest"
)

// A member a builtin's predicate reads from its item (`.tme` in
// filter(sar.stdout, .tme == "Average:")) that no item of the list has,
// while the items have one a typo away (time), is an error that names
// both: expr reads a member a map lacks as null, so the filter kept
// nothing, the chart said "no NICs" and its answer check stood Known over
// a table nobody read. A `when:` rule's fixed paths are judged by
// absentMember; a predicate's members are judged over the whole list,
// since one item lacking a member is how JSON says an optional field is
// unset (`.status.reason` of a pod that was not evicted), and a member
// with no near name in the items is not taken for a typo either, save
// over a table's rows (two or more items with the same members: csv's,
// columns'), where a member none has is no column of it. A read
// written to allow absence (`#?.x`, `.x ?? d`, `.x == nil`: the
// collector's guard, as for a when: rule's paths) is not judged, nor are
// the reserved af_ members.
//
// patchMember wraps the list of every builtin whose predicate reads such
// members into a call of itemsFunc, which hands the list on or says which
// member no item has.
const itemsFunc = "\x00items"

// itemsFuncs is the function patchMember calls, as Compile's expr option.
func itemsFuncs() []expr.Option {
	return []expr.Option{expr.Function(itemsFunc, func(p ...any) (any, error) { return judgedItems(p[0], p[1], p[2]) })}
}

// judgedItems is list, unless one of members is a member no item of the
// list has and the items have a near one (suggest.Nearest); text is the
// call as written.
func judgedItems(list, members, text any) (any, error) {
	items, ok := list.([]any)
	names, _ := members.([]any)
	if !ok || len(items) == 0 {
		return list, nil
	}
	for _, n := range names {
		name, _ := n.(string)
		near, keys, table := missedMember(items, name)
		if near != "" && strings.EqualFold(near, name) {
			// no escape for a misspelling (memberInOtherCase)
			return nil, fmt.Errorf("%s: no item of the list has a member %q; did you mean %q? (their members: %s)",
				text, name, near, strings.Join(keys, ", "))
		}
		if near != "" {
			return nil, fmt.Errorf("%s: no item of the list has a member %q; did you mean %q? (their members: %s); if it may be absent from every item, write #?.%s or (.%s ?? a default)",
				text, name, near, strings.Join(keys, ", "), name, name)
		}
		if table {
			return nil, fmt.Errorf("%s: no item of the list has a member %q, and every item has the same members, as a table's rows have its columns (%s): %q is no column of it, and read as null it would judge every row alike; name a column the table has (another version of the tool may print other columns), or if it may be absent, write #?.%s or (.%s ?? a default)",
				text, name, strings.Join(keys, ", "), name, name, name)
		}
	}
	return list, nil
}

// missedMember is the member nearest to name that the items have, when
// every item is an object and none has name; "" otherwise. table says
// whether, none having name, the items are a table's rows: two or more,
// each with the same two or more members (csv's, tsv's and columns'
// rows have every column of the header). A JSON field left out where it
// is unset is missing from some items, or from items whose members
// differ; a member missing from every row of a table is no field of it
// (HAProxy's show stat has weight and uweight; show servers state's
// srv_uweight read over it was null in every row, and filter(stat.stdout,
// .srv_uweight == 0) found no server set to weight 0, Consistent).
func missedMember(items []any, name string) (near string, keys []string, table bool) {
	seen := map[string]bool{}
	table = len(items) >= 2
	first := -1
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return "", nil, false
		}
		if _, has := m[name]; has {
			return "", nil, false
		}
		if first < 0 {
			first = len(m)
		}
		if len(m) != first || first < 2 {
			table = false
		}
		for k := range m {
			seen[k] = true
		}
	}
	if len(seen) != first {
		table = false // same count, other members
	}
	keys = slices.Sorted(maps.Keys(seen))
	near = suggest.Nearest(name, keys)
	if len(keys) > maxMembersNamed {
		keys = append(keys[:maxMembersNamed:maxMembersNamed], fmt.Sprintf("and %d more", len(seen)-maxMembersNamed))
	}
	return near, keys, table
}

// patchMember rewrites the list argument of each builtin whose predicate
// reads members from its item into a call of itemsFunc naming them. The
// members are the collector's (builtinCall.items, by the builtin's
// position in the source): which reads allow absence is its judgement,
// as for a when: rule's paths.
type patchMember struct{ calls map[int]builtinCall }

func (p patchMember) Visit(node *ast.Node) {
	n, ok := (*node).(*ast.BuiltinNode)
	if !ok || len(n.Arguments) < 2 {
		return
	}
	names := p.calls[n.Location().From].items
	if len(names) == 0 {
		return
	}
	list := make([]ast.Node, len(names))
	for i, name := range names {
		list[i] = &ast.StringNode{Value: name}
	}
	n.Arguments[0] = &ast.CallNode{
		Callee:    &ast.IdentifierNode{Value: itemsFunc},
		Arguments: []ast.Node{n.Arguments[0], &ast.ArrayNode{Nodes: list}, &ast.StringNode{Value: textOf(p.calls, n)}},
	}
}
