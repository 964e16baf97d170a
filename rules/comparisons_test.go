package rules

import (
	"reflect"
	"testing"
)

// TestComparisonsListTextComparedWithAPath: the member paths an
// expression compares with text literals, for a loader to hold to the
// words they can have (an exec stage's exitCodes: words).
func TestComparisonsListTextComparedWithAPath(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []Comparison
	}{
		{`check.status == "errors"`, []Comparison{{Path: []string{"check", "status"}, Words: []string{"errors"}, Line: 1, Column: 1}}},
		{`"errors" != check.status`, []Comparison{{Path: []string{"check", "status"}, Words: []string{"errors"}, Line: 1, Column: 13}}},
		{`check?.status in ["a", "b"] && x.y not in ["c"]`, []Comparison{{Path: []string{"check", "status"}, Words: []string{"a", "b"}, Line: 1, Column: 1}, {Path: []string{"x", "y"}, Words: []string{"c"}, Line: 1, Column: 32}}},
		{`check["status"] == "ok"`, []Comparison{{Path: []string{"check", "status"}, Words: []string{"ok"}, Line: 1, Column: 1}}},
		{`check == "ok" || check.status == other || check.status in [a, "b"]`, nil},
		{`let c = check; c.status == "ok"`, nil},
		{`any(xs, .status == "ok")`, nil},
	} {
		e, err := Compile(tc.src)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		if got := e.Comparisons(); !reflect.DeepEqual(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
			t.Errorf("%s: Comparisons = %+v, want %+v", tc.src, got, tc.want)
		}
	}
}
