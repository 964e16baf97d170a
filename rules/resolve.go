package rules

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// Resolve reads a dotted path from the scope: the first segment is a
// top-level key, read with env.Get (once); each further segment steps into
// the value found so far:
//
//	map with string keys        the entry with that key (map[string]any without reflection)
//	struct, or pointer to one   the exported field with that name, or with that `json` tag name
//	slice or array              the element at that index: items.0.name, items[0].name
//	pointer, interface          what it points to
//
// A segment may be written in brackets, as an index (`items[0]`) or a quoted
// key (`labels["app.kubernetes.io/name"]`). present is false when any
// segment is missing (no such key, field or index, or a null on the way) or
// the path is malformed; a value that is present but null is (nil, true).
// Typed nil pointers, maps and slices come back as a plain nil. Resolve never
// panics.
func Resolve(env Env, path string) (value any, present bool) {
	segs, err := parsePath(path)
	if err != nil {
		return nil, false
	}
	return resolveSegs(env, segs)
}

// resolveSegs is Resolve with the path already split.
func resolveSegs(env Env, segs []string) (value any, present bool) {
	if env == nil || len(segs) == 0 {
		return nil, false
	}
	v, ok := env.Get(segs[0])
	if !ok {
		return nil, false
	}
	return stepAll(v, segs[1:])
}

// stepAll follows the rest of a path from a value already read.
func stepAll(v any, segs []string) (any, bool) {
	for _, s := range segs {
		var ok bool
		if v, ok = step(v, s); !ok {
			return nil, false
		}
	}
	return plainNil(v), true
}

// step goes one segment down.
func step(v any, seg string) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		r, ok := x[seg]
		return r, ok
	case []any:
		i, ok := index(seg, len(x))
		if !ok {
			return nil, false
		}
		return x[i], true
	case nil, string, bool, int, float64:
		return nil, false
	}
	return stepValue(reflect.ValueOf(v), seg)
}

func stepValue(rv reflect.Value, seg string) (any, bool) {
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return nil, false
		}
		rv = rv.Elem()
	}
	var out reflect.Value
	switch rv.Kind() {
	case reflect.Map:
		kt := rv.Type().Key()
		switch kt.Kind() {
		case reflect.String:
			out = rv.MapIndex(reflect.ValueOf(seg).Convert(kt))
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			i, err := strconv.ParseInt(seg, 10, 64)
			if err != nil || reflect.Zero(kt).OverflowInt(i) {
				return nil, false
			}
			out = rv.MapIndex(reflect.ValueOf(i).Convert(kt))
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			u, err := strconv.ParseUint(seg, 10, 64)
			if err != nil || reflect.Zero(kt).OverflowUint(u) {
				return nil, false
			}
			out = rv.MapIndex(reflect.ValueOf(u).Convert(kt))
		default:
			return nil, false
		}
	case reflect.Struct:
		ref, ok := structFields(rv.Type())[seg]
		if !ok {
			return nil, false
		}
		f, err := rv.FieldByIndexErr(ref.index)
		if err != nil { // through a nil embedded pointer
			return nil, false
		}
		if ref.omitted(f) {
			// The record writes no such key: a filter that read it as
			// present judged {probe.error: {exists: true}} true over a
			// Go stage's Probe{Error: ""} whose record held no error.
			return nil, false
		}
		out = f
	case reflect.Slice, reflect.Array:
		i, ok := index(seg, rv.Len())
		if !ok {
			return nil, false
		}
		out = rv.Index(i)
	default:
		return nil, false
	}
	if !out.IsValid() || !out.CanInterface() {
		return nil, false
	}
	return out.Interface(), true
}

// index reads a list index that is in range.
func index(seg string, n int) (int, bool) {
	if seg == "" || len(seg) > 18 { // 18 digits cannot overflow an int64
		return 0, false
	}
	var i int64
	for j := 0; j < len(seg); j++ {
		c := seg[j]
		if c < '0' || c > '9' {
			return 0, false
		}
		i = i*10 + int64(c-'0')
	}
	if i >= int64(n) {
		return 0, false
	}
	return int(i), true
}

// plainNil turns a typed nil (pointer, map, slice, …) into a plain nil, so
// that null is one value whatever Go type carried it.
func plainNil(v any) any {
	switch x := v.(type) {
	case nil, string, bool, int, int64, float64:
		return v
	case map[string]any:
		if x == nil {
			return nil
		}
		return v
	case []any:
		if x == nil {
			return nil
		}
		return v
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		if rv.IsNil() {
			return nil
		}
	}
	return v
}

// fieldCache maps a struct type to its field names and json tag names.
// It only grows, and a type's entry never changes once stored.
var fieldCache sync.Map // reflect.Type → map[string]fieldRef

// fieldRef is a struct field a path segment names: where it is, and
// whether encoding/json leaves it out of the record when it is empty
// (omitempty) or zero (omitzero).
type fieldRef struct {
	index     []int
	omitEmpty bool
	omitZero  bool
}

// omitted says whether the record, written by encoding/json, has no key
// for the field holding f: a filter reads such a field as absent, as
// it reads the record (runbook TestFilterReadsAnOmittedFieldAsAbsent).
func (r fieldRef) omitted(f reflect.Value) bool {
	if r.omitZero && f.IsZero() {
		return true
	}
	if !r.omitEmpty {
		return false
	}
	switch f.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return f.Len() == 0
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return f.IsZero()
	}
	return false
}

func structFields(t reflect.Type) map[string]fieldRef {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]fieldRef)
	}
	m := make(map[string]fieldRef)
	ref := func(f reflect.StructField) fieldRef {
		_, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		r := fieldRef{index: f.Index}
		for _, o := range strings.Split(opts, ",") {
			r.omitEmpty = r.omitEmpty || o == "omitempty"
			r.omitZero = r.omitZero || o == "omitzero"
		}
		return r
	}
	fields := reflect.VisibleFields(t)
	for _, f := range fields {
		if f.IsExported() {
			m[f.Name] = ref(f)
		}
	}
	// Tag names second: `json:"name"` wins over a field called name.
	for _, f := range fields {
		if !f.IsExported() {
			continue
		}
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag != "" && tag != "-" {
			m[tag] = ref(f)
		}
	}
	actual, _ := fieldCache.LoadOrStore(t, m)
	return actual.(map[string]fieldRef)
}

var errPath = errors.New("malformed path")

// parsePath splits `a.b[0]["c.d"].e` into a, b, 0, c.d, e.
func parsePath(path string) ([]string, error) {
	if path == "" {
		return nil, errPath
	}
	segs := make([]string, 0, strings.Count(path, ".")+strings.Count(path, "[")+1)
	i := 0
	for i < len(path) {
		switch path[i] {
		case '.':
			return nil, errPath // empty segment
		case '[':
			seg, n, err := bracket(path[i:])
			if err != nil {
				return nil, err
			}
			segs = append(segs, seg)
			i += n
		default:
			j := i
			for j < len(path) && path[j] != '.' && path[j] != '[' {
				j++
			}
			segs = append(segs, path[i:j])
			i = j
		}
		// After a segment: end, a dot and another segment, or a bracket.
		if i < len(path) && path[i] == '.' {
			i++
			if i == len(path) {
				return nil, errPath
			}
		} else if i < len(path) && path[i] != '[' {
			return nil, errPath
		}
	}
	return segs, nil
}

// bracket reads `[0]` or `["key"]` at the start of s: the segment and the
// bytes it took.
func bracket(s string) (string, int, error) {
	end := -1
	if len(s) > 1 && s[1] == '"' {
		// Find the closing quote, honouring escapes, then `]`.
		for j := 2; j < len(s); j++ {
			if s[j] == '\\' {
				j++
				continue
			}
			if s[j] == '"' {
				if j+1 < len(s) && s[j+1] == ']' {
					end = j + 1
				}
				break
			}
		}
		if end < 0 {
			return "", 0, errPath
		}
		key, err := strconv.Unquote(s[1:end])
		if err != nil {
			return "", 0, errPath
		}
		return key, end + 1, nil
	}
	end = strings.IndexByte(s, ']')
	if end < 2 {
		return "", 0, errPath
	}
	seg := s[1:end]
	if _, ok := index(seg, int(^uint(0)>>1)); !ok {
		return "", 0, errPath
	}
	return seg, end + 1, nil
}
