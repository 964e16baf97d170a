package rules

import (
	"fmt"
	"reflect"
	"unicode/utf8"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
)

// max() and min() of one list with no items give null in expr, with
// nothing said, and null compared reads as a value: `ktVno != kdcVno`
// over a keytab's key version taken as max() of the `klist -k` lines
// that named the principal, none of which did (the principal written
// without its realm), said the keytab's key was stale, CRITICAL,
// Consistent (TestMaxOverNoItemsIsNoted, testdata/wave-krb/keytab-kvno).
//
// So such a call is noted where it is evaluated, as a member its object
// lacks is (value's absent): a rule (or a loop's while:) that evaluated
// one is a rule error naming it, and a set: whose key it left null files
// the absent-member item (runbook's set:). `max(xs) ?? 0` says what none
// means and is not noted; nor is a call of two or more values, or of a
// list that holds items.
const (
	extremeFunc = "\x00extreme"
	extremeKey  = "\x00extremeNote"
)

// extremeNote holds the first max() or min() one evaluation ran over no
// items.
type extremeNote struct{ msg string }

// extremeFuncs is the function patchExtreme calls, as Compile's expr
// option: it notes a list with no items, and gives its list as it is.
func extremeFuncs() expr.Option {
	return expr.Function(extremeFunc, func(p ...any) (any, error) {
		n, ok := p[1].(*extremeNote)
		v := reflect.ValueOf(p[0])
		if ok && n.msg == "" && p[0] != nil && (v.Kind() == reflect.Slice || v.Kind() == reflect.Array) && v.Len() == 0 {
			name, _ := p[2].(string)
			xs, _ := p[3].(string)
			l, empty, of := xs, " ("+xs+" is empty)", ""
			if len(xs) > 30 {
				// a long list is named once, and by a letter after
				l, empty, of = "L", "", ", L being that list"
			}
			n.msg = fmt.Sprintf("%s(%s) went over no items%s, and %s() of no items is null, which a comparison or a sum reads as a value; say what none means: %s(%s) ?? 0, or len(%s) > 0 ? %s(%s) : …%s", name, cutText(xs), empty, name, name, l, l, name, l, of)
		}
		return p[0], nil
	})
}

// patchExtreme wraps the one argument of every max() and min() in a call
// of extremeFunc, but for the left side of `??`, which says what null
// means; patched says it wrapped one.
type patchExtreme struct{ patched bool }

func (p *patchExtreme) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.BinaryNode:
		// expr walks a node's children before it: the left side is
		// wrapped already, and is unwrapped here
		if b, ok := n.Left.(*ast.BuiltinNode); ok && n.Operator == "??" && len(b.Arguments) == 1 {
			if c, ok := b.Arguments[0].(*ast.CallNode); ok && isExtremeCall(c) {
				b.Arguments[0] = c.Arguments[0]
			}
		}
	case *ast.BuiltinNode:
		if (n.Name != "max" && n.Name != "min") || len(n.Arguments) != 1 {
			return
		}
		if c, ok := n.Arguments[0].(*ast.CallNode); ok && isExtremeCall(c) {
			return // wrapped already: a visitor may see a node twice
		}
		list := n.Arguments[0]
		call := &ast.CallNode{
			Callee:    &ast.IdentifierNode{Value: extremeFunc},
			Arguments: []ast.Node{list, &ast.IdentifierNode{Value: extremeKey}, &ast.StringNode{Value: n.Name}, &ast.StringNode{Value: list.String()}},
		}
		call.SetLocation(list.Location())
		n.Arguments[0] = call
		p.patched = true
	}
}

// isExtremeCall says whether c is a call patchExtreme made.
func isExtremeCall(c *ast.CallNode) bool {
	id, ok := c.Callee.(*ast.IdentifierNode)
	return ok && id.Value == extremeFunc
}

// cutText is a list's text as a note names it: past 60 bytes, its first
// 60 and an ellipsis.
func cutText(s string) string {
	if len(s) <= 60 {
		return s
	}
	cut := 60
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
