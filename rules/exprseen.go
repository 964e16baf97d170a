package rules

import (
	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
)

// A member path read without a guard (`m.zk_synced_followers`) is judged
// only where the evaluation reads it: the root identifier of each such
// read is rewritten into a call that marks the path read and returns
// the identifier's value, so a read a guard before it kept from being
// evaluated (`m.zk_server_state == "leader" &&
// m.zk_synced_followers < 2` over a follower, whose mntr has no
// zk_synced_followers) is not judged, where before every follower's row
// was a rule error, Not sure (TestMemberBehindAFalseGuardIsNotJudged;
// wave-zk's design question). A typo behind a guard that was false goes
// unnoticed until the guard holds; a read the evaluation reached is
// judged as before, whatever the evaluation then did.
const (
	seenFunc = "\x00seen"
	seenKey  = "\x00seenmask"
	// seenMax is the most member paths one expression marks: past it
	// every path is judged, as a path read through $env is.
	seenMax = 64
)

// seenNote holds which member paths (Expr.members, by index) one
// evaluation read.
type seenNote struct{ mask uint64 }

// seenFuncs is the function patchSeen calls, as Compile's expr option.
func seenFuncs() expr.Option {
	return expr.Function(seenFunc, func(p ...any) (any, error) {
		if n, ok := p[0].(*seenNote); ok {
			if i, ok := p[1].(int); ok && i >= 0 && i < seenMax {
				n.mask |= 1 << i
			}
		}
		return p[2], nil
	})
}

// patchSeen rewrites the root identifier of each member path read
// without a guard (at: by its position, the identifier's name and the
// path's index in Expr.members) into a call of seenFunc. The name is
// checked, as the nodes other patches make have no position (a callee
// of theirs at 0 is no read), and the identifier itself is the call's
// argument, done so that a walk that comes by it again leaves it.
type patchSeen struct {
	at   map[int]seenAt
	done map[*ast.IdentifierNode]bool
}

// seenAt is one root identifier patchSeen rewrites.
type seenAt struct {
	name string
	i    int
}

func (p patchSeen) Visit(node *ast.Node) {
	id, ok := (*node).(*ast.IdentifierNode)
	if !ok || p.done[id] {
		return
	}
	at, ok := p.at[id.Location().From]
	if !ok || at.name != id.Value {
		return
	}
	p.done[id] = true
	ast.Patch(node, &ast.CallNode{
		Callee:    &ast.IdentifierNode{Value: seenFunc},
		Arguments: []ast.Node{&ast.IdentifierNode{Value: seenKey}, &ast.IntegerNode{Value: at.i}, id},
	})
}
