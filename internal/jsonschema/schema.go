package jsonschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Schema is a compiled schema. It is never changed after Compile, so one
// Schema may validate from many goroutines at once.
type Schema struct {
	root *node
}

// draft2020 is the one $schema a schema may name.
const draft2020 = "https://json-schema.org/draft/2020-12/schema"

// Compile parses and checks schema once, for any number of Validate calls.
// It refuses a schema that is not JSON, that uses a keyword this package
// does not implement (see the package doc), that gives a keyword a value
// of the wrong shape, whose pattern Go's regexp cannot compile, whose $ref
// names no schema in the document, or whose $refs (through allOf, anyOf
// and oneOf) loop without descending into the document being validated,
// which would never end. Its error lists every refusal, each as
// `jsonschema: <schema location>: <what is wrong>`, the location a JSON
// pointer fragment such as #/$defs/commit/properties/index.
//
// Cost: one pass over the schema; nothing is compiled lazily later.
func Compile(schema []byte) (*Schema, error) {
	doc, err := decode(schema)
	if err != nil {
		return nil, fmt.Errorf("jsonschema: the schema is not JSON: %w", err)
	}
	c := &compiler{at: map[string]*node{}}
	root := c.schema(doc, "")
	c.resolveRefs()
	c.findLoops(root)
	if len(c.errs) > 0 {
		return nil, errors.Join(c.errs...)
	}
	return &Schema{root: root}, nil
}

// node is one compiled schema object (or boolean schema). A zero value in
// a field means the keyword is absent.
type node struct {
	loc   string // its schema location, a JSON pointer ("" is the root)
	never bool   // the false schema

	ref *node

	types     typeSet
	typeWords string // "object or null", for messages

	hasConst  bool
	constVal  any
	constText string

	enum     []any // nil when absent; empty when the schema says []
	enumText string

	minimum, maximum         *bound
	minLength, maxLength     *int
	minItems, maxItems       *int
	pattern                  *regexp.Regexp
	items                    *node
	required                 []string
	properties               map[string]*node
	propertyNames            []string // sorted, so problems come out in a fixed order
	additional               *node
	allOf, anyOf, oneOf      []*node
	pendingRef, pendingRefAt string // $ref's text and location until resolveRefs
}

// bound is a minimum or maximum: its value and its text as written.
type bound struct {
	d    decimal
	text string
}

// typeSet is a set of JSON Schema type names.
type typeSet uint8

const (
	typeNull typeSet = 1 << iota
	typeBoolean
	typeObject
	typeArray
	typeNumber
	typeString
	typeInteger
)

// typeByName is the type a name in a type keyword stands for; 0 for none.
func typeByName(name string) typeSet {
	switch name {
	case "null":
		return typeNull
	case "boolean":
		return typeBoolean
	case "object":
		return typeObject
	case "array":
		return typeArray
	case "number":
		return typeNumber
	case "string":
		return typeString
	case "integer":
		return typeInteger
	}
	return 0
}

// compiler holds one Compile's working state.
type compiler struct {
	at      map[string]*node // every compiled schema by location, for $ref
	pending []*node          // nodes whose $ref is not yet resolved
	errs    []error
}

func (c *compiler) fail(loc, format string, a ...any) {
	c.errs = append(c.errs, fmt.Errorf("jsonschema: #%s: %s", loc, fmt.Sprintf(format, a...)))
}

// schema compiles the schema v found at location loc.
func (c *compiler) schema(v any, loc string) *node {
	n := &node{loc: loc}
	c.at[loc] = n
	var obj map[string]any
	switch v := v.(type) {
	case bool:
		n.never = !v
		return n
	case map[string]any:
		obj = v
	default:
		c.fail(loc, "a schema must be an object, true or false; got %s", kindName(v))
		return n
	}
	for _, key := range slices.Sorted(maps.Keys(obj)) {
		c.keyword(n, key, obj[key], loc+"/"+escapeToken(key))
	}
	return n
}

// keyword compiles one keyword of n; at is the keyword's own location.
func (c *compiler) keyword(n *node, key string, v any, at string) {
	switch key {
	case "$schema":
		s, ok := v.(string)
		switch {
		case n.loc != "":
			c.fail(at, "$schema is allowed only at the root")
		case !ok || strings.TrimSuffix(s, "#") != draft2020:
			c.fail(at, "$schema must be %q: only draft 2020-12 is implemented", draft2020)
		}
	case "$id":
		if _, ok := v.(string); !ok {
			c.fail(at, "$id must be a string")
		} else if n.loc != "" {
			// A nested $id starts a new base for the $refs under it.
			c.fail(at, "$id is allowed only at the root: embedded resources are not supported")
		}
	case "title", "description", "$comment":
		if _, ok := v.(string); !ok {
			c.fail(at, "%s must be a string", key)
		}
	case "default":
	case "examples":
		if _, ok := v.([]any); !ok {
			c.fail(at, "examples must be an array")
		}
	case "type":
		c.types(n, v, at)
	case "const":
		n.hasConst, n.constVal, n.constText = true, v, show(v, 0)
	case "enum":
		arr, ok := v.([]any)
		if !ok {
			c.fail(at, "enum must be an array")
			return
		}
		n.enum, n.enumText = arr, show(arr, 0) // [] decodes non-nil: it admits nothing
	case "minimum", "maximum":
		num, ok := v.(json.Number)
		d, ok2 := parseDecimal(string(num))
		if !ok || !ok2 {
			c.fail(at, "%s must be a number", key)
			return
		}
		b := &bound{d: d, text: string(num)}
		if key == "minimum" {
			n.minimum = b
		} else {
			n.maximum = b
		}
	case "minLength", "maxLength", "minItems", "maxItems":
		num, ok := v.(json.Number)
		d, ok2 := parseDecimal(string(num))
		if !ok || !ok2 || !d.isInt() || d.neg {
			c.fail(at, "%s must be a whole number, 0 or more", key)
			return
		}
		i := d.toInt()
		switch key {
		case "minLength":
			n.minLength = &i
		case "maxLength":
			n.maxLength = &i
		case "minItems":
			n.minItems = &i
		case "maxItems":
			n.maxItems = &i
		}
	case "pattern":
		s, ok := v.(string)
		if !ok {
			c.fail(at, "pattern must be a string")
			return
		}
		re, err := regexp.Compile(s)
		if err != nil {
			c.fail(at, "pattern %q is not a Go regular expression (RE2 syntax): %v", s, err)
			return
		}
		n.pattern = re
	case "items":
		n.items = c.schema(v, at)
	case "additionalProperties":
		n.additional = c.schema(v, at)
	case "properties":
		obj, ok := v.(map[string]any)
		if !ok {
			c.fail(at, "properties must be an object of schemas")
			return
		}
		n.properties = make(map[string]*node, len(obj))
		n.propertyNames = slices.Sorted(maps.Keys(obj))
		for _, name := range n.propertyNames {
			n.properties[name] = c.schema(obj[name], at+"/"+escapeToken(name))
		}
	case "$defs":
		obj, ok := v.(map[string]any)
		if !ok {
			c.fail(at, "$defs must be an object of schemas")
			return
		}
		for _, name := range slices.Sorted(maps.Keys(obj)) {
			c.schema(obj[name], at+"/"+escapeToken(name))
		}
	case "required":
		c.required(n, v, at)
	case "allOf", "anyOf", "oneOf":
		arr, ok := v.([]any)
		if !ok || len(arr) == 0 {
			c.fail(at, "%s must be a non-empty array of schemas", key)
			return
		}
		subs := make([]*node, len(arr))
		for i, s := range arr {
			subs[i] = c.schema(s, fmt.Sprintf("%s/%d", at, i))
		}
		switch key {
		case "allOf":
			n.allOf = subs
		case "anyOf":
			n.anyOf = subs
		case "oneOf":
			n.oneOf = subs
		}
	case "$ref":
		s, ok := v.(string)
		if !ok {
			c.fail(at, "$ref must be a string")
			return
		}
		n.pendingRef, n.pendingRefAt = s, at
		c.pending = append(c.pending, n)
	default:
		c.fail(n.loc, "keyword %q is not supported (the package doc lists those that are)", key)
	}
}

func (c *compiler) types(n *node, v any, at string) {
	var names []string
	switch v := v.(type) {
	case string:
		names = []string{v}
	case []any:
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				c.fail(at, "type must be a type name or an array of them")
				return
			}
			names = append(names, s)
		}
	default:
		c.fail(at, "type must be a type name or an array of them")
		return
	}
	if len(names) == 0 {
		c.fail(at, "type must name at least one type")
		return
	}
	for _, name := range names {
		bit := typeByName(name)
		switch {
		case bit == 0:
			c.fail(at, "%q is not a type: want null, boolean, object, array, number, string or integer", name)
			return
		case n.types&bit != 0:
			c.fail(at, "type names %q twice", name)
			return
		}
		n.types |= bit
	}
	n.typeWords = orList(names)
}

func (c *compiler) required(n *node, v any, at string) {
	arr, ok := v.([]any)
	if !ok {
		c.fail(at, "required must be an array of property names")
		return
	}
	for _, e := range arr {
		s, ok := e.(string)
		if !ok {
			c.fail(at, "required must be an array of property names")
			return
		}
		if slices.Contains(n.required, s) {
			c.fail(at, "required names %q twice", s)
			return
		}
		n.required = append(n.required, s)
	}
}

// resolveRefs points each $ref at the schema it names. Only references
// within the one schema are implemented: "#" and "#/json/pointer" (RFC
// 6901, ~0 and ~1 escapes, the fragment percent-decoded as a URI's is).
func (c *compiler) resolveRefs() {
	for _, n := range c.pending {
		ref, at := n.pendingRef, n.pendingRefAt
		n.pendingRef, n.pendingRefAt = "", ""
		loc, err := refLocation(ref)
		if err != nil {
			c.fail(at, "$ref %q: %v", ref, err)
			continue
		}
		target, ok := c.at[loc]
		if !ok {
			c.fail(at, "$ref %q: no schema at #%s", ref, loc)
			continue
		}
		n.ref = target
	}
	c.pending = nil
}

// refLocation turns a $ref into the canonical location compiled schemas
// are filed under.
func refLocation(ref string) (string, error) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return "", errors.New(`only references within this schema ("#" or "#/json/pointer") are supported`)
	}
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return "", fmt.Errorf("not a valid URI fragment: %v", err)
	}
	if frag == "" {
		return "", nil
	}
	if !strings.HasPrefix(frag, "/") {
		return "", errors.New(`anchors are not supported: use a JSON pointer ("#/$defs/name")`)
	}
	var b strings.Builder
	for tok := range strings.SplitSeq(frag[1:], "/") {
		t, ok := unescapeToken(tok)
		if !ok {
			return "", fmt.Errorf("%q is not a JSON pointer token: ~ must be followed by 0 or 1", tok)
		}
		b.WriteString("/" + escapeToken(t))
	}
	return b.String(), nil
}

// findLoops refuses $refs that come back to where they started without
// descending into the instance (through $ref, allOf, anyOf and oneOf only):
// validating with them would never end. A loop through items or
// properties is fine: each turn goes one level deeper into a finite
// document.
func (c *compiler) findLoops(root *node) {
	const (
		unseen = iota
		open
		done
	)
	state := map[*node]int{}
	var stack []*node
	var visit func(n *node)
	visit = func(n *node) {
		switch state[n] {
		case open:
			var locs []string
			for _, s := range stack[slices.Index(stack, n):] {
				locs = append(locs, "#"+s.loc)
			}
			locs = append(locs, "#"+n.loc)
			c.fail(n.loc, "$ref loops without descending into the document: %s", strings.Join(locs, " → "))
			return
		case done:
			return
		}
		state[n] = open
		stack = append(stack, n)
		for _, next := range sameInstance(n) {
			visit(next)
		}
		stack = stack[:len(stack)-1]
		state[n] = done
	}
	// Every compiled node, not only those reachable from the root: a
	// loop in an unused $defs entry is a latent bug too.
	visit(root)
	for _, loc := range slices.Sorted(maps.Keys(c.at)) {
		visit(c.at[loc])
	}
}

// sameInstance lists the schemas n applies to the very value it is given.
func sameInstance(n *node) []*node {
	var out []*node
	if n.ref != nil {
		out = append(out, n.ref)
	}
	out = append(out, n.allOf...)
	out = append(out, n.anyOf...)
	return append(out, n.oneOf...)
}

// decode reads one JSON value, numbers kept exact (json.Number), and
// nothing after it but white space.
func decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("more after the value (at byte %d)", dec.InputOffset())
	}
	return v, nil
}

// escapeToken and unescapeToken are RFC 6901's reference token escapes.
func escapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func unescapeToken(s string) (string, bool) {
	if !strings.Contains(s, "~") {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '~' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 == len(s) || (s[i+1] != '0' && s[i+1] != '1') {
			return "", false
		}
		b.WriteByte("~/"[s[i+1]-'0'])
		i++
	}
	return b.String(), true
}

// orList joins words as "a", "a or b", "a, b or c".
func orList(words []string) string {
	if len(words) <= 1 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
