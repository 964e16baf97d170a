package rules

import (
	"fmt"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
)

// expr-lang v1.17.8 compiles findLast and findLastIndex as a loop run
// backwards whose test of the index leaves a boolean on the value stack at
// every step (expr-lang/expr#950, fixed upstream after the release this
// module uses), and its optimizer turns last(filter(…)) and filter(…)[-1]
// into findLast. Alone such a call gives the right value, but beside
// another the stack is off: `["p", last(filter(xs, # == "a"))]` was
// [true, "a"], the "p" replaced in silence, and a map literal holding one
// failed ("it takes a string there and was given a boolean")
// (TestFindLastKeepsItsNeighbours).
//
// patchLast is the one place that keeps expressions off that loop, run
// after every other patch and before the optimizer:
//
//	findLast(a, p)        last(kept(filter(a, p)))
//	findLastIndex(a, p)   lastTrue(map(a, p))
//	last(filter(a, p))    last(kept(filter(a, p)))   (and last(map(…)))
//	filter(a, p)[-1]      kept(filter(a, p))[-1]
//
// kept gives its list as it is: the optimizer knows no call of it, so it
// makes no findLast of what it wraps. Forward loops (find, findIndex,
// first(filter(…))) are left as they are.
const (
	keptFunc     = "\x00kept"
	lastTrueFunc = "\x00lastTrue"
)

// lastFuncs are the functions patchLast calls, as Compile's expr options.
func lastFuncs() []expr.Option {
	return []expr.Option{
		expr.Function(keptFunc, func(p ...any) (any, error) { return p[0], nil }, new(func([]any) []any)),
		expr.Function(lastTrueFunc, func(p ...any) (any, error) {
			list, _ := p[0].([]any)
			for i := len(list) - 1; i >= 0; i-- {
				b, ok := list[i].(bool)
				if !ok {
					return nil, fmt.Errorf("findLastIndex: its predicate gave %s for item %d, not a boolean", describe(list[i]), i)
				}
				if b {
					return i, nil
				}
			}
			return nil, nil // as findLastIndex gives over no match
		}, new(func([]any) any)),
	}
}

type patchLast struct{}

func (patchLast) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.BuiltinNode:
		switch {
		case n.Name == "findLast" && len(n.Arguments) == 2:
			filter := &ast.BuiltinNode{Name: "filter", Arguments: n.Arguments}
			filter.SetLocation(n.Location())
			last := &ast.BuiltinNode{Name: "last", Arguments: []ast.Node{kept(filter)}}
			last.SetLocation(n.Location())
			ast.Patch(node, last)
		case n.Name == "findLastIndex" && len(n.Arguments) == 2:
			m := &ast.BuiltinNode{Name: "map", Arguments: n.Arguments}
			m.SetLocation(n.Location())
			ast.Patch(node, &ast.CallNode{Callee: &ast.IdentifierNode{Value: lastTrueFunc}, Arguments: []ast.Node{m}})
		case n.Name == "last" && len(n.Arguments) == 1 && loopBuiltin(n.Arguments[0]):
			n.Arguments[0] = kept(n.Arguments[0])
		}
	case *ast.MemberNode:
		if minusOne(n.Property) && loopBuiltin(n.Node) {
			n.Node = kept(n.Node)
		}
	}
}

// minusOne says whether n is the index -1, as parsed (a minus before 1,
// which the optimizer folds into -1 before it looks for filter(…)[-1]) or
// folded.
func minusOne(n ast.Node) bool {
	if i, ok := n.(*ast.IntegerNode); ok {
		return i.Value == -1
	}
	u, ok := n.(*ast.UnaryNode)
	if !ok || u.Operator != "-" {
		return false
	}
	i, ok := u.Node.(*ast.IntegerNode)
	return ok && i.Value == 1
}

// loopBuiltin says whether n is a filter or a map, which the optimizer
// fuses (map(filter(…)) into one filter) and turns into findLast under
// last() or [-1].
func loopBuiltin(n ast.Node) bool {
	b, ok := n.(*ast.BuiltinNode)
	return ok && (b.Name == "filter" || b.Name == "map")
}

// kept wraps n in the call the optimizer does not see through.
func kept(n ast.Node) ast.Node {
	c := &ast.CallNode{Callee: &ast.IdentifierNode{Value: keptFunc}, Arguments: []ast.Node{n}}
	c.SetLocation(n.Location())
	return c
}
