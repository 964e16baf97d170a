package rules

import (
	"encoding/json"
	"testing"
)

// TestFloat32RuleJudgesTheNumberItShows: a Go stage that set a float32
// (load = float32(0.7)) had its evidence read "0.7 lt 0.7 ✓" and
// "0.7 gte 0.7 ✗", in a filter and in an expression, and `load == 0.7`
// was false over a value every record shows as 0.7. A rule judges the
// number its evidence shows. An expression's ordering of two numbers is
// the filter's (compare): a named numeric type is a number (expr said
// "invalid operation: main.percent >= int") and an int64 past 2^53 is
// never rounded into the float64 beside it.
func TestFloat32RuleJudgesTheNumberItShows(t *testing.T) {
	type percent int
	env := mapEnv{
		"load":  float32(0.7),
		"temps": map[string]float32{"gpu": 0.7},
		"used":  percent(95),
		"big":   int64(1<<53 + 1),
	}
	for _, tc := range []struct {
		name string
		pred Predicate
		want bool
	}{
		{"filter lt", MustFilter(Where("load", OpLt, 0.7)), false},
		{"filter gte", MustFilter(Where("load", OpGte, 0.7)), true},
		{"filter eq", MustFilter(Where("load", OpEq, 0.7)), true},
		{"filter in", MustFilter(Where("load", OpIn, []any{0.7})), true},
		{"filter member eq", MustFilter(Where("temps.gpu", OpEq, 0.7)), true},
		{"expr <", MustCompile("load < 0.7"), false},
		{"expr >=", MustCompile("load >= 0.7"), true},
		{"expr ==", MustCompile("load == 0.7"), true},
		{"expr member <=", MustCompile("temps.gpu <= 0.7"), true},
		{"expr named type", MustCompile("used >= 90"), true},
		{"expr wide int64", MustCompile("big > 9007199254740992.0"), true},
	} {
		out := tc.pred.Eval(env)
		if out.Err != "" || out.Matched != tc.want {
			b, _ := json.Marshal(out)
			t.Errorf("%s: matched %v, want %v; evidence %s", tc.name, out.Matched, tc.want, b)
		}
	}
}
