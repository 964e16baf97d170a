package rules

import (
	"strings"
	"testing"
)

// TestIssue13AbsentMember: a rule reading a member its object lacks is a
// non-match with an error naming the member and the nearest one the object
// has; a read written to allow absence is an ordinary evaluation.
func TestIssue13AbsentMember(t *testing.T) {
	vol := map[string]any{"mount": "/", "usedPct": 95, "tags": []any{map[string]any{"k": "a"}}}
	env := mapEnv{"volume": vol}
	for _, tc := range []struct {
		src     string
		err     string // "" for no error
		matched bool
	}{
		{`volume.usedPtc >= 90`, `volume has no member "usedPtc"; did you mean "usedPct"? (its members: mount, tags, usedPct)`, false},
		{`volume.usedPtc == 95`, `did you mean "usedPct"`, false},
		{`volume.stat != "degraded"`, `volume has no member "stat"`, false},
		{`volume.tags[0].kk == "a"`, `volume.tags[0] has no member "kk"; did you mean "k"?`, false},
		{`volume["used pct"] > 1`, `volume has no member "used pct"`, false},
		{`volume.usedPct >= 90`, "", true},
		{`volume?.usedPtc == nil`, "", true},
		{`(volume.usedPtc ?? 0) == 0`, "", true},
		{`volume.usedPtc == nil`, "", true},
		{`nil != volume.usedPtc`, "", false},
		{`len(volume.tags) == 1`, "", true},
	} {
		out := MustCompile(tc.src).Eval(env)
		if tc.err == "" {
			if out.Err != "" || out.Matched != tc.matched {
				t.Errorf("%s: matched %v err %q, want matched %v and no error", tc.src, out.Matched, out.Err, tc.matched)
			}
			continue
		}
		if out.Matched || !strings.Contains(out.Err, tc.err) {
			t.Errorf("%s: matched %v err %q, want a non-match saying %q", tc.src, out.Matched, out.Err, tc.err)
		}
	}
	// Value (set:, verdict columns) is unchanged: an absent member is null.
	v, _, err := MustCompile(`volume.usedPtc`).Value(env)
	if err != nil || v != nil {
		t.Errorf("Value: %v %v, want null and no error", v, err)
	}
}

// TestIssue13AbsentMemberReservedKey: `age.af_absent == true` asks whether
// a result is a declared absence (honesty.md §2); an ordinary result lacks
// the key by design, so reading it is not an absent-member error.
func TestIssue13AbsentMemberReservedKey(t *testing.T) {
	out := MustCompile(`age.af_absent == true`).Eval(mapEnv{"age": map[string]any{"tooOld": false}})
	if out.Err != "" || out.Matched {
		t.Errorf("matched %v err %q, want a plain non-match", out.Matched, out.Err)
	}
}
