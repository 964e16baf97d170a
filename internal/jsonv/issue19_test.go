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
