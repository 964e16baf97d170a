package runbook

import (
	"strings"
	"testing"
)

// TestPerfItemsCompareLabelsAsGiven: result.perfdata's labels are told
// apart as the chart gave them, not as the plugin API quotes them. The
// written text was cut at its first '=', so 'a=b' and 'a=c' (quoted, each
// its own) were one label "a", written twice, and the whole perfdata was
// dropped; a count's word is compared unquoted too.
func TestPerfItemsCompareLabelsAsGiven(t *testing.T) {
	t.Parallel()
	item := func(label string) map[string]any { return map[string]any{"label": label, "value": 1} }
	for _, tc := range []struct {
		name   string
		v      any
		counts []string
		want   string // the items joined by " ", or the error's words
		err    bool
	}{
		{"an = in each", []any{item("a=b"), item("a=c")}, nil, "'a=b'=1 'a=c'=1", false},
		{"a quote twice", []any{item("it's"), item("it's")}, nil, "the label it's is written twice", true},
		{"a count's word with a space", []any{item("at risk")}, []string{"at risk"}, "the check's own count", true},
		{"prefixed apart", map[string]any{"x": item("ok"), "y": []any{item("ok")}}, []string{"ok"}, "x::ok=1 y::ok=1", false},
	} {
		got, err := perfItems(tc.v, tc.counts)
		if tc.err {
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: %q, %v; want an error saying %q", tc.name, got, err, tc.want)
			}
			continue
		}
		if err != nil || strings.Join(got, " ") != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}
