package charttest

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/internal/suggest"
)

// reader reads one test file's YAML tree, filing every problem at its
// position, in the chart loader's words (chart.LoadError).
type reader struct {
	file string
	errs chart.LoadErrors
	spec *chart.Spec // the chart under test, once loaded (failOn is held to it)
}

func (r *reader) errf(n ast.Node, format string, a ...any) {
	r.errs = append(r.errs, &chart.LoadError{Pos: r.pos(n), Msg: fmt.Sprintf(format, a...)})
}

// pos is where a node was written; a key-value pair is where its key is.
func (r *reader) pos(n ast.Node) chart.Pos {
	p := chart.Pos{File: r.file, Line: 1, Col: 1}
	if n == nil {
		return p
	}
	if mv, ok := n.(*ast.MappingValueNode); ok && mv.Key != nil {
		n = mv.Key
	}
	if m, ok := n.(*ast.MappingNode); ok && len(m.Values) > 0 {
		return r.pos(m.Values[0])
	}
	if tk := n.GetToken(); tk != nil && tk.Position != nil {
		p.Line, p.Col = max(tk.Position.Line, 1), max(tk.Position.Column, 1)
	}
	return p
}

// deref looks through tags and anchors; an alias is refused (a test file
// is short: write the value out).
func (r *reader) deref(n ast.Node) ast.Node {
	for {
		switch v := n.(type) {
		case *ast.TagNode:
			n = v.Value
		case *ast.AnchorNode:
			n = v.Value
		case *ast.AliasNode:
			r.errf(v, "an alias: a test file does not read aliases; write the value out")
			return nil
		default:
			return n
		}
	}
}

// pair is one key of a mapping, with its value node.
type pair struct {
	key  string
	node *ast.MappingValueNode
	val  ast.Node
}

// mapping reads a mapping's pairs in written order. what names it in the
// error when n is not a mapping; a repeated key is an error.
func (r *reader) mapping(n ast.Node, what string) ([]pair, bool) {
	n = r.deref(n)
	var mvs []*ast.MappingValueNode
	switch v := n.(type) {
	case *ast.MappingNode:
		mvs = v.Values
	case *ast.MappingValueNode:
		mvs = []*ast.MappingValueNode{v}
	case nil:
		return nil, false
	case *ast.NullNode:
		return nil, true
	default:
		r.errf(n, "%s is a mapping (key: value), not %s", what, kindOf(n))
		return nil, false
	}
	seen := map[string]bool{}
	out := make([]pair, 0, len(mvs))
	for _, mv := range mvs {
		k := ""
		if mv.Key != nil {
			k = mv.Key.String()
			if tk := mv.Key.GetToken(); tk != nil {
				k = tk.Value
			}
		}
		if seen[k] {
			r.errf(mv, "%s: key %q is given twice", what, k)
			continue
		}
		seen[k] = true
		out = append(out, pair{key: k, node: mv, val: mv.Value})
	}
	return out, true
}

// known refuses every key of ps not in keys, with "did you mean".
func (r *reader) known(ps []pair, what string, keys ...string) {
	for _, p := range ps {
		if contains(keys, p.key) {
			continue
		}
		msg := fmt.Sprintf("%s has no key %q", what, p.key)
		if near := suggest.Nearest(p.key, keys); near != "" {
			msg += fmt.Sprintf("; did you mean %q?", near)
		}
		sorted := append([]string(nil), keys...)
		sort.Strings(sorted)
		r.errf(p.node, "%s (keys: %s)", msg, strings.Join(sorted, ", "))
	}
}

// value is a node as a JSON value (jsonValue: whole numbers int, exactly).
func (r *reader) value(n ast.Node, what string) (any, bool) {
	n = r.deref(n)
	if n == nil {
		return nil, false
	}
	var v any
	if err := yaml.NodeToValue(n, &v); err != nil {
		r.errf(n, "%s: %v", what, err)
		return nil, false
	}
	return jsonValue(chart.ExactNumbers(n, v)), true
}

func (r *reader) str(n ast.Node, what string) (string, bool) {
	v, ok := r.value(n, what)
	if !ok {
		return "", false
	}
	s, isStr := v.(string)
	if !isStr {
		r.errf(n, "%s is a string, not %s", what, describe(v))
		return "", false
	}
	return s, true
}

// instant reads a time written in RFC 3339, with its zone
// ("2026-12-01T00:00:00Z"), as YAML gives it: text, or a timestamp.
func (r *reader) instant(n ast.Node, what string) time.Time {
	v, ok := r.value(n, what)
	if !ok {
		return time.Time{}
	}
	if t, isTime := v.(time.Time); isTime {
		return t
	}
	s, _ := v.(string)
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		r.errf(n, "%s is a time in RFC 3339 with its zone, such as 2026-12-01T00:00:00Z, not %s", what, describe(v))
		return time.Time{}
	}
	return t
}

func (r *reader) integer(n ast.Node, what string) (int, bool) {
	v, ok := r.value(n, what)
	if !ok {
		return 0, false
	}
	i, isWhole := jsonv.Whole(v)
	if !isWhole {
		r.errf(n, "%s is a whole number, not %s", what, describe(v))
		return 0, false
	}
	return i, true
}

func (r *reader) boolean(n ast.Node, what string) (bool, bool) {
	v, ok := r.value(n, what)
	if !ok {
		return false, false
	}
	b, isBool := v.(bool)
	if !isBool {
		r.errf(n, "%s is true or false, not %s", what, describe(v))
		return false, false
	}
	return b, true
}

// strings reads a list of strings (a single string is a list of one).
func (r *reader) strings(n ast.Node, what string) ([]string, bool) {
	v, ok := r.value(n, what)
	if !ok {
		return nil, false
	}
	if s, isStr := v.(string); isStr {
		return []string{s}, true
	}
	l, isList := v.([]any)
	if !isList {
		r.errf(n, "%s is a list of strings, not %s", what, describe(v))
		return nil, false
	}
	out := make([]string, 0, len(l))
	for _, e := range l {
		s, isStr := e.(string)
		if !isStr {
			r.errf(n, "%s is a list of strings; %s is not a string", what, describe(e))
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// sequence is a list's item nodes.
func (r *reader) sequence(n ast.Node, what string) ([]ast.Node, bool) {
	n = r.deref(n)
	switch v := n.(type) {
	case *ast.SequenceNode:
		return v.Values, true
	case *ast.NullNode:
		return nil, true
	case nil:
		return nil, false
	}
	r.errf(n, "%s is a list, not %s", what, kindOf(n))
	return nil, false
}

// jsonValue makes a decoded YAML value (or a record's) the JSON value the
// plugin wire reads (jsonv.DecodePlain): maps map[string]any, a whole
// number an int, exactly (2^53+1 is never rounded onto 2^53), any other a
// float64. Values so read compare by jsonv.Equal, the one equality.
func jsonValue(v any) any {
	b, err := json.Marshal(normalizeKeys(v))
	if err != nil {
		return v
	}
	out, err := jsonv.DecodePlain(b)
	if err != nil {
		return v
	}
	return out
}

func normalizeKeys(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = normalizeKeys(e)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[fmt.Sprint(k)] = normalizeKeys(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = normalizeKeys(e)
		}
		return out
	}
	return v
}

func kindOf(n ast.Node) string {
	switch n.(type) {
	case *ast.SequenceNode:
		return "a list"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	}
	return "a single value"
}

// describe names a value's kind for a message: `a string "x"`, `a number 3`.
func describe(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("a string %q", t)
	case int, float64:
		return fmt.Sprintf("a number %v", t)
	case bool:
		return fmt.Sprintf("%v", t)
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	}
	return fmt.Sprintf("%T", v)
}

func contains(l []string, s string) bool {
	for _, e := range l {
		if e == s {
			return true
		}
	}
	return false
}
