package jsonv

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"
	"unicode/utf8"
)

// maxDepth bounds how deep Normalize follows nested values: a value deeper
// than this is refused rather than walked (a cycle would never end).
const maxDepth = 10_000

// Normalize turns v into the JSON value it stands for, so that
// encoding/json, the masker and every reader that asserts []any or
// map[string]any can take it. It is what every value an expression yields
// passes through before it reaches a run's scope (rules.Expr.Value):
//
//	a JSON value (see Of)                     itself, unless it holds one of the below
//	float NaN, ±Inf                           an error: JSON has no such number
//	json.Number that is not a number          an error
//	any other slice or array ([]string)       []any, each element normalized
//	any other map (map[any]any, map[int]V)    map[string]any: string keys as they are,
//	                                          numbers in plain decimal (1, 2.5),
//	                                          booleans as true/false; two keys that
//	                                          spell the same text are an error
//	named string or bool types                string, bool
//	time.Time                                 its RFC 3339 text, as encoding/json writes it
//	time.Duration                             its text, as Go writes it ("24h0m0s"): as a
//	                                          number (nanoseconds) a stored maxAge of 24h
//	                                          compared with an age in seconds, once a
//	                                          record or a resume had made it JSON, and
//	                                          read a three-day-old file as fresh
//	a pointer                                 what it points at (nil: null)
//	anything else (a struct)                  what encoding/json makes of it, read back
//
// A value that needs nothing is returned as it is, without copying; one
// that needs changes is copied, never edited in place.
//
//	Normalize(map[any]any{1: "a"})   map[string]any{"1": "a"}
//	Normalize([]string{"x"})         []any{"x"}
//	Normalize(math.NaN())            error
func Normalize(v any) (any, error) {
	return normalize(v, 0)
}

func normalize(v any, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("a value nested more than %d deep", maxDepth)
	}
	switch x := v.(type) {
	case nil, bool, string, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr:
		return v, nil
	case float64:
		return v, finite(x)
	case float32:
		return v, finite(float64(x))
	case json.Number:
		if !validNumber(string(x)) {
			return nil, fmt.Errorf("json.Number %q is not a number", string(x))
		}
		return v, nil
	case []any:
		return normalizeList(x, depth)
	case map[string]any:
		return normalizeObject(x, depth)
	case time.Time:
		return x.Format(time.RFC3339Nano), nil
	case time.Duration:
		return x.String(), nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v, nil // a named integer is a Number
	case reflect.Float32, reflect.Float64:
		return v, finite(rv.Float())
	case reflect.String:
		return rv.String(), nil
	case reflect.Bool:
		return rv.Bool(), nil
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return []any{}, nil
		}
		out := make([]any, rv.Len())
		for i := range out {
			e, err := normalize(rv.Index(i).Interface(), depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	case reflect.Map:
		return normalizeMap(rv, depth)
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil, nil
		}
		return normalize(rv.Elem().Interface(), depth+1)
	}
	return viaJSON(v)
}

func finite(f float64) error {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return &NotFiniteError{Value: f}
	}
	return nil
}

// NotFiniteError is a float NaN or ±Inf where a JSON value is wanted: JSON
// has no such number, so no record or output could hold it. Its words name
// the usual cause, for the author who wrote `used / total * 100`.
type NotFiniteError struct{ Value float64 }

func (e *NotFiniteError) Error() string {
	switch {
	case math.IsNaN(e.Value):
		return "NaN (0 / 0, or arithmetic on an infinity?), which is not a JSON number"
	case e.Value > 0:
		return "+Inf (a division by zero?), which is not a JSON number"
	}
	return "-Inf (a division by zero?), which is not a JSON number"
}

// normalizeList copies l only from the first element that changes.
func normalizeList(l []any, depth int) (any, error) {
	var out []any
	for i, e := range l {
		n, err := normalize(e, depth+1)
		if err != nil {
			return nil, err
		}
		if out == nil && !same(n, e) {
			out = make([]any, len(l))
			copy(out, l[:i])
		}
		if out != nil {
			out[i] = n
		}
	}
	if out == nil {
		return l, nil
	}
	return out, nil
}

// normalizeObject copies m only when one of its values changes.
func normalizeObject(m map[string]any, depth int) (any, error) {
	var out map[string]any
	for k, e := range m {
		n, err := normalize(e, depth+1)
		if err != nil {
			return nil, err
		}
		if out == nil && !same(n, e) {
			out = make(map[string]any, len(m))
			for k2, e2 := range m {
				out[k2] = e2
			}
		}
		if out != nil {
			out[k] = n
		}
	}
	if out == nil {
		return m, nil
	}
	return out, nil
}

func normalizeMap(rv reflect.Value, depth int) (any, error) {
	out := make(map[string]any, rv.Len())
	it := rv.MapRange()
	for it.Next() {
		k, err := keyText(it.Key())
		if err != nil {
			return nil, err
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("two keys of one map both spell %q: an object's keys must differ", k)
		}
		e, err := normalize(it.Value().Interface(), depth+1)
		if err != nil {
			return nil, err
		}
		out[k] = e
	}
	return out, nil
}

// keyText is a map key as an object key: text as it is, numbers in plain
// decimal, booleans as true and false.
func keyText(k reflect.Value) (string, error) {
	for k.Kind() == reflect.Interface || k.Kind() == reflect.Pointer {
		if k.IsNil() {
			return "null", nil
		}
		k = k.Elem()
	}
	switch k.Kind() {
	case reflect.String:
		return k.String(), nil
	case reflect.Bool:
		return strconv.FormatBool(k.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(k.Uint(), 10), nil
	case reflect.Float32, reflect.Float64:
		f := k.Float()
		if err := finite(f); err != nil {
			return "", fmt.Errorf("a map key is %w", err)
		}
		return strconv.FormatFloat(f, 'f', -1, 64), nil
	}
	if t, ok := k.Interface().(time.Time); ok {
		return t.Format(time.RFC3339Nano), nil
	}
	return fmt.Sprint(k.Interface()), nil
}

// viaJSON is what encoding/json makes of a value this package has no rule
// for (a struct), read back as JSON values.
func viaJSON(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("%T is not a JSON value: %v", v, err)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out any
	if err := d.Decode(&out); err != nil {
		return nil, fmt.Errorf("%T is not a JSON value: %v", v, err)
	}
	return settleNumbers(out), nil
}

// Settle settles, in place, every json.Number a decoder made (with
// UseNumber) in v's lists and objects, as Decoded says, and returns v: how
// a JSON value decoded by another reader (one that must see the text
// itself, an --inputs file whose keys are placed) is made the value
// Unmarshal would have made.
func Settle(v any) any {
	return settleNumbers(v)
}

// settleNumbers settles every json.Number a decoder made as Decoded says.
func settleNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		return Decoded(x)
	case []any:
		for i, e := range x {
			x[i] = settleNumbers(e)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = settleNumbers(e)
		}
	}
	return v
}

// same reports whether normalizing left e untouched: the identical
// scalar, or the same list or map (not a copy).
func same(n, e any) bool {
	switch x := e.(type) {
	case []any:
		y, ok := n.([]any)
		return ok && len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
	case map[string]any:
		y, ok := n.(map[string]any)
		return ok && reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(y).UnsafePointer()
	}
	// A scalar changes type only when it was not a JSON value (a named
	// string); comparing types is enough and never panics on an
	// uncomparable value.
	return reflect.TypeOf(n) == reflect.TypeOf(e)
}

// Writable reports whether encoding/json can write v as it is, without
// copying it: nil when it can, else why not — a float NaN or ±Inf
// anywhere in it (a *NotFiniteError), a string or key that is not UTF-8
// (encoding/json would write U+FFFD for its bytes in silence, and two
// different names as one), a []byte ([RawBytes]: its record is base64
// text no rule reads), or a value JSON has no form for (a channel, a
// function, a complex number, a cycle). It is the check for values that
// reach a scope without passing through Normalize (a stage written in Go),
// so a run's record can always be written. JSON values (see Of) are
// walked directly; any other type is asked of encoding/json itself.
func Writable(v any) error {
	return writable(v, 0)
}

func writable(v any, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("a value nested more than %d deep", maxDepth)
	}
	switch x := v.(type) {
	case nil, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, json.Number:
		return nil
	case string:
		if validText(x) {
			return nil
		}
		return fmt.Errorf("a text that is %w", validUTF8([]byte(x)))
	case float64:
		return finite(x)
	case float32:
		return finite(float64(x))
	case []any:
		for _, e := range x {
			if err := writable(e, depth+1); err != nil {
				return err
			}
		}
		return nil
	case map[string]any:
		for k, e := range x {
			if !validText(k) {
				return fmt.Errorf("a key that is %w", validUTF8([]byte(k)))
			}
			if err := writable(e, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if at, bad := InvalidUTF8(v); bad {
		return fmt.Errorf("a string at %q that is not UTF-8, which JSON would hold as U+FFFD", at)
	}
	if at, raw := RawBytes(v); raw {
		where := ""
		if at != "" {
			where = fmt.Sprintf(" at %q", at)
		}
		return fmt.Errorf("a []byte%s, which JSON writes as base64 text while a rule reads it as a list of numbers; write the text it holds, string(b)", where)
	}
	if _, err := json.Marshal(v); err != nil {
		var ue *json.UnsupportedValueError
		if errors.As(err, &ue) && ue.Value.CanFloat() {
			return finite(ue.Value.Float())
		}
		var te *json.UnsupportedTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("a %s, which JSON cannot hold", te.Type)
		}
		return err
	}
	return nil
}

// RawBytes finds a []byte in v (at any depth of maps, slices, arrays,
// pointers and exported struct fields) that encoding/json would write as
// base64: a slice of bytes with no MarshalJSON or MarshalText of its own
// (net.IP and json.RawMessage have one). Its record is text such as
// "YWN0aXZlCg==" while a rule reads a list of numbers, so
// `string(out) contains "active"` over a command's Stdout answered false
// with no error beside evidence no person could read. It returns where
// ("" for v itself, ".key", "[2]") and whether there is one.
func RawBytes(v any) (string, bool) { return rawBytes(reflect.ValueOf(v), "", 0) }

var (
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

func rawBytes(v reflect.Value, at string, depth int) (string, bool) {
	if !v.IsValid() || depth > 64 {
		return "", false
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return "", false
		}
		return rawBytes(v.Elem(), at, depth+1)
	case reflect.Slice, reflect.Array:
		t := v.Type()
		if v.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			// a nil one is written null and read as null
			return at, !v.IsNil() && !t.Implements(jsonMarshalerType) && !t.Implements(textMarshalerType)
		}
		for i := range v.Len() {
			if w, raw := rawBytes(v.Index(i), fmt.Sprintf("%s[%d]", at, i), depth+1); raw {
				return w, true
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if w, raw := rawBytes(it.Value(), at+"."+fmt.Sprint(it.Key().Interface()), depth+1); raw {
				return w, true
			}
		}
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			if f := t.Field(i); f.IsExported() && f.Tag.Get("json") != "-" {
				if w, raw := rawBytes(v.Field(i), at+"."+t.Field(i).Name, depth+1); raw {
					return w, true
				}
			}
		}
	}
	return "", false
}

// validText is utf8.ValidString, a byte at a time while the text is
// ASCII: a run's values are mostly short words and numbers, below the
// eight bytes utf8's word-at-a-time loop needs, where it steps each byte
// through its general case (about a fifth of a short run's writes).
func validText(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return utf8.ValidString(s[i:])
		}
	}
	return true
}
