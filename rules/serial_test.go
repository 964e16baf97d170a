package rules

import (
	"strings"
	"testing"
)

// TestSerialLessWrapsRoundAsRFC1982: a primary whose zone serial went on
// from 4294967290 to 5 (it wraps round past 2^32-1) is ahead of a
// secondary still at 4294967290, and `secondary.serial <
// primary.serial` said in-sync, Nagios OK, Consistent
// (testdata/wave-dns/soa-serial). serialLess orders serials as RFC 1982
// does, refuses two exactly 2^31 apart (no order) and what is no serial.
func TestSerialLessWrapsRoundAsRFC1982(t *testing.T) {
	t.Parallel()
	env := mapEnv{"s": map[string]any{"old": 4294967290, "new": 5, "text": "2026120701", "f": float64(4294967295)}}
	for _, tc := range []struct {
		expr string
		want any // a bool, or the error's words
	}{
		{`serialLess(2026120601, 2026120702)`, true},
		{`serialLess(2026120702, 2026120601)`, false},
		{`serialLess(s.old, s.new)`, true},
		{`serialLess(s.new, s.old)`, false},
		{`serialLess(s.f, 0)`, true},
		{`serialLess(s.text, "2026120702")`, true},
		{`serialLess(7, 7)`, false},
		{`serialLess(0, 2147483647)`, true},
		{`serialLess(0, 2147483649)`, false},
		{`serialLess(0, 2147483648)`, "are 2^31 apart"},
		{`serialLess(4294967296, 1)`, "is no zone serial"},
		{`serialLess(-1, 1)`, "is no zone serial"},
		{`serialLess(1.5, 1)`, "is no zone serial"},
		{`serialLess("ns1.example.test.", 1)`, `is "ns1.example.test.", which is no zone serial`},
		{`serialLess(nil, 1)`, "the first serial is null"},
		{`serialLess(1)`, "serialLess takes 2 arguments"},
	} {
		v, _, err := MustCompile(tc.expr).Value(env)
		if words, ok := tc.want.(string); ok {
			if err == nil || !strings.Contains(err.Error(), words) {
				t.Errorf("%s = %v, %v; want an error saying %q", tc.expr, v, err, words)
			}
			continue
		}
		if err != nil || v != tc.want {
			t.Errorf("%s = %v, %v; want %v", tc.expr, v, err, tc.want)
		}
	}
}
