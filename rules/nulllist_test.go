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
