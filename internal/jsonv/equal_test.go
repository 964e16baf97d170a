package jsonv

import (
	"encoding/json"
	"testing"
)

func TestEqual(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b any
		want bool
	}{
		{nil, nil, true},
		{3, 3.0, true},
		{3, json.Number("3"), true},
		{3, 4, false},
		{"3", 3, false},
		{true, true, true},
		{true, false, false},
		{[]any{"a", 1}, []any{"a", 1.0}, true},
		{[]any{"a"}, []any{"a", "b"}, false},
		{map[string]any{"k": 1}, map[string]any{"k": 1.0}, true},
		{map[string]any{"k": 1}, map[string]any{"j": 1}, false},
		{[]string{"a"}, []string{"a"}, false}, // not JSON values
	} {
		if got := Equal(tc.a, tc.b); got != tc.want {
			t.Errorf("Equal(%#v, %#v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
