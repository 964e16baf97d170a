package rules

import (
	"strings"
	"testing"
)

// TestTextsThatDifferOnlyByBlanksAtAnEndAreNoEquality: modprobe -n -v
// prints "install /bin/false " (a space after it) for a module a
// modprobe.d line disables, read with parse: lines as it is, and `cut
// -d= -f2` of a sysctl.conf line `net.ipv4.ip_forward = 1` is " 1".
// `m.stdout[0] == "install /bin/false"` was a plain no over a disabled
// module, and `fwd == "1"` a plain no over a router that forwards, so a
// rule asking for the bad value passed it, Consistent. Two texts that
// differ only by spaces or tabs before or after them are a rule error
// naming both and what to write, in ==, !=, in, not in, endsWith,
// matches and a filter's eq, ne, in, notIn, endsWith and matches alike;
// texts equal, differing otherwise, or trimmed first are judged as before.
func TestTextsThatDifferOnlyByBlanksAtAnEndAreNoEquality(t *testing.T) {
	t.Parallel()
	env := mapEnv{"m": map[string]any{"dry": "install /bin/false ", "fwd": " 1", "tab": "0\t", "nl": "0 \n", "blank": "  "}}
	const why = `differ only by the blanks`
	for _, tc := range []struct {
		src     string
		err     string // "" for no error
		matched bool
	}{
		{`m.dry == "install /bin/false"`, `m.dry == "install /bin/false": "install /bin/false " and "install /bin/false" ` + why, false},
		{`m.dry != "install /bin/false"`, why, false},
		{`"1" == m.fwd`, why, false},
		{`m.fwd in ["1", "2"]`, why, false},
		{`m.fwd not in ["1"]`, why, false},
		{`m.tab == "0"`, why, false},
		{`m.nl == "0"`, why, false},
		{`m.dry endsWith "/bin/false"`, `ends with "/bin/false" but for the blanks after it`, false},
		{`m.dry matches "^install /bin/(true|false)$"`, `but for the blanks`, false},
		{`trim(m.dry) == "install /bin/false"`, "", true},
		{`m.dry == "install /bin/false "`, "", true},
		{`m.dry == "install /bin/true"`, "", false},
		{`m.fwd in ["0", "2"]`, "", false},
		{`m.blank == ""`, "", false},
		{`m.dry endsWith "false "`, "", true},
		{`m.dry matches "^install /bin/false"`, "", true},
	} {
		evalWants(t, env, tc.src, tc.err, tc.matched)
	}
	for _, tc := range []struct {
		name     string
		key      string
		op       Op
		expected any
		unjudged bool
		matched  bool
	}{
		{"eq", "m.dry", OpEq, "install /bin/false", true, false},
		{"ne", "m.fwd", OpNe, "1", true, false},
		{"in", "m.fwd", OpIn, []any{"1", "2"}, true, false},
		{"notIn", "m.fwd", OpNotIn, []any{"1"}, true, false},
		{"endsWith", "m.dry", OpEndsWith, "/bin/false", true, false},
		{"matches", "m.dry", OpMatches, "^install /bin/false$", true, false},
		{"eq as it is", "m.dry", OpEq, "install /bin/false ", false, true},
		{"ne another word", "m.fwd", OpNe, "0", false, true},
		{"notIn others", "m.fwd", OpNotIn, []any{"0", "2"}, false, true},
	} {
		out := MustFilter(Where(tc.key, tc.op, tc.expected)).Eval(env)
		c := out.Conditions[0]
		if c.Unjudged() != tc.unjudged || out.Matched != tc.matched {
			t.Errorf("filter %s: unjudged %v matched %v (reason %q); want unjudged %v matched %v", tc.name, c.Unjudged(), out.Matched, c.Reason, tc.unjudged, tc.matched)
		}
		if tc.unjudged && !strings.Contains(c.Reason, "but for the blanks") && !strings.Contains(c.Reason, why) {
			t.Errorf("filter %s: reason %q does not say the blanks", tc.name, c.Reason)
		}
	}
}
