package rules

import (
	"strings"
	"testing"
)

// TestTextReadAsLatin1TwiceIsNoEquality: an export whose UTF-8 went
// through a tool that read it as Latin-1 and wrote it out in UTF-8 again
// holds "MÃ¼ller, Hans" for "Müller, Hans"; `name in export` was a plain
// no, and a check that a leaver's account is gone from the HR export said
// gone, Consistent, over the account (testdata/wave-locale/export-names).
// Two texts one of which is the other so mangled are a rule error, in ==,
// in and a filter's eq alike; other non-ASCII pairs are judged as before.
func TestTextReadAsLatin1TwiceIsNoEquality(t *testing.T) {
	t.Parallel()
	env := mapEnv{"r": map[string]any{"name": "MÃ¼ller, Hans", "quote": "donâ€™t", "ok": "Müller, Hans", "names": []any{"MÃ¼ller, Hans", "Weber"}}}
	const why = "written twice over"
	for _, tc := range []struct {
		src     string
		err     string
		matched bool
	}{
		{`r.name == "Müller, Hans"`, `"MÃ¼ller, Hans" is "Müller, Hans" ` + why, false},
		{`"Müller, Hans" in r.names`, why, false},
		{`"Müller, Hans" not in r.names`, why, false},
		{`r.quote == "don’t"`, why, false},
		{`r.ok == "Müller, Hans"`, "", true},
		{`r.ok == "Mueller, Hans"`, "", false},
		{`r.ok == "Möller, Hans"`, "", false},
		{`"Weber" in r.names`, "", true},
	} {
		evalWants(t, env, tc.src, tc.err, tc.matched)
	}
	out := MustFilter(Where("r.name", OpEq, "Müller, Hans")).Eval(env)
	if c := out.Conditions[0]; !c.Unjudged() || !strings.Contains(c.Reason, why) {
		t.Errorf("filter eq: unjudged %v reason %q, want a reason saying %q", c.Unjudged(), c.Reason, why)
	}
}
