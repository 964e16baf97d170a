package jsonv

import (
	"encoding/json"
	"math"
	"testing"
)

// TestIssue19DecodedNeverInfinite: a JSON number too large for a float64
// (a plugin's `1e999`) settles as its json.Number, which every output can
// write, never as ±Inf, which made the run's record unwritable.
func TestIssue19DecodedNeverInfinite(t *testing.T) {
	t.Parallel()
	for _, n := range []json.Number{"1e999", "-1e999", "123456789e400"} {
		v := Decoded(n)
		if f, ok := v.(float64); ok && (math.IsInf(f, 0) || math.IsNaN(f)) {
			t.Errorf("Decoded(%q) = %v", n, f)
		}
		b, err := json.Marshal(map[string]any{"v": v})
		if err != nil || string(b) != `{"v":`+string(n)+`}` {
			t.Errorf("Decoded(%q) written as %s, %v; want it as written", n, b, err)
		}
		if Of(v) != Number {
			t.Errorf("Decoded(%q) is of kind %v, want Number", n, Of(v))
		}
		if _, err := Normalize(v); err != nil {
			t.Errorf("Normalize(Decoded(%q)): %v", n, err)
		}
	}
}

// TestIssue19NotFiniteNamesTheCause: the refusal of NaN and ±Inf says
// which it is and what usually makes it.
func TestIssue19NotFiniteNamesTheCause(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v    any
		want string
	}{
		{math.Inf(1), "+Inf (a division by zero?), which is not a JSON number"},
		{[]any{math.Inf(-1)}, "-Inf (a division by zero?), which is not a JSON number"},
		{map[string]any{"x": math.NaN()}, "NaN (0 / 0, or arithmetic on an infinity?), which is not a JSON number"},
	}
	for _, tc := range tests {
		_, err := Normalize(tc.v)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Normalize(%v) = %v, want %q", tc.v, err, tc.want)
		}
	}
}

// TestIssue19Writable: what a stage written in Go may write into a scope
// (flow's Scope.Set asks Writable), so a run's record can always be
// written: every JSON value, and any Go value encoding/json can write;
// never NaN or ±Inf anywhere, nor a value JSON has no form for.
func TestIssue19Writable(t *testing.T) {
	type pct float64
	type row struct{ Used float64 }
	for _, tc := range []struct {
		name string
		v    any
		err  string
	}{
		{"nil", nil, ""},
		{"a JSON object", map[string]any{"a": []any{1, 2.5, "x", true, nil}}, ""},
		{"a typed list", []int{1, 2}, ""},
		{"a struct", row{Used: 3}, ""},
		{"NaN", math.NaN(), "NaN (0 / 0, or arithmetic on an infinity?), which is not a JSON number"},
		{"+Inf deep in a list", []any{[]any{math.Inf(1)}}, "+Inf (a division by zero?), which is not a JSON number"},
		{"-Inf in an object", map[string]any{"x": math.Inf(-1)}, "-Inf (a division by zero?), which is not a JSON number"},
		{"a named float NaN", pct(math.NaN()), "NaN (0 / 0, or arithmetic on an infinity?), which is not a JSON number"},
		{"NaN in a struct", row{Used: math.NaN()}, "NaN (0 / 0, or arithmetic on an infinity?), which is not a JSON number"},
		{"a channel", make(chan int), "a chan int, which JSON cannot hold"},
		{"a function in a map", map[string]any{"f": func() {}}, "a func(), which JSON cannot hold"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Writable(tc.v)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.err {
				t.Errorf("Writable(%v) = %q, want %q", tc.v, got, tc.err)
			}
		})
	}
}
