package rules

import (
	"strings"
	"testing"
)

// TestIntegerArithmeticPastInt64IsAnError (wave-net's, run against the
// checked arithmetic of exprarith.go): expr's int arithmetic wraps at
// 2^63, so two interface byte counters of 6e18 summed to
// -6446744073709551616, `rx + tx > 0` was false, and a rate written as
// bytes * 1000 / ms over a busy router's cumulative counter was negative,
// under any threshold, with no error. An int +, - or * whose exact result
// no int holds is an error now, naming the operation and what to write;
// one that fits, and float arithmetic, are as before.
func TestIntegerArithmeticPastInt64IsAnError(t *testing.T) {
	t.Parallel()
	env := mapEnv{"x": 6000000000000000000, "y": 6000000000000000000, "neg": -6000000000000000000, "small": 3, "f": 1.5e19, "xs": []any{6000000000000000000, 6000000000000000000}}
	for _, tc := range []struct{ src, want string }{
		{"x + y", "x + y: 6000000000000000000 + 6000000000000000000 is 12000000000000000000, past the largest whole number"},
		{"x + y > 0", "6000000000000000000 + 6000000000000000000 is 12000000000000000000, past"},
		{"x - neg", "x - neg: 6000000000000000000 - -6000000000000000000 is 12000000000000000000, past"},
		{"x * 2", "x * 2: 6000000000000000000 * 2 is 12000000000000000000, past"},
		{"small * x", "small * x: 3 * 6000000000000000000 is 18000000000000000000, past"},
		{"sum(xs)", "6000000000000000000 + 6000000000000000000 is 12000000000000000000, past"},
	} {
		_, _, err := MustCompile(tc.src).Value(env)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "float(") {
			t.Errorf("%s: %v\nwant it to hold %s and say what to write", tc.src, err, tc.want)
		}
	}
	for src, want := range map[string]any{
		"x + small":       6000000000000000003,
		"x - y":           0,
		"neg - small":     -6000000000000000003,
		"small * 2":       6,
		"x * 1.0 + f":     2.1e19,
		"float(x) * 2":    1.2e19,
		"sum([small, 2])": 5,
		`"a" + "b"`:       "ab",
		"x / 1000 * 8":    4.8e16,
	} {
		v, _, err := MustCompile(src).Value(env)
		if err != nil || v != want {
			t.Errorf("%s = %v (%T), %v; want %v", src, v, v, err, want)
		}
	}
	for _, src := range []string{"sum(1)", `sum({"a": 1})`} {
		_, err := Compile(src)
		if err == nil || strings.Contains(err.Error(), "\x00") {
			t.Errorf("%s: %v; want expr's own compile error, no name of ours", src, err)
		}
	}
}
