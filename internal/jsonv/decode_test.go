package jsonv

import (
	"errors"
	"strings"
	"testing"
)

// TestIssue19DecodeBoundsNesting: `parse: json` of a command's output goes
// through Decode, which refuses a value nesting past MaxDepth before
// decoding it — 100,000 deep, and 9,999 deep, which encoding/json alone
// decodes and which then made the run's record unwritable — and decodes
// the rest as json.Decoder does (the first value; brackets in strings do
// not count).
func TestIssue19DecodeBoundsNesting(t *testing.T) {
	t.Parallel()
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, tc := range []struct {
		name, in string
		depthErr bool
	}{
		{"100k deep", deep(100_000), true},
		{"9999 deep", deep(9_999), true},
		{"one past", deep(MaxDepth + 1), true},
		{"objects", strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1), true},
		{"at the bound", deep(MaxDepth), false},
		{"brackets in a string", `["` + strings.Repeat("[", 1000) + `\"["]`, false},
		{"a string first", `"[[[["` + " " + deep(1000), false},
		{"trailing text after the value", `[1] ` + strings.Repeat("[", 1000), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Decode([]byte(tc.in))
			var de *DepthError
			if got := errors.As(err, &de); got != tc.depthErr {
				t.Errorf("Decode: %v; want a DepthError: %v", err, tc.depthErr)
			}
			if tc.depthErr && !strings.Contains(err.Error(), "512") {
				t.Errorf("error %q does not name the bound", err)
			}
			if !tc.depthErr && err != nil {
				t.Errorf("Decode: %v", err)
			}
		})
	}
	v, err := Decode([]byte(`{"a": [1, "x"]} trailing`))
	if m, ok := v.(map[string]any); err != nil || !ok || len(m["a"].([]any)) != 2 {
		t.Errorf("Decode of a plain object: %v, %v", v, err)
	}
}
