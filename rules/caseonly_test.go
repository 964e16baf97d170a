package rules

import (
	"strings"
	"testing"
)

// TestTextsThatDifferOnlyInCaseAreNoEquality: sshd reads its words in
// any case, so a sshd_config line `PasswordAuthentication Yes` takes
// passwords; read with parse: kv, `conf.PasswordAuthentication == "yes"`
// was a plain no, and an audit said the server refused passwords,
// Consistent (testdata/wave-audit/sshd-file). Two texts that differ only
// in the case of their letters are a rule error naming both and the ways
// to compare them, in ==, !=, in, not in and a filter's eq, ne, in and
// notIn alike; texts equal, or differing otherwise, are judged as before,
// and lower(x) and matches say what the author means.
func TestTextsThatDifferOnlyInCaseAreNoEquality(t *testing.T) {
	t.Parallel()
	env := mapEnv{"c": map[string]any{"pa": "Yes", "prl": "No", "hash": "ABCDEF"}}
	const why = `differ only in the case of their letters`
	for _, tc := range []struct {
		src     string
		err     string // "" for no error
		matched bool
	}{
		{`c.pa == "yes"`, `c.pa == "yes": "Yes" and "yes" ` + why, false},
		{`c.prl != "no"`, why, false},
		{`"yes" == c.pa`, why, false},
		{`c.pa in ["yes", "without-password"]`, why, false},
		{`c.prl not in ["no"]`, why, false},
		{`c.hash == "abcdef"`, why, false},
		{`lower(c.pa) == "yes"`, "", true},
		{`c.pa == "Yes"`, "", true},
		{`c.pa == "no"`, "", false},
		{`c.pa in ["no", "prohibit-password"]`, "", false},
		{`c.pa matches "^yes$"`, "", false},
		{`c.pa matches "^Yes$"`, "", true},
	} {
		out := MustCompile(tc.src).Eval(env)
		if tc.err == "" {
			if out.Err != "" || out.Matched != tc.matched {
				t.Errorf("%s: matched %v err %q, want matched %v and no error", tc.src, out.Matched, out.Err, tc.matched)
			}
			continue
		}
		if out.Matched || !strings.Contains(out.Err, tc.err) || strings.Contains(out.Err, "make the kinds agree") {
			t.Errorf("%s: matched %v err %q, want a non-match saying %q", tc.src, out.Matched, out.Err, tc.err)
		}
	}
	for _, tc := range []struct {
		name     string
		op       Op
		expected any
		unjudged bool
		matched  bool
	}{
		{"eq", OpEq, "yes", true, false},
		{"ne", OpNe, "yes", true, false},
		{"in", OpIn, []any{"yes", "no"}, true, false},
		{"notIn", OpNotIn, []any{"yes"}, true, false},
		{"eq in its case", OpEq, "Yes", false, true},
		{"ne another word", OpNe, "no", false, true},
		{"notIn others", OpNotIn, []any{"no", "NO"}, false, true},
	} {
		out := MustFilter(Where("c.pa", tc.op, tc.expected)).Eval(env)
		c := out.Conditions[0]
		if c.Unjudged() != tc.unjudged || out.Matched != tc.matched {
			t.Errorf("filter %s: unjudged %v matched %v (reason %q); want unjudged %v matched %v", tc.name, c.Unjudged(), out.Matched, c.Reason, tc.unjudged, tc.matched)
		}
		if tc.unjudged && !strings.Contains(c.Reason, why) {
			t.Errorf("filter %s: reason %q does not say the case", tc.name, c.Reason)
		}
	}
}
