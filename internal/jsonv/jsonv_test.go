package jsonv

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"
	"time"
)

type (
	port     int
	ratio    float32
	label    string
	flag     bool
	point    struct{ X int }
	numbers  []float64
	settings map[string]int
)

func TestOf(t *testing.T) {
	t.Parallel()
	x := 1
	tests := []struct {
		name string
		v    any
		want Kind
	}{
		{"nil", nil, Null},
		{"true", true, Bool},
		{"false", false, Bool},
		{"string", "s", String},
		{"empty string", "", String},
		{"int", 1, Number},
		{"int8", int8(1), Number},
		{"int16", int16(1), Number},
		{"int32", int32(1), Number},
		{"int64", int64(1), Number},
		{"uint", uint(1), Number},
		{"uint8", uint8(1), Number},
		{"uint16", uint16(1), Number},
		{"uint32", uint32(1), Number},
		{"uint64", uint64(math.MaxUint64), Number},
		{"uintptr", uintptr(1), Number},
		{"float32", float32(1.5), Number},
		{"float64", 1.5, Number},
		{"NaN is of kind number", math.NaN(), Number},
		{"Inf is of kind number", math.Inf(1), Number},
		{"json.Number integer", json.Number("12"), Number},
		{"json.Number fraction exponent", json.Number("-0.5e+3"), Number},
		{"json.Number not a literal", json.Number("12abc"), Invalid},
		{"json.Number empty", json.Number(""), Invalid},
		{"json.Number hex", json.Number("0x10"), Invalid},
		{"json.Number NaN", json.Number("NaN"), Invalid},
		{"named int", port(80), Number},
		{"named float", ratio(0.5), Number},
		{"time.Duration", time.Second, Number},
		{"list", []any{1}, List},
		{"nil list", []any(nil), List},
		{"object", map[string]any{"k": 1}, Object},
		{"nil object", map[string]any(nil), Object},
		{"named string", label("a"), Invalid},
		{"named bool", flag(true), Invalid},
		{"struct", point{1}, Invalid},
		{"pointer", &x, Invalid},
		{"[]string", []string{"a"}, Invalid},
		{"named slice", numbers{1}, Invalid},
		{"map[string]int", settings{"a": 1}, Invalid},
		{"func", func() {}, Invalid},
		{"chan", make(chan int), Invalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Of(tc.v); got != tc.want {
				t.Errorf("Of(%#v) = %v, want %v", tc.v, got, tc.want)
			}
			if _, ok := Float(tc.v); ok != (tc.want == Number) {
				t.Errorf("Float(%#v) ok = %v, but Of says %v", tc.v, ok, tc.want)
			}
		})
	}
}

func TestKindString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		k    Kind
		want string
	}{
		{Invalid, "not JSON"}, {Null, "null"}, {Bool, "bool"}, {Number, "number"},
		{String, "string"}, {List, "list"}, {Object, "object"}, {Kind(99), "Kind(99)"},
	}
	for _, tc := range tests {
		if got := tc.k.String(); got != tc.want {
			t.Errorf("Kind(%d).String() = %q, want %q", uint8(tc.k), got, tc.want)
		}
	}
}

func TestDescribe(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v    any
		want string
	}{
		{nil, "null"},
		{true, "a boolean"},
		{int8(3), "a number"},
		{json.Number("3"), "a number"},
		{"s", "a string"},
		{[]any{}, "a list"},
		{map[string]any{}, "an object"},
		{[]string{"a"}, "[]string"},
		{json.Number("x"), "json.Number"},
		{point{}, "jsonv.point"},
	}
	for _, tc := range tests {
		if got := Describe(tc.v); got != tc.want {
			t.Errorf("Describe(%#v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestFloat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		v    any
		want float64
		ok   bool
	}{
		{"int", 3, 3, true},
		{"int8", int8(-3), -3, true},
		{"uint16", uint16(7), 7, true},
		{"uint64 max rounds", uint64(math.MaxUint64), math.MaxUint64, true},
		{"uintptr", uintptr(9), 9, true},
		{"float32", float32(0.5), 0.5, true},
		{"float64", 2.5, 2.5, true},
		{"named int", port(80), 80, true},
		{"duration", 2 * time.Nanosecond, 2, true},
		{"json.Number", json.Number("1e3"), 1000, true},
		{"json.Number too large", json.Number("1e400"), math.Inf(1), true},
		{"json.Number bad", json.Number("1e"), 0, false},
		{"string", "3", 0, false},
		{"bool", true, 0, false},
		{"nil", nil, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, ok := Float(tc.v)
			if got != tc.want || ok != tc.ok {
				t.Errorf("Float(%#v) = %v, %v; want %v, %v", tc.v, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestWhole(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		v    any
		want int
		ok   bool
	}{
		{"int", 3, 3, true},
		{"negative int", -1, -1, true},
		{"int64 exact", int64(math.MaxInt), math.MaxInt, true},
		{"uint64 above MaxInt", uint64(math.MaxUint64), 0, false},
		{"uint8", uint8(255), 255, true},
		{"whole float64", 2.0, 2, true},
		{"whole float32", float32(4), 4, true},
		{"fraction", 1.5, 0, false},
		{"NaN", math.NaN(), 0, false},
		{"Inf", math.Inf(-1), 0, false},
		{"float at 2^63", math.Exp2(63), 0, false},
		{"named int", port(8080), 8080, true},
		{"json.Number integer", json.Number("7"), 7, true},
		{"json.Number exact, never through a float", json.Number(strconv.Itoa(math.MaxInt)), math.MaxInt, true},
		{"json.Number whole with fraction", json.Number("7.0"), 7, true},
		{"json.Number exponent", json.Number("1e2"), 100, true},
		{"json.Number fraction", json.Number("0.5"), 0, false},
		{"json.Number hex", json.Number("0x10"), 0, false},
		{"json.Number too large", json.Number("1e400"), 0, false},
		{"string", "7", 0, false},
		{"bool", true, 0, false},
		{"nil", nil, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, ok := Whole(tc.v)
			if got != tc.want || ok != tc.ok {
				t.Errorf("Whole(%#v) = %v, %v; want %v, %v", tc.v, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestDecoded(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n    json.Number
		want any
	}{
		{"3", 3},
		{"-3", -3},
		{"3.0", 3.0},
		{"1e2", 100.0},
		{"0.1", 0.1},
		{"1.50", 1.5},
		{"2.5e-3", 0.0025},
		{"9007199254740993", 9007199254740993}, // past 2^53: a float64 is …992
		// A float64 would print other digits (9223372036854776000, and
		// 12345678901234567168): the literal's own are kept.
		{"9223372036854775808", json.Number("9223372036854775808")},
		{"12345678901234567890", json.Number("12345678901234567890")},
		// A float's own print with up to 17 digits is that float (C's
		// %.17g, jq 1.6's 0.1+0.2); digits no float64 prints are a
		// decimal its writer meant exactly (a PostgreSQL numeric).
		{"0.10000000000000001", 0.1},
		{"0.30000000000000004", 0.30000000000000004},
		{"1.0000000000000000", 1.0},
		{"10000000000000000.00", 1e16},
		{"10000000000000000.01", json.Number("10000000000000000.01")},
		{"100000000000000.01", json.Number("100000000000000.01")},
		{"3.14159265358979323846", json.Number("3.14159265358979323846")},
		{"1e400", json.Number("1e400")}, // TestIssue19DecodedNeverInfinite
	}
	for _, tc := range tests {
		if got := Decoded(tc.n); got != tc.want {
			t.Errorf("Decoded(%q) = %#v, want %#v", tc.n, got, tc.want)
		}
	}
}

func TestFits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		typ  string
		v    any
		want bool
	}{
		{"no type takes anything", "", point{}, true},
		{"any takes anything", "any", nil, true},
		// Fits does not judge the vocabulary: Known does, where a type is
		// declared (issue #17: integer was outside it and took anything).
		{"unknown type takes anything", "uuid", "x", true},
		{"integer takes a whole int", "integer", 3, true},
		{"integer takes a whole float", "integer", 3.0, true},
		{"integer takes a whole json.Number", "integer", json.Number("7"), true},
		{"integer takes a whole past int's range", "integer", 1e300, true},
		{"integer refuses a fraction", "integer", 2.5, false},
		{"integer refuses a json.Number fraction", "integer", json.Number("7.5"), false},
		{"integer refuses text", "integer", "3", false},
		{"integer refuses +Inf", "integer", math.Inf(1), false},

		{"string", "string", "x", true},
		{"string refuses a number", "string", 1, false},
		{"string refuses a named string", "string", label("x"), false},

		{"number int", "number", 1, true},
		{"number float64", "number", 1.5, true},
		{"number refuses text", "number", "3", false},
		{"number refuses a bool", "number", true, false},
		{"number refuses null", "number", nil, false},
		// Regressions: plugin arguments (argFits) refused json.Number though
		// inputs took it, and inputs (convertInput) refused int8, int16,
		// uint8 and uint16 though plugin arguments took them.
		{"issue-jsonv number json.Number", "number", json.Number("3"), true},
		{"issue-jsonv number int8", "number", int8(3), true},
		{"issue-jsonv number int16", "number", int16(3), true},
		{"issue-jsonv number uint8", "number", uint8(3), true},
		{"issue-jsonv number uint16", "number", uint16(3), true},
		{"number named int", "number", port(3), true},
		{"number refuses a bad json.Number", "number", json.Number("3x"), false},

		{"bool", "bool", false, true},
		{"bool refuses text", "bool", "true", false},

		{"list", "list", []any{1}, true},
		{"list nil", "list", []any(nil), true},
		{"list refuses []string", "list", []string{"a"}, false},
		{"list refuses an object", "list", map[string]any{}, false},

		{"object", "object", map[string]any{}, true},
		{"object refuses map[string]int", "object", settings{}, false},
		{"object refuses a list", "object", []any{}, false},

		{"duration text", "duration", "1h30m", true},
		{"duration time.Duration", "duration", 90 * time.Second, true},
		{"duration refuses bad text", "duration", "2 hours", false},
		{"duration refuses a plain number", "duration", 90, false},
		{"duration refuses null", "duration", nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Fits(tc.typ, tc.v); got != tc.want {
				t.Errorf("Fits(%q, %#v) = %v, want %v", tc.typ, tc.v, got, tc.want)
			}
		})
	}
}

// TestValidNumberAgreesWithEncodingJSON: a json.Number is a Number exactly
// when encoding/json accepts it as a number literal — save the empty
// json.Number, which encoding/json writes as 0 but which spells no number
// (and which no decoder makes).
func TestValidNumberAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"0", "-0", "1", "-12", "1.5", "1e5", "1E+5", "1e-5", "0.0e0",
		"-", "01", "1.", ".5", "+1", "1e", "1e+", "0x1", "NaN", "Inf", " 1", "1 ", "1_000",
	} {
		_, err := json.Marshal(json.Number(s))
		if got, want := validNumber(s), err == nil; got != want {
			t.Errorf("validNumber(%q) = %v, encoding/json says %v", s, got, want)
		}
	}
}

func FuzzValidNumber(f *testing.F) {
	for _, s := range []string{"0", "-1.5e3", "01", "1.", "NaN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" {
			return
		}
		_, err := json.Marshal(json.Number(s))
		if got, want := validNumber(s), err == nil; got != want {
			t.Errorf("validNumber(%q) = %v, encoding/json says %v", s, got, want)
		}
	})
}

// TestIssue17KnownTypes: the vocabulary a declaration is checked against.
func TestIssue17KnownTypes(t *testing.T) {
	t.Parallel()
	for _, typ := range []string{"", "any", "string", "number", "integer", "bool", "list", "object", "duration"} {
		if !Known(typ) {
			t.Errorf("Known(%q) = false", typ)
		}
	}
	for _, typ := range []string{"int", "Integer", "uuid", "enum"} {
		if Known(typ) {
			t.Errorf("Known(%q) = true", typ)
		}
	}
}
