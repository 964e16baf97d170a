package rules

import (
	"fmt"
	"reflect"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
)

// all() over no items is true: every item of nothing holds. A rule written
// `all(ip.stdout, .operstate == "UP") → up` over a host with no bond at
// all (the bond never came up, its name misspelt in the select) said
// "every bond link is up", OK, Consistent; `all(series, .value == 0) →
// ok` over no series (a metric name misspelt, an exporter that dropped
// its file) said every backup job counted no failures
// (TestAllOverNoItemsIsNoAnswer). The rule judged nothing, whichever way
// its decider went: a `!all(…) → down` rule over no items sent the
// decision to its default just as silently.
//
// So an all() that goes over no items is noted where it is evaluated
// (vacuousFunc wraps its list), and a rule (decide) or a loop's while:
// that evaluated one is a rule error naming it. An author who means "none
// is an answer" says so, and the guard keeps all() from being reached:
// `len(xs) == 0 || all(xs, …)`; one who means "there must be some" writes
// `len(xs) > 0 && all(xs, …)`. none() and !any() over no items ("no unit
// failed") are the plain answer they read as, and are left alone; so are
// answer checks and set:, which say what they computed.
const (
	vacuousFunc = "\x00over"
	vacuousKey  = "\x00vacuous"
)

// vacuousNote holds the first all() one evaluation ran over no items.
type vacuousNote struct{ msg string }

// vacuousFuncs is the function patchVacuous calls, as Compile's expr
// option.
func vacuousFuncs() expr.Option {
	return expr.Function(vacuousFunc, func(p ...any) (any, error) {
		noteEmpty(p[0], p[1], p[2])
		return p[0], nil
	})
}

// noteEmpty notes in note (a *vacuousNote) that list, the first argument
// of an all() written as text, holds no items.
func noteEmpty(list, note, text any) {
	n, ok := note.(*vacuousNote)
	if !ok || n.msg != "" || list == nil {
		return
	}
	v := reflect.ValueOf(list)
	switch v.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		if v.Len() != 0 {
			return
		}
	default:
		return
	}
	xs, _ := text.(string)
	n.msg = fmt.Sprintf("all(%s, …) went over no items (%s is empty), and all() of no items is true with nothing judged; if no items is an answer, say so: len(%s) == 0 || all(%s, …); if there must be some: len(%s) > 0 && all(%s, …)", xs, xs, xs, xs, xs, xs)
}

// patchVacuous wraps the list of every two-argument all() in a call of
// vacuousFunc; patched says it found one.
type patchVacuous struct{ patched bool }

func (p *patchVacuous) Visit(node *ast.Node) {
	n, ok := (*node).(*ast.BuiltinNode)
	if !ok || n.Name != "all" || len(n.Arguments) != 2 {
		return
	}
	if c, ok := n.Arguments[0].(*ast.CallNode); ok {
		if id, ok := c.Callee.(*ast.IdentifierNode); ok && id.Value == vacuousFunc {
			return // wrapped already: a visitor may see a node twice
		}
	}
	list := n.Arguments[0]
	call := &ast.CallNode{
		Callee:    &ast.IdentifierNode{Value: vacuousFunc},
		Arguments: []ast.Node{list, &ast.IdentifierNode{Value: vacuousKey}, &ast.StringNode{Value: list.String()}},
	}
	call.SetLocation(list.Location())
	n.Arguments[0] = call
	p.patched = true
}
