package chart

import (
	"fmt"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/openrunbook/runbook/internal/suggest"
)

// The stage keys, in the order chart-yaml.md lists them.
var (
	commonKeys  = []string{"id", "name", "description", "timeout", "retry", "onError"}
	kindKeys    = []string{"set", "exec", "read", "decide", "select", "parallel", "foreach", "subflow", "plugin", "verdict", "loop", "fail", "ask"}
	stageKeys   = append(append(append([]string{}, commonKeys...), kindKeys...), "branches")
	retryKeys   = []string{"attempts", "backoff", "maxBackoff", "jitter", "on"}
	execKeys    = []string{"command", "shell", "timeout", "env", "envFrom", "parse", "into", "dir", "stdin", "exitCodes", "exitBits", "inheritEnv", "maxOutput"}
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

// kindBlockKeys are the keys of each kind's block, for a key written
// beside the block instead of in it.
var kindBlockKeys = map[string][]string{
	"exec": execKeys, "read": readKeys, "decide": decideKeys, "select": selectKeys,
	"foreach": foreachKeys, "subflow": subflowKeys, "plugin": pluginKeys, "loop": loopKeys, "ask": askKeys,
}

// keyOfKind refuses a stage key e that is a key of the stage's kind block
// (exitCodes: or into: beside exec: rather than in it, an indent lost),
// saying so, and reports whether it did. The stage keys' list and "did you
// mean" named neither the block nor the indent.
func (l *loader) keyOfKind(m *mapping, e entry, sid string) bool {
	for _, k := range m.entries {
		if contains(kindBlockKeys[k.key], e.key) {
			l.errf(e.keyPos, sid, "unknown key %q in the stage: it is a key of %s:, so indent it under %s: (%s: {…, %s: …})", e.key, k.key, k.key, k.key, e.key)
			return true
		}
	}
	return false
}

// keyOfNoKind refuses a stage key e that is a key of a kind's block when
// the stage names no kind at all (`shell:` and `parse:` written where
// `exec: {shell: …, parse: …}` goes), saying which kind's, and reports
// whether it did: the stage keys' list named no kind.
func (l *loader) keyOfNoKind(m *mapping, e entry, sid string) bool {
	for _, k := range m.entries {
		if contains(kindKeys, k.key) {
			return false
		}
	}
	var of []string
	for _, kind := range kindKeys {
		if contains(kindBlockKeys[kind], e.key) {
			of = append(of, kind+":")
		}
	}
	if len(of) == 0 {
		return false
	}
	l.errf(e.keyPos, sid, "unknown key %q in the stage: it is a key of %s, and a stage holds its kind's keys in the kind's block: %s {%s: …}", e.key, strings.Join(of, " or "), of[0], e.key)
	return true
}

// stages reads a list of stages.
func (l *loader) stages(e entry, stage, what string) []StageSpec {
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
		if s, ok := l.stage(n, i+1); ok || s.Pos.Line > 0 {
			out = append(out, s)
		}
	}
	return out
}

// stage reads one stage: its common keys and its one kind.
func (l *loader) stage(n ast.Node, index int) (StageSpec, bool) {
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
		case !contains(stageKeys, e.key) && l.keyOfKind(m, e, sid):
		case !contains(stageKeys, e.key) && l.keyOfNoKind(m, e, sid):
		case !contains(stageKeys, e.key):
			l.unknownKey(m, e, sid, "the stage", stageKeys)
			if near := suggest.Nearest(e.key, stageKeys); contains(kindKeys, near) {
				nearKind = true
			}
		}
	}

	if ie, ok := m.get("id"); !ok {
		l.missing(m, "id", at, "", "stage %d has no id: every stage needs one (letters, digits, '-', '_', '.')", index)
	} else if id, ok := l.word(ie, "", "id"); ok {
		s.ID = id
		s.at("id", ie.valPos)
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
	if oe, ok := m.get("onError"); ok {
		s.OnError, _ = l.oneOf(oe, sid, "onError", onErrorWords...) // read_read.go
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
	case "read":
		s.Read = l.read(k, &s) // read_read.go
	case "decide", "select":
		s.Decide, s.Branches = l.decider(k, be, hasBranches, &s)
	case "parallel":
		s.Parallel = l.branches(k, sid, "parallel")
		for _, b := range s.Parallel {
			s.at("branches."+b.Name, b.Pos)
		}
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
				if suggest.Nearest(a.Key, []string{"verdict"}) != "" {
					hint = fmt.Sprintf(" (is %q meant to be verdict?)", a.Key)
				}
			}
			l.errf(k.keyPos, sid, "verdict has no verdict column: add one giving the row's word, such as verdict: '\"at-risk\"'%s", hint)
		}
	case "loop":
		s.Loop = l.loop(k, &s)
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
	m, ok := l.block(e, sid, "retry", retryKeys)
	if !ok {
		return nil
	}
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
