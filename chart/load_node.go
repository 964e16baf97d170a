package chart

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/internal/suggest"
	"github.com/openrunbook/runbook/rules"
)

// loader reads one chart file's YAML tree into a Spec.
type loader struct {
	s       *session
	file    string
	abs     string   // absolute path ("" for Parse with no file name)
	stack   []frame  // the charts mounting this one, outermost first, and this one
	lines   []string // the source, for block scalar positions
	anchors map[string]ast.Node
	// aliasNodes is how many nodes this file's aliases have expanded to
	// so far (bounded: MaxAliasNodes); sizes is each anchor's size in nodes.
	aliasNodes int
	sizes      map[string]int
	// templateReads are this file's template parts, for the secret check
	// (templates.go).
	templateReads []templateRead
	// named are the chart's inputs and vars, each by its name and what it
	// is ("input", "var"), for a literal key that names one (exec dir:).
	named map[string]string
}

// frame is one chart on the mount stack: its absolute path and its name as
// opened.
type frame struct{ abs, name string }

// maxDepth bounds how deep a literal value (a plugin argument, a default, a
// filter operand) may nest.
const maxDepth = 100

func (l *loader) errf(pos Pos, stage, format string, args ...any) {
	l.s.add(pos, stage, format, args...)
}

// pos is where a node was written. A mapping is where its first key is.
func (l *loader) pos(n ast.Node) Pos {
	p := Pos{File: l.file, Line: 1, Col: 1}
	if n == nil {
		return p
	}
	var tk *token.Token
	switch v := n.(type) {
	case *ast.MappingNode:
		if len(v.Values) > 0 && v.Values[0] != nil && v.Values[0].Key != nil {
			tk = v.Values[0].Key.GetToken()
		} else {
			tk = v.Start
		}
	case *ast.MappingValueNode:
		if v.Key != nil {
			tk = v.Key.GetToken()
		}
	case *ast.TagNode:
		tk = v.Start
	case *ast.AnchorNode:
		tk = v.Start
	case *ast.AliasNode:
		tk = v.Start
	default:
		tk = n.GetToken()
	}
	if tk != nil && tk.Position != nil {
		p.Line, p.Col = max(tk.Position.Line, 1), max(tk.Position.Column, 1)
	}
	return p
}

// collectAnchors records every anchor of the document by name (the last
// definition of a name wins where YAML would take the nearest before).
func (l *loader) collectAnchors(root ast.Node) {
	for _, n := range ast.Filter(ast.AnchorType, root) {
		a, ok := n.(*ast.AnchorNode)
		if !ok || a.Name == nil {
			continue
		}
		l.anchors[a.Name.GetToken().Value] = a.Value
	}
}

// anchorSize is how many nodes the value anchor name names holds, each
// alias inside it counted as the size of its own anchor's value, capped
// just past MaxAliasNodes. An anchor whose value holds an alias to itself
// is endless: past the cap.
func (l *loader) anchorSize(name string) int {
	if n, ok := l.sizes[name]; ok {
		return n
	}
	if l.sizes == nil {
		l.sizes = map[string]int{}
	}
	l.sizes[name] = MaxAliasNodes + 1 // while counting: an alias to itself is endless
	n := 0
	ast.Walk(visitFunc(func(node ast.Node) bool {
		if n > MaxAliasNodes {
			return false
		}
		n++
		if a, ok := node.(*ast.AliasNode); ok && a.Value != nil {
			if _, known := l.anchors[a.Value.GetToken().Value]; known {
				n += l.anchorSize(a.Value.GetToken().Value)
			}
			return false
		}
		return true
	}), l.anchors[name])
	n = min(n, MaxAliasNodes+1)
	l.sizes[name] = n
	return n
}

// sizeWords reads an anchor's size for a message.
func sizeWords(n int) string {
	if n > MaxAliasNodes {
		return fmt.Sprintf("more than %d nodes", MaxAliasNodes)
	}
	return fmt.Sprintf("%d nodes", n)
}

// visitFunc is an ast.Visitor from a function: it visits a node's children
// while f returns true.
type visitFunc func(ast.Node) bool

func (f visitFunc) Visit(n ast.Node) ast.Visitor {
	if n == nil || !f(n) {
		return nil
	}
	return f
}

// deref looks through anchors, aliases and tags to the node that holds the
// value. An alias to an unknown anchor, or one expansion too many, is an
// error; deref then returns nil.
func (l *loader) deref(n ast.Node, stage string) ast.Node {
	for range maxDepth {
		switch v := n.(type) {
		case *ast.AnchorNode:
			n = v.Value
		case *ast.TagNode:
			n = v.Value
		case *ast.AliasNode:
			name := ""
			if v.Value != nil {
				name = v.Value.GetToken().Value
			}
			target, ok := l.anchors[name]
			if !ok {
				l.errf(l.pos(v), stage, "alias *%s names no anchor: define &%s before it", name, name)
				return nil
			}
			if l.aliasNodes > MaxAliasNodes { // reported at the alias that passed it
				return nil
			}
			size := l.anchorSize(name)
			l.aliasNodes += size
			if l.aliasNodes > MaxAliasNodes {
				l.errf(l.pos(v), stage, "alias *%s passes the %d YAML nodes a file's aliases may expand to in all (an alias costs the whole value its anchor names: %s here): a chart may not multiply itself through aliases; write the value out, or share it as a subflow chart",
					name, MaxAliasNodes, sizeWords(size))
				return nil
			}
			n = target
		default:
			return n
		}
	}
	l.errf(l.pos(n), stage, "aliases nest more than %d deep", maxDepth)
	return nil
}

// entry is one key of a YAML mapping.
type entry struct {
	key    string
	keyPos Pos
	val    ast.Node // dereferenced; nil for a value that could not be
	valPos Pos
}

// mapping is a YAML mapping read in written order.
type mapping struct {
	entries []entry
	index   map[string]int
	near    map[string]bool // keys already reported (a misspelling near them, a broken alias)
}

func (m *mapping) get(key string) (entry, bool) {
	i, ok := m.index[key]
	if !ok {
		return entry{}, false
	}
	return m.entries[i], true
}

func (m *mapping) has(key string) bool { _, ok := m.index[key]; return ok }

// missing reports a required key that is not there, unless a misspelt key
// of the same map was already reported as "did you mean" it.
func (l *loader) missing(m *mapping, key string, pos Pos, stage, format string, args ...any) {
	if !m.near[key] {
		l.errf(pos, stage, format, args...)
	}
}

// asMap reads n as a mapping; what names it for the message ("the stage",
// "exec"). at is where the key that introduced it was written (its position
// when the map is empty or not a map). A key written twice is an error; the
// first is kept.
// block is the preamble of every keyed block (a stage kind's map, result:,
// retry:, …): the value must be a mapping, and each of its keys one of
// keys (an unknown key is an error with a "did you mean").
func (l *loader) block(e entry, stage, what string, keys []string) (*mapping, bool) {
	m, ok := l.asMap(e.val, e.keyPos, stage, what)
	if ok {
		l.known(m, stage, what, keys...)
	}
	return m, ok
}

func (l *loader) asMap(n ast.Node, at Pos, stage, what string) (*mapping, bool) {
	return l.asMapDepth(n, at, stage, what, 0)
}

func (l *loader) asMapDepth(n ast.Node, at Pos, stage, what string, depth int) (*mapping, bool) {
	n = l.deref(n, stage)
	var values []*ast.MappingValueNode
	switch v := n.(type) {
	case *ast.MappingNode:
		values = v.Values
	case *ast.MappingValueNode:
		values = []*ast.MappingValueNode{v}
	case nil, *ast.NullNode:
		l.errf(at, stage, "%s is empty: it needs a map", what)
		return nil, false
	default:
		l.errf(l.pos(n), stage, "%s must be a map, not %s", what, l.describe(n))
		return nil, false
	}
	m := &mapping{index: map[string]int{}, near: map[string]bool{}}
	var merged []*mapping // maps merged in with <<: their keys yield to the map's own
	for _, mv := range values {
		if mv == nil || mv.Key == nil {
			continue
		}
		if mv.Key.IsMergeKey() {
			merged = append(merged, l.mergeSources(mv.Value, stage, what, depth)...)
			continue
		}
		kn := l.deref(mv.Key, stage)
		key, ok := l.keyText(kn)
		kp := l.pos(mv.Key)
		if !ok {
			l.errf(kp, stage, "a key of %s is %s: keys are plain words", what, l.describe(kn))
			continue
		}
		if i, dup := m.index[key]; dup {
			first := m.entries[i].keyPos
			l.errf(kp, stage, "key %q is written twice in %s (first at %d:%d): write it once", key, what, first.Line, first.Col)
			continue
		}
		e := entry{key: key, keyPos: kp, valPos: kp}
		if mv.Value != nil {
			e.val = l.deref(mv.Value, stage)
			if e.val == nil { // a broken alias, already reported: as if not written, and not missed
				m.near[key] = true
				continue
			}
			if tk := e.val.GetToken(); tk == nil || tk.Type != token.ImplicitNullType {
				e.valPos = l.pos(e.val) // nothing written: point at the key
			}
		}
		m.index[key] = len(m.entries)
		m.entries = append(m.entries, e)
	}
	for _, mm := range merged {
		for _, e := range mm.entries {
			if !m.has(e.key) {
				m.index[e.key] = len(m.entries)
				m.entries = append(m.entries, e)
			}
		}
	}
	return m, true
}

// mergeSources reads the value of a merge key (<<): a map, or a list of
// maps, earlier ones winning.
func (l *loader) mergeSources(n ast.Node, stage, what string, depth int) []*mapping {
	if depth >= maxDepth {
		l.errf(l.pos(n), stage, "merge keys (<<) nest more than %d deep", maxDepth)
		return nil
	}
	n = l.deref(n, stage)
	var nodes []ast.Node
	if seq, ok := n.(*ast.SequenceNode); ok {
		nodes = append(nodes, seq.Values...)
	} else {
		nodes = []ast.Node{n}
	}
	var out []*mapping
	for _, v := range nodes {
		if m, ok := l.asMapDepth(v, l.pos(v), stage, "the value merged into "+what+" (<<)", depth+1); ok {
			out = append(out, m)
		}
	}
	return out
}

// keyText is a mapping key's text: any scalar, as written.
func (l *loader) keyText(n ast.Node) (string, bool) {
	switch v := n.(type) {
	case *ast.StringNode:
		return v.Value, true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode:
		return v.GetToken().Value, true
	}
	return "", false
}

// known refuses every key of m that is not in keys, with the nearest known
// key when one is close, or all of them when none is. It reports whether
// every key was known.
func (l *loader) known(m *mapping, stage, what string, keys ...string) bool {
	ok := true
	for _, e := range m.entries {
		if !contains(keys, e.key) {
			l.unknownKey(m, e, stage, what, keys)
			ok = false
		}
	}
	return ok
}

func (l *loader) unknownKey(m *mapping, e entry, stage, what string, keys []string) {
	if prev, whole, first, ok := l.splitByComma(m, e); ok {
		if first {
			l.errf(e.keyPos, stage, "unknown key %q in %s: a comma inside {…} ends a value, so %q was the value of %s and %q a key of its own; quote a value that holds a comma: %s: %q", e.key, what, prev.val.(*ast.StringNode).Value, prev.key, e.key, prev.key, whole)
		}
		return
	}
	if _, kind := kindBlockKeys[what]; kind && (contains(commonKeys, e.key) || e.key == "branches" && (what == "decide" || what == "select")) {
		// the reverse of keyOfKind: a stage's key indented into its kind's
		// block (onError: under exec:) was listed with the block's keys,
		// naming neither the stage nor the indent
		l.errf(e.keyPos, stage, "unknown key %q in %s: it is a key of the stage, so write it level with %s:, not inside it (- id: …, %s: {…}, %s: …)", e.key, what, what, what, e.key)
		return
	}
	if strings.HasPrefix(what, "rule ") && e.key == "default" {
		// a default: indented under the last rule, read as the rule's key
		l.errf(e.keyPos, stage, "unknown key %q in %s: it is a key of decide:, not of a rule, so write it level with rules: (decide: {rules: […], default: …})", e.key, what)
		return
	}
	if (what == "decide" || what == "select") && contains([]string{"when", "then", "label"}, e.key) {
		// a rule's key that lost its indent, read as the decider's
		l.errf(e.keyPos, stage, "unknown key %q in %s: it is a key of a rule, so indent it under its rule (rules: [{when: …, then: …, label: …}])", e.key, what)
		return
	}
	if near := suggest.Nearest(e.key, keys); near != "" {
		m.near[near] = true
		l.errf(e.keyPos, stage, "unknown key %q in %s; did you mean %q?", e.key, what, near)
		return
	}
	l.errf(e.keyPos, stage, "unknown key %q in %s (known keys: %s)", e.key, what, strings.Join(keys, ", "))
}

// splitByComma says whether e, a key with no value, is the rest of the
// entry before it, cut at a comma by a flow mapping: `{branch: ok, label:
// Ready, no pressure}` reads "no pressure" as a key. It gives that entry,
// its value whole (every piece a comma cut off it, `not ok (a, b, c)`
// read as the value "not ok (a" and the keys "b" and "c)"), and whether
// e is the first piece: the one the error is said at, once.
func (l *loader) splitByComma(m *mapping, e entry) (entry, string, bool, bool) {
	i, ok := m.index[e.key]
	if !ok || i == 0 || m.entries[i].keyPos != e.keyPos || !l.commaPiece(m.entries[i], e.keyPos.Line) {
		return entry{}, "", false, false
	}
	k := i - 1
	for k > 0 && l.commaPiece(m.entries[k], e.keyPos.Line) {
		k--
	}
	prev := m.entries[k]
	v, ok := prev.val.(*ast.StringNode)
	if !ok || prev.valPos.Line != e.keyPos.Line {
		return entry{}, "", false, false
	}
	if tk := v.GetToken(); tk == nil || tk.Type == token.DoubleQuoteType || tk.Type == token.SingleQuoteType {
		return entry{}, "", false, false
	}
	whole := v.Value
	for j := k + 1; j < len(m.entries) && l.commaPiece(m.entries[j], e.keyPos.Line); j++ {
		whole += ", " + m.entries[j].key
	}
	return prev, whole, k == i-1, true
}

// commaPiece says whether e is a key with no value on the given line,
// right after a comma: a piece a flow mapping's comma may have cut off
// the value before it (splitByComma).
func (l *loader) commaPiece(e entry, line int) bool {
	if !isNull(e.val) || e.keyPos.Line != line {
		return false
	}
	before := strings.TrimRight(string([]rune(l.line(e.keyPos.Line))[:max(0, e.keyPos.Col-1)]), " \t")
	return strings.HasSuffix(before, ",")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// describe names a node's kind for a message: "a list", "the number 5".
func (l *loader) describe(n ast.Node) string {
	switch v := n.(type) {
	case nil, *ast.NullNode:
		return "empty"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a map"
	case *ast.SequenceNode:
		return "a list"
	case *ast.IntegerNode, *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		return "the number " + v.GetToken().Value
	case *ast.BoolNode:
		return "the boolean " + v.GetToken().Value
	case *ast.StringNode:
		return fmt.Sprintf("the string %q", v.Value)
	case *ast.LiteralNode:
		return "a block of text"
	}
	return "a " + strings.ToLower(n.Type().String())
}

// text reads a scalar as the words written: a string, or a number or
// boolean as its text (`id: 7` is the id "7"). A map, a list or nothing is
// an error naming what.
func (l *loader) text(e entry, stage, what string) (string, bool) {
	switch v := e.val.(type) {
	case *ast.StringNode:
		return v.Value, true
	case *ast.LiteralNode:
		if v.Value != nil {
			return v.Value.Value, true
		}
		return "", true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode:
		return v.GetToken().Value, true
	case nil, *ast.NullNode:
		l.errf(e.valPos, stage, "%s is empty: write a value", what)
		return "", false
	}
	l.errf(e.valPos, stage, "%s must be text, not %s", what, l.describe(e.val))
	return "", false
}

// word is text that must not be empty.
func (l *loader) word(e entry, stage, what string) (string, bool) {
	s, ok := l.text(e, stage, what)
	if ok && strings.TrimSpace(s) == "" {
		l.errf(e.valPos, stage, "%s is empty: write a value", what)
		return "", false
	}
	return s, ok
}

// oneOf is a word from a fixed list.
func (l *loader) oneOf(e entry, stage, what string, choices ...string) (string, bool) {
	s, ok := l.word(e, stage, what)
	if !ok {
		return "", false
	}
	if contains(choices, s) {
		return s, true
	}
	l.errf(e.valPos, stage, "%s", notOneOf(what, s, choices))
	return "", false
}

// boolean reads true or false.
func (l *loader) boolean(e entry, stage, what string) (bool, bool) {
	if b, ok := e.val.(*ast.BoolNode); ok {
		return b.Value, true
	}
	l.errf(e.valPos, stage, "%s must be true or false, not %s", what, l.describe(e.val))
	return false, false
}

// whole reads a whole number ≥ lo.
func (l *loader) whole(e entry, stage, what string, lo int) (int, bool) {
	n, ok := intValue(e.val)
	if !ok {
		l.errf(e.valPos, stage, "%s must be a whole number ≥ %d, not %s", what, lo, l.describe(e.val))
		return 0, false
	}
	if n < int64(lo) {
		l.errf(e.valPos, stage, "%s is %d: it must be a whole number ≥ %d", what, n, lo)
		return 0, false
	}
	return int(min(n, math.MaxInt32)), true
}

// duration reads a Go duration string ("10s", "1m30s"), ≥ 0.
func (l *loader) duration(e entry, stage, what string) (time.Duration, bool) {
	switch v := e.val.(type) {
	case *ast.StringNode:
		d, err := time.ParseDuration(v.Value)
		if err != nil {
			l.errf(e.valPos, stage, "%s %q is not a duration: write a number with a unit, such as 500ms, 10s, 2m or 1h30m%s", what, v.Value, rules.DurationHint(v.Value))
			return 0, false
		}
		if d < 0 {
			l.errf(e.valPos, stage, "%s %q is negative: it must be ≥ 0", what, v.Value)
			return 0, false
		}
		return d, true
	case *ast.IntegerNode, *ast.FloatNode:
		l.errf(e.valPos, stage, "%s %s has no unit: write it with one, such as %ss", what, v.GetToken().Value, v.GetToken().Value)
		return 0, false
	}
	l.errf(e.valPos, stage, "%s must be a duration such as 10s, not %s", what, l.describe(e.val))
	return 0, false
}

// list reads a YAML list's items (dereferenced).
func (l *loader) list(e entry, stage, what string) ([]ast.Node, bool) {
	seq, ok := e.val.(*ast.SequenceNode)
	if !ok {
		if isNull(e.val) {
			l.errf(e.valPos, stage, "%s is empty: it needs a list", what)
		} else {
			l.errf(e.valPos, stage, "%s must be a list, not %s", what, l.describe(e.val))
		}
		return nil, false
	}
	out := make([]ast.Node, 0, len(seq.Values))
	for _, v := range seq.Values {
		out = append(out, l.deref(v, stage))
	}
	return out, true
}

// value turns a YAML node into the plain Go value it writes: string, int64
// (uint64 past it), float64, bool, nil, []any, map[string]any. Strings are
// taken as written, never as expressions.
func (l *loader) value(n ast.Node, stage string, depth int) (any, bool) {
	if depth > maxDepth {
		l.errf(l.pos(n), stage, "a value nested more than %d deep", maxDepth)
		return nil, false
	}
	n = l.deref(n, stage)
	switch v := n.(type) {
	case nil, *ast.NullNode:
		return nil, true
	case *ast.StringNode:
		return v.Value, true
	case *ast.LiteralNode:
		if v.Value == nil {
			return "", true
		}
		return v.Value.Value, true
	case *ast.IntegerNode:
		return wholeValue(v), true
	case *ast.FloatNode:
		return FloatValue(v), true
	case *ast.InfinityNode:
		return v.Value, true
	case *ast.NanNode:
		return math.NaN(), true
	case *ast.BoolNode:
		return v.Value, true
	case *ast.SequenceNode:
		out := make([]any, 0, len(v.Values))
		ok := true
		for _, x := range v.Values {
			val, good := l.value(x, stage, depth+1)
			ok = ok && good
			out = append(out, val)
		}
		return out, ok
	case *ast.MappingNode, *ast.MappingValueNode:
		m, ok := l.asMap(v, l.pos(v), stage, "a value")
		if !ok {
			return nil, false
		}
		out := make(map[string]any, len(m.entries))
		for _, e := range m.entries {
			val, good := l.value(e.val, stage, depth+1)
			ok = ok && good
			out[e.key] = val
		}
		return out, ok
	}
	l.errf(l.pos(n), stage, "%s is not a value a chart can hold", l.describe(n))
	return nil, false
}

// isMapNode reports whether a value is written as a mapping.
func isMapNode(n ast.Node) bool {
	switch n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return true
	}
	return false
}

// isNull reports whether a value is missing or written as null.
func isNull(n ast.Node) bool {
	if n == nil {
		return true
	}
	_, ok := n.(*ast.NullNode)
	return ok
}

// FloatValue is a YAML number with a fraction or an exponent as the
// value a chart holds: the float64, or its digits (a json.Number) where
// no float64 is the number written, as a JSON reader reads the same
// literal (jsonv.Decoded): a test's expected `debit:
// 10000000000000000.01` read as 1e16 beside the run's exact digits.
func FloatValue(v *ast.FloatNode) any {
	if v.Token == nil {
		return v.Value
	}
	n := json.Number(strings.TrimPrefix(v.Token.Value, "+"))
	if jsonv.Of(n) != jsonv.Number {
		return v.Value // YAML's own forms (.5, 1_000.5): no JSON literal to read
	}
	if d, digits := jsonv.Decoded(n).(json.Number); digits {
		return d
	}
	return v.Value
}

// ExactNumbers is v, a value decoded from the YAML node n by the YAML
// library (a test's expectation, an --inputs file), with every number
// FloatValue keeps as digits put back as its digits: the library reads
// each as the float64 nearest it.
func ExactNumbers(n ast.Node, v any) any {
	switch t := n.(type) {
	case *ast.FloatNode:
		return FloatValue(t)
	case *ast.AnchorNode:
		return ExactNumbers(t.Value, v)
	case *ast.TagNode:
		return ExactNumbers(t.Value, v)
	case *ast.DocumentNode:
		return ExactNumbers(t.Body, v)
	case *ast.SequenceNode:
		if l, ok := v.([]any); ok && len(l) == len(t.Values) {
			for i, e := range t.Values {
				l[i] = ExactNumbers(e, l[i])
			}
		}
	case *ast.MappingNode:
		for _, kv := range t.Values {
			v = ExactNumbers(kv, v)
		}
	case *ast.MappingValueNode:
		if m, ok := v.(map[string]any); ok && t.Key != nil {
			k := t.Key.String()
			if s, isString := t.Key.(*ast.StringNode); isString {
				k = s.Value
			}
			if e, has := m[k]; has {
				m[k] = ExactNumbers(t.Value, e)
			}
		}
	}
	return v
}

// wholeValue is a YAML integer as the value a chart holds: an int, as
// every other reader of a whole number makes it (jsonv.Decoded), or its
// digits (a json.Number) past int64. The YAML parser gives a uint64 for
// any integer written without a sign, and a default `maxShrink: 1000`
// was the uint 1000, whose `-maxShrink` expr wrapped to
// 18446744073709550616: `-5 < -maxShrink` held over the default and not
// over the same 1000 given with --input.
func wholeValue(v *ast.IntegerNode) any {
	switch x := v.Value.(type) {
	case int64:
		return int(x)
	case uint64:
		if x <= math.MaxInt64 {
			return int(x)
		}
		return json.Number(strconv.FormatUint(x, 10))
	}
	return v.Value
}

// intValue is a YAML integer's value; one past int64 reads as MaxInt64.
func intValue(n ast.Node) (int64, bool) {
	v, ok := n.(*ast.IntegerNode)
	if !ok {
		return 0, false
	}
	switch x := v.Value.(type) {
	case int64:
		return x, true
	case uint64:
		if x > math.MaxInt64 {
			return math.MaxInt64, true
		}
		return int64(x), true
	case int:
		return int64(x), true
	}
	return 0, false
}
