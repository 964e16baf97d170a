package jsonv

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestNormalize(t *testing.T) {
	t.Parallel()
	when := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	n := 3
	tests := []struct {
		name string
		in   any
		want any
	}{
		{"fromPairs map", map[any]any{1: "a", "b": 2}, map[string]any{"1": "a", "b": 2}},
		{"groupBy map", map[any][]any{true: {1, 3}, false: {2}}, map[string]any{"true": []any{1, 3}, "false": []any{2}}},
		{"float keys", map[float64]int{2.5: 1}, map[string]any{"2.5": 1}},
		{"typed slice", []string{"x", "y"}, []any{"x", "y"}},
		{"typed map", map[string]int{"a": 1}, map[string]any{"a": 1}},
		{"nested in a list", []any{1, map[any]any{2: []int{3}}}, []any{1, map[string]any{"2": []any{3}}}},
		{"nested in an object", map[string]any{"g": map[any]any{"k": label("v")}}, map[string]any{"g": map[string]any{"k": "v"}}},
		{"named string", label("x"), "x"},
		{"time", when, "2024-05-01T12:00:00Z"},
		{"duration is its text, not a number of nanoseconds", 2 * time.Second, "2s"},
		{"pointer", &n, 3},
		{"nil pointer", (*int)(nil), nil},
		{"struct", struct {
			A int    `json:"a"`
			B string `json:"b"`
		}{1, "x"}, map[string]any{"a": 1, "b": "x"}},
		{"json value", map[string]any{"a": []any{1.5, "x", nil, true}}, map[string]any{"a": []any{1.5, "x", nil, true}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := Normalize(tc.in)
			if err != nil {
				t.Fatalf("Normalize(%#v): %v", tc.in, err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Normalize(%#v) = %#v, want %#v", tc.in, got, tc.want)
			}
			if _, err := json.Marshal(got); err != nil {
				t.Fatalf("json.Marshal(Normalize(%#v)): %v", tc.in, err)
			}
		})
	}
}

func TestNormalizeRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"NaN", math.NaN(), "NaN"},
		{"Inf in a list", []any{1, math.Inf(1)}, "+Inf"},
		{"bad json.Number", json.Number("12abc"), "not a number"},
		{"colliding keys", map[any]any{1: "a", "1": "b"}, `both spell "1"`},
		{"func", func() {}, "not a JSON value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Normalize(tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Normalize(%v) error = %v, want one saying %q", tc.name, err, tc.want)
			}
		})
	}
}

// A JSON value comes back as it is: no copy, so normalizing the scope's
// own lists each evaluation costs a walk and nothing more.
func TestNormalizeDoesNotCopyJSONValues(t *testing.T) {
	t.Parallel()
	l := []any{map[string]any{"a": 1}, "x"}
	got, err := Normalize(l)
	if err != nil {
		t.Fatal(err)
	}
	if &got.([]any)[0] != &l[0] {
		t.Error("a list of JSON values was copied")
	}
	m := map[string]any{"a": []any{1}}
	in := map[string]any{"m": m, "t": time.Unix(0, 0).UTC()}
	out, err := Normalize(in)
	if err != nil {
		t.Fatal(err)
	}
	if _, isTime := in["t"].(time.Time); !isTime {
		t.Error("Normalize edited its argument in place")
	}
	if reflect.ValueOf(out.(map[string]any)["m"]).UnsafePointer() != reflect.ValueOf(m).UnsafePointer() {
		t.Error("an unchanged inner object was copied")
	}
}
