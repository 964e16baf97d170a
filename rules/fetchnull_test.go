package rules

import (
	"strings"
	"testing"
)

// TestFetchFromNullSaysWhatWouldBeRight: a predicate reading
// .lastState.terminated.reason over a container whose lastState is {}
// (one that never restarted, as Kubernetes prints it) failed with expr's
// own words, "cannot fetch reason from <nil> (1:48)", which say neither
// that the value was null nor what to write. The rule error says both.
func TestFetchFromNullSaysWhatWouldBeRight(t *testing.T) {
	t.Parallel()
	env := mapEnv{"cs": []any{
		map[string]any{"name": "web", "lastState": map[string]any{}},
		map[string]any{"name": "db", "lastState": map[string]any{"terminated": map[string]any{"reason": "OOMKilled"}}},
	}, "x": nil}
	tests := []struct{ src, want string }{
		{`any(cs, .lastState.terminated.reason == "OOMKilled")`, `cannot read the member "reason" of null: the value before it is null (a member its object lacks, or a key that holds null); where it may be absent, read on with ?.reason and give a default with ?? (1:`},
		{`x[0] == 1`, `cannot read the item 0 of null`},
	}
	for _, tc := range tests {
		out := MustCompile(tc.src).Eval(env)
		if out.Matched || !strings.Contains(out.Err, tc.want) {
			t.Errorf("%s: err %q, want one saying %q", tc.src, out.Err, tc.want)
		}
	}
	// Written to allow it, the rule is judged.
	if out := MustCompile(`any(cs, .lastState.terminated?.reason == "OOMKilled")`).Eval(env); !out.Matched || out.Err != "" {
		t.Errorf("?. read: %+v", out)
	}
}

// TestDurationInDaysSaysHours: duration("7d"), as a certificate or pod-age
// chart writes a week, failed with Go's `time: unknown unit "d" in
// duration "7d"`, which does not say what to write; it now says Go's
// units and the hours.
func TestDurationInDaysSaysHours(t *testing.T) {
	t.Parallel()
	tests := []struct{ src, want string }{
		{`now() - now() > duration("7d")`, `time: unknown unit "d" in duration "7d": a duration's units are ns, us, ms, s, m and h (no d or w), so write "168h" for "7d" (1:`},
		{`now() - now() > duration("2w")`, `so write "336h" for "2w"`},
		{`now() - now() > duration("1.5d")`, `(no d or w), so a day is "24h"`},
	}
	for _, tc := range tests {
		out := MustCompile(tc.src).Eval(mapEnv{})
		if out.Matched || !strings.Contains(out.Err, tc.want) {
			t.Errorf("%s: err %q, want one saying %q", tc.src, out.Err, tc.want)
		}
	}
}
