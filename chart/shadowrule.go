package chart

import (
	"fmt"
	"math"
	"strconv"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"

	"github.com/openrunbook/runbook/rules"
)

// checkShadowedRules refuses a decide rule no value can reach: every
// value it matches, a rule before it over the same key matches first, and
// decide takes the first rule that matches. Rules `v.pct >= 80 → warn`
// then `v.pct >= 90 → critical` loaded, and a volume 95% full was warn,
// its critical rule never chosen (TestRuleAnEarlierRuleCoversIsRefused).
// Only a rule of one comparison of a key with a number is asked (`x >=
// 90`, `90 < x`, `{x: {gte: 90}}`), against each earlier one over the
// same key in the same form (a filter's condition and an expression may
// err apart over one value, which counts as no match); select runs every
// rule that matches, so it is not asked.
func (l *loader) checkShadowedRules(spec *Spec) {
	eachStage(spec, func(st *StageSpec) {
		if st.Kind == "decide" && st.Decide != nil {
			l.shadowedRules(st)
		}
	})
}

func (l *loader) shadowedRules(st *StageSpec) {
	rs := st.Decide.Rules
	bounds := make([]*span, len(rs))
	for i, r := range rs {
		bounds[i] = spanOf(r.When)
	}
	for j := range rs {
		if bounds[j] == nil {
			continue
		}
		for i := range j {
			if bounds[i] == nil || bounds[i].key != bounds[j].key || bounds[i].filter != bounds[j].filter || !bounds[j].within(bounds[i]) {
				continue
			}
			l.errf(rs[j].Pos, st.ID, "rule %d (%q, %s) is never chosen: every value of %s it matches, rule %d (%q, %s) matches first, and decide takes the first rule that matches; put rule %d before rule %d",
				j+1, rs[j].Label, bounds[j].text, bounds[j].key, i+1, rs[i].Label, bounds[i].text, j+1, i+1)
			break
		}
	}
}

// span is the numbers one comparison matches: key between lo and hi,
// each bound open or closed (an infinite one is open).
type span struct {
	key            string
	filter         bool // a filter's condition, not an expression: the two err apart
	text           string
	lo, hi         float64
	loOpen, hiOpen bool
}

// within says whether every number s matches, o matches.
func (s *span) within(o *span) bool {
	loOK := s.lo > o.lo || (s.lo == o.lo && (!o.loOpen || s.loOpen))
	hiOK := s.hi < o.hi || (s.hi == o.hi && (!o.hiOpen || s.hiOpen))
	return loOK && hiOK
}

// spanOf reads a rule that is one comparison of a key with a number; nil
// for any other.
func spanOf(p rules.Predicate) *span {
	switch w := p.(type) {
	case *rules.Filter:
		cs := w.Conditions()
		if len(cs) != 1 {
			return nil
		}
		n, ok := number(cs[0].Expected)
		if !ok {
			return nil
		}
		ops := map[rules.Op]string{rules.OpGt: ">", rules.OpGte: ">=", rules.OpLt: "<", rules.OpLte: "<=", rules.OpEq: "=="}
		op, ok := ops[cs[0].Op]
		if !ok {
			return nil
		}
		s := compare(cs[0].Key, op, n, w.String())
		s.filter = true
		return s
	case *rules.Expr:
		tree, err := parser.Parse(w.String())
		if err != nil {
			return nil
		}
		b, ok := tree.Node.(*ast.BinaryNode)
		if !ok {
			return nil
		}
		flip := map[string]string{">": "<", ">=": "<=", "<": ">", "<=": ">=", "==": "=="}
		if _, ok := flip[b.Operator]; !ok {
			return nil
		}
		if n, ok := literal(b.Right); ok && isPath(b.Left) {
			return compare(b.Left.String(), b.Operator, n, w.String())
		}
		if n, ok := literal(b.Left); ok && isPath(b.Right) {
			return compare(b.Right.String(), flip[b.Operator], n, w.String())
		}
	}
	return nil
}

func compare(key, op string, n float64, text string) *span {
	s := &span{key: key, text: text, lo: math.Inf(-1), hi: math.Inf(1), loOpen: true, hiOpen: true}
	switch op {
	case ">":
		s.lo = n
	case ">=":
		s.lo, s.loOpen = n, false
	case "<":
		s.hi = n
	case "<=":
		s.hi, s.hiOpen = n, false
	case "==":
		s.lo, s.hi, s.loOpen, s.hiOpen = n, n, false, false
	}
	return s
}

// isPath says whether n reads a name or a member of one (v.pct, v["Use%"]).
func isPath(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.IdentifierNode:
		return true
	case *ast.MemberNode:
		if x.Optional {
			return false
		}
		if _, ok := x.Property.(*ast.StringNode); !ok {
			if _, ok := x.Property.(*ast.IntegerNode); !ok {
				return false
			}
		}
		return isPath(x.Node)
	}
	return false
}

// literal reads a number written in the expression (-5 too).
func literal(n ast.Node) (float64, bool) {
	switch x := n.(type) {
	case *ast.IntegerNode:
		return float64(x.Value), true
	case *ast.FloatNode:
		return x.Value, true
	case *ast.UnaryNode:
		if v, ok := literal(x.Node); ok && x.Operator == "-" {
			return -v, true
		}
	}
	return 0, false
}

// number reads a filter's operand when it is a number.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float64:
		return x, true
	case fmt.Stringer:
		f, err := strconv.ParseFloat(x.String(), 64)
		return f, err == nil
	}
	return 0, false
}
