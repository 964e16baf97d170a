package rules

import "testing"

// TestReadsNothing: an expression that reads no scope key, not the time
// and not this machine's zone has the same value on every run.
func TestReadsNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{`"s.stdout" == "bad"`, true},
		{`"${s.stdout}" == "bad"`, true},
		{`1 + 1 == 2`, true},
		{`all([1, 2], # > 0)`, true},
		{`let x = 1; x > 0`, true},
		{`s.stdout == "bad"`, false},
		{`$env["per-volume"] == 1`, false},
		{`len($env) > 0`, false},
		{`now() > date("2026-01-01T00:00:00Z")`, false},
		{`date("2026-01-01 10:00", "2006-01-02 15:04", "Local") > date("2026-01-01T00:00:00Z")`, false},
		{`threshold > 90`, false},
	} {
		x, err := Compile(tc.src)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		if got := x.ReadsNothing(); got != tc.want {
			t.Errorf("ReadsNothing(%s) = %v, want %v", tc.src, got, tc.want)
		}
	}
}
