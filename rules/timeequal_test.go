package rules

import (
	"testing"
	"time"
)

// TestFilterEqualsTimesAsExpressionsDo: a Go stage that set a time.Time
// (time.Now() carries a monotonic clock reading) had a filter's eq judge
// it by reflect.DeepEqual, so {checked: {eq: T}} failed, and ne held,
// over two values whose evidence read the same RFC 3339 text, while the
// expression `checked == t` held. Two times are equal when they are the
// same instant, in a filter as in an expression.
func TestFilterEqualsTimesAsExpressionsDo(t *testing.T) {
	now := time.Now()
	utc := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	env := mapEnv{"checked": now, "at": utc, "atp": &utc}
	for _, tc := range []struct {
		name string
		pred Predicate
		want bool
	}{
		{"eq, the clock reading aside", MustFilter(Where("checked", OpEq, now.Round(0))), true},
		{"ne, the clock reading aside", MustFilter(Where("checked", OpNe, now.Round(0))), false},
		{"eq, another zone", MustFilter(Where("at", OpEq, utc.In(time.FixedZone("CET", 3600)))), true},
		{"eq, through a pointer", MustFilter(Where("atp", OpEq, utc)), true},
		{"in", MustFilter(Where("checked", OpIn, []any{now.Round(0)})), true},
		{"eq, another instant", MustFilter(Where("at", OpEq, utc.Add(time.Second))), false},
		{"eq, not a time", MustFilter(Where("at", OpEq, map[string]any{})), false},
	} {
		out := tc.pred.Eval(env)
		if out.Matched != tc.want {
			t.Errorf("%s: matched %v, want %v (%+v)", tc.name, out.Matched, tc.want, out.Conditions)
		}
	}
	env["other"] = utc.In(time.FixedZone("CET", 3600))
	if out := MustCompile("at == other").Eval(env); !out.Matched {
		t.Errorf("the expression at == other: %+v", out)
	}
}
