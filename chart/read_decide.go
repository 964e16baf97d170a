package chart

import (
	"fmt"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/internal/suggest"
	"github.com/openrunbook/runbook/rules"
)

// decider reads `decide:` or `select:` and the stage's `branches:`. Whether
// every rule names a branch and every branch can be reached is flow's rule;
// the loader files where each then, default and branch was written.
func (l *loader) decider(k, be entry, hasBranches bool, s *StageSpec) (*DecideSpec, []BranchSpec) {
	sid, kind := s.ID, s.Kind
	var brs []BranchSpec
	if !hasBranches {
		l.errf(k.keyPos, sid, "%s has no branches: add branches: {NAME: [stages], …} beside %s:", kind, kind)
	} else {
		brs = l.branches(be, sid, "branches")
		for _, b := range brs {
			s.at("branches."+b.Name, b.Pos)
		}
	}
	m, ok := l.asMap(k.val, k.keyPos, sid, kind)
	if !ok {
		return nil, brs
	}
	d := &DecideSpec{Pos: k.keyPos}
	for _, e := range m.entries {
		switch {
		case kind == "select" && e.key == "default":
			l.errf(e.keyPos, sid, "select has no default: every rule that matches runs its branch, and none matching is fine; remove default (or use decide for first match with a default)")
		case !contains(decideKeys, e.key):
			keys := decideKeys
			if kind == "select" {
				keys = selectKeys
			}
			l.unknownKey(m, e, sid, kind, keys)
		}
	}
	if re, ok := m.get("rules"); !ok {
		l.missing(m, "rules", k.keyPos, sid, "%s has no rules: give it rules: [{when: EXPR, then: BRANCH, label: …}, …]", kind)
	} else if items, ok := l.list(re, sid, kind+" rules"); ok {
		if len(items) == 0 {
			l.errf(re.valPos, sid, "%s rules is an empty list: give it at least one rule", kind)
		}
		for i, n := range items {
			r, tp, ok := l.rule(n, i+1, sid, kind)
			if !ok {
				continue
			}
			field := fmt.Sprintf("%s.rules[%d].", kind, len(d.Rules))
			s.at(field+"when", r.Pos)
			s.at(field+"then", tp)
			d.Rules = append(d.Rules, r)
		}
	}
	if kind == "decide" {
		if de, ok := m.get("default"); !ok {
			names := make([]string, len(brs))
			for i, b := range brs {
				names[i] = b.Name
			}
			l.missing(m, "default", k.keyPos, sid, "decide has no default: name the branch to take when no rule matches, such as default: declined (branches: %s)", strings.Join(names, ", "))
		} else if def, ok := l.defaultBranch(de, sid); ok {
			d.Default = def
			s.at("decide.default", de.valPos)
		}
	}
	return d, brs
}

// rule reads one rule; it returns where its then was written.
func (l *loader) rule(n ast.Node, index int, sid, kind string) (RuleSpec, Pos, bool) {
	what := fmt.Sprintf("rule %d", index)
	r := RuleSpec{Pos: l.pos(n)}
	m, ok := l.asMap(n, l.pos(n), sid, what)
	if !ok {
		return r, Pos{}, false
	}
	before := len(l.s.errs)
	l.known(m, sid, what, ruleKeys...)
	if we, ok := m.get("when"); !ok {
		l.missing(m, "when", r.Pos, sid, "%s has no when: give it a condition, an expression (when: used > 90) or a filter (when: {used: {gt: 90}})", what)
	} else {
		r.When = l.when(we, sid, what)
	}
	var tp Pos
	if te, ok := m.get("then"); !ok {
		l.missing(m, "then", r.Pos, sid, "%s has no then: name the branch it takes", what)
	} else {
		r.Then, _ = l.word(te, sid, what+" then")
		tp = te.valPos
	}
	if le, ok := m.get("label"); ok {
		r.Label, _ = l.text(le, sid, what+" label")
	}
	return r, tp, l.noErrorsSince(before)
}

// when reads a rule's condition: an expression, or a filter map
// {key: {op: expected, …}, …} whose conditions keep their written order.
func (l *loader) when(e entry, sid, what string) rules.Predicate {
	switch v := e.val.(type) {
	case *ast.StringNode, *ast.LiteralNode:
		x, _, ok := l.compile(e, sid, what+" when")
		if !ok {
			return nil
		}
		if msg := readsNothing(x); msg != "" {
			l.errf(e.valPos, sid, "%s when %s", what, msg)
			return nil
		}
		return x
	case *ast.BoolNode:
		return rules.MustCompile(fmt.Sprint(v.Value))
	case *ast.MappingNode, *ast.MappingValueNode:
		return l.filter(e, sid, what)
	}
	l.errf(e.valPos, sid, "%s when must be an expression or a filter map, not %s", what, l.describe(e.val))
	return nil
}

func (l *loader) filter(e entry, sid, what string) rules.Predicate {
	m, ok := l.asMap(e.val, e.keyPos, sid, what+" when")
	if !ok {
		return nil
	}
	if len(m.entries) == 0 {
		l.errf(e.valPos, sid, "%s when is an empty filter: give it at least one condition, such as {used: {gt: 90}}", what)
		return nil
	}
	ops := rules.Ops()
	opNames := make([]string, len(ops))
	for i, op := range ops {
		opNames[i] = string(op)
	}
	var conds []rules.Condition
	var condPos []Pos
	ok = true
	for _, ke := range m.entries {
		om, isMap := ke.val.(*ast.MappingNode)
		_, isMV := ke.val.(*ast.MappingValueNode)
		if !isMap && !isMV {
			l.errf(ke.valPos, sid, "%s when: condition on %q must map an operator to a value, such as {eq: %s}; operators: %s",
				what, ke.key, exampleValue(ke.val), strings.Join(opNames, " "))
			ok = false
			continue
		}
		_ = om
		opm, good := l.asMap(ke.val, ke.keyPos, sid, fmt.Sprintf("%s when %q", what, ke.key))
		if !good {
			ok = false
			continue
		}
		if len(opm.entries) == 0 {
			l.errf(ke.valPos, sid, "%s when: condition on %q has no operator (operators: %s)", what, ke.key, strings.Join(opNames, " "))
			ok = false
		}
		for _, oe := range opm.entries {
			if !rules.Op(oe.key).Valid() {
				if near := suggest.Nearest(oe.key, opNames); near != "" {
					l.errf(oe.keyPos, sid, "%s when: unknown operator %q on %q; did you mean %q? (operators: %s)", what, oe.key, ke.key, near, strings.Join(opNames, " "))
				} else {
					l.errf(oe.keyPos, sid, "%s when: unknown operator %q on %q (operators: %s)", what, oe.key, ke.key, strings.Join(opNames, " "))
				}
				ok = false
				continue
			}
			val, good := l.value(oe.val, sid, 0)
			if !good {
				ok = false
				continue
			}
			conds = append(conds, rules.Where(ke.key, rules.Op(oe.key), val))
			condPos = append(condPos, oe.valPos)
			l.notePlainWords(oe, sid, what, ke.key)
		}
	}
	if !ok {
		return nil
	}
	f, err := rules.NewFilter(conds...)
	if err == nil {
		return f
	}
	reported := false
	if joined, isJoin := err.(interface{ Unwrap() []error }); isJoin {
		for _, ce := range joined.Unwrap() {
			if c, isCond := ce.(*rules.ConditionError); isCond && c.Index >= 0 && c.Index < len(condPos) {
				l.errf(condPos[c.Index], sid, "%s when: condition %q %s: %s", what, c.Key, c.Op, c.Msg)
				reported = true
			}
		}
	}
	if !reported {
		l.errf(e.valPos, sid, "%s when: %v", what, err)
	}
	return nil
}

func exampleValue(n ast.Node) string {
	switch v := n.(type) {
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode:
		return v.GetToken().Value
	case *ast.StringNode:
		return v.Value
	}
	return "90"
}

// defaultBranch reads a decide's default: BRANCH or {branch, label}.
func (l *loader) defaultBranch(e entry, sid string) (decide.Default, bool) {
	switch e.val.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		m, ok := l.asMap(e.val, e.keyPos, sid, "default")
		if !ok {
			return decide.Default{}, false
		}
		before := len(l.s.errs)
		l.known(m, sid, "default", defaultKeys...)
		var d decide.Default
		if be, ok := m.get("branch"); !ok {
			l.missing(m, "branch", e.valPos, sid, "default has no branch: name the branch to take when no rule matches")
		} else {
			d.Branch, _ = l.word(be, sid, "default branch")
		}
		if le, ok := m.get("label"); ok {
			d.Label, _ = l.text(le, sid, "default label")
		}
		return d, l.noErrorsSince(before)
	}
	b, ok := l.word(e, sid, "default")
	return decide.Default{Branch: b}, ok
}

// branches reads a map of NAME: [stages] or NAME: {description, stages}, in
// written order, into the chart c (branch stages share its id space).
func (l *loader) branches(e entry, sid, what string) []BranchSpec {
	m, ok := l.asMap(e.val, e.keyPos, sid, what)
	if !ok {
		return nil
	}
	if len(m.entries) == 0 {
		l.errf(e.valPos, sid, "%s is an empty map: declare at least one branch, NAME: [stages]", what)
		return nil
	}
	out := make([]BranchSpec, 0, len(m.entries))
	for _, be := range m.entries {
		b := BranchSpec{Name: be.key, Pos: be.keyPos}
		bw := fmt.Sprintf("branch %q", be.key)
		switch be.val.(type) {
		case *ast.MappingNode, *ast.MappingValueNode:
			bm, ok := l.asMap(be.val, be.keyPos, sid, bw)
			if !ok {
				break
			}
			l.known(bm, sid, bw, branchKeys...)
			if de, ok := bm.get("description"); ok {
				b.Description, _ = l.text(de, sid, bw+" description")
			}
			if se, ok := bm.get("stages"); !ok {
				l.missing(bm, "stages", be.keyPos, sid, "%s has no stages: give it stages: [ … ] (an empty list does nothing)", bw)
			} else if !isEmptyList(se.val) {
				b.Stages = l.stages(se, sid, bw+" stages")
			}
		case *ast.SequenceNode:
			if !isEmptyList(be.val) {
				b.Stages = l.stages(be, sid, bw)
			}
		default:
			l.errf(be.valPos, sid, "%s must be a list of stages or {description, stages}, not %s", bw, l.describe(be.val))
		}
		out = append(out, b)
	}
	return out
}

// isEmptyList reports an empty YAML list: a branch that does nothing.
func isEmptyList(n ast.Node) bool {
	s, ok := n.(*ast.SequenceNode)
	return ok && len(s.Values) == 0
}

// notePlainWords keeps each unquoted word a filter condition compares
// with (its value, or an item of an in/notIn list) for checkNames, which
// refuses one that spells a name the chart defines (checkFilterWords).
func (l *loader) notePlainWords(oe entry, sid, what, key string) {
	switch rules.Op(oe.key) {
	case rules.OpMatches, rules.OpExists:
		return // a pattern, a bool: never a name's value
	}
	nodes := []ast.Node{oe.val}
	seq, item := oe.val.(*ast.SequenceNode)
	if item {
		nodes = seq.Values
	}
	for _, n := range nodes {
		v, ok := n.(*ast.StringNode)
		if !ok {
			continue
		}
		if tk := v.GetToken(); tk == nil || tk.Type != token.StringType {
			continue // quoted: the author wrote text
		}
		l.s.plainWords = append(l.s.plainWords, plainWord{stage: sid, what: what, key: key, op: oe.key, word: v.Value, item: item, pos: l.pos(n)})
	}
}

// readsNothing is why a rule's expression is refused when it reads nothing
// a run gives (rules.Expr.ReadsNothing), "" otherwise: its value is the
// same on every run, so the rule decides nothing. `"${s.stdout}" ==
// "bad"` (a template where templates are not read) and `"s.stdout" ==
// "bad"` (a name quoted as text) compared two texts, were always false,
// and the default's ok row stood Consistent over output reading bad
// (TestRuleThatReadsNothingIsRefused). A literal true or false, written to
// say so, is taken.
func readsNothing(x *rules.Expr) string {
	src := strings.TrimSpace(x.String())
	if !x.ReadsNothing() || src == "true" || src == "false" {
		return ""
	}
	always := "the same"
	if out := x.Eval(noScope{}); out.Err == "" {
		always = fmt.Sprint(out.Matched)
	}
	hint := "write the names it should read bare, outside quotes (s.stdout == \"bad\", not \"s.stdout\" == \"bad\")"
	if strings.Contains(src, "${") {
		hint = "${…} is a template only in an exec command item or timeout; in an expression it is text: write the name bare (s.stdout == \"bad\", not \"${s.stdout}\" == \"bad\")"
	}
	return fmt.Sprintf("`%s` reads nothing the run gives (no stage's key, input or var), so it is %s on every run and the rule decides nothing; %s", src, always, hint)
}

// noScope is a scope with nothing in it, for evaluating an expression
// that reads nothing.
type noScope struct{}

func (noScope) Get(string) (any, bool) { return nil, false }
