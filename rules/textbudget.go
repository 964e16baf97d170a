package rules

import (
	"fmt"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm/runtime"
)

// DefaultTextBudget bounds the text one evaluation may build with `+`, in
// bytes, counted over every concatenation. expr's memory budget counts the
// lists and maps an expression builds but not strings, so without this a
// rule like reduce(1..100000, #acc + "xxxxxxxxxx", "") copies gigabytes and
// runs for tens of seconds, past any timeout (a running expression cannot
// be interrupted).
const DefaultTextBudget = 8 << 20

// ErrTextBudget is the failure of an expression that built too much text.
var ErrTextBudget = fmt.Errorf("the expression built more than %d MiB of text with +", DefaultTextBudget>>20)

// addFunc and budgetKey are names no source can spell: "+" is patched into
// a call of addFunc, which charges each string it builds to the budget the
// evaluation puts in its environment under budgetKey.
const (
	addFunc   = "\x00add"
	budgetKey = "\x00text"
)

// textBudget is what one evaluation has left to build.
type textBudget struct{ left int }

// boundedAdd is `+`: numbers and everything else as expr adds them; two
// strings charged to the evaluation's text budget.
func boundedAdd(params ...any) (any, error) {
	a, b := params[0], params[1]
	if sa, ok := a.(string); ok {
		if sb, ok := b.(string); ok {
			if tb, ok := params[2].(*textBudget); ok {
				tb.left -= len(sa) + len(sb)
				if tb.left < 0 {
					return nil, ErrTextBudget
				}
			}
			return sa + sb, nil
		}
	}
	return runtime.Add(a, b), nil
}

// patchAdd rewrites every `+` into a call of boundedAdd.
type patchAdd struct{ patched bool }

func (p *patchAdd) Visit(node *ast.Node) {
	b, ok := (*node).(*ast.BinaryNode)
	if !ok || b.Operator != "+" {
		return
	}
	call := &ast.CallNode{
		Callee:    &ast.IdentifierNode{Value: addFunc},
		Arguments: []ast.Node{b.Left, b.Right, &ast.IdentifierNode{Value: budgetKey}},
	}
	ast.Patch(node, call)
	p.patched = true
}
