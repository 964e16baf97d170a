package rules

import (
	"strings"
	"testing"
	"time"
)

// TestEqualityOfMixedKindsIsAnError: `p.PID == "1"` over the number 1
// read from JSON was false, silently, and a rule over it a plain no-match
// — where the filter `{PID: {eq: "1"}}` is an error, "a number cannot be
// compared with a string". `==` and `!=` in an expression follow the same
// judgement (equalCheck): values of two kinds that are never equal are an
// error naming both kinds and the comparison; null meets anything (`x ==
// nil`, an absent member), and values of one kind compare as they did.
// `in` over a list is judged as a filter's in: a list with no element of
// the value's kind is the same error.
func TestEqualityOfMixedKindsIsAnError(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"p":    map[string]any{"PID": 1, "comm": "init", "up": true, "tags": []any{"a"}, "f": 1.0},
		"word": "1",
		"t":    time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC),
		"u":    time.Date(2024, 1, 1, 1, 0, 0, 0, time.FixedZone("CET", 3600)),
	}
	tests := []outcomeCase{
		{`p.PID == "1"`, false, `p.PID == "1": a number cannot be compared with a string`},
		{`p.PID != "1"`, false, `p.PID != "1": a number cannot be compared with a string`},
		{`word == 1`, false, `word == 1: a string cannot be compared with a number`},
		{`p.up == "true"`, false, "a boolean cannot be compared with a string"},
		{`p.tags == "a"`, false, "a list cannot be compared with a string"},
		{`p == 1`, false, "a map cannot be compared with a number"},
		{`p.PID in ["1", "2"]`, false, `p.PID in ["1", "2"]: no element of the list is a number`},
		{`p.PID not in ["1", "2"]`, false, "no element of the list is a number"},
		{`word in p.tags`, false, ""},
		{`p.PID in [1, 2]`, true, ""},
		{`p.PID in [1.0]`, true, ""},
		{`p.PID not in [2, "x"]`, false, `element 2 of the list, "x", is a text beside numbers`}, // TestNotFoundInAListOfAnotherKindIsNoAnswer
		{`p?.missing in ["a"]`, false, ""},
		{`p.PID in []`, false, ""},
		{`"comm" in p`, true, ""},
		{`any(p.tags, # == 1)`, false, `# == 1: a string cannot be compared with a number`},
		// null meets anything; one kind compares as before
		{`p.missing == nil`, true, ""},
		{`p.PID != nil`, true, ""},
		{`nil == nil`, true, ""},
		{`p?.nothing == "x"`, false, ""},
		{`p.PID == 1`, true, ""},
		{`p.f == 1`, true, ""},
		{`p.PID != 2`, true, ""},
		{`p.comm == "init"`, true, ""},
		{`p.up == true`, true, ""},
		{`p.tags == ["a"]`, true, ""},
		{`len(p.tags) == 1`, true, ""},
		{`t == u`, true, ""},
		{`string(p.PID) == word`, true, ""},
		{`(p.PID == 1) == true`, true, ""},
	}
	runOutcomes(t, env, tests)
}

// outcomeCase is an expression, whether it matches over a test's env, and
// a part of the error it must give ("" for none).
type outcomeCase struct {
	src     string
	matched bool
	err     string
}

// runOutcomes evaluates each case's expression over env, as a subtest.
func runOutcomes(t *testing.T, env mapEnv, tests []outcomeCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			out := MustCompile(tc.src).Eval(env)
			if tc.err == "" {
				if out.Err != "" || out.Matched != tc.matched {
					t.Errorf("matched %v, err %q; want %v, no error", out.Matched, out.Err, tc.matched)
				}
				return
			}
			if out.Matched || !strings.Contains(out.Err, tc.err) {
				t.Errorf("matched %v, err %q; want no match and an error saying %q", out.Matched, out.Err, tc.err)
			}
		})
	}
}

// TestMixedKindConstantsStayACompileError: two constants of kinds that
// never compare are refused when the expression is compiled, as expr's
// own checker refused them, not left to fail at each run.
func TestMixedKindConstantsStayACompileError(t *testing.T) {
	t.Parallel()
	for _, src := range []string{`1 == "1"`, `len("ab") != "2"`} {
		if _, err := Compile(src); err == nil || !strings.Contains(err.Error(), "mismatched types") {
			t.Errorf("Compile(%s): %v, want expr's mismatched types error", src, err)
		}
	}
}

// TestNotFoundInAListOfAnotherKindIsNoAnswer: a port deny list given as
// [23, "3389"] (one port quoted in an inputs file) found no 3389 in it, so
// `s.port in forbidden` was a plain no and a listener on 3389 stood ok,
// Consistent; the list's "no element is a number" error fired only when
// every element was text. A value not found in a list that holds it
// written in the other kind (a number as text, a text as a number) is an
// error naming the element, in an expression's in and not in and a
// filter's in, notIn and contains alike (notFoundIn). So is a number not
// found in a list holding any text beside numbers: [23, "6000-6063"]
// (the X11 ports as a range) found no 6010, [3389, "telnet"] no 23. A
// text not found beside a number that it does not spell ("dev" in
// ["prod", 3]) leaves the answer as it was.
func TestNotFoundInAListOfAnotherKindIsNoAnswer(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"port":      3389,
		"name":      "3389",
		"forbidden": []any{23, "3389"},
		"allowed":   []any{22, 3389.0},
		"names":     []any{"ssh", 3389},
		"mixed":     []any{23, "telnet"},
		"x11":       []any{23, "6000-6063"},
		"tags":      []any{"prod", 3},
	}
	runOutcomes(t, env, []outcomeCase{
		{`port in forbidden`, false, `port in forbidden: element 2 of the list, "3389", is 3389 written as text, which a number never equals`},
		{`port not in forbidden`, false, `element 2 of the list, "3389", is 3389 written as text`},
		{`name in names`, false, `element 2 of the list, 3389, is a number and the value is the text "3389"`},
		{`23 in forbidden`, true, ""},
		{`port in allowed`, true, ""},
		{`port in mixed`, false, `element 2 of the list, "telnet", is a text beside numbers`},
		{`6010 in x11`, false, `element 2 of the list, "6000-6063", is a text beside numbers`},
		{`port in [22, "ssh", "3389"]`, false, `element 3 of the list, "3389", is 3389 written as text`},
		{`23 in mixed`, true, ""},
		{`"dev" in tags`, false, ""},
		{`"dev" not in tags`, true, ""},
	})
	filters := []struct {
		name string
		f    Condition
	}{
		{"in", Where("port", OpIn, []any{23, "3389"})},
		{"notIn", Where("port", OpNotIn, []any{23, " 3389 "})},
		{"contains", Where("forbidden", OpContains, 3389)},
	}
	for _, tc := range filters {
		t.Run("filter "+tc.name, func(t *testing.T) {
			t.Parallel()
			f, err := NewFilter(tc.f)
			if err != nil {
				t.Fatal(err)
			}
			out := f.Eval(env)
			if out.Matched || len(out.Conditions) != 1 || !strings.Contains(out.Conditions[0].Reason, "written as text") {
				t.Fatalf("matched %v, conditions %+v; want no match, the quoted element named", out.Matched, out.Conditions)
			}
		})
	}
}

// TestNotInIsQuotedAsWritten: `a not in b` is parsed as not (a in b), both
// at the operator, and an error of the in quoted `port in forbidden`, an
// expression the chart never wrote, over a rule written `port not in
// forbidden`. The error quotes it as written.
func TestNotInIsQuotedAsWritten(t *testing.T) {
	t.Parallel()
	env := mapEnv{"port": 3389, "forbidden": []any{23, "3389"}, "p": map[string]any{"PID": 1}}
	runOutcomes(t, env, []outcomeCase{
		{`port not in forbidden`, false, `port not in forbidden: element 2 of the list`},
		{`port + 1 not in forbidden`, false, `port + 1 not in forbidden: element 2 of the list`},
		{`p.PID not in ["1", "2"]`, false, `p.PID not in ["1", "2"]: no element of the list is a number`},
		{`not (port in forbidden)`, false, `port in forbidden: element 2 of the list`},
	})
}

// TestInOverAnObjectsKeysSaysTheyAreText: a deny list written as an
// object of ports to their names, {"3389": "RDP", "23": "telnet"}, holds
// its keys as text, as JSON does; `port in forbidden` over the number
// 3389 said reflect's "reflect.Value.MapIndex: value of type int is not
// assignable to type string". The error says the keys are text and what
// to write; a text is looked up as before.
func TestInOverAnObjectsKeysSaysTheyAreText(t *testing.T) {
	t.Parallel()
	env := mapEnv{"port": 3389, "forbidden": map[string]any{"3389": "RDP", "23": "telnet"}}
	runOutcomes(t, env, []outcomeCase{
		{`port in forbidden`, false, `port in forbidden: in over an object reads its keys, which are text, and the value is a number; write string(x) in …`},
		{`string(port) in forbidden`, true, ""},
		{`"22" in forbidden`, false, ""},
		{`string(port) not in forbidden`, false, ""},
	})
}

// TestInOverAListOfNullsSaysSo: lsblk -J writes "mountpoints": [null]
// for a device mounted nowhere, and `"/" in d.mountpoints` over it was an
// error telling the author to make the kinds agree with string(x), which
// reads nothing there. A list of nulls alone is said as what it is, with
// what to write; a list with a text in it beside nulls is judged as ever.
func TestInOverAListOfNullsSaysSo(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"unmounted": []any{nil},
		"mounted":   []any{nil, "/"},
		"swap":      []any{nil, "[SWAP]"},
	}
	runOutcomes(t, env, []outcomeCase{
		{`"/" in unmounted`, false, `"/" in unmounted: every element of the list is null (no value: a tool's [null], as lsblk -J writes the mountpoints of a device mounted nowhere`},
		{`"/" in filter(unmounted, # != nil)`, false, ""},
		{`any(unmounted, # == "/")`, false, ""},
		{`"/" in mounted`, true, ""},
		{`"/" in swap`, false, ""},
	})
}
