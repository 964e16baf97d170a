package rules

import (
	"strings"
	"testing"
)

// TestNumberBesideDurationIsNoComparison: dig prints a record's TTL in
// seconds, 300, a parse reads the number 300, and `a.ttl ==
// duration("5m")` compared it with five minutes held as nanoseconds: a
// plain no over a TTL of five minutes, Consistent. A number beside a
// duration is an error now, in == and != and the orderings alike, saying
// to give the number its unit; a duration made of it compares.
func TestNumberBesideDurationIsNoComparison(t *testing.T) {
	t.Parallel()
	env := mapEnv{"a": map[string]any{"ttl": 300}}
	for _, tc := range []struct {
		expr string
		want any // a bool, or the error's words
	}{
		{`a.ttl == duration("5m")`, "the number 300 cannot be compared with a duration"},
		{`a.ttl != duration("5m")`, "the number 300 cannot be compared with a duration"},
		{`duration("1h") < a.ttl`, "the number 300 cannot be ordered with a duration"},
		{`a.ttl > duration("1h")`, `duration(string(x) + "s")`},
		{`duration(string(a.ttl) + "s") == duration("5m")`, true},
		{`duration(string(a.ttl) + "s") < duration("1h")`, true},
		{`duration("5m") == duration("300s")`, true},
		{`a.ttl == 300`, true},
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
