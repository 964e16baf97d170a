package jsonv

import (
	"encoding/json"
	"math"
	"reflect"
	"time"
)

// Equal reports whether a and b are the same JSON value: numbers by value
// whatever their Go type (3, 3.0 and json.Number("3") are one number), and
// exactly (an int64 or a uint64 is never rounded into a float64, so
// 2^53+1 is not 2^53), lists element by element, objects key by key. A
// value that is not JSON ([Of] says Invalid), at any depth, equals
// nothing. It is how a plugin argument's enum is matched, where a chart's
// 3 and a plugin's declared 3.0 must agree.
//
//	Equal(3, 3.0)                                true
//	Equal([]any{"a", 1}, []any{"a", 1.0})        true
//	Equal("3", 3)                                false
//	Equal([]string{"a"}, []string{"a"})          false (not JSON values)
//
// It is the one equality of values: [EqualGo] is the same law over any
// Go value, which the expressions' comparisons (rules.Equal) and every
// commit use.
func Equal(a, b any) bool { return equal(a, b, false) }

// EqualGo is [Equal] over any Go value, the comparison law of rules
// (rules.Equal): it sees through pointers and interfaces, a typed nil
// pointer, map or slice (nil []any too) counts as null, a named string
// type is a string, and any slice or array is a list and any map an
// object, compared element by element and key by key ([]int{1} equals
// []any{1}); NaN equals nothing; two time.Time values are equal when
// they are the same instant (time.Time.Equal: an expression's `==`);
// other values fall back to reflect.DeepEqual. Its kinds are [GoKind]'s.
//
// It is on the engine's hot path (every commit compares a written value
// with the old one): for two ints, float64s, strings or bools it neither
// reflects nor allocates.
func EqualGo(a, b any) bool { return equal(a, b, true) }

// equal is the one law; goValues widens it from JSON values (Of) to any
// Go value (GoKind).
func equal(a, b any, goValues bool) bool {
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
			return !math.IsNaN(y) && cmpIntFloat(int64(x), y) == 0
		}
	case float64:
		switch y := b.(type) {
		case float64:
			return x == y
		case int:
			return !math.IsNaN(x) && cmpIntFloat(int64(y), x) == 0
		}
	case []any:
		if y, ok := b.([]any); ok && x != nil && y != nil {
			if len(x) != len(y) {
				return false
			}
			for i := range x {
				if !equal(x[i], y[i], goValues) {
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
				if !ok || !equal(xv, yv, goValues) {
					return false
				}
			}
			return true
		}
	}
	return equalSlow(a, b, goValues)
}

// equalSlow is equal for everything the fast paths did not settle.
func equalSlow(a, b any, goValues bool) bool {
	var ka, kb Kind
	if goValues {
		ka, kb = GoKind(a), GoKind(b)
	} else {
		ka, kb = Of(a), Of(b)
		if ka == Invalid {
			return false
		}
	}
	if ka != kb {
		return false
	}
	switch ka {
	case Null:
		return true
	case Number:
		x, okA := ExactNumber(a)
		y, okB := ExactNumber(b)
		if !okA || !okB {
			return false
		}
		c, ok := CompareExact(x, y)
		return ok && c == 0
	case String:
		x, _ := GoString(a)
		y, _ := GoString(b)
		return x == y
	case Bool:
		return deref(reflect.ValueOf(a)).Bool() == deref(reflect.ValueOf(b)).Bool()
	case List:
		return equalLists(deref(reflect.ValueOf(a)), deref(reflect.ValueOf(b)), goValues)
	case Object:
		return equalMaps(deref(reflect.ValueOf(a)), deref(reflect.ValueOf(b)), goValues)
	}
	if ta, ok := timeOf(a); ok { // Invalid: GoKind only
		tb, ok := timeOf(b)
		return ok && ta.Equal(tb)
	}
	return reflect.DeepEqual(a, b)
}

// timeOf reads a time.Time, through pointers and interfaces. Two times
// are equal when they are the same instant, as an expression's `==` has
// them: reflect.DeepEqual also compared the monotonic clock reading
// time.Now() carries and the location, so a filter's eq failed over two
// times whose evidence read the same text, and its ne held.
func timeOf(v any) (time.Time, bool) {
	if t, ok := v.(time.Time); ok {
		return t, true
	}
	rv := deref(reflect.ValueOf(v))
	if rv.IsValid() && rv.Type() == timeType {
		return rv.Interface().(time.Time), true
	}
	return time.Time{}, false
}

var timeType = reflect.TypeFor[time.Time]()

// GoKind is the kind of any Go value under [EqualGo]'s law, wider than
// [Of]'s: pointers and interfaces are seen through, a typed nil pointer,
// map, slice, func or chan (nil []any and map[string]any too) is Null, a
// named string or bool type is a String or a Bool, any slice or array is
// a List and any map an Object. json.Number is a Number whatever it
// spells (reading it may still fail: [ExactNumber]). For the types a JSON
// decoder makes it neither reflects nor allocates.
//
//	GoKind([]int{1})          List
//	GoKind((*int)(nil))       Null
//	GoKind(struct{}{})        Invalid
func GoKind(v any) Kind {
	switch x := v.(type) {
	case nil:
		return Null
	case bool:
		return Bool
	case string:
		return String
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr,
		float32, float64, json.Number:
		return Number
	case []any:
		if x == nil {
			return Null
		}
		return List
	case map[string]any:
		if x == nil {
			return Null
		}
		return Object
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return Null
		}
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.Invalid:
		return Null
	case reflect.Bool:
		return Bool
	case reflect.String:
		if rv.Type() == jsonNumberType {
			return Number
		}
		return String
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return Number
	case reflect.Slice:
		if rv.IsNil() {
			return Null
		}
		return List
	case reflect.Array:
		return List
	case reflect.Map:
		if rv.IsNil() {
			return Null
		}
		return Object
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		if rv.IsNil() {
			return Null
		}
	}
	return Invalid
}

var jsonNumberType = reflect.TypeFor[json.Number]()

// GoString reads a string or a value of a named string type, through
// pointers and interfaces (json.Number excluded: it is a number).
func GoString(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number, nil:
		return "", false
	}
	rv := deref(reflect.ValueOf(v))
	if rv.Kind() == reflect.String && rv.Type() != jsonNumberType {
		return rv.String(), true
	}
	return "", false
}

// deref sees through pointers and interfaces, stopping at a nil one.
func deref(rv reflect.Value) reflect.Value {
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return rv
		}
		rv = rv.Elem()
	}
	return rv
}

// Deref is v seen through its pointers and interfaces (stopping at a nil
// one), as [GoKind] sees it: how a caller of EqualGo's law reaches the
// list or map GoKind named.
func Deref(v any) reflect.Value { return deref(reflect.ValueOf(v)) }

func equalLists(a, b reflect.Value, goValues bool) bool {
	if a.Len() != b.Len() {
		return false
	}
	for i := range a.Len() {
		if !equal(a.Index(i).Interface(), b.Index(i).Interface(), goValues) {
			return false
		}
	}
	return true
}

func equalMaps(a, b reflect.Value, goValues bool) bool {
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
		if !bv.IsValid() || !equal(it.Value().Interface(), bv.Interface(), goValues) {
			return false
		}
	}
	return true
}
