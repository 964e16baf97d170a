package rules

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
)

// `sort` and `sortBy` in an expression order their keys as `<` does
// (judgedOrder): keys that are numbers, times or durations written as
// text are an error, by textOrder's reason, not an order by character.
// expr's own sortBy ordered df's capacities "100%" before "90%", and a
// chart taking last(sortBy(fs, .use)) as the fullest file system named
// the emptier one, with nothing to say so. Any other keys order as expr
// orders them, errors and all; keys that tie keep the order they had
// (expr's sort did not promise that).
//
// patchSort rewrites `sortBy(a, key, order)` into a call of sortFunc over
// map(a, [#, key]) — each item with its key, the key evaluated once — and
// `sort(a, order)` into one over map(a, [#, #]).
const sortFunc = "\x00sort"

// sortFuncs is the function patchSort calls, as Compile's expr option,
// typed as giving a list so an enclosing expression keeps its types.
func sortFuncs() []expr.Option {
	return []expr.Option{expr.Function(sortFunc, func(p ...any) (any, error) { return judgedSort(p[0], p[1], p[2]) },
		new(func([]any, string, string) []any))}
}

// judgedSort orders pairs ([item, key] each) by key, ascending or
// descending as order says; text is the call as written, for the error.
func judgedSort(pairs, order, text any) (any, error) {
	ps, _ := pairs.([]any)
	var desc bool
	switch order {
	case "asc":
	case "desc":
		desc = true
	default:
		return nil, fmt.Errorf("%s: unknown order %v: use \"asc\" or \"desc\"", text, order)
	}
	keys := make([]any, len(ps))
	items := make([]any, len(ps))
	for i, p := range ps {
		kv, _ := p.([]any)
		if len(kv) != 2 {
			return nil, errors.New("sort: an item without its key") // patchSort makes every pair
		}
		items[i], keys[i] = kv[0], kv[1]
	}
	if reason := textKeys(keys); reason != "" {
		return nil, fmt.Errorf("%s: %s", text, reason)
	}
	idx := make([]int, len(ps))
	for i := range idx {
		idx[i] = i
	}
	// the rules' own order (compare): a whole number past int64's range,
	// which a comparison orders exactly, was refused here as no number
	// (TestSortOrdersWideNumbersAsComparisonsDo)
	why := ""
	sort.SliceStable(idx, func(i, j int) bool {
		a, b := keys[idx[i]], keys[idx[j]]
		if desc {
			a, b = b, a
		}
		c, reason := compare(a, b)
		if reason == "" {
			return c < 0
		}
		if ta, ok := a.(time.Time); ok {
			if tb, ok := b.(time.Time); ok {
				return ta.Before(tb) // date()'s, which the rules order by < and >
			}
		}
		if why == "" {
			why = reason
		}
		return false
	})
	if why != "" {
		return nil, fmt.Errorf("%s: %s", text, why)
	}
	out := make([]any, len(idx))
	for i, k := range idx {
		out[i] = items[k]
	}
	return out, nil
}

// textKeys is textOrder's reason for the first two string keys it would
// refuse to order: sorting compares keys in an order no one chose, so
// every pair that a comparison could meet is judged, not only those the
// sort happened to compare.
func textKeys(keys []any) string {
	var seen [4]string // the first key of each kind textOrder refuses: numeral, time, duration, date
	var have [4]bool
	var versions []keyVersion // versions disagree pair by pair: judged after, in version order
	for _, k := range keys {
		s, ok := k.(string)
		if !ok {
			continue
		}
		kind := -1
		switch {
		case numeral(s), grouped.MatchString(s):
			kind = 0
		case timeText(s):
			kind = 1
		case durationText(s):
			kind = 2
		case dateOf(s).ok:
			kind = 3
		}
		if kind < 0 {
			if v, ok := versionOf(s); ok {
				versions = append(versions, keyVersion{s, v})
			}
			continue
		}
		if have[kind] {
			if _, reason := textOrder(seen[kind], s); reason != "" {
				return reason
			}
			continue
		}
		seen[kind], have[kind] = s, true
	}
	// Two orders agree on every pair when they agree on each neighbour of
	// one of them, so the versions are put in dpkg's order and each pair
	// of neighbours asked: no pair of n keys goes unjudged, in n log n.
	slices.SortStableFunc(versions, func(a, b keyVersion) int { return versionCompare(a.v, b.v) })
	for i := 1; i < len(versions); i++ {
		if reason := versionsReason(versions[i-1].text, versions[i].text); reason != "" {
			return reason
		}
	}
	return ""
}

// keyVersion is a sort key that is a version: its text and its parts.
type keyVersion struct {
	text string
	v    debVersion
}

// patchSort rewrites sortBy and sort into calls of sortFunc. The map it
// makes of the items takes the call's place in the source, so patchMember,
// after it, judges the key's members as the call's.
type patchSort struct{ calls map[int]builtinCall }

func (p patchSort) Visit(node *ast.Node) {
	n, ok := (*node).(*ast.BuiltinNode)
	if !ok || (n.Name != "sortBy" && n.Name != "sort") || len(n.Arguments) == 0 {
		return
	}
	var key ast.Node = &ast.PointerNode{}
	rest := n.Arguments[1:]
	if n.Name == "sortBy" {
		if len(rest) == 0 {
			return // expr's checker says what is missing
		}
		p, ok := rest[0].(*ast.PredicateNode)
		if !ok {
			return
		}
		key, rest = p.Node, rest[1:]
	}
	var order ast.Node = &ast.StringNode{Value: "asc"}
	if len(rest) > 0 {
		order = rest[0]
	}
	pairs := &ast.BuiltinNode{Name: "map", Arguments: []ast.Node{n.Arguments[0],
		&ast.PredicateNode{Node: &ast.ArrayNode{Nodes: []ast.Node{&ast.PointerNode{}, key}}}}}
	pairs.SetLocation(n.Location())
	ast.Patch(node, &ast.CallNode{
		Callee:    &ast.IdentifierNode{Value: sortFunc},
		Arguments: []ast.Node{pairs, order, &ast.StringNode{Value: textOf(p.calls, n)}},
	})
}
