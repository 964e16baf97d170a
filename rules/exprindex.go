package rules

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm/runtime"
)

// A member read by a key computed at run time (`sys.stdout[w.key]`, a
// wanted sysctl looked up in what `sysctl -a` printed) that its object
// lacks is the absent member a constant path's is (absentMember): expr
// reads it as null, and `sys.stdout[w.key] == 0 → fail` was a plain no
// over net.core.bpf_jit_harden, a key sysctl run as a user could not
// read (permission denied, exit 0), so the kernel-hardening audit said
// pass, Consistent (TestMemberByAComputedKeyItsObjectLacksIsUnjudged).
// The judgement is made where the read is evaluated, so a guard the
// author wrote before it (`w.key in sys.stdout && …`) keeps it from
// being read; a read written to allow absence (`m?.[k]`, `m[k] ?? d`,
// `m[k] == nil`) is not judged. A rule over it is a rule error; a set:
// writes null and files the absence, as for a constant path.
const (
	indexFunc = "\x00index"
	indexKey  = "\x00missed"
)

// indexNote holds the first member one evaluation read by a computed
// key and found absent.
type indexNote struct {
	msg string
	// near: the object has a member a typo away (judgedName's): an error
	// wherever the value is read, as absentMember's near is.
	near bool
}

// indexFuncs is the function patchIndex calls, as Compile's expr option.
func indexFuncs() expr.Option {
	return expr.Function(indexFunc, func(p ...any) (any, error) {
		if named, _ := p[4].(bool); named {
			how, _ := p[5].(int)
			return judgedName(p[0], p[1], p[2], p[3], how)
		}
		return judgedIndex(p[0], p[1], p[2], p[3])
	})
}

// judgedIndex is obj[key] as expr reads it, noting in note (an
// *indexNote) a key an object of strings lacks; text is the read as
// written.
func judgedIndex(obj, key, note, text any) (any, error) {
	m, isMap := obj.(map[string]any)
	k, isKey := key.(string)
	if !isMap || !isKey {
		return runtime.Fetch(obj, key), nil
	}
	v, has := m[k]
	if has {
		return v, nil
	}
	if n, ok := note.(*indexNote); ok && n.msg == "" {
		written, _ := text.(string)
		owner, by := written, ""
		if mm, ok := textOfIndex(written); ok {
			owner, by = mm[0], mm[1]
		}
		keys := slices.Sorted(maps.Keys(m))
		n.msg = fmt.Sprintf("%s has no member %q (the key %s gave)%s; if it may be absent, write %s ?? a default, or test it first (%s in %s && …)",
			owner, k, by, membersText(keys), written, by, owner)
	}
	return nil, nil
}

// judgedName is obj.name as expr reads it, noting in note (an
// *indexNote) a member an object lacks where it has one a typo away
// (nearMember), in absentMember's words; text is the read as
// written (namedReads). A member with no near name is read as null, as
// an item's is: such an object is often one the chart made, a regex
// row whose optional group did not take part (`.never` of lastlog's
// line for an account that logged in) or the `{}` a `??` gave.
//
// how is the read's guard (patchIndex): 0 none; 1 a guard (`first(…).value
// ?? ""`), under which a member the object lacks is null, as the guard
// allows, but one it holds in another case alone is still a typo
// (caseTypo's judgement); 2 that and a ?. of its own (`byTarget[t]?.fstype`),
// which reads null from null.
func judgedName(obj, name, note, text any, how int) (any, error) {
	if obj == nil && how == 2 {
		return nil, nil
	}
	m, isMap := obj.(map[string]any)
	k, _ := name.(string)
	if !isMap {
		return runtime.Fetch(obj, name), nil
	}
	v, has := m[k]
	if has {
		return v, nil
	}
	n, ok := note.(*indexNote)
	if !ok || n.msg != "" {
		return nil, nil
	}
	written, _ := text.(string)
	owner := strings.TrimSuffix(written, "."+k)
	if how > 0 {
		if memberInOtherCase(k, maps.Keys(m)) {
			msg, _ := memberWords(owner, k, slices.Collect(maps.Keys(m)))
			n.msg, n.near = msg+caseGuardWords, true
		}
		return nil, nil
	}
	keys := slices.Collect(maps.Keys(m))
	msg, near := memberWords(owner, k, keys)
	if !near {
		return nil, nil
	}
	n.msg = fmt.Sprintf("%s; if it may be absent, write %s?.%s or %s ?? a default", msg, owner, k, written)
	n.near = true
	return nil, nil
}

// textOfIndex splits a read written `owner[key]` into owner and key.
func textOfIndex(s string) ([2]string, bool) {
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ']':
			depth++
		case '[':
			depth--
			if depth == 0 {
				return [2]string{s[:i], s[i+1 : len(s)-1]}, true
			}
		}
	}
	return [2]string{}, false
}

// patchIndex rewrites each read the collector found by a computed key
// (collector.indexes, by the position of its "[") into a call of
// judgedIndex.
type patchIndex struct {
	at      map[int]string
	guarded map[int]bool
}

func (p patchIndex) Visit(node *ast.Node) {
	n, ok := (*node).(*ast.MemberNode)
	if !ok || n.Method {
		return
	}
	text, ok := p.at[n.Location().From]
	guarded := p.guarded[n.Location().From]
	if !ok || n.Optional && !guarded {
		return
	}
	_, named := n.Property.(*ast.StringNode)
	// how: 0 judged, 1 guarded (judged for another case alone), 2 that
	// and a ?. of its own, which reads null from null
	how := 0
	switch {
	case guarded && n.Optional:
		how = 2
	case guarded:
		how = 1
	}
	ast.Patch(node, &ast.CallNode{
		Callee:    &ast.IdentifierNode{Value: indexFunc},
		Arguments: []ast.Node{n.Node, n.Property, &ast.IdentifierNode{Value: indexKey}, &ast.StringNode{Value: text}, &ast.BoolNode{Value: named}, &ast.IntegerNode{Value: how}},
	})
}
