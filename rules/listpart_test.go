package rules

import (
	"strings"
	"testing"
)

// TestListWrittenAsTextIsNoEquality: sshd -T prints the ciphers it
// offers as one comma-separated line, and a hardening chart asked
// `s.value in weak` (and {s.value: {in: [...]}}, and `s.value ==
// "aes128-cbc"`) of `aes256-ctr,aes128-cbc`: the whole text is in no
// list of cipher names, so a server offering a CBC cipher stood pass,
// Consistent (testdata/wave-audit/sshd). A text holding commas, one of
// whose items is the other text, is a rule error saying to compare the
// items; texts that share no item, and the items compared, are judged
// as before.
func TestListWrittenAsTextIsNoEquality(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"s":    map[string]any{"value": "aes256-ctr,aes128-cbc"},
		"weak": []any{"3des-cbc", "aes128-cbc", "aes256-cbc"},
	}
	const why = `"aes256-ctr,aes128-cbc" is a list written as text, and "aes128-cbc" is one of its items`
	for _, tc := range []struct {
		src     string
		err     string // "" for no error
		matched bool
	}{
		{`s.value in weak`, why, false},
		{`s.value not in weak`, why, false},
		{`s.value == "aes128-cbc"`, why, false},
		{`"aes128-cbc" != s.value`, why, false},
		{`any(split(s.value, ","), # in weak)`, "", true},
		{`"aes128-cbc" in split(s.value, ",")`, "", true},
		{`s.value in ["3des-cbc", "arcfour"]`, "", false},
		{`s.value == "aes256-ctr,aes128-cbc"`, "", true},
		{`s.value == "chacha20"`, "", false},
	} {
		evalWants(t, env, tc.src, tc.err, tc.matched)
	}
	for _, tc := range []struct {
		name     string
		op       Op
		expected any
		unjudged bool
	}{
		{"in", OpIn, []any{"3des-cbc", "aes128-cbc"}, true},
		{"notIn", OpNotIn, []any{"aes128-cbc"}, true},
		{"eq", OpEq, "aes128-cbc", true},
		{"in others", OpIn, []any{"3des-cbc"}, false},
	} {
		out := MustFilter(Where("s.value", tc.op, tc.expected)).Eval(env)
		if c := out.Conditions[0]; c.Unjudged() != tc.unjudged || out.Matched || (tc.unjudged && !strings.Contains(c.Reason, "list written as text")) {
			t.Errorf("filter %s: unjudged %v matched %v (reason %q); want unjudged %v", tc.name, c.Unjudged(), out.Matched, c.Reason, tc.unjudged)
		}
	}
}
