package rules

import (
	"reflect"
	"testing"
)

// TestFindLastKeepsItsNeighbours: expr-lang v1.17.8 compiles findLast and
// findLastIndex as a loop run backwards that leaves a boolean on the
// value stack at each step, and its optimizer makes last(filter(…)) and
// filter(…)[-1] such a loop. Beside another value the stack was off by
// one: `["p", last(filter(xs, # == "a"))]` gave [true, "a"], the "p"
// replaced in silence, and in a map literal `{value: last(filter(lines,
// .key == "Storage")).value, …}` — the last line that sets a setting, as a
// CIS check reads systemd's coredump.conf — failed with expr's "it takes a
// string there and was given a boolean". Each gives its own value now, in
// a list, a map, a call and an operation alike.
func TestFindLastKeepsItsNeighbours(t *testing.T) {
	t.Parallel()
	env := mapEnv{"xs": []any{"a", "b", "a"}, "empty": []any{},
		"lines": []any{map[string]any{"key": "Storage", "value": "external"}, map[string]any{"key": "Storage", "value": "none"}}}
	for _, tc := range []struct {
		src  string
		want any
	}{
		{`["p", last(filter(xs, # == "a"))]`, []any{"p", "a"}},
		{`["p", findLast(xs, # == "b")]`, []any{"p", "b"}},
		{`[1, findLastIndex(xs, # == "a")]`, []any{1, 2}},
		{`["p", filter(xs, # == "b")[-1]]`, []any{"p", "b"}},
		{`["p", last(map(filter(lines, .key == "Storage"), .value))]`, []any{"p", "none"}},
		{`{control: "Storage", value: last(filter(lines, .key == "Storage")).value, want: "none"}`, map[string]any{"control": "Storage", "value": "none", "want": "none"}},
		{`{v: findLast(empty, # == "a"), w: findLastIndex(empty, # == "a")}`, map[string]any{"v": nil, "w": nil}},
		{`"x" + findLast(xs, # == "b")`, "xb"},
		{`findLastIndex(xs, # == "b") + 1`, 2},
		{`last(filter(xs, # != "a"))`, "b"},
	} {
		e, err := Compile(tc.src)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		got, _, err := e.Value(env)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s = %#v (err %v), want %#v", tc.src, got, err, tc.want)
		}
	}
}
