package jsonv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Kind is the kind of JSON value a Go value is.
type Kind uint8

// The JSON kinds. Invalid, the zero Kind, is a Go value that is not a JSON
// value.
const (
	Invalid Kind = iota
	Null
	Bool
	Number
	String
	List
	Object
)

var kindNames = [...]string{
	Invalid: "not JSON",
	Null:    "null",
	Bool:    "bool",
	Number:  "number",
	String:  "string",
	List:    "list",
	Object:  "object",
}

// String names the kind as a declared type does ("number", "list").
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Of is the JSON kind of v under the package's rule (see the package doc).
// For the types a JSON decoder makes it neither reflects nor allocates.
func Of(v any) Kind {
	switch x := v.(type) {
	case nil:
		return Null
	case bool:
		return Bool
	case string:
		return String
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr,
		float32, float64:
		return Number
	case json.Number:
		if validNumber(string(x)) {
			return Number
		}
		return Invalid
	case []any:
		return List
	case map[string]any:
		return Object
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return Number
	}
	return Invalid
}

// Describe names what v is, for a message: "null", "a boolean", "a number",
// "a string", "a list", "an object", or, for a value that is not JSON, its
// Go type ("[]string").
//
//	Describe(map[string]any{})   "an object"
//	Describe(struct{}{})         "struct {}"
func Describe(v any) string {
	switch Of(v) {
	case Null:
		return "null"
	case Bool:
		return "a boolean"
	case Number:
		return "a number"
	case String:
		return "a string"
	case List:
		return "a list"
	case Object:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// Float reads v as a float64 when [Of] says it is a Number. A wide integer
// rounds to the nearest float64 and a json.Number too large for one reads
// as ±Inf; use [Whole] where a count must be exact.
//
//	Float(int8(3))              3, true
//	Float(json.Number("1e3"))   1000, true
//	Float("3")                  0, false
func Float(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case json.Number:
		if !validNumber(string(x)) {
			return 0, false
		}
		f, _ := strconv.ParseFloat(string(x), 64) // a valid literal fails only out of range, as ±Inf
		return f, true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(rv.Uint()), true
	case reflect.Float32:
		return Float32(float32(rv.Float())), true
	case reflect.Float64:
		return rv.Float(), true
	}
	return 0, false
}

// Whole reads v as an int when it is a Number whose value is whole, finite
// and inside int's range, negatives included. Integer types are read
// exactly, never through a float64; 1.5, NaN, ±Inf, text and bools are not
// whole numbers.
//
//	Whole(2.0)                   2, true
//	Whole(json.Number("7"))      7, true
//	Whole(1.5)                   0, false
func Whole(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case float64:
		return wholeFloat(x)
	case json.Number:
		if !validNumber(string(x)) {
			return 0, false
		}
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return wholeInt(i)
		}
		// Digits no float64 is are past int64 when whole (ParseInt said
		// so) or have a fraction: 10000000000000000.01 is no whole 1e16.
		f, isFloat := floatOf(string(x))
		if !isFloat {
			return 0, false
		}
		return wholeFloat(f)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return wholeInt(rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if u := rv.Uint(); u <= math.MaxInt {
			return int(u), true
		}
	case reflect.Float32, reflect.Float64:
		return wholeFloat(rv.Float())
	}
	return 0, false
}

// Decoded is the Go value a JSON number literal settles into when this
// module decodes JSON: an int when it is an integer literal that fits one;
// a float64 when the float64 is the number the literal spells (floatOf);
// else the digits themselves (the json.Number), which every comparison
// reads exactly (ExactNumber). Two ids that differ in their last digits
// (12345678901234567890, past int64, prints as 12345678901234567000)
// must not read as one; nor two PostgreSQL numerics, a ledger's
// 10000000000000000.01 and 10000000000000000.00, which a float64 holds
// as the same 1e16: a check of debits against credits said "balanced".
// A number past a float64's range is its digits too, never ±Inf (a
// plugin's `1e999` would otherwise reach the scope as a number no record
// can write, and the run's record would be lost, issue #19). It is the
// plugin wire's decoding convention, and every JSON reader's here
// (Unmarshal), kept here so that every reader of a number agrees with the
// one that made it.
//
//	Decoded("3")                      3 (int)
//	Decoded("3.0")                    3.0 (float64)
//	Decoded("0.10000000000000001")    0.1 (float64: C's %.17g of 0.1)
//	Decoded("9007199254740993")       9007199254740993 (int)
//	Decoded("1e999")                  json.Number("1e999")
//	Decoded("12345678901234567890")   json.Number("12345678901234567890")
//	Decoded("10000000000000000.01")   json.Number("10000000000000000.01")
func Decoded(n json.Number) any {
	s := string(n)
	if i, err := strconv.ParseInt(s, 10, 0); err == nil {
		return int(i)
	}
	if f, ok := floatOf(s); ok {
		return f
	}
	return n
}

// floatOf is the float64 a number literal s spells, and whether a float64
// is that number as its writer meant it: false past a float64's range,
// and when the float64 nearest s prints as other digits (Holds) — save a
// literal with a fraction or an exponent that is the float's own print
// with as many digits as s has, up to 17 (printed): `0.10000000000000001`
// is C's %.17g of the float64 0.1, and jq 1.6 prints 0.1+0.2 so. Such a
// literal is the float its writer held; one with more digits than a
// float64's 17, or digits no float64 prints, is a decimal its writer
// meant exactly (a PostgreSQL numeric), and is read so.
func floatOf(s string) (float64, bool) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return f, false
	}
	if Holds(f, s) {
		return f, true
	}
	return f, strings.ContainsAny(s, ".eE") && printed(f, s)
}

// printed reports whether s is f printed in scientific notation with as
// many significant digits as s has, at most 17 (C's %.17g, jq 1.6).
func printed(f float64, s string) bool {
	mant, _, _ := strings.Cut(strings.ToLower(s), "e")
	digits := 0
	for _, c := range strings.TrimRight(strings.TrimLeft(strings.ReplaceAll(strings.TrimLeft(mant, "+-"), ".", ""), "0"), "0") {
		if c < '0' || c > '9' {
			return false
		}
		digits++
	}
	if digits == 0 || digits > 17 {
		return false
	}
	want, ok1 := new(big.Rat).SetString(s)
	got, ok2 := new(big.Rat).SetString(strconv.FormatFloat(f, 'e', digits-1, 64))
	return ok1 && ok2 && want.Cmp(got) == 0
}

// Holds reports whether f, printed as Go prints it, is the number s (a
// JSON number literal) spells: 0.1 and 1.50 are held (their digits are
// what f prints, to the last), 12345678901234567890 and
// 3.14159265358979323846 are not. A literal of at most 15 significant
// digits and a modest exponent is held without big rationals: any 15
// digits survive a round trip through a float64.
func Holds(f float64, s string) bool {
	mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	if hasExp {
		// A float64 spans 1e-324 to 1e308; past that no float holds s,
		// and big.Rat would build the power of ten to say so.
		e, err := strconv.Atoi(exp)
		if err != nil || e < -400 || e > 400 {
			return false
		}
		if e < -280 || e > 280 {
			return exactly(f, s)
		}
	}
	if len(mant) <= 20 {
		digits := 0
		for _, c := range strings.Trim(strings.TrimLeft(mant, "-"), "0.") {
			if c >= '0' && c <= '9' {
				digits++
			}
		}
		if digits <= 15 {
			return true
		}
	}
	return exactly(f, s)
}

// exactly is holds the long way: s and f's shortest form as rationals.
func exactly(f float64, s string) bool {
	want, ok1 := new(big.Rat).SetString(s)
	got, ok2 := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	return ok1 && ok2 && want.Cmp(got) == 0
}

// Fits reports whether v fits a declared type — the vocabulary inputs, ask
// answers and plugin arguments share:
//
//	""  or "any"   every value
//	"string"       a String
//	"number"       a Number (any Go numeric type, json.Number)
//	"integer"      a Number whose value is whole (2, 2.0, json.Number("7"))
//	"bool"         a Bool
//	"list"         a List ([]any)
//	"object"       an Object (map[string]any)
//	"duration"     a string time.ParseDuration reads ("90s", "1h30m"), or a time.Duration
//	anything else  every value; a declared type is checked against the
//	               vocabulary (Known) where it is declared, so none reaches
//	               here unnoticed
//
// Fits never converts: text that spells a number is a String, not a Number
// (the input reader parses `--input n=3` before asking).
func Fits(typ string, v any) bool {
	switch typ {
	case "", "any":
		return true
	case "string":
		return Of(v) == String
	case "number":
		return Of(v) == Number
	case "integer":
		return isInteger(v)
	case "bool":
		return Of(v) == Bool
	case "list":
		return Of(v) == List
	case "object":
		return Of(v) == Object
	case "duration":
		switch d := v.(type) {
		case string:
			_, err := time.ParseDuration(d)
			return err == nil
		case time.Duration:
			return true
		}
		return false
	}
	return true
}

// Types is the declared-type vocabulary Fits judges, in the order a
// message lists it.
var Types = []string{"any", "string", "number", "integer", "bool", "list", "object", "duration"}

// Known reports whether typ is in the vocabulary ("" is any). A type
// outside it would fit every value: whoever reads a declaration refuses it
// rather than let checking silently stop.
func Known(typ string) bool {
	if typ == "" {
		return true
	}
	for _, t := range Types {
		if t == typ {
			return true
		}
	}
	return false
}

// isInteger is a Number whose value is whole, of any size: an integer type,
// a float with no fraction, or a json.Number literal that reads as one.
func isInteger(v any) bool {
	if Of(v) != Number {
		return false
	}
	if _, ok := Whole(v); ok {
		return true
	}
	if x, ok := ExactNumber(v); ok && x.kind == exactRat {
		return x.r.IsInt() // 10000000000000000.01 reads as the float 1e16
	}
	f, _ := Float(v)
	return !math.IsInf(f, 0) && !math.IsNaN(f) && f == math.Trunc(f)
}

func wholeInt(i int64) (int, bool) {
	if i < math.MinInt || i > math.MaxInt {
		return 0, false
	}
	return int(i), true
}

// wholeFloat accepts a float that is whole, finite and inside int's range.
// The upper bound is written as -MinInt because MaxInt does not convert to
// a float64 exactly (it rounds up to 2^63, which is out of range).
func wholeFloat(f float64) (int, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) ||
		f < float64(math.MinInt) || f >= -float64(math.MinInt) {
		return 0, false
	}
	return int(f), true
}

// validNumber reports whether s is a JSON number literal (RFC 8259 §6):
// -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
func validNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		i = digits(s, i)
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		j := digits(s, i+1)
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

// digits returns the index after the run of ASCII digits starting at i.
func digits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// DecodePlain reads JSON text as a JSON-shaped Go value: objects as
// map[string]any, arrays as []any, numbers as Decoded reads them (an int,
// a float64, or the digits no float64 is). Empty input is nil; more than one
// value is an error. It is how the plugin wire reads a plugin's values and
// how a worker's plugin result is read back, so both read alike.
//
// JSON text is UTF-8 (RFC 8259): text that is not is refused, naming the
// first bad byte, and so is what Unmarshal refuses that encoding/json
// would read in silence (a key named twice, half a UTF-16 pair). encoding/json would read each bad byte as U+FFFD, so two
// different answers (bytes ff fe, bytes c0 c1) became one string the
// chart compared and recorded as if the plugin had sent it.
func DecodePlain(b []byte) (any, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil
	}
	if err := validUTF8(b); err != nil {
		return nil, fmt.Errorf("decode JSON: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("decode JSON: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("decode JSON: more than one value")
	}
	if err := sound(b); err != nil {
		return nil, fmt.Errorf("decode JSON: %w", err)
	}
	return decodedNumbers(v), nil
}

// decodedNumbers replaces every json.Number in v by Decoded's value.
func decodedNumbers(v any) any {
	switch t := v.(type) {
	case json.Number:
		return Decoded(t)
	case map[string]any:
		for k, e := range t {
			t[k] = decodedNumbers(e)
		}
	case []any:
		for i, e := range t {
			t[i] = decodedNumbers(e)
		}
	}
	return v
}

// validUTF8 says where b stops being UTF-8.
func validUTF8(b []byte) error {
	if utf8.Valid(b) {
		return nil
	}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return fmt.Errorf("not UTF-8: byte %d is 0x%02x, which no UTF-8 text holds there", i, b[i])
		}
		i += n
	}
	return nil
}

// InvalidUTF8 finds a string in v (a value, a map key, at any depth of
// maps, slices, arrays, pointers and struct fields) that is not UTF-8,
// which json.Marshal would write with U+FFFD in place of each bad byte: a
// value changed on its way out with no error. It returns where the first
// such string is ("" for v itself, ".key", "[2]") and whether there is one.
func InvalidUTF8(v any) (string, bool) { return unsendable(reflect.ValueOf(v), "", 0, false) }

// NotFinite finds a float in v (where InvalidUTF8 looks) that is NaN or
// ±Inf, which JSON has no text for: json.Marshal refuses the whole value
// naming neither where it is nor what to send instead. It returns where
// the first is, as InvalidUTF8 does, and whether there is one.
func NotFinite(v any) (string, bool) { return unsendable(reflect.ValueOf(v), "", 0, true) }

// unsendable walks v for InvalidUTF8 (floats false) or NotFinite (true).
func unsendable(v reflect.Value, at string, depth int, floats bool) (string, bool) {
	if !v.IsValid() || depth > 64 {
		return "", false
	}
	switch v.Kind() {
	case reflect.String:
		return at, !floats && !utf8.ValidString(v.String())
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		return at, floats && (math.IsNaN(f) || math.IsInf(f, 0))
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return "", false
		}
		return unsendable(v.Elem(), at, depth+1, floats)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return "", false // []byte marshals as base64
		}
		for i := range v.Len() {
			if w, bad := unsendable(v.Index(i), fmt.Sprintf("%s[%d]", at, i), depth+1, floats); bad {
				return w, true
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			k := fmt.Sprint(it.Key().Interface())
			if !floats && !utf8.ValidString(k) {
				return at + "." + strconv.QuoteToASCII(k) + " (the key)", true
			}
			if w, bad := unsendable(it.Value(), at+"."+k, depth+1, floats); bad {
				return w, true
			}
		}
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			if t.Field(i).IsExported() {
				if w, bad := unsendable(v.Field(i), at+"."+t.Field(i).Name, depth+1, floats); bad {
					return w, true
				}
			}
		}
	}
	return "", false
}
