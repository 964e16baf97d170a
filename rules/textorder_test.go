package rules

import (
	"strings"
	"testing"
)

// TestNumbersWrittenAsTextHaveNoOrder: df's "100%" and a threshold
// written "90%" are text, and text orders by character, so "100%" gte
// "90%" was false: a full filesystem passed the threshold, the decider took
// its default, and a Nagios check said OK. Two numbers written as text
// (a bare number, or one with a unit) now have no order, in a filter and
// in an expression alike, and the reason says to compare the numbers.
// Text that is more than a number orders as it did.
func TestNumbersWrittenAsTextHaveNoOrder(t *testing.T) {
	t.Parallel()
	const why = "are numbers written as text"
	env := mapEnv{"fs": map[string]any{"use": "100%", "free": "900000 kB", "size": "1.5G", "n": "10",
		"day": "2024-01-10", "ver": "1.2.10", "ip": "10.0.0.9", "at": "09:30", "word": "beta"}}
	tests := []outcomeCase{
		{`fs.use >= "90%"`, false, `fs.use >= "90%": "100%" and "90%" ` + why},
		{`fs.use < "90%"`, false, why},
		{`fs.free < "2000000 kB"`, false, why},
		{`fs.size > "900M"`, false, why},
		{`fs.n > "9"`, false, why},
		{`"90%" <= fs.use`, false, why},
		{`fs.day > "2024-01-09"`, true, ""},
		{`fs.ver > "1.2.9"`, false, ""}, // text order, as before: not a number
		{`fs.ip < "10.0.0.10"`, false, ""},
		{`fs.at < "10:00"`, true, ""},
		{`fs.word > "alpha"`, true, ""},
		{`int(trimSuffix(fs.use, "%")) >= 90`, true, ""},
		{`len(fs.use) > 3`, true, ""},
	}
	runOutcomes(t, env, tests)
	filters := []struct {
		key, op string
		want    any
		matched bool
		reason  string
	}{
		{"fs.use", "gte", "90%", false, why},
		{"fs.use", "lt", "90%", false, why},
		{"fs.free", "lt", "2000000 kB", false, why},
		{"fs.day", "gt", "2024-01-09", true, ""},
		{"fs.word", "gt", "alpha", true, ""},
	}
	for _, tc := range filters {
		f := MustFilter(Where(tc.key, Op(tc.op), tc.want))
		out := f.Eval(env)
		reason := ""
		if len(out.Conditions) == 1 {
			reason = out.Conditions[0].Reason
		}
		if out.Matched != tc.matched || (tc.reason == "") != (reason == "") || !strings.Contains(reason, tc.reason) {
			t.Errorf("{%s: {%s: %q}}: matched %v, reason %q; want %v, reason with %q", tc.key, tc.op, tc.want, out.Matched, reason, tc.matched, tc.reason)
		}
	}
	for _, s := range []string{"85%", "12K", "1.5G", "24028912 kB", "-3", "+7", ".5", "10", "3 MiB"} {
		if !numeral(s) {
			t.Errorf("numeral(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"", "%", "kB", "1.2.3", "2024-01-02", "10:30", "0x10", "1e5", "12 ", "5 days", "1,234", "v1", "12MB/s"} {
		if numeral(s) {
			t.Errorf("numeral(%q) = true, want false", s)
		}
	}
}
