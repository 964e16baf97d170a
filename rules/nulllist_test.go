package rules

import (
	"strings"
	"testing"
)

// TestBuiltinOverNullSaysWhatWouldBeRight: map, filter, any… over a key
// that holds null (iostat's JSON with no disk list, a tool whose stdout
// its parse could not read) failed the stage with "reflect: call of
// reflect.Value.Len on zero Value", Go's words, which say neither that
// the value was null nor what to write. The error says both.
func TestBuiltinOverNullSaysWhatWouldBeRight(t *testing.T) {
	t.Parallel()
	env := mapEnv{"io": map[string]any{"disks": nil}}
	for _, src := range []string{`map(io.disks, #.util)`, `filter(io.disks, .util > 80)`, `any(io.disks, .util > 80)`, `count(io.disks, .util > 80)`} {
		_, _, err := MustCompile(src).Value(env)
		if err == nil || strings.Contains(err.Error(), "reflect:") || !strings.Contains(err.Error(), "is null") || !strings.Contains(err.Error(), "?? []") {
			t.Errorf("%s: error %v; want one that says the list is null and how to write none", src, err)
		}
	}
}

// TestBuiltinGivenAnotherKindSaysItInOurWords: expr's text builtins given
// a number, a list or an object failed with Go's "interface conversion:
// interface {} is map[string]interface {}, not string", naming Go's types
// and not what to write. The kinds are a chart's (jsonv.Describe) and the
// error says how to make text.
func TestBuiltinGivenAnotherKindSaysItInOurWords(t *testing.T) {
	env := mapEnv{"o": map[string]any{"a": 1}, "n": 5, "l": []any{1, 2}}
	for _, tc := range []struct{ src, want string }{
		{`fromJSON(o)`, "it takes a string there and was given an object; string(x) makes a string of a number, toJSON(x) of an object or a list (1:1)"},
		{`upper(n)`, "it takes a string there and was given a number;"},
		{`trim(l)`, "it takes a string there and was given a list;"},
	} {
		_, _, err := MustCompile(tc.src).Value(env)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "interface {}") {
			t.Errorf("%s: %v; want it said as %q", tc.src, err, tc.want)
		}
	}
}
