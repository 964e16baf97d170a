package chart

import (
	"strings"
	"testing"
)

// TestIssue13Wave2LoadErrors: mistakes a new user made that loaded and
// then ran wrong. Each is now a load error at line:col saying what would
// be right.
func TestIssue13Wave2LoadErrors(t *testing.T) {
	t.Parallel()
	const decider = "version: 1\nrunbook: d\nresult:\n  kind: verdict/x\n  decider: Headrom\nstages:\n" +
		"  - id: headroom\n    name: Headroom\n    decide:\n      rules:\n        - {when: 'true', then: a, label: A}\n      default: {branch: a}\n" +
		"    branches:\n      a:\n        - {id: m, verdict: {subject: '\"x\"', verdict: '\"a\"'}}\n"
	for _, tc := range []struct {
		name, body, want string
	}{
		{"unknown decider (issue13 item 4)", decider,
			`c.yaml:5:12: result decider "Headrom" names no decide stage; did you mean "Headroom"? (the decide stages: headroom, Headroom)`},
		{"decider without a decide stage (issue13 item 4)",
			"version: 1\nrunbook: d\nresult:\n  kind: verdict/x\n  decider: Headroom\nstages:\n  - {id: s, set: {a: 1}}\n",
			`c.yaml:5:12: result decider "Headroom": the chart has no decide stage`},
		{"null for nil (issue13 item 9)",
			"version: 1\nrunbook: d\nstages:\n  - {id: s, set: {a: 1}}\n  - {id: t, set: {b: 'a == null'}}\n",
			`use nil, not null`},
		{"a set key named len (issue13 item 9)",
			"version: 1\nrunbook: d\nstages:\n  - {id: s, set: {len: '[1, 2]'}}\n  - {id: t, set: {b: 'len > 1'}}\n",
			`c.yaml:5:27: stage "t": set "b": expression "len > 1" does not compile: invalid operation: > (mismatched types func(...interface {}) (interface {}, error) and int) (len is the name of an expression builtin, len(…): an expression reads the name as the function, so a key named len cannot be read here; rename the key, or read it as $env["len"])`},
	} {
		_, err := Parse("c.yaml", []byte(tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Parse = %v\nwant an error saying %s", tc.name, err, tc.want)
		}
	}
	// The decider found by its id, and in a mounted chart's stages, loads.
	if _, err := Parse("c.yaml", []byte(strings.Replace(decider, "Headrom", "headroom", 1))); err != nil {
		t.Errorf("decider by id: %v", err)
	}
}
