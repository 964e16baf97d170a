package rules

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// Compare orders two values under the comparison law (see the package doc):
// numbers of any Go numeric type (and json.Number) compare as numbers,
// exactly — an int64, a uint64 above MaxInt64 and a float64 are never
// rounded into one another; strings compare with strings in byte order.
// It returns -1, 0 or +1 as a is less than, equal to or greater than b.
//
// Everything else is an error that says why, never a panic: booleans, null,
// lists and maps have no order (Equal tells whether they are equal), NaN has
// no order, and values of different kinds (a string and a number) do not
// compare at all.
//
//	Compare(2, 2.5)                  -1, nil
//	Compare(uint64(1<<63), int64(-1)) +1, nil
//	Compare("b", "a")                +1, nil
//	Compare("90", 90)                 0, "a string cannot be compared with a number"
func Compare(a, b any) (int, error) {
	c, reason := compare(a, b)
	if reason != "" {
		return 0, errors.New(reason)
	}
	return c, nil
}

// Equal reports whether two values are equal under the comparison law.
// Numbers are equal when they are the same number whatever their Go types
// (int 2 == float64 2.0 == json.Number "2"); NaN equals nothing. Strings,
// booleans and null equal only their own kind. Lists and maps are equal
// element by element and key by key ([]any and map[string]any directly, any
// other slice, array or string-keyed map through reflection), so
// []any{1} equals []int{1}. Other values fall back to reflect.DeepEqual.
// A typed nil pointer, map or slice counts as null.
//
// Equal is on the engine's hot path (every commit compares a written value
// with the old one): for two ints, float64s, strings or bools it neither
// reflects nor allocates.
func Equal(a, b any) bool {
	switch x := a.(type) {
	case nil:
		if b == nil {
			return true
		}
	case string:
		if y, ok := b.(string); ok {
			return x == y
		}
	case bool:
		if y, ok := b.(bool); ok {
			return x == y
		}
	case int:
		switch y := b.(type) {
		case int:
			return x == y
		case float64:
			return cmpIntFloat(int64(x), y) == 0 && !math.IsNaN(y)
		}
	case float64:
		switch y := b.(type) {
		case float64:
			return x == y
		case int:
			return cmpIntFloat(int64(y), x) == 0 && !math.IsNaN(x)
		}
	case []any:
		if y, ok := b.([]any); ok && x != nil && y != nil {
			if len(x) != len(y) {
				return false
			}
			for i := range x {
				if !Equal(x[i], y[i]) {
					return false
				}
			}
			return true
		}
	case map[string]any:
		if y, ok := b.(map[string]any); ok && x != nil && y != nil {
			if len(x) != len(y) {
				return false
			}
			for k, xv := range x {
				yv, ok := y[k]
				if !ok || !Equal(xv, yv) {
					return false
				}
			}
			return true
		}
	}
	return equalSlow(a, b)
}

// class is a value's kind under the comparison law.
type class uint8

const (
	classNil class = iota
	classBool
	classNumber
	classString
	classList
	classMap
	classOther
	numClasses
)

// WordsVersion is the version of the words this package puts on evidence
// for a person to read (condition reasons such as "key not present", and
// error sentences). It is bumped whenever one of them changes.
const WordsVersion = 1

// classWords names each class as a reason sentence says it.
var classWords = [numClasses]string{
	classNil:    "null",
	classBool:   "a boolean",
	classNumber: "a number",
	classString: "a string",
	classList:   "a list",
	classMap:    "a map",
	classOther:  "a value of another kind",
}

// Reason tables, built once so that a failed condition on the hot path names
// its reason without formatting anything.
var (
	// mixedReasons[a][b]: a value of class a met one of class b.
	mixedReasons [numClasses][numClasses]string
	// unorderedReasons[c]: two values of class c were asked for an order.
	unorderedReasons = [numClasses]string{
		classNil:   "null has no order (only eq and ne apply)",
		classBool:  "booleans have no order (only eq and ne apply)",
		classList:  "lists have no order (only eq and ne apply)",
		classMap:   "maps have no order (only eq and ne apply)",
		classOther: "these values have no order (only eq and ne apply)",
	}
	// notStringReasons[c]: a string operator met a value of class c.
	notStringReasons [numClasses]string
	// noElementReasons[c]: a list holds no element of class c.
	noElementReasons [numClasses]string
)

func init() {
	for a := range numClasses {
		for b := range numClasses {
			mixedReasons[a][b] = classWords[a] + " cannot be compared with " + classWords[b]
		}
		notStringReasons[a] = "the value is " + classWords[a] + ", not a string"
		noElementReasons[a] = "no element of the list is " + classWords[a]
	}
}

const reasonNaN = "NaN has no order"

// classOf classifies a value; the common JSON-like types never reflect.
//
// It stays the comparison's own and does not ask internal/jsonv: its classes
// are wider than JSON's kinds. A comparison sees through pointers and
// interfaces, counts a typed nil as null, orders named string types and
// compares any slice, array or string-keyed map ([]int{1} equals []any{1}),
// where jsonv calls all of these "not a JSON value"; and toNum reads every
// number exactly (int64 and uint64 never through a float64), which
// jsonv.Float does not promise. On the values both judge — JSON-shaped ones
// — they agree that the same Go types are numbers; TestNumbersAgreeWithJSONV
// holds them to it.
func classOf(v any) class {
	switch x := v.(type) {
	case nil:
		return classNil
	case bool:
		return classBool
	case string:
		return classString
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr,
		float32, float64, json.Number:
		return classNumber
	case []any:
		if x == nil {
			return classNil
		}
		return classList
	case map[string]any:
		if x == nil {
			return classNil
		}
		return classMap
	}
	return classOfValue(reflect.ValueOf(v))
}

func classOfValue(rv reflect.Value) class {
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return classNil
		}
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.Invalid:
		return classNil
	case reflect.Bool:
		return classBool
	case reflect.String:
		if rv.Type() == jsonNumberType {
			return classNumber
		}
		return classString
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return classNumber
	case reflect.Slice:
		if rv.IsNil() {
			return classNil
		}
		return classList
	case reflect.Array:
		return classList
	case reflect.Map:
		if rv.IsNil() {
			return classNil
		}
		return classMap
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		if rv.IsNil() {
			return classNil
		}
	}
	return classOther
}

var jsonNumberType = reflect.TypeFor[json.Number]()

// compare is Compare without the error allocation: a non-empty reason means
// the values have no order.
func compare(a, b any) (int, string) {
	// Fast paths: the types a JSON-fed scope holds.
	switch x := a.(type) {
	case int:
		switch y := b.(type) {
		case int:
			return cmpOrdered(x, y), ""
		case float64:
			if math.IsNaN(y) {
				return 0, reasonNaN
			}
			return cmpIntFloat(int64(x), y), ""
		}
	case float64:
		switch y := b.(type) {
		case float64:
			if math.IsNaN(x) || math.IsNaN(y) {
				return 0, reasonNaN
			}
			return cmpOrdered(x, y), ""
		case int:
			if math.IsNaN(x) {
				return 0, reasonNaN
			}
			return -cmpIntFloat(int64(y), x), ""
		}
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y), ""
		}
	}
	ca, cb := classOf(a), classOf(b)
	if ca != cb {
		return 0, mixedReasons[ca][cb]
	}
	switch ca {
	case classNumber:
		na, ra := toNum(a)
		if ra != "" {
			return 0, ra
		}
		nb, rb := toNum(b)
		if rb != "" {
			return 0, rb
		}
		return cmpNum(na, nb)
	case classString:
		sa, _ := asString(a)
		sb, _ := asString(b)
		return strings.Compare(sa, sb), ""
	}
	return 0, unorderedReasons[ca]
}

// equalCheck is the judgement behind eq and ne: null equals only null and
// meets anything without complaint; other values of different classes are
// a reason, not an inequality.
func equalCheck(a any, ca class, b any, cb class) (bool, string) {
	if ca != cb && ca != classNil && cb != classNil {
		return false, mixedReasons[ca][cb]
	}
	return Equal(a, b), ""
}

func cmpOrdered[T int | int64 | uint64 | float64 | string](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// num is a number in the widest exact form its Go type allows.
type num struct {
	kind numKind
	i    int64
	u    uint64
	f    float64
}

type numKind uint8

const (
	numInt numKind = iota
	numUint
	numFloat
)

// toNum reads a value of class number; a json.Number that does not parse is
// a reason.
func toNum(v any) (num, string) {
	switch x := v.(type) {
	case int:
		return num{kind: numInt, i: int64(x)}, ""
	case int8:
		return num{kind: numInt, i: int64(x)}, ""
	case int16:
		return num{kind: numInt, i: int64(x)}, ""
	case int32:
		return num{kind: numInt, i: int64(x)}, ""
	case int64:
		return num{kind: numInt, i: x}, ""
	case uint:
		return num{kind: numUint, u: uint64(x)}, ""
	case uint8:
		return num{kind: numUint, u: uint64(x)}, ""
	case uint16:
		return num{kind: numUint, u: uint64(x)}, ""
	case uint32:
		return num{kind: numUint, u: uint64(x)}, ""
	case uint64:
		return num{kind: numUint, u: x}, ""
	case uintptr:
		return num{kind: numUint, u: uint64(x)}, ""
	case float32:
		return num{kind: numFloat, f: float64(x)}, ""
	case float64:
		return num{kind: numFloat, f: x}, ""
	case json.Number:
		return parseNumber(string(x))
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return num{kind: numInt, i: rv.Int()}, ""
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return num{kind: numUint, u: rv.Uint()}, ""
	case reflect.Float32, reflect.Float64:
		return num{kind: numFloat, f: rv.Float()}, ""
	case reflect.String:
		if rv.Type() == jsonNumberType {
			return parseNumber(rv.String())
		}
	}
	return num{}, "the value is not a number"
}

// parseNumber reads a json.Number: as an int64 or a uint64 when it is an
// integer that fits, else as a float64 (a wider integer loses precision).
func parseNumber(s string) (num, string) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return num{kind: numInt, i: i}, ""
	}
	if u, err := strconv.ParseUint(s, 10, 64); err == nil {
		return num{kind: numUint, u: u}, ""
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return num{}, "json.Number " + strconv.Quote(s) + " is not a number"
	}
	return num{kind: numFloat, f: f}, ""
}

// cmpNum compares two numbers exactly.
func cmpNum(a, b num) (int, string) {
	if (a.kind == numFloat && math.IsNaN(a.f)) || (b.kind == numFloat && math.IsNaN(b.f)) {
		return 0, reasonNaN
	}
	switch a.kind {
	case numInt:
		switch b.kind {
		case numInt:
			return cmpOrdered(a.i, b.i), ""
		case numUint:
			return cmpIntUint(a.i, b.u), ""
		default:
			return cmpIntFloat(a.i, b.f), ""
		}
	case numUint:
		switch b.kind {
		case numInt:
			return -cmpIntUint(b.i, a.u), ""
		case numUint:
			return cmpOrdered(a.u, b.u), ""
		default:
			return cmpUintFloat(a.u, b.f), ""
		}
	default:
		switch b.kind {
		case numInt:
			return -cmpIntFloat(b.i, a.f), ""
		case numUint:
			return -cmpUintFloat(b.u, a.f), ""
		default:
			return cmpOrdered(a.f, b.f), ""
		}
	}
}

func cmpIntUint(i int64, u uint64) int {
	if i < 0 {
		return -1
	}
	return cmpOrdered(uint64(i), u)
}

// cmpIntFloat compares an int64 with a float64 (not NaN) exactly: no
// rounding of the int into a float.
func cmpIntFloat(i int64, f float64) int {
	const two63 = 9223372036854775808.0 // 2^63, exact in a float64
	switch {
	case f >= two63:
		return -1
	case f < -two63:
		return 1
	}
	t := math.Trunc(f) // in [-2^63, 2^63): exact as an int64
	if c := cmpOrdered(i, int64(t)); c != 0 {
		return c
	}
	// Same integer part: the fraction decides.
	return cmpOrdered(t, f)
}

// cmpUintFloat compares a uint64 with a float64 (not NaN) exactly.
func cmpUintFloat(u uint64, f float64) int {
	const two64 = 18446744073709551616.0 // 2^64
	switch {
	case f < 0:
		return 1
	case f >= two64:
		return -1
	}
	t := math.Trunc(f)
	if c := cmpOrdered(u, uint64(t)); c != 0 {
		return c
	}
	return cmpOrdered(t, f)
}

// asString reads a string or a value of a named string type (json.Number
// excluded: it is a number).
func asString(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number, nil:
		return "", false
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return "", false
		}
		rv = rv.Elem()
	}
	if rv.Kind() == reflect.String && rv.Type() != jsonNumberType {
		return rv.String(), true
	}
	return "", false
}

// equalSlow is Equal for everything the fast paths did not settle.
func equalSlow(a, b any) bool {
	ca, cb := classOf(a), classOf(b)
	if ca != cb {
		return false
	}
	switch ca {
	case classNil:
		return true
	case classNumber:
		na, ra := toNum(a)
		nb, rb := toNum(b)
		if ra != "" || rb != "" {
			return false
		}
		c, reason := cmpNum(na, nb)
		return reason == "" && c == 0
	case classString:
		sa, _ := asString(a)
		sb, _ := asString(b)
		return sa == sb
	case classBool:
		return deref(reflect.ValueOf(a)).Bool() == deref(reflect.ValueOf(b)).Bool()
	case classList:
		return equalLists(deref(reflect.ValueOf(a)), deref(reflect.ValueOf(b)))
	case classMap:
		return equalMaps(deref(reflect.ValueOf(a)), deref(reflect.ValueOf(b)))
	}
	return reflect.DeepEqual(a, b)
}

func deref(rv reflect.Value) reflect.Value {
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return rv
		}
		rv = rv.Elem()
	}
	return rv
}

func equalLists(a, b reflect.Value) bool {
	if a.Len() != b.Len() {
		return false
	}
	for i := range a.Len() {
		if !Equal(a.Index(i).Interface(), b.Index(i).Interface()) {
			return false
		}
	}
	return true
}

func equalMaps(a, b reflect.Value) bool {
	if a.Len() != b.Len() {
		return false
	}
	ka, kb := a.Type().Key(), b.Type().Key()
	byString := ka.Kind() == reflect.String && kb.Kind() == reflect.String
	if !byString && ka != kb {
		return false
	}
	it := a.MapRange()
	for it.Next() {
		k := it.Key()
		if byString && ka != kb {
			k = reflect.ValueOf(k.String()).Convert(kb)
		}
		bv := b.MapIndex(k)
		if !bv.IsValid() || !Equal(it.Value().Interface(), bv.Interface()) {
			return false
		}
	}
	return true
}
