package rules

import (
	"strings"
	"testing"
)

// TestTextsThatDifferOnlyInUnicodeCompositionAreNoEquality: macOS names
// files decomposed (u and a combining U+0308), Linux tools and charts
// write them composed (U+00FC); both print "Müller". `want in ls.stdout`
// over a listing of a folder copied from a Mac was a plain no, and a
// check that the folder is there said missing, Consistent
// (testdata/wave-locale/nfd-names). Two texts that are the same letters
// composed in two ways are a rule error in ==, !=, in, not in and a
// filter's eq, ne, in and notIn alike, saying both in escapes; nfc(x)
// compares them as one, and texts that differ otherwise are judged as
// before.
func TestTextsThatDifferOnlyInUnicodeCompositionAreNoEquality(t *testing.T) {
	t.Parallel()
	const nfd, nfc = "Mu\u0308ller", "M\u00fcller"
	env := mapEnv{"f": map[string]any{"name": nfd, "names": []any{nfd, "Schmidt"}}, "want": nfc}
	const why = `"Mu\u0308ller" and "M\u00fcller" are the same letters composed in two ways`
	for _, tc := range []struct {
		src     string
		err     string // "" for no error
		matched bool
	}{
		{`f.name == want`, `f.name == want: ` + why, false},
		{`f.name != want`, "composed in two ways", false},
		{`want in f.names`, "composed in two ways", false},
		{`want not in f.names`, "composed in two ways", false},
		{`nfc(f.name) == want`, "", true},
		{`nfc(want) in map(f.names, nfc(#))`, "", true},
		{`f.name == "Mu\u0308ller"`, "", true},
		{`f.name == "Muller"`, "", false},
		{`"Schmidt" in f.names`, "", true},
		{`nfc(nil) == nil`, "", true},
	} {
		evalWants(t, env, tc.src, tc.err, tc.matched)
	}
	for _, tc := range []struct {
		name     string
		op       Op
		expected any
		unjudged bool
		matched  bool
	}{
		{"eq", OpEq, nfc, true, false},
		{"ne", OpNe, nfc, true, false},
		{"in", OpIn, []any{nfc, "Schmidt"}, true, false},
		{"notIn", OpNotIn, []any{nfc}, true, false},
		{"eq as written", OpEq, nfd, false, true},
		{"ne another name", OpNe, "Schmidt", false, true},
	} {
		out := MustFilter(Where("f.name", tc.op, tc.expected)).Eval(env)
		c := out.Conditions[0]
		if c.Unjudged() != tc.unjudged || out.Matched != tc.matched {
			t.Errorf("filter %s: unjudged %v matched %v (reason %q); want unjudged %v matched %v", tc.name, c.Unjudged(), out.Matched, c.Reason, tc.unjudged, tc.matched)
		}
		if tc.unjudged && !strings.Contains(c.Reason, "composed in two ways") {
			t.Errorf("filter %s: reason %q does not say the composition", tc.name, c.Reason)
		}
	}
}
