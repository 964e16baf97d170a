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
// with no near name in the items is not taken for a typo either. A member
// written `#?.x`, or left of `??`, is the author's word that it may be
// absent; reserved af_ members are never judged.
//
// patchMember wraps the list of every builtin with a predicate into a
// call of itemsFunc, which hands the list on or says which member no item
// has.
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
		if near, keys := missedMember(items, name); near != "" {
			return nil, fmt.Errorf("%s: no item of the list has a member %q; did you mean %q? (their members: %s); if it may be absent from every item, write #?.%s or (.%s ?? a default)",
				text, name, near, strings.Join(keys, ", "), name, name)
		}
	}
	return list, nil
}

// missedMember is the member nearest to name that the items have, when
// every item is an object and none has name; "" otherwise.
func missedMember(items []any, name string) (near string, keys []string) {
	seen := map[string]bool{}
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return "", nil
		}
		if _, has := m[name]; has {
			return "", nil
		}
		for k := range m {
			seen[k] = true
		}
	}
	keys = slices.Sorted(maps.Keys(seen))
	near = suggest.Nearest(name, keys)
	if len(keys) > maxMembersNamed {
		keys = append(keys[:maxMembersNamed:maxMembersNamed], fmt.Sprintf("and %d more", len(seen)-maxMembersNamed))
	}
	return near, keys
}

// patchMember rewrites the list argument of each builtin with a predicate
// into a call of itemsFunc, naming the members the predicate reads from
// its item.
type patchMember struct{}

func (patchMember) Visit(node *ast.Node) {
	n, ok := (*node).(*ast.BuiltinNode)
	if !ok || len(n.Arguments) < 2 {
		return
	}
	p, ok := n.Arguments[1].(*ast.PredicateNode)
	if !ok {
		return
	}
	var names []ast.Node
	seen := map[string]bool{}
	itemMembers(p.Node, false, func(name string) {
		if !seen[name] && !strings.HasPrefix(name, reservedPrefix) {
			seen[name] = true
			names = append(names, &ast.StringNode{Value: name})
		}
	})
	if len(names) == 0 {
		return
	}
	n.Arguments[0] = &ast.CallNode{
		Callee:    &ast.IdentifierNode{Value: itemsFunc},
		Arguments: []ast.Node{n.Arguments[0], &ast.ArrayNode{Nodes: names}, &ast.StringNode{Value: n.String()}},
	}
}

// itemMembers calls found with each member read straight from the item
// (`.x`, `#.x`) in a predicate's body, save one written `#?.x` or inside
// the left of `??`; a nested predicate's item is its own list's.
func itemMembers(n ast.Node, guarded bool, found func(string)) {
	switch x := n.(type) {
	case nil:
	case *ast.PredicateNode:
		// another builtin's item: judged at that builtin
	case *ast.MemberNode:
		if ptr, ok := x.Node.(*ast.PointerNode); ok && ptr.Name == "" {
			if s, ok := x.Property.(*ast.StringNode); ok && !x.Optional && !x.Method && !guarded {
				found(s.Value)
			}
			return
		}
		itemMembers(x.Node, guarded, found)
		itemMembers(x.Property, guarded, found)
	case *ast.BinaryNode:
		itemMembers(x.Left, guarded || x.Operator == "??", found)
		itemMembers(x.Right, guarded, found)
	case *ast.UnaryNode:
		itemMembers(x.Node, guarded, found)
	case *ast.ChainNode:
		itemMembers(x.Node, guarded, found)
	case *ast.ConditionalNode:
		itemMembers(x.Cond, guarded, found)
		itemMembers(x.Exp1, guarded, found)
		itemMembers(x.Exp2, guarded, found)
	case *ast.CallNode:
		itemMembers(x.Callee, guarded, found)
		for _, a := range x.Arguments {
			itemMembers(a, guarded, found)
		}
	case *ast.BuiltinNode:
		for _, a := range x.Arguments {
			itemMembers(a, guarded, found)
		}
	case *ast.SliceNode:
		itemMembers(x.Node, guarded, found)
		itemMembers(x.From, guarded, found)
		itemMembers(x.To, guarded, found)
	case *ast.ArrayNode:
		for _, e := range x.Nodes {
			itemMembers(e, guarded, found)
		}
	case *ast.MapNode:
		for _, e := range x.Pairs {
			itemMembers(e, guarded, found)
		}
	case *ast.PairNode:
		itemMembers(x.Key, guarded, found)
		itemMembers(x.Value, guarded, found)
	case *ast.SequenceNode:
		for _, e := range x.Nodes {
			itemMembers(e, guarded, found)
		}
	case *ast.VariableDeclaratorNode:
		itemMembers(x.Value, guarded, found)
		itemMembers(x.Expr, guarded, found)
	}
}
