package jsonv

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
)

// Exact is a number in the widest exact form its Go type allows: an
// int64, a uint64, a float64 or, for a json.Number no float64 is
// (Decoded), the rational its digits spell; never one rounded into
// another. [Equal] and the expressions' ordering (rules.Compare) compare
// numbers through it, so a wide integer is never mistaken for its float64
// neighbour, nor 10000000000000000.01 for 10000000000000000.00.
type Exact struct {
	kind exactKind
	i    int64
	u    uint64
	f    float64
	r    *big.Rat
}

type exactKind uint8

const (
	exactInt exactKind = iota
	exactUint
	exactFloat
	exactRat
)

// ExactInt is i as an Exact.
func ExactInt(i int64) Exact { return Exact{kind: exactInt, i: i} }

// ExactFloat is f as an Exact.
func ExactFloat(f float64) Exact { return Exact{kind: exactFloat, f: f} }

// ExactNumber reads a number of any Go numeric type, a named one, one
// behind pointers or interfaces, or a json.Number (as an int64 or a
// uint64 when it is an integer that fits, as a float64 when one is the
// number it spells (floatOf), else as the rational its digits spell).
// false when v is not a number, or a json.Number that does not parse.
//
//	ExactNumber(uint64(1<<63))                     the uint64, exactly
//	ExactNumber(json.Number("2.5"))                2.5
//	ExactNumber(json.Number("10000000000000000.01")) that decimal, exactly
//	ExactNumber(json.Number("x"))                  false
func ExactNumber(v any) (Exact, bool) {
	switch x := v.(type) {
	case int:
		return ExactInt(int64(x)), true
	case int8:
		return ExactInt(int64(x)), true
	case int16:
		return ExactInt(int64(x)), true
	case int32:
		return ExactInt(int64(x)), true
	case int64:
		return ExactInt(x), true
	case uint:
		return Exact{kind: exactUint, u: uint64(x)}, true
	case uint8:
		return Exact{kind: exactUint, u: uint64(x)}, true
	case uint16:
		return Exact{kind: exactUint, u: uint64(x)}, true
	case uint32:
		return Exact{kind: exactUint, u: uint64(x)}, true
	case uint64:
		return Exact{kind: exactUint, u: x}, true
	case uintptr:
		return Exact{kind: exactUint, u: uint64(x)}, true
	case float32:
		return ExactFloat(Float32(x)), true
	case float64:
		return ExactFloat(x), true
	case json.Number:
		return parseExact(string(x))
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return Exact{}, false
		}
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return ExactInt(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return Exact{kind: exactUint, u: rv.Uint()}, true
	case reflect.Float32:
		return ExactFloat(Float32(float32(rv.Float()))), true
	case reflect.Float64:
		return ExactFloat(rv.Float()), true
	case reflect.String:
		if rv.Type() == jsonNumberType {
			return parseExact(rv.String())
		}
	}
	return Exact{}, false
}

// Float32 is the float64 a float32 is written as: the shortest decimal
// that reads back as the same float32, the number encoding/json writes
// and so the number every record, evidence and narrative shows. Its
// binary value widened as it is, float32(0.7) is 0.699999988079071: a
// rule `lt 0.7` over it passed while its evidence read "0.7 lt 0.7", and
// `eq 0.7` failed over a value shown as 0.7. A number is judged as it is
// shown. NaN and ±Inf stay what they are.
//
//	Float32(0.7)    0.7
//	Float32(0.5)    0.5
func Float32(f float32) float64 {
	w, err := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	if err != nil {
		return float64(f)
	}
	return w
}

func parseExact(s string) (Exact, bool) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return ExactInt(i), true
	}
	if u, err := strconv.ParseUint(s, 10, 64); err == nil {
		return Exact{kind: exactUint, u: u}, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return Exact{}, false
	}
	if _, isFloat := floatOf(s); !isFloat && validNumber(s) {
		if r, ok := ratOf(s); ok {
			return Exact{kind: exactRat, r: r}, true
		}
	}
	return ExactFloat(f), true // past maxRatExp: ±Inf or 0, as Float reads it
}

// maxRatExp bounds the decimal exponent a json.Number is read exactly
// with: big.Rat would build 10^exp, and a plugin's `1e999999999` must not
// cost a gigabyte. Past it the number is the float64 it rounds to (±Inf
// or 0).
const maxRatExp = 4000

// ratOf is the rational a valid JSON number literal spells, false when
// its exponent is past maxRatExp.
func ratOf(s string) (*big.Rat, bool) {
	if _, exp, ok := strings.Cut(strings.ToLower(s), "e"); ok {
		e, err := strconv.Atoi(exp)
		if err != nil || e > maxRatExp || e < -maxRatExp {
			return nil, false
		}
	}
	return new(big.Rat).SetString(s)
}

// rat is a finite x as a rational: a float64 as the number it prints as
// (strconv's shortest form), which is the number every record and
// evidence shows, and orders as the float64 itself does beside any other
// float64.
func (x Exact) rat() *big.Rat {
	switch x.kind {
	case exactInt:
		return new(big.Rat).SetInt64(x.i)
	case exactUint:
		return new(big.Rat).SetFrac(new(big.Int).SetUint64(x.u), big.NewInt(1))
	case exactRat:
		return x.r
	}
	r, _ := new(big.Rat).SetString(strconv.FormatFloat(x.f, 'g', -1, 64))
	return r
}

// CompareExact orders two numbers exactly: -1, 0 or +1 as a is less than,
// equal to or greater than b. false when either is NaN, which has no
// order (and equals nothing).
func CompareExact(a, b Exact) (int, bool) {
	if (a.kind == exactFloat && math.IsNaN(a.f)) || (b.kind == exactFloat && math.IsNaN(b.f)) {
		return 0, false
	}
	if a.kind == exactRat || b.kind == exactRat {
		return cmpRat(a, b), true
	}
	switch a.kind {
	case exactInt:
		switch b.kind {
		case exactInt:
			return cmpOrdered(a.i, b.i), true
		case exactUint:
			return cmpIntUint(a.i, b.u), true
		default:
			return cmpIntFloat(a.i, b.f), true
		}
	case exactUint:
		switch b.kind {
		case exactInt:
			return -cmpIntUint(b.i, a.u), true
		case exactUint:
			return cmpOrdered(a.u, b.u), true
		default:
			return cmpUintFloat(a.u, b.f), true
		}
	default:
		switch b.kind {
		case exactInt:
			return -cmpIntFloat(b.i, a.f), true
		case exactUint:
			return -cmpUintFloat(b.u, a.f), true
		default:
			return cmpOrdered(a.f, b.f), true
		}
	}
}

// cmpRat compares two numbers, one of them a rational; an infinite
// float64 is past every rational.
func cmpRat(a, b Exact) int {
	if a.kind == exactFloat && math.IsInf(a.f, 0) {
		return int(math.Copysign(1, a.f))
	}
	if b.kind == exactFloat && math.IsInf(b.f, 0) {
		return -int(math.Copysign(1, b.f))
	}
	return a.rat().Cmp(b.rat())
}

func cmpOrdered[T int64 | uint64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
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
	return cmpOrdered(t, f) // same integer part: the fraction decides
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
