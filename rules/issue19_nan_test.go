package rules

import (
	"strings"
	"testing"
)

// TestIssue19NonFiniteValueIsAnErrorNamingTheCause: `used / total * 100`
// with total 0 is +Inf, which no record can hold: the evaluation fails
// saying so and how to guard it, never yields a value.
func TestIssue19NonFiniteValueIsAnErrorNamingTheCause(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src  string
		want string
	}{
		{"used / total * 100", "it yields +Inf (a division by zero?)"},
		{"-used / total", "it yields -Inf (a division by zero?)"},
		{"[1, 0 * (used / total)]", "it yields NaN (0 / 0, or arithmetic on an infinity?)"},
		{"{pct: used / total}", "it yields +Inf"},
	}
	for _, tc := range tests {
		v, _, err := MustCompile(tc.src).Value(mapEnv{"used": 5, "total": 0})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "guard it") {
			t.Errorf("%s = %v, %v; want an error with %q and how to guard it", tc.src, v, err, tc.want)
		}
		if v != nil {
			t.Errorf("%s yielded %v beside its error", tc.src, v)
		}
	}
}
