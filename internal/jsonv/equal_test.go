package jsonv

import (
	"encoding/json"
	"math"
	"testing"
)

func TestEqual(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b any
		want bool
	}{
		{nil, nil, true},
		{3, 3.0, true},
		{3, json.Number("3"), true},
		{3, 4, false},
		{"3", 3, false},
		{true, true, true},
		{true, false, false},
		{[]any{"a", 1}, []any{"a", 1.0}, true},
		{[]any{"a"}, []any{"a", "b"}, false},
		{map[string]any{"k": 1}, map[string]any{"k": 1.0}, true},
		{map[string]any{"k": 1}, map[string]any{"j": 1}, false},
		{[]string{"a"}, []string{"a"}, false}, // not JSON values
	} {
		if got := Equal(tc.a, tc.b); got != tc.want {
			t.Errorf("Equal(%#v, %#v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestEqualOneLawTwoDomains: jsonv is the one home of the equality law
// (rules.Equal is EqualGo). Each row says what Equal (a plugin's enum,
// JSON values only) and EqualGo (the comparisons and every commit, any Go
// value) answer: what each did before they were merged, and the exactness
// for wide integers both now have, which Equal lacked (it compared through
// float64).
func TestEqualOneLawTwoDomains(t *testing.T) {
	t.Parallel()
	type label string
	two53 := int64(1) << 53
	one := 1
	for _, tc := range []struct {
		name           string
		a, b           any
		json, goValues bool
	}{
		// Both, on JSON values.
		{"int and float", 3, 3.0, true, true},
		{"json.Number", json.Number("3"), int64(3), true, true},
		{"text is not a number", "3", 3, false, false},
		{"nested numbers", map[string]any{"k": []any{1, "a"}}, map[string]any{"k": []any{1.0, "a"}}, true, true},
		{"NaN equals nothing", math.NaN(), math.NaN(), false, false},
		{"bad json.Number", json.Number("12abc"), json.Number("12abc"), false, false},
		// Exactness, which Equal gained: never through a float64.
		{"2^53+1 is not 2^53", two53 + 1, float64(two53), false, false},
		{"2^53+1 as json.Number", json.Number("9007199254740993"), two53 + 1, true, true},
		{"uint64 max is not 2^64", uint64(math.MaxUint64), math.Pow(2, 64), false, false},
		{"uint64 above int64", uint64(1 << 63), int64(-1), false, false},
		// Where the domains part: Go values that are not JSON.
		{"[]string", []string{"a"}, []string{"a"}, false, true},
		{"[]int and []any", []int{1}, []any{1}, false, true},
		{"named string", label("x"), "x", false, true},
		{"pointer to a number", &one, 1, false, true},
		{"typed nil is null", (*int)(nil), nil, false, true},
		{"nil []any and null", []any(nil), nil, false, true},
		{"nil []any and an empty list", []any(nil), []any{}, true, false},
		{"map[string]int", map[string]int{"a": 1}, map[string]any{"a": 1.0}, false, true},
		{"a struct, by DeepEqual", struct{ A int }{1}, struct{ A int }{1}, false, true},
	} {
		if got := Equal(tc.a, tc.b); got != tc.json {
			t.Errorf("%s: Equal(%#v, %#v) = %v, want %v", tc.name, tc.a, tc.b, got, tc.json)
		}
		if got := EqualGo(tc.a, tc.b); got != tc.goValues {
			t.Errorf("%s: EqualGo(%#v, %#v) = %v, want %v", tc.name, tc.a, tc.b, got, tc.goValues)
		}
		if Equal(tc.a, tc.b) != Equal(tc.b, tc.a) || EqualGo(tc.a, tc.b) != EqualGo(tc.b, tc.a) {
			t.Errorf("%s: not symmetric", tc.name)
		}
	}
}
