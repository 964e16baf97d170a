package runbook_test

import (
	"strings"
	"testing"
)

// TestSetErrorSaysItsExpressionOnce: a set: whose whole expression is the
// operation that failed said it twice, `set ratio: hits / (hits +
// misses): hits / (hits + misses): 0 / 0 divides by zero`, since the
// operation names itself; a part that failed is still named after the
// whole.
func TestSetErrorSaysItsExpressionOnce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, want string }{
		{"hits / (hits + misses)", "set ratio: hits / (hits + misses): 0 / 0 divides by zero"},
		{"1 + hits / (hits + misses)", "set ratio: 1 + hits / (hits + misses): hits / (hits + misses): 0 / 0 divides by zero"},
	} {
		rb := parse(t, `version: 1
runbook: dz
inputs:
  hits: {type: number, default: 0}
  misses: {type: number, default: 0}
stages:
  - id: r
    set:
      ratio: `+tc.src+`
`)
		rec := exec(t, rb, nil)
		if rec.Error == nil || !strings.Contains(rec.Error.Message, tc.want) {
			t.Errorf("%s: error %+v; want it to say %q", tc.src, rec.Error, tc.want)
		}
	}
}
