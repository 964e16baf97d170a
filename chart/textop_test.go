package chart

import (
	"strings"
	"testing"
)

// TestTextOperatorCalledAsAFunctionSaysWriteItBetween: a CPU
// vulnerability chart asked `startsWith(v.content, "Vulnerable")`, as
// JavaScript or Python spells it, and the load error said only
// `unexpected token Operator("startsWith")`; in expr startsWith,
// endsWith, contains and matches go between their operands. The error
// spells the expression so.
func TestTextOperatorCalledAsAFunctionSaysWriteItBetween(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ expr, want string }{
		{`startsWith(v.content, "Not affected")`, `write v.content startsWith "Not affected")`},
		{`endsWith(trim(v.content), "SMT vulnerable") && v.ok`, `write trim(v.content) endsWith "SMT vulnerable" && v.ok)`},
		{`contains(v.content, "a, b")`, `write v.content contains "a, b")`},
		{`matches(v.content, "^Vuln(erable)?")`, `write v.content matches "^Vuln(erable)?")`},
	} {
		src := "version: 1\nrunbook: m\nvars: {v: '{\"content\": \"x\", \"ok\": true}'}\nstages:\n  - id: s\n    set:\n      hit: '" + tc.expr + "'\n"
		_, err := Parse("chart.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "is an operator in expr") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v\nwant it to say %s", tc.expr, err, tc.want)
		}
	}
	src := "version: 1\nrunbook: m\nvars: {v: '{\"content\": \"x\"}'}\nstages:\n  - id: s\n    set:\n      hit: 'v.content startsWith \"Vuln\"'\n"
	if _, err := Parse("chart.yaml", []byte(src)); err != nil {
		t.Errorf("the operator between its operands: %v", err)
	}
}
