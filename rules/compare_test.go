package rules

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

type myInt int
type myString string

func TestCompare(t *testing.T) {
	t.Parallel()
	big := uint64(math.MaxInt64) + 1
	tests := []struct {
		name   string
		a, b   any
		want   int
		reason string // substring of the error; "" = no error
	}{
		{"int int less", 1, 2, -1, ""},
		{"int int equal", 7, 7, 0, ""},
		{"int float equal", 2, 2.0, 0, ""},
		{"float int greater", 2.5, 2, 1, ""},
		{"int float less fraction", 2, 2.5, -1, ""},
		{"negative fraction", -2, -2.5, 1, ""},
		{"int8 uint16", int8(-1), uint16(0), -1, ""},
		{"int16 int32", int16(300), int32(300), 0, ""},
		{"int64 uint", int64(5), uint(5), 0, ""},
		{"uint8 float32", uint8(3), float32(2.5), 1, ""},
		{"uintptr int", uintptr(3), 3, 0, ""},
		{"float32 float64", float32(0.5), 0.5, 0, ""},
		{"named int", myInt(4), 4, 0, ""},
		{"big uint64 vs maxint64", big, int64(math.MaxInt64), 1, ""},
		{"big uint64 vs -1", big, -1, 1, ""},
		{"maxuint64 vs maxuint64-1", uint64(math.MaxUint64), uint64(math.MaxUint64 - 1), 1, ""},
		{"maxuint64 vs float 2^64", uint64(math.MaxUint64), 18446744073709551616.0, -1, ""},
		{"big int64 not rounded", int64(1<<53 + 1), float64(1 << 53), 1, ""},
		{"big int64 vs equal float", int64(1 << 60), float64(1 << 60), 0, ""},
		{"big uint not rounded", uint64(1<<63 + 1), float64(1 << 63), 1, ""},
		{"maxint64 vs 2^63 float", int64(math.MaxInt64), 9223372036854775808.0, -1, ""},
		{"minint64 vs -2^63 float", int64(math.MinInt64), -9223372036854775808.0, 0, ""},
		{"int vs +inf", 1, math.Inf(1), -1, ""},
		{"int vs -inf", 1, math.Inf(-1), 1, ""},
		{"uint vs negative float", uint(0), -0.5, 1, ""},
		{"json.Number int", json.Number("10"), 9, 1, ""},
		{"json.Number big uint", json.Number("18446744073709551615"), uint64(math.MaxUint64), 0, ""},
		{"json.Number float", json.Number("2.5"), 2.5, 0, ""},
		{"json.Number bad", json.Number("abc"), 1, 0, "not a number"},
		{"NaN left", math.NaN(), 1.0, 0, "NaN"},
		{"NaN right", 1, math.NaN(), 0, "NaN"},
		{"NaN both", math.NaN(), math.NaN(), 0, "NaN"},
		{"strings", "a", "b", -1, ""},
		{"strings byte order", "B", "a", -1, ""},
		{"strings equal", "x", "x", 0, ""},
		{"named string", myString("b"), "a", 1, ""},
		{"bools no order", true, false, 0, "booleans have no order"},
		{"bools equal still no order", true, true, 0, "booleans have no order"},
		{"nil nil", nil, nil, 0, "null has no order"},
		{"string number", "90", 90, 0, "a string cannot be compared with a number"},
		{"number string", 90, "90", 0, "a number cannot be compared with a string"},
		{"bool number", true, 1, 0, "a boolean cannot be compared with a number"},
		{"nil number", nil, 1, 0, "null cannot be compared with a number"},
		{"list list", []any{1}, []any{1}, 0, "lists have no order"},
		{"map string", map[string]any{}, "x", 0, "a map cannot be compared with a string"},
		{"json.Number vs string", json.Number("1"), "1", 0, "a number cannot be compared with a string"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := Compare(tc.a, tc.b)
			if tc.reason != "" {
				if err == nil || !strings.Contains(err.Error(), tc.reason) {
					t.Fatalf("Compare(%v, %v) error = %v, want one saying %q", tc.a, tc.b, err, tc.reason)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("Compare(%v, %v) = %d, %v; want %d", tc.a, tc.b, got, err, tc.want)
			}
			// Antisymmetry.
			back, err := Compare(tc.b, tc.a)
			if err != nil || back != -tc.want {
				t.Fatalf("Compare(%v, %v) = %d, %v; want %d", tc.b, tc.a, back, err, -tc.want)
			}
		})
	}
}

func TestEqual(t *testing.T) {
	t.Parallel()
	var nilPtr *int
	five := 5
	type S struct{ A int }
	tests := []struct {
		name string
		a, b any
		want bool
	}{
		{"nil nil", nil, nil, true},
		{"nil typed nil ptr", nil, nilPtr, true},
		{"nil map nil", map[string]any(nil), nil, true},
		{"nil slice vs empty", []any(nil), []any{}, false},
		{"nil vs 0", nil, 0, false},
		{"nil vs empty string", nil, "", false},
		{"int float", 2, 2.0, true},
		{"float int", 2.0, 2, true},
		{"int float differ", 2, 2.1, false},
		{"int8 uint64", int8(3), uint64(3), true},
		{"negative vs uint", -1, uint64(math.MaxUint64), false},
		{"json.Number", json.Number("3"), 3.0, true},
		{"big uint64 vs float", uint64(1<<63 + 1), float64(1 << 63), false},
		{"NaN", math.NaN(), math.NaN(), false},
		{"NaN vs int", math.NaN(), 0, false},
		{"pointer to int", &five, 5, true},
		{"strings", "a", "a", true},
		{"strings differ", "a", "b", false},
		{"named string", myString("a"), "a", true},
		{"string vs number", "1", 1, false},
		{"bools", true, true, true},
		{"bools differ", true, false, false},
		{"bool vs 1", true, 1, false},
		{"lists", []any{1, "a", nil}, []any{1.0, "a", nil}, true},
		{"lists differ length", []any{1}, []any{1, 2}, false},
		{"lists differ element", []any{1, 2}, []any{1, 3}, false},
		{"list vs typed slice", []any{1, 2}, []int{1, 2}, true},
		{"typed slices", []int{1}, []float64{1}, true},
		{"array vs slice", [2]int{1, 2}, []any{1, 2}, true},
		{"maps", map[string]any{"a": 1, "b": []any{2}}, map[string]any{"a": 1.0, "b": []any{2.0}}, true},
		{"maps differ value", map[string]any{"a": 1}, map[string]any{"a": 2}, false},
		{"maps differ key", map[string]any{"a": 1}, map[string]any{"b": 1}, false},
		{"maps differ size", map[string]any{"a": 1}, map[string]any{}, false},
		{"map vs typed map", map[string]any{"a": 1}, map[string]int{"a": 1}, true},
		{"typed map key type", map[myString]int{"a": 1}, map[string]any{"a": 1}, true},
		{"deep nested", map[string]any{"x": []any{map[string]any{"y": 1}}}, map[string]any{"x": []any{map[string]any{"y": 1.0}}}, true},
		{"map vs list", map[string]any{}, []any{}, false},
		{"structs", S{1}, S{1}, true},
		{"structs differ", S{1}, S{2}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Equal(tc.a, tc.b); got != tc.want {
				t.Fatalf("Equal(%#v, %#v) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
			if got := Equal(tc.b, tc.a); got != tc.want {
				t.Fatalf("Equal(%#v, %#v) = %v, want %v (symmetry)", tc.b, tc.a, got, tc.want)
			}
		})
	}
}

func TestEqualScalarsDoNotAllocate(t *testing.T) {
	pairs := [][2]any{{1, 1}, {1.5, 1.5}, {"a", "a"}, {true, false}, {2, 2.0}}
	for _, p := range pairs {
		if n := testing.AllocsPerRun(100, func() { Equal(p[0], p[1]) }); n != 0 {
			t.Errorf("Equal(%v, %v) allocates %v times", p[0], p[1], n)
		}
	}
}

// TestCRLFLinesAreNoMatch: redis-cli INFO ends its lines in "\r\n", and
// `info.stdout matches "(?m)^master_link_status:down$"` over a replica
// whose link was down was a plain no (RE2's $ stands before the "\n",
// the "\r" before it), so the replica stood up, OK, Consistent. It is a
// rule error now, as a final line end is; a pattern that matches the
// text as it is, or matches it no way, is judged as before.
func TestCRLFLinesAreNoMatch(t *testing.T) {
	info := "# Replication\r\nrole:slave\r\nmaster_link_status:down\r\nmaster_port:6379\r\n"
	for _, tc := range []struct {
		pattern string
		reason  bool
	}{
		{`(?m)^master_link_status:down$`, true},
		{`(?m)^role:slave$`, true},
		{`master_link_status:down`, false},
		{`(?m)^master_link_status:down\r?$`, false},
		{`(?m)^master_link_status:up$`, false},
	} {
		got := lineEndMatch(info, tc.pattern)
		if (got != "") != tc.reason {
			t.Errorf("lineEndMatch(INFO, %q) = %q, want a reason: %v", tc.pattern, got, tc.reason)
		}
		if got != "" && !strings.Contains(got, `replace(x, "\r", "")`) {
			t.Errorf("the reason does not say what to write: %s", got)
		}
	}
	if got := lineEndMatch("role:slave\nlink:down\n", `(?m)^link:down$`); got != "" {
		t.Errorf("a text of \\n lines that matches is no reason: %q", got)
	}
}
