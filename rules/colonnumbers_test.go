package rules

import (
	"strings"
	"testing"
)

// TestNumbersSeparatedByColonsHaveNoTextOrder: sshd -T prints MaxStartups
// as three numbers joined by colons, `maxstartups 10:30:100`, and CIS
// asks for 10:30:60 or less; `s.value > "10:30:60"` ordered the texts by
// character, "10:30:100" before "10:30:60", and a server taking 100
// unauthenticated connections stood pass, Consistent. Two such texts whose
// numbers differ in their count of digits (or in how many there are) have
// no order now, in an expression and a filter alike, and the reason says
// to compare the numbers one by one; clocks of two-digit groups ("09:30"
// and "10:00") order as before.
func TestNumbersSeparatedByColonsHaveNoTextOrder(t *testing.T) {
	t.Parallel()
	env := mapEnv{"s": map[string]any{"ms": "10:30:100", "at": "9:30", "clock": "09:30"}}
	const why = `are numbers joined by colons written as text`
	for _, tc := range []struct {
		src     string
		err     string // "" for no error
		matched bool
	}{
		{`s.ms > "10:30:60"`, `s.ms > "10:30:60": "10:30:100" and "10:30:60" ` + why, false},
		{`s.ms <= "10:30:60"`, why, false},
		{`"10:30:60" < s.ms`, why, false},
		{`s.at < "10:00"`, why, false},
		{`s.ms > "10:30"`, why, false},
		{`s.clock < "10:00"`, "", true},
		{`s.ms > "10:30:099"`, "", true},
		{`s.ms == "10:30:60"`, "", false},
		{`int(split(s.ms, ":")[2]) > 60`, "", true},
	} {
		evalWants(t, env, tc.src, tc.err, tc.matched)
	}
	out := MustFilter(Where("s.ms", OpGt, "10:30:60")).Eval(env)
	if c := out.Conditions[0]; !c.Unjudged() || out.Matched || !strings.Contains(c.Reason, why) {
		t.Errorf("filter gt: unjudged %v matched %v reason %q; want unjudged, saying %q", c.Unjudged(), out.Matched, c.Reason, why)
	}
}
