package rules

import (
	"strings"
	"testing"
)

// TestStringOfAnObjectSaysToJSON: expr's string() is Go's print, and a
// row's fix: cell read map[isSemVerMajor:true name:lodash version:4.17.21]
// over npm audit's fixAvailable (testdata/wave-deps); an object or a
// list is an error naming toJSON, a scalar is spelled as before.
func TestStringOfAnObjectSaysToJSON(t *testing.T) {
	env := mapEnv{"fix": map[string]any{"name": "lodash", "isSemVerMajor": true}, "paths": []any{"a", "b"}, "n": 3, "ok": true}
	for _, src := range []string{`string(fix)`, `string(paths)`} {
		if _, _, err := MustCompile(src).Value(env); err == nil || !strings.Contains(err.Error(), "toJSON(x) writes it as JSON") {
			t.Errorf("%s: %v; want an error naming toJSON", src, err)
		}
	}
	for src, want := range map[string]any{`string(n)`: "3", `string(ok)`: "true", `string("x")`: "x", `toJSON(paths)`: "[\n  \"a\",\n  \"b\"\n]"} {
		if v, _, err := MustCompile(src).Value(env); err != nil || v != want {
			t.Errorf("%s = %#v, %v; want %#v", src, v, err, want)
		}
	}
}
