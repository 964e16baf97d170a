package parse

import (
	"strings"
	"testing"
)

// TestRegexNumberCutShortIsAProblem: the node exporter prints a float of a
// million or more with an exponent (Go's shortest %g: 1.2e+06), and a
// pattern searched, not matched whole, stopped inside it: (?P<v>[0-9.]+)
// read 1.2 of 1.2e+06, and v > 1000 called a queue of 1.2 million ok,
// Consistent. A group that ends the match where the line's number goes on
// to its exponent, or begins it where the digits are an exponent's, is a
// problem line now; a group followed by other text, a version's third
// part or a hexadecimal id is not.
func TestRegexNumberCutShortIsAProblem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pattern, line string
		cut           bool
	}{
		{`\} (?P<v>[0-9.]+)`, `queue_depth{q="a"} 1.2e+06`, true},
		{`\} (?P<v>\d+)`, `node_filesystem_avail_bytes{mountpoint="/"} 5.2892250112e+10`, true},
		{`(?P<v>\d+)$`, `backup_last_success_timestamp_seconds 1.7653e+09`, true},
		{`\} (?P<v>\S+)`, `queue_depth{q="a"} 1.2e+06`, false},
		{`\} (?P<v>[-+0-9.eE]+)$`, `queue_depth{q="a"} 1.2e+06`, false},
		{`\} (?P<v>\d+)`, `queue_depth{q="a"} 12 1712345678000`, false},
		{`^v(?P<major>\d+)\.(?P<minor>\d+)`, `v1.2.3`, false},
		{`^id (?P<n>\d+)`, `id 1e5f3a`, false},
		{`(?P<mant>[0-9.]+)e(?P<exp>[+-]\d+)`, `x 1.2e+06`, false},
	} {
		r, err := Parse(tc.line+"\n", Spec{Mode: "regex", Options: map[string]any{"pattern": tc.pattern}})
		if err != nil {
			t.Fatalf("%s: %v", tc.pattern, err)
		}
		if got := r.Problems == 1 && strings.Contains(r.FirstProblem, "the match stopped inside it"); got != tc.cut {
			t.Errorf("%s over %q: cut %v (problems %d %q, value %v), want %v", tc.pattern, tc.line, got, r.Problems, r.FirstProblem, r.Value, tc.cut)
		}
	}
	r, _ := Parse("queue_depth 1.2e+06\n", Spec{Mode: "regex", Options: map[string]any{"pattern": `(?P<v>[0-9.]+)`}})
	if want := `line 1: the group "v" read "1.2" of the number 1.2e+06`; !strings.HasPrefix(r.FirstProblem, want) {
		t.Errorf("problem %q, want it to begin %q", r.FirstProblem, want)
	}
}
