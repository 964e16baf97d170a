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
	//
	// A division by zero is refused where it divides now (checkedDiv,
	// TestDivisionByZeroIsAnError), naming the division; a float that
	// overflows still yields an infinity, refused here.
	tests := []struct {
		src  string
		want string
	}{
		{"used / total * 100", "used / total: 5 / 0 divides by zero"},
		{"-used / total", "-used / total: -5 / 0 divides by zero"},
		{"[1, 0 * (used / total)]", "divides by zero"},
		{"{pct: used / total}", "divides by zero"},
		{"huge * 10", "it yields +Inf"},
		{"[1, -huge * 10]", "it yields -Inf"},
		{"[1, huge * 10 - huge * 10]", "it yields NaN (0 / 0, or arithmetic on an infinity?)"},
	}
	for _, tc := range tests {
		v, _, err := MustCompile(tc.src).Value(mapEnv{"used": 5, "total": 0, "huge": 1e308})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "guard it") {
			t.Errorf("%s = %v, %v; want an error with %q and how to guard it", tc.src, v, err, tc.want)
		}
		if v != nil {
			t.Errorf("%s yielded %v beside its error", tc.src, v)
		}
	}
}
