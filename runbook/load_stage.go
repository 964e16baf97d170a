package runbook

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/goccy/go-yaml/ast"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/rules"
)

// The stage keys, in the order chart-yaml.md lists them.
var (
	commonKeys  = []string{"id", "name", "description", "timeout", "retry"}
	kindKeys    = []string{"set", "exec", "decide", "select", "parallel", "foreach", "subflow", "plugin", "verdict", "loop", "fail", "ask"}
	stageKeys   = append(append(append([]string{}, commonKeys...), kindKeys...), "branches")
	retryKeys   = []string{"attempts", "backoff", "maxBackoff", "jitter", "on"}
	execKeys    = []string{"command", "shell", "timeout", "env", "envFrom", "parse", "into", "dir", "stdin"}
	parseModes  = []string{"text", "json", "lines"}
	decideKeys  = []string{"rules", "default"}
	selectKeys  = []string{"rules"}
	ruleKeys    = []string{"when", "then", "label"}
	defaultKeys = []string{"branch", "label"}
	branchKeys  = []string{"description", "stages"}
	foreachKeys = []string{"items", "as", "maxBranches", "into", "stages"}
	subflowKeys = []string{"chart", "stages", "inputs"}
	pluginKeys  = []string{"name", "args", "into"}
	loopKeys    = []string{"to", "while", "max"}
	askKeys     = []string{"question", "expects"}
)

// DefaultLoopMax is a loop's bound when the chart does not say.
const DefaultLoopMax = 1000

// chartCtx is one chart's id space: the root's stages and every branch's,
// but not a foreach body's or an inline subflow's (each a chart of its own).
type chartCtx struct {
	ids    map[string]Pos
	loopTo map[*LoopSpec]Pos // where each loop's `to` was written
}

func newChartCtx() *chartCtx {
	return &chartCtx{ids: map[string]Pos{}, loopTo: map[*LoopSpec]Pos{}}
}

// stages reads a list of stages.
func (l *loader) stages(e entry, stage, what string, c *chartCtx) []StageSpec {
	items, ok := l.list(e, stage, what)
	if !ok {
		return nil
	}
	if len(items) == 0 {
		l.errf(e.valPos, stage, "%s is an empty list: give it at least one stage", what)
		return nil
	}
	out := make([]StageSpec, 0, len(items))
	for i, n := range items {
		if s, ok := l.stage(n, i+1, c); ok || s.Pos.Line > 0 {
			out = append(out, s) // a stage with errors still takes part in loop checks
		}
	}
	return out
}

// stage reads one stage: its common keys and its one kind.
func (l *loader) stage(n ast.Node, index int, c *chartCtx) (StageSpec, bool) {
	at := l.pos(n)
	var s StageSpec
	switch n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
	default:
		l.errf(at, "", "stage %d is %s, not a map: a stage is a map with an id and one kind key, such as {id: note, set: {seen: true}}", index, l.describe(n))
		return s, false
	}
	m, ok := l.asMap(n, at, "", "the stage")
	if !ok {
		return s, false
	}
	s.Pos = at
	errsBefore := len(l.s.errs)

	// The id names the stage in every message, so it is read first, quietly.
	sid := ""
	if ie, ok := m.get("id"); ok {
		sid, _ = l.keyText(ie.val)
	}

	// Unknown keys next: a misspelt kind key is one error, not two.
	var kinds []entry
	nearKind := false
	for _, e := range m.entries {
		switch {
		case contains(kindKeys, e.key):
			kinds = append(kinds, e)
		case !contains(stageKeys, e.key):
			l.unknownKey(m, e, sid, "the stage", stageKeys)
			if near := nearest(e.key, stageKeys); contains(kindKeys, near) {
				nearKind = true
			}
		}
	}

	if ie, ok := m.get("id"); !ok {
		l.missing(m, "id", at, "", "stage %d has no id: every stage needs one (letters, digits, '-', '_', '.')", index)
	} else if id, ok := l.word(ie, "", "id"); ok {
		if msg := idProblem(id); msg != "" {
			l.errf(ie.valPos, "", "id %q %s", id, msg)
		} else if first, dup := c.ids[id]; dup {
			l.errf(ie.valPos, "", "id %q is used twice in this chart (first at %d:%d): ids are unique in a chart, branch stages included", id, first.Line, first.Col)
		} else {
			c.ids[id] = ie.valPos
		}
		s.ID = id
	}
	sid = s.ID

	s.Name = s.ID
	if ne, ok := m.get("name"); ok {
		if name, ok := l.word(ne, sid, "name"); ok {
			s.Name = name
		}
	}
	if de, ok := m.get("description"); ok {
		s.Description, _ = l.text(de, sid, "description")
	}
	if te, ok := m.get("timeout"); ok {
		s.Timeout, _ = l.duration(te, sid, "timeout")
	}
	if re, ok := m.get("retry"); ok {
		s.Retry = l.retry(re, sid)
	}

	be, hasBranches := m.get("branches")
	switch {
	case len(kinds) == 0:
		if !nearKind {
			l.errf(at, sid, "has no kind key: a stage does exactly one thing, named by one of %s", strings.Join(kindKeys, ", "))
		}
		return s, false
	case len(kinds) > 1:
		names := make([]string, len(kinds))
		for i, k := range kinds {
			names[i] = k.key
		}
		l.errf(kinds[1].keyPos, sid, "has %s kind keys, %s; a stage does exactly one thing (split it into one stage per kind)",
			countWord(len(kinds)), joinAnd(names))
		return s, false
	}
	k := kinds[0]
	s.Kind = k.key
	if hasBranches && s.Kind != "decide" && s.Kind != "select" {
		l.errf(be.keyPos, sid, "branches belong to decide or select; a %s stage has none (parallel names its branches inside parallel:)", s.Kind)
	}
	switch s.Kind {
	case "set":
		s.Set = l.assigns(k, sid, "set", true)
	case "exec":
		s.Exec = l.exec(k, &s)
	case "decide", "select":
		s.Decide, s.Branches = l.decider(k, be, hasBranches, &s, c)
	case "parallel":
		s.Parallel = l.branches(k, sid, "parallel", c)
	case "foreach":
		s.ForEach = l.forEach(k, &s)
	case "subflow":
		s.Subflow = l.subflow(k, sid)
	case "plugin":
		s.Plugin = l.plugin(k, &s)
	case "verdict":
		s.Verdict = l.assigns(k, sid, "verdict", true)
		if m, ok := k.val.(*ast.MappingNode); ok && len(m.Values) > 0 && !hasAssign(s.Verdict, "verdict") && l.noErrorsSince(errsBefore) {
			hint := ""
			for _, a := range s.Verdict {
				if nearest(a.Key, []string{"verdict"}) != "" {
					hint = fmt.Sprintf(" (is %q meant to be verdict?)", a.Key)
				}
			}
			l.errf(k.keyPos, sid, "verdict has no verdict column: add one giving the row's word, such as verdict: '\"at-risk\"'%s", hint)
		}
	case "loop":
		s.Loop = l.loop(k, sid, c)
	case "fail":
		a, ok := l.valuer(k, sid, "fail", "fail")
		if ok {
			s.Fail = &a
		}
	case "ask":
		s.Ask = l.ask(k, sid)
	}
	return s, l.noErrorsSince(errsBefore)
}

func (l *loader) noErrorsSince(n int) bool { return len(l.s.errs) == n }

func hasAssign(as []Assign, key string) bool {
	for _, a := range as {
		if a.Key == key {
			return true
		}
	}
	return false
}

func validIDRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.'
}

func countWord(n int) string {
	switch n {
	case 2:
		return "two"
	case 3:
		return "three"
	}
	return fmt.Sprint(n)
}

// joinAnd joins words as "a, b and c".
func joinAnd(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// retry reads `retry:`.
func (l *loader) retry(e entry, sid string) *RetrySpec {
	m, ok := l.asMap(e.val, e.keyPos, sid, "retry")
	if !ok {
		return nil
	}
	l.known(m, sid, "retry", retryKeys...)
	r := &RetrySpec{}
	if ae, ok := m.get("attempts"); !ok {
		l.missing(m, "attempts", e.keyPos, sid, "retry has no attempts: say how many times to try, ≥ 1")
	} else {
		r.Attempts, _ = l.whole(ae, sid, "retry attempts", 1)
	}
	if be, ok := m.get("backoff"); ok {
		r.Backoff, _ = l.duration(be, sid, "retry backoff")
	}
	if me, ok := m.get("maxBackoff"); ok {
		r.MaxBackoff, _ = l.duration(me, sid, "retry maxBackoff")
	}
	if je, ok := m.get("jitter"); ok {
		r.Jitter, _ = l.boolean(je, sid, "retry jitter")
	}
	if oe, ok := m.get("on"); ok {
		items, _ := l.list(oe, sid, "retry on")
		for _, n := range items {
			ie := entry{key: "on", keyPos: oe.keyPos, val: n, valPos: l.pos(n)}
			if w, ok := l.word(ie, sid, "retry on (an exit code, a script label or timeout)"); ok {
				r.On = append(r.On, w)
			}
		}
	}
	return r
}

// assigns reads a map of key: EXPR in written order (set:, verdict:,
// subflow inputs:).
func (l *loader) assigns(e entry, sid, what string, nonEmpty bool) []Assign {
	m, ok := l.asMap(e.val, e.keyPos, sid, what)
	if !ok {
		return nil
	}
	if nonEmpty && len(m.entries) == 0 {
		l.errf(e.keyPos, sid, "%s is an empty map: give it at least one key: EXPR", what)
		return nil
	}
	out := make([]Assign, 0, len(m.entries))
	for _, ae := range m.entries {
		if a, ok := l.valuer(ae, sid, fmt.Sprintf("%s %q", what, ae.key), ae.key); ok {
			out = append(out, a)
		}
	}
	return out
}

// exec reads `exec:`.
func (l *loader) exec(e entry, s *StageSpec) *ExecSpec {
	sid := s.ID
	m, ok := l.asMap(e.val, e.keyPos, sid, "exec")
	if !ok {
		return nil
	}
	l.known(m, sid, "exec", execKeys...)
	x := &ExecSpec{Parse: "text", Into: s.ID}
	ce, hasCmd := m.get("command")
	se, hasShell := m.get("shell")
	switch {
	case hasCmd && hasShell:
		later := se
		if se.keyPos.Line < ce.keyPos.Line || (se.keyPos.Line == ce.keyPos.Line && se.keyPos.Col < ce.keyPos.Col) {
			later = ce
		}
		l.errf(later.keyPos, sid, "exec has both command and shell: give command (an argv list, run without a shell) or shell (one line for /bin/sh), not both")
	case hasCmd:
		items, ok := l.list(ce, sid, "exec command")
		if ok && len(items) == 0 {
			l.errf(ce.valPos, sid, "exec command is an empty list: give the program and its arguments, such as [df, -P]")
		}
		for i, n := range items {
			ie := entry{key: "command", keyPos: ce.keyPos, val: n, valPos: l.pos(n)}
			if w, ok := l.text(ie, sid, fmt.Sprintf("exec command argument %d", i+1)); ok {
				x.Command = append(x.Command, w)
			}
		}
	case hasShell:
		x.Shell, _ = l.word(se, sid, "exec shell")
	default:
		l.errf(e.keyPos, sid, "exec has neither command nor shell: give command: [program, args…] or shell: \"a line for /bin/sh\"")
	}
	if te, ok := m.get("timeout"); ok {
		if d, ok := l.duration(te, sid, "exec timeout"); ok {
			if d == 0 {
				l.errf(te.valPos, sid, "exec timeout is 0: give a positive duration (default %s)", DefaultExecTimeout)
			} else {
				x.Timeout = d
			}
		}
	}
	if ee, ok := m.get("env"); ok {
		if em, ok := l.asMap(ee.val, ee.keyPos, sid, "exec env"); ok {
			for _, v := range em.entries {
				if v.key == "" || strings.ContainsAny(v.key, "=\x00") {
					l.errf(v.keyPos, sid, "exec env name %q is not a variable name: no '=' and not empty", v.key)
					continue
				}
				if val, ok := l.text(v, sid, fmt.Sprintf("exec env %q", v.key)); ok {
					x.Env = append(x.Env, EnvVar{Name: v.key, Value: val})
				}
			}
		}
	}
	if fe, ok := m.get("envFrom"); ok {
		for _, a := range l.assigns(fe, sid, "exec envFrom", true) {
			if a.Key == "" || strings.ContainsAny(a.Key, "=\x00") {
				l.errf(a.Pos, sid, "exec envFrom name %q is not a variable name: no '=' and not empty", a.Key)
				continue
			}
			x.EnvFrom = append(x.EnvFrom, a)
		}
	}
	if pe, ok := m.get("parse"); ok {
		if p, ok := l.oneOf(pe, sid, "exec parse", parseModes...); ok {
			x.Parse = p
		}
	}
	if ie, ok := m.get("into"); ok {
		x.Into, _ = l.word(ie, sid, "exec into")
	}
	if de, ok := m.get("dir"); ok {
		x.Dir, _ = l.word(de, sid, "exec dir")
	}
	if se, ok := m.get("stdin"); ok {
		if a, ok := l.valuer(se, sid, "exec stdin", "stdin"); ok {
			x.Stdin = &a
		}
	}
	return x
}

// decider reads `decide:` or `select:` and the stage's `branches:`, and
// checks that every rule names a branch and every branch can be reached.
func (l *loader) decider(k, be entry, hasBranches bool, s *StageSpec, c *chartCtx) (*DecideSpec, []BranchSpec) {
	sid, kind := s.ID, s.Kind
	var brs []BranchSpec
	branchesOK := false
	if !hasBranches {
		l.errf(k.keyPos, sid, "%s has no branches: add branches: {NAME: [stages], …} beside %s:", kind, kind)
	} else {
		before := len(l.s.errs)
		brs = l.branches(be, sid, "branches", c)
		branchesOK = l.noErrorsSince(before) || brs != nil
	}
	m, ok := l.asMap(k.val, k.keyPos, sid, kind)
	if !ok {
		return nil, brs
	}
	d := &DecideSpec{Pos: k.keyPos}
	rulesOK := true
	for _, e := range m.entries {
		switch {
		case kind == "select" && e.key == "default":
			l.errf(e.keyPos, sid, "select has no default: every rule that matches runs its branch, and none matching is fine; remove default (or use decide for first match with a default)")
			rulesOK = false
		case !contains(decideKeys, e.key):
			keys := decideKeys
			if kind == "select" {
				keys = selectKeys
			}
			l.unknownKey(m, e, sid, kind, keys)
		}
	}
	names := make([]string, len(brs))
	has := map[string]bool{}
	for i, b := range brs {
		names[i] = b.Name
		has[b.Name] = true
	}
	branchList := strings.Join(names, ", ")
	thenPos := map[int]Pos{} // kept rule → where its then was written
	ruleNum := map[int]int{} // kept rule → its number as written
	if re, ok := m.get("rules"); !ok {
		l.missing(m, "rules", k.keyPos, sid, "%s has no rules: give it rules: [{when: EXPR, then: BRANCH, label: …}, …]", kind)
		rulesOK = false
	} else if items, ok := l.list(re, sid, kind+" rules"); !ok {
		rulesOK = false
	} else {
		if len(items) == 0 {
			l.errf(re.valPos, sid, "%s rules is an empty list: give it at least one rule", kind)
			rulesOK = false
		}
		for i, n := range items {
			r, tp, ok := l.rule(n, i+1, sid, kind)
			if !ok {
				rulesOK = false
				continue
			}
			thenPos[len(d.Rules)] = tp
			ruleNum[len(d.Rules)] = i + 1
			d.Rules = append(d.Rules, r)
		}
	}
	var defPos Pos
	hasDefault := false
	if kind == "decide" {
		if de, ok := m.get("default"); !ok {
			l.missing(m, "default", k.keyPos, sid, "decide has no default: name the branch to take when no rule matches, such as default: declined (branches: %s)", branchList)
			rulesOK = false
		} else if def, ok := l.defaultBranch(de, sid); ok {
			d.Default, defPos, hasDefault = def, de.valPos, true
		} else {
			rulesOK = false
		}
	}
	if !branchesOK || len(brs) == 0 {
		return d, brs
	}
	for i, r := range d.Rules {
		if !has[r.Then] {
			l.errf(thenPos[i], sid, "rule %d: then %q names no branch (branches: %s)", ruleNum[i], r.Then, branchList)
			rulesOK = false
		}
	}
	if hasDefault && !has[d.Default.Branch] {
		l.errf(defPos, sid, "default %q names no branch (branches: %s)", d.Default.Branch, branchList)
		rulesOK = false
	}
	if !rulesOK {
		return d, brs // a broken rule might have reached any branch: say nothing of reach
	}
	dr := make([]decide.Rule, len(d.Rules))
	for i, r := range d.Rules {
		dr[i] = decide.Rule{When: r.When, Then: r.Then, Label: r.Label}
	}
	var def *decide.Default
	if kind == "decide" {
		def = &d.Default
	}
	reached := map[string]bool{}
	for _, b := range decide.Branches(dr, def) {
		reached[b] = true
	}
	for _, b := range brs {
		if reached[b.Name] {
			continue
		}
		if kind == "decide" {
			l.errf(b.Pos, sid, "branch %q can never be taken: no rule's then and not the default names it (add a rule for it, or remove it)", b.Name)
		} else {
			l.errf(b.Pos, sid, "branch %q can never be taken: no rule's then names it (add a rule for it, or remove it)", b.Name)
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
				if near := nearest(oe.key, opNames); near != "" {
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
func (l *loader) branches(e entry, sid, what string, c *chartCtx) []BranchSpec {
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
				b.Stages = l.stages(se, sid, bw+" stages", c)
			}
		case *ast.SequenceNode:
			if !isEmptyList(be.val) {
				b.Stages = l.stages(be, sid, bw, c)
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

// forEach reads `foreach:`; its stages form a chart of their own.
func (l *loader) forEach(e entry, s *StageSpec) *ForEachSpec {
	sid := s.ID
	m, ok := l.asMap(e.val, e.keyPos, sid, "foreach")
	if !ok {
		return nil
	}
	l.known(m, sid, "foreach", foreachKeys...)
	f := &ForEachSpec{As: "item", Into: s.ID}
	if ie, ok := m.get("items"); !ok {
		l.missing(m, "items", e.keyPos, sid, "foreach has no items: give it an expression giving the list, such as items: volumes")
	} else {
		f.Items, _, _ = l.compile(ie, sid, "foreach items")
	}
	if ae, ok := m.get("as"); ok {
		if as, ok := l.word(ae, sid, "foreach as"); ok {
			switch {
			case as == "index":
				l.errf(ae.valPos, sid, "foreach as is \"index\", the key every branch already gets for its item's position: choose another name (default \"item\")")
			case !isIdent(as):
				l.errf(ae.valPos, sid, "foreach as %q is not a name an expression can read: use letters, digits and _, not starting with a digit", as)
			default:
				f.As = as
			}
		}
	}
	if me, ok := m.get("maxBranches"); !ok {
		l.missing(m, "maxBranches", e.keyPos, sid, "foreach has no maxBranches: it is required, the most branches this foreach may start (≥ 1); items past it do not run and the cut is recorded")
	} else {
		f.MaxBranches, _ = l.whole(me, sid, "foreach maxBranches", 1)
	}
	if ie, ok := m.get("into"); ok {
		f.Into, _ = l.word(ie, sid, "foreach into")
	}
	if se, ok := m.get("stages"); !ok {
		l.missing(m, "stages", e.keyPos, sid, "foreach has no stages: give it the stages each item runs")
	} else {
		c := newChartCtx()
		f.Stages = l.stages(se, sid, "foreach stages", c)
		l.checkLoops(f.Stages, c, nil)
	}
	return f
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r))) {
			return false
		}
	}
	return s != ""
}

// subflow reads `subflow:`: a chart file (loaded here, relative to this
// file's directory) or inline stages (a chart of their own).
func (l *loader) subflow(e entry, sid string) *SubflowSpec {
	m, ok := l.asMap(e.val, e.keyPos, sid, "subflow")
	if !ok {
		return nil
	}
	l.known(m, sid, "subflow", subflowKeys...)
	sf := &SubflowSpec{}
	ce, hasChart := m.get("chart")
	se, hasStages := m.get("stages")
	switch {
	case hasChart && hasStages:
		l.errf(se.keyPos, sid, "subflow has both chart and stages: mount a chart file (chart: PATH) or write the stages inline (stages: [ … ]), not both")
	case hasChart:
		if p, ok := l.word(ce, sid, "subflow chart"); ok {
			sf.Chart = p
			sf.Spec = l.mount(p, ce.valPos, sid)
		}
	case hasStages:
		c := newChartCtx()
		sf.Stages = l.stages(se, sid, "subflow stages", c)
		l.checkLoops(sf.Stages, c, nil)
	default:
		l.errf(e.keyPos, sid, "subflow has neither chart nor stages: give chart: PATH (relative to this file) or stages: [ … ]")
	}
	if ie, ok := m.get("inputs"); ok {
		sf.Inputs = l.assigns(ie, sid, "subflow input", false)
		if sf.Spec != nil {
			l.checkBindings(sf, ie, sid)
		}
	} else if sf.Spec != nil {
		l.checkBindings(sf, entry{keyPos: e.keyPos}, sid)
	}
	return sf
}

// checkBindings refuses a subflow input the mounted chart does not declare,
// and a required one it is not given.
func (l *loader) checkBindings(sf *SubflowSpec, ie entry, sid string) {
	declared := make([]string, len(sf.Spec.Inputs))
	for i, in := range sf.Spec.Inputs {
		declared[i] = in.Name
	}
	for _, a := range sf.Inputs {
		if contains(declared, a.Key) {
			continue
		}
		switch near := nearest(a.Key, declared); {
		case near != "":
			l.errf(a.Pos, sid, "subflow input %q is not an input of chart %q; did you mean %q?", a.Key, sf.Chart, near)
		case len(declared) == 0:
			l.errf(a.Pos, sid, "subflow input %q is not an input of chart %q, which declares none", a.Key, sf.Chart)
		default:
			l.errf(a.Pos, sid, "subflow input %q is not an input of chart %q (its inputs: %s)", a.Key, sf.Chart, strings.Join(declared, ", "))
		}
	}
	for _, in := range sf.Spec.Inputs {
		if in.Required && !hasAssign(sf.Inputs, in.Name) {
			l.errf(ie.keyPos, sid, "subflow chart %q requires input %q: bind it under inputs: {%s: EXPR}", sf.Chart, in.Name, in.Name)
		}
	}
}

// mount loads a subflow's chart file, once per session, refusing a chart
// that mounts itself.
func (l *loader) mount(p string, at Pos, sid string) *Spec {
	path := p
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(l.file), p)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		l.errf(at, sid, "subflow chart %q: %v", p, err)
		return nil
	}
	for i, f := range l.stack {
		if f.abs == abs {
			chain := make([]string, 0, len(l.stack)-i+1)
			for _, g := range l.stack[i:] {
				chain = append(chain, g.name)
			}
			chain = append(chain, path)
			l.errf(at, sid, "subflow chart %q mounts a chart that is already mounting it (%s): a chart cannot mount itself, directly or through others",
				p, strings.Join(chain, " → "))
			return nil
		}
	}
	if l.s.done[abs] {
		return l.s.cache[abs]
	}
	l.s.done[abs] = true
	spec := l.s.loadFile(path, p, at, sid, l.stack)
	l.s.cache[abs] = spec
	return spec
}

// plugin reads `plugin:`. Its name need not be in plugins: (the runtime
// also finds plugins in its plugin directory).
func (l *loader) plugin(e entry, s *StageSpec) *PluginStageSpec {
	sid := s.ID
	m, ok := l.asMap(e.val, e.keyPos, sid, "plugin")
	if !ok {
		return nil
	}
	l.known(m, sid, "plugin", pluginKeys...)
	p := &PluginStageSpec{Into: s.ID}
	if ne, ok := m.get("name"); !ok {
		l.missing(m, "name", e.keyPos, sid, "plugin has no name: name the stage plugin to call, such as name: http-probe")
	} else {
		p.Name, _ = l.word(ne, sid, "plugin name")
	}
	if ae, ok := m.get("args"); ok {
		if am, ok := l.asMap(ae.val, ae.keyPos, sid, "plugin args"); ok {
			for _, a := range am.entries {
				switch a.val.(type) {
				case *ast.SequenceNode, *ast.MappingNode, *ast.MappingValueNode:
					v, ok := l.value(a.val, sid, 0)
					if ok {
						p.Args = append(p.Args, Assign{Key: a.key, Expr: rules.Literal(v), Src: rules.Literal(v).String(), Pos: a.valPos})
					}
				default:
					if as, ok := l.valuer(a, sid, fmt.Sprintf("plugin arg %q", a.key), a.key); ok {
						p.Args = append(p.Args, as)
					}
				}
			}
		}
	}
	if ie, ok := m.get("into"); ok {
		p.Into, _ = l.word(ie, sid, "plugin into")
	}
	return p
}

// loop reads `loop:`; its target is checked once the chart is read
// (checkLoops).
func (l *loader) loop(e entry, sid string, c *chartCtx) *LoopSpec {
	m, ok := l.asMap(e.val, e.keyPos, sid, "loop")
	if !ok {
		return nil
	}
	l.known(m, sid, "loop", loopKeys...)
	lp := &LoopSpec{Max: DefaultLoopMax}
	if te, ok := m.get("to"); !ok {
		l.missing(m, "to", e.keyPos, sid, "loop has no to: name the earlier stage to jump back to")
	} else if to, ok := l.word(te, sid, "loop to"); ok {
		lp.To = to
		c.loopTo[lp] = te.valPos
	}
	if we, ok := m.get("while"); ok {
		switch v := we.val.(type) {
		case *ast.BoolNode:
			lp.While = rules.MustCompile(fmt.Sprint(v.Value))
		default:
			lp.While, _, _ = l.compile(we, sid, "loop while")
		}
	}
	if me, ok := m.get("max"); ok {
		lp.Max, _ = l.whole(me, sid, "loop max", 1)
	}
	return lp
}

// ask reads `ask:`.
func (l *loader) ask(e entry, sid string) *AskSpec {
	m, ok := l.asMap(e.val, e.keyPos, sid, "ask")
	if !ok {
		return nil
	}
	l.known(m, sid, "ask", askKeys...)
	a := &AskSpec{}
	if qe, ok := m.get("question"); !ok {
		l.missing(m, "question", e.keyPos, sid, "ask has no question: give the question to put, such as question: '\"Proceed with the restart?\"'")
	} else {
		a.Question, _ = l.valuer(qe, sid, "ask question", "question")
	}
	if xe, ok := m.get("expects"); !ok {
		l.missing(m, "expects", e.keyPos, sid, "ask has no expects: name the answers it waits for and their types, such as expects: {proceed: bool}")
	} else if xm, ok := l.asMap(xe.val, xe.keyPos, sid, "ask expects"); ok {
		if len(xm.entries) == 0 {
			l.errf(xe.valPos, sid, "ask expects is an empty map: name at least one answer and its type")
		}
		for _, x := range xm.entries {
			if t, ok := l.oneOf(x, sid, fmt.Sprintf("ask expects %q type", x.key), inputTypes...); ok {
				a.Expects = append(a.Expects, Expect{Name: x.key, Type: t})
			}
		}
	}
	return a
}

// checkLoops checks every loop of one chart's sequence: its target must be
// an earlier stage of its own sequence, or of an enclosing one reached
// through decide branches only (enclosing lists those, nearest last).
func (l *loader) checkLoops(seq []StageSpec, c *chartCtx, enclosing []string) {
	for i := range seq {
		s := &seq[i]
		earlier := make([]string, 0, len(enclosing)+i)
		earlier = append(earlier, enclosing...)
		for _, p := range seq[:i] {
			earlier = append(earlier, p.ID)
		}
		switch s.Kind {
		case "loop":
			l.checkLoop(s, c, earlier)
		case "decide":
			for _, b := range s.Branches {
				l.checkLoops(b.Stages, c, append(earlier[:len(earlier):len(earlier)], s.ID))
			}
		case "select":
			for _, b := range s.Branches {
				l.checkLoops(b.Stages, c, nil)
			}
		case "parallel":
			for _, b := range s.Parallel {
				l.checkLoops(b.Stages, c, nil)
			}
		}
	}
}

func (l *loader) checkLoop(s *StageSpec, c *chartCtx, earlier []string) {
	if s.Loop == nil || s.Loop.To == "" {
		return
	}
	to := s.Loop.To
	if contains(earlier, to) {
		return
	}
	at, ok := c.loopTo[s.Loop]
	if !ok {
		at = s.Pos
	}
	cands := "there is no earlier stage it could jump to"
	if len(earlier) > 0 {
		cands = "earlier stages it may jump to: " + strings.Join(earlier, ", ")
	}
	_, exists := c.ids[to]
	switch {
	case to == s.ID:
		l.errf(at, s.ID, "loop targets itself: a loop jumps back to an earlier stage (%s)", cands)
	case !exists:
		if near := nearest(to, earlier); near != "" {
			l.errf(at, s.ID, "loop to %q names no stage of this chart; did you mean %q? (%s)", to, near, cands)
		} else {
			l.errf(at, s.ID, "loop to %q names no stage of this chart; a foreach body or a subflow is a chart of its own and a loop cannot leave it (%s)", to, cands)
		}
	case posAfter(c.ids[to], at):
		l.errf(at, s.ID, "loop to %q names a later stage: a loop jumps back to an earlier one (%s)", to, cands)
	default:
		l.errf(at, s.ID, "loop to %q names a stage in a branch the loop is not in, or across a parallel or select branch: a loop may jump only to an earlier stage of its own sequence or of one enclosing it through decide branches (%s)", to, cands)
	}
}

func posAfter(a, b Pos) bool {
	return a.Line > b.Line || (a.Line == b.Line && a.Col > b.Col)
}
