package rules

import (
	"strings"
	"testing"
)

// TestFlagSetWrittenAsTextIsNoEquality: upsc prints a UPS's ups.status
// as its flags between spaces (`OL CHRG`, `OB DISCHRG`, `OB DISCHRG LB`,
// `OL RB`), and a chart asked `u.stdout["ups.status"] == "OB"` (and
// {status: {eq: OB}}, and `status in ["OB", "LB"]`) of `OB DISCHRG`: the
// whole text is not the flag, so a UPS on battery fell to the default,
// `online`, OK, Consistent (testdata/wave-ups/status-eq). A text of two
// or more upper-case flags, one of which is the other text, is a rule
// error saying to compare the flags; texts that share no flag, words that
// are not flags, and the flags compared are judged as before.
func TestFlagSetWrittenAsTextIsNoEquality(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"u":    map[string]any{"status": "OB DISCHRG", "name": "Debian GNU/Linux", "single": "OB"},
		"lows": []any{"OB", "LB"},
	}
	const why = `"OB DISCHRG" is a set of flags written as text, between spaces, and "OB" is one of them`
	for _, tc := range []struct {
		src     string
		err     string // "" for no error
		matched bool
	}{
		{`u.status == "OB"`, why, false},
		{`u.status != "OB"`, why, false},
		{`"OB" == u.status`, why, false},
		{`u.status in lows`, why, false},
		{`u.status not in ["OB"]`, why, false},
		{`"OB" in split(u.status, " ")`, "", true},
		{`u.status == "OB DISCHRG"`, "", true},
		{`u.status == "OL"`, "", false},
		{`u.status in ["OL", "LB"]`, "", false},
		{`u.single == "OB"`, "", true},
		{`u.single == "OL"`, "", false},
		{`u.name == "Debian"`, "", false},
	} {
		evalWants(t, env, tc.src, tc.err, tc.matched)
	}
	for _, tc := range []struct {
		name     string
		op       Op
		expected any
		unjudged bool
	}{
		{"eq", OpEq, "OB", true},
		{"in", OpIn, []any{"LB", "OB"}, true},
		{"ne", OpNe, "DISCHRG", true},
		{"eq another", OpEq, "OL", false},
	} {
		out := MustFilter(Where("u.status", tc.op, tc.expected)).Eval(env)
		if c := out.Conditions[0]; c.Unjudged() != tc.unjudged || out.Matched || (tc.unjudged && !strings.Contains(c.Reason, "set of flags written as text")) {
			t.Errorf("filter %s: unjudged %v matched %v (reason %q); want unjudged %v", tc.name, c.Unjudged(), out.Matched, c.Reason, tc.unjudged)
		}
	}
}

// TestFlagInsideAnotherFlagIsNoContains: NUT's DISCHRG holds CHRG, so a
// rule `u.stdout["ups.status"] contains "CHRG"` (and {status: {contains:
// CHRG}}) over `OB DISCHRG` was true, and a UPS discharging on battery
// read as charging (testdata/wave-ups/status-contains). In a text of two
// or more upper-case flags, a flag found only inside another is a rule
// error saying to compare the flags; a flag the set holds, one it does
// not, and text that is no set of flags are judged as before.
func TestFlagInsideAnotherFlagIsNoContains(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"u": map[string]any{"status": "OB DISCHRG", "charging": "OL CHRG", "log": "disk ERRORS found"},
	}
	const why = `"CHRG" is found in "OB DISCHRG" only inside the flag "DISCHRG"`
	for _, tc := range []struct {
		src     string
		err     string // "" for no error
		matched bool
	}{
		{`u.status contains "CHRG"`, why, false},
		{`u.status contains "OB"`, "", true},
		{`u.status contains "LB"`, "", false},
		{`u.charging contains "CHRG"`, "", true},
		{`"CHRG" in split(u.status, " ")`, "", false},
		{`u.log contains "ERROR"`, "", true},
	} {
		evalWants(t, env, tc.src, tc.err, tc.matched)
	}
	out := MustFilter(Where("u.status", OpContains, "CHRG")).Eval(env)
	if c := out.Conditions[0]; !c.Unjudged() || out.Matched || !strings.Contains(c.Reason, "only inside the flag") {
		t.Errorf("filter contains: unjudged %v matched %v (reason %q); want unjudged", c.Unjudged(), out.Matched, c.Reason)
	}
}
