package rules

import (
	"strings"
	"testing"
)

// TestAllOverNoItemsIsNoAnswer: a rule whose all() went over no items
// judged nothing, whichever way it came out; a guard the author wrote
// keeps all() from being reached, and none() reads as it says.
func TestAllOverNoItemsIsNoAnswer(t *testing.T) {
	up := map[string]any{"operstate": "UP"}
	for _, tc := range []struct {
		src     string
		env     map[string]any
		matched bool
		err     string // a part of the error; "" for none
	}{
		{`all(links, .operstate == "UP")`, map[string]any{"links": []any{}}, false, `all(links, …) went over no items (links is empty)`},
		{`all(links, .operstate == "UP")`, map[string]any{"links": []any{up}}, true, ""},
		{`!all(links, .operstate == "UP")`, map[string]any{"links": []any{}}, false, `went over no items`},
		{`all(ip.stdout, .operstate == "UP")`, map[string]any{"ip": map[string]any{"stdout": []any{}}}, false, `all(ip.stdout, …) went over no items (ip.stdout is empty)`},
		{`all(filter(links, .kind == "bond"), .operstate == "UP")`, map[string]any{"links": []any{up}}, false, `went over no items`},
		{`all(groups, all(.members, .up))`, map[string]any{"groups": []any{map[string]any{"members": []any{}}}}, false, `all(.members, …) went over no items`},
		{`all(counts, # == 0)`, map[string]any{"counts": map[string]any{}}, false, `went over no items`},
		// the author said what no items means
		{`len(links) == 0 || all(links, .operstate == "UP")`, map[string]any{"links": []any{}}, true, ""},
		{`len(links) > 0 && all(links, .operstate == "UP")`, map[string]any{"links": []any{}}, false, ""},
		// none() of nothing is the plain answer it reads as
		{`none(units, .state == "failed")`, map[string]any{"units": []any{}}, true, ""},
		{`!any(units, .state == "failed")`, map[string]any{"units": []any{}}, true, ""},
	} {
		x, err := Compile(tc.src)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		out := x.Eval(mapEnv(tc.env)).UnlessJudged()
		if out.Matched != tc.matched || (tc.err == "") != (out.Err == "") || !strings.Contains(out.Err, tc.err) {
			t.Errorf("%s over %v: matched %v, error %q; want %v, an error holding %q", tc.src, tc.env, out.Matched, out.Err, tc.matched, tc.err)
		}
	}
}

// TestAllOverNoItemsIsAValueForSet: what a set: or an answer check
// computes is the value it says (Value, Eval without UnlessJudged).
func TestAllOverNoItemsIsAValueForSet(t *testing.T) {
	x := MustCompile(`all(links, .up)`)
	if v, _, err := x.Value(mapEnv{"links": []any{}}); err != nil || v != true {
		t.Fatalf("Value = %v, %v; want true", v, err)
	}
	if out := x.Eval(mapEnv{"links": []any{}}); !out.Matched || out.Err != "" || out.Vacuous() == "" {
		t.Fatalf("Eval = %+v; want a match, no error, the note kept", out)
	}
}
