package rules

import (
	"strings"
	"testing"
)

// TestItemPastTheEndSaysWhatToWrite: a PSI chart took the full line of
// each /proc/pressure file with filter(f.content, .kind == "full")[0],
// and over cpu's file on a kernel before 5.13, which has no full line,
// the run failed saying "reflect: slice index out of range", Go's words,
// naming neither the list's length nor what to write. The error says
// the list had no such item (empty, where filter found nothing) and how
// to say what none means; a constant index past a known list's end,
// which expr said in its own words, says the same.
func TestItemPastTheEndSaysWhatToWrite(t *testing.T) {
	t.Parallel()
	env := mapEnv{"f": map[string]any{"content": []any{map[string]any{"kind": "some", "avg10": 1.5}}}, "xs": []any{"a", "b"}}
	for _, src := range []string{`filter(f.content, .kind == "full")[0].avg10`, `xs[5]`, `filter(xs, # == "z")[0]`} {
		_, _, err := MustCompile(src).Value(env)
		if err == nil || strings.Contains(err.Error(), "reflect:") || !strings.Contains(err.Error(), "past the end of the list") || !strings.Contains(err.Error(), "first(") {
			t.Errorf("%s: error %v; want one that says the item is past the list's end and how to write none", src, err)
		}
	}
	if v, _, err := MustCompile(`first(filter(f.content, .kind == "full"))?.avg10 ?? 0`).Value(env); err != nil || v != 0 {
		t.Errorf("the advice itself: %v, %v; want 0", v, err)
	}
}
