package jsonschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Problem is one way a document breaks its schema.
type Problem struct {
	// At is the JSON pointer (RFC 6901) of the value that is wrong: "" is
	// the whole document, "/log/commits/0/index" a member of an element
	// of a member.
	At string
	// Message says in a few plain words what is wrong and what would be
	// right: `got string, want integer`.
	Message string
}

// String is `<At>: <Message>`, the whole document's At written "/" so the
// line never starts with a bare colon.
func (p Problem) String() string {
	at := p.At
	if at == "" {
		at = "/"
	}
	return at + ": " + p.Message
}

// Validate checks doc, which must be one JSON value, against s. It returns
// every problem, not only the first, each once, ordered by location in the
// document (a value before its members, array elements by index, object
// members by name) and, at one location, in the order the keywords are
// checked. A doc that satisfies s returns no problems.
//
// The error is never a schema violation: it says only that doc is not one
// JSON value (broken, or with more after it).
//
// Cost: doc is decoded in full (encoding/json) and walked once, except that
// each anyOf and oneOf walks its value once per alternative.
func (s *Schema) Validate(doc []byte) ([]Problem, error) {
	v, err := decode(doc)
	if err != nil {
		return nil, fmt.Errorf("jsonschema: the document is not JSON: %w", err)
	}
	var vd validator
	vd.validate(s.root, v)
	return tidy(vd.problems), nil
}

// validator is one walk of a document.
type validator struct {
	path     []step // where in the document the walk is
	problems []Problem
	// first stops the walk at its first problem: an alternative of anyOf
	// or oneOf needs only a yes or no, and one reason for a no.
	first bool
}

// step is one member (index < 0) or element of the path.
type step struct {
	key   string
	index int
}

func (vd *validator) addf(format string, a ...any) {
	vd.problems = append(vd.problems, Problem{At: vd.at(), Message: fmt.Sprintf(format, a...)})
}

func (vd *validator) stopped() bool { return vd.first && len(vd.problems) > 0 }

func (vd *validator) at() string {
	var b strings.Builder
	for _, s := range vd.path {
		b.WriteByte('/')
		if s.index >= 0 {
			b.WriteString(strconv.Itoa(s.index))
		} else {
			b.WriteString(escapeToken(s.key))
		}
	}
	return b.String()
}

// validate applies n to v, in a fixed keyword order. A value of the wrong
// type gets that one problem: what the other keywords would add about it is
// noise.
func (vd *validator) validate(n *node, v any) {
	if n.never {
		vd.addf("no value is allowed here")
		return
	}
	if n.ref != nil {
		if vd.validate(n.ref, v); vd.stopped() {
			return
		}
	}
	if n.types != 0 && !n.types.admits(v) {
		vd.addf("got %s, want %s", kindName(v), n.typeWords)
		return
	}
	if n.hasConst && !equal(v, n.constVal) {
		if vd.addf("got %s, want %s", show(v, maxShown), n.constText); vd.stopped() {
			return
		}
	}
	if n.enum != nil && !slices.ContainsFunc(n.enum, func(e any) bool { return equal(v, e) }) {
		if vd.addf("%s is not one of %s", show(v, maxShown), n.enumText); vd.stopped() {
			return
		}
	}
	switch v := v.(type) {
	case json.Number:
		vd.number(n, v)
	case string:
		vd.string(n, v)
	case []any:
		vd.array(n, v)
	case map[string]any:
		vd.object(n, v)
	}
	if vd.stopped() {
		return
	}
	for _, sub := range n.allOf {
		if vd.validate(sub, v); vd.stopped() {
			return
		}
	}
	if n.anyOf != nil {
		vd.anyOf(n.anyOf, v)
	}
	if n.oneOf != nil && !vd.stopped() {
		vd.oneOf(n.oneOf, v)
	}
}

// maxShown bounds how many bytes of a document's value a message quotes.
const maxShown = 40

func (vd *validator) number(n *node, v json.Number) {
	if n.minimum == nil && n.maximum == nil {
		return
	}
	d, _ := parseDecimal(string(v)) // the decoder has checked the syntax
	if n.minimum != nil && d.compare(n.minimum.d) < 0 {
		if vd.addf("got %s, want at least %s", show(v, maxShown), n.minimum.text); vd.stopped() {
			return
		}
	}
	if n.maximum != nil && d.compare(n.maximum.d) > 0 {
		vd.addf("got %s, want at most %s", show(v, maxShown), n.maximum.text)
	}
}

func (vd *validator) string(n *node, v string) {
	if n.minLength != nil || n.maxLength != nil {
		count := utf8.RuneCountInString(v)
		if n.minLength != nil && count < *n.minLength {
			if vd.addf("has %s, want at least %d", plural(count, "character"), *n.minLength); vd.stopped() {
				return
			}
		}
		if n.maxLength != nil && count > *n.maxLength {
			if vd.addf("has %s, want at most %d", plural(count, "character"), *n.maxLength); vd.stopped() {
				return
			}
		}
	}
	if n.pattern != nil && !n.pattern.MatchString(v) {
		vd.addf("%s does not match %s", show(v, maxShown), n.pattern)
	}
}

func (vd *validator) array(n *node, v []any) {
	if n.minItems != nil && len(v) < *n.minItems {
		if vd.addf("has %s, want at least %d", plural(len(v), "item"), *n.minItems); vd.stopped() {
			return
		}
	}
	if n.maxItems != nil && len(v) > *n.maxItems {
		if vd.addf("has %s, want at most %d", plural(len(v), "item"), *n.maxItems); vd.stopped() {
			return
		}
	}
	if n.items == nil {
		return
	}
	for i, e := range v {
		vd.path = append(vd.path, step{index: i})
		vd.validate(n.items, e)
		vd.path = vd.path[:len(vd.path)-1]
		if vd.stopped() {
			return
		}
	}
}

func (vd *validator) object(n *node, v map[string]any) {
	for _, name := range n.required {
		if _, ok := v[name]; !ok {
			if vd.addf("missing required property %q", name); vd.stopped() {
				return
			}
		}
	}
	for _, name := range n.propertyNames {
		if e, ok := v[name]; ok {
			if vd.member(n.properties[name], name, e); vd.stopped() {
				return
			}
		}
	}
	if n.additional == nil {
		return
	}
	var extra []string
	for name := range v {
		if _, ok := n.properties[name]; !ok {
			extra = append(extra, name)
		}
	}
	slices.Sort(extra)
	for _, name := range extra {
		if n.additional.never {
			// Said at the object, which is where the fix goes.
			vd.addf("property %q is not allowed", name)
		} else {
			vd.member(n.additional, name, v[name])
		}
		if vd.stopped() {
			return
		}
	}
}

func (vd *validator) member(n *node, name string, v any) {
	vd.path = append(vd.path, step{key: name, index: -1})
	vd.validate(n, v)
	vd.path = vd.path[:len(vd.path)-1]
}

func (vd *validator) anyOf(alts []*node, v any) {
	var whyNot []Problem
	for _, alt := range alts {
		p, ok := firstProblem(alt, v)
		if !ok {
			return
		}
		whyNot = append(whyNot, p)
	}
	vd.addf("matches none of anyOf's %d schemas (%s)", len(alts), reasons(whyNot))
}

func (vd *validator) oneOf(alts []*node, v any) {
	var matched []string
	var whyNot []Problem
	for i, alt := range alts {
		if p, ok := firstProblem(alt, v); ok {
			whyNot = append(whyNot, p)
		} else {
			matched = append(matched, strconv.Itoa(i))
		}
	}
	switch len(matched) {
	case 0:
		vd.addf("matches none of oneOf's %d schemas (%s)", len(alts), reasons(whyNot))
	case 1:
	default:
		vd.addf("matches oneOf's schemas %s; want exactly one", andList(matched))
	}
}

// firstProblem validates v against n up to its first problem, whose At is
// then relative to v; false when v satisfies n.
func firstProblem(n *node, v any) (Problem, bool) {
	sub := validator{first: true}
	sub.validate(n, v)
	if len(sub.problems) == 0 {
		return Problem{}, false
	}
	return sub.problems[0], true
}

// reasons lists each alternative's first problem: `0: got number, want
// null; 1: /message: got number, want string`.
func reasons(ps []Problem) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		if p.At == "" {
			parts[i] = fmt.Sprintf("%d: %s", i, p.Message)
		} else {
			parts[i] = fmt.Sprintf("%d: %s", i, p)
		}
	}
	return strings.Join(parts, "; ")
}

// tidy orders problems by location (stably: at one location, in the order
// they were found) and drops repeats, which allOf can produce.
func tidy(ps []Problem) []Problem {
	if len(ps) < 2 {
		return ps
	}
	slices.SortStableFunc(ps, func(a, b Problem) int { return comparePointers(a.At, b.At) })
	seen := make(map[Problem]bool, len(ps))
	out := ps[:0]
	for _, p := range ps {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// comparePointers orders JSON pointers as a document is read: a value
// before its members, and token by token, array indices as numbers.
func comparePointers(a, b string) int {
	for {
		if a == "" || b == "" {
			return len(a) - len(b) // one is a prefix of the other: it comes first
		}
		var ta, tb string
		ta, a = nextToken(a)
		tb, b = nextToken(b)
		if c := compareTokens(ta, tb); c != 0 {
			return c
		}
	}
}

// nextToken splits "/x/y" into "x" and "/y".
func nextToken(p string) (tok, rest string) {
	p = p[1:]
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i], p[i:]
	}
	return p, ""
}

// compareTokens orders two pointer tokens: numbers (array indices) by
// value and before names, names as strings.
func compareTokens(a, b string) int {
	an, bn := digitsOnly(a), digitsOnly(b)
	switch {
	case an && bn:
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	case an:
		return -1
	case bn:
		return 1
	}
	return strings.Compare(a, b)
}

// admits says whether v is of one of the types in t.
func (t typeSet) admits(v any) bool {
	switch v := v.(type) {
	case nil:
		return t&typeNull != 0
	case bool:
		return t&typeBoolean != 0
	case string:
		return t&typeString != 0
	case []any:
		return t&typeArray != 0
	case map[string]any:
		return t&typeObject != 0
	case json.Number:
		if t&typeNumber != 0 {
			return true
		}
		if t&typeInteger == 0 {
			return false
		}
		d, ok := parseDecimal(string(v))
		return ok && d.isInt()
	}
	return false
}

// kindName is the JSON type of a decoded value.
func kindName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case json.Number:
		return "number"
	}
	return fmt.Sprintf("a Go %T", v)
}

// equal is JSON equality: numbers by value, objects by members regardless
// of order.
func equal(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		b, ok := b.(bool)
		return ok && a == b
	case string:
		b, ok := b.(string)
		return ok && a == b
	case json.Number:
		b, ok := b.(json.Number)
		if !ok {
			return false
		}
		da, okA := parseDecimal(string(a))
		db, okB := parseDecimal(string(b))
		return okA && okB && da.compare(db) == 0
	case []any:
		b, ok := b.([]any)
		return ok && slices.EqualFunc(a, b, equal)
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok || !equal(av, bv) {
				return false
			}
		}
		return true
	}
	return false
}

// show writes v as compact JSON for a message, cut to about limit bytes
// (0: whole).
func show(v any, limit int) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	s := strings.TrimSuffix(b.String(), "\n")
	if limit <= 0 || len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// andList joins words as "a", "a and b", "a, b and c".
func andList(words []string) string {
	if len(words) <= 1 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
