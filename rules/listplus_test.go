package rules

import (
	"strings"
	"testing"
)

// TestListsAddedSayConcat: a chart gathering faillock's entries under
// their user (wave-f2b) joined two lists with +, as Python and
// JavaScript's concat do, and the run failed saying "invalid operation:
// []interface {} + []interface {}", Go's types, neither what the values
// were nor what joins two lists. It says so in a chart's words now.
func TestListsAddedSayConcat(t *testing.T) {
	t.Parallel()
	env := mapEnv{"rows": []any{map[string]any{"user": "alice"}}, "more": []any{1}}
	for _, src := range []string{`rows + more`, `rows + [{"user": "bob"}]`, `[1] + [2]`} {
		_, _, err := MustCompile(src).Value(env)
		if err == nil || strings.Contains(err.Error(), "interface {}") || !strings.Contains(err.Error(), "concat(") {
			t.Errorf("%s: %v; want it to say that + joins no lists and concat(a, b) does", src, err)
		}
	}
	if v, _, err := MustCompile(`concat(rows, more)`).Value(env); err != nil || len(v.([]any)) != 2 {
		t.Errorf("concat(rows, more) = %v, %v; want a list of 2", v, err)
	}
}
