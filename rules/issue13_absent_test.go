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
		evalWants(t, env, tc.src, tc.err, tc.matched)
	}
}

// TestValueMemberTypoIsAnError: Value (set:, verdict columns, envFrom,
// foreach over:) read a member its object lacks as null even when the
// object had one a typo away: `set: {used: volume.usedPtc}` wrote null,
// and a later rule comparing it with == said a silent no. Such a read is
// now Value's error naming both; a member with no near name (JSON's
// optional field) and a read written to allow absence are null as before.
func TestValueMemberTypoIsAnError(t *testing.T) {
	vol := map[string]any{"mount": "/", "usedPct": 95, "tags": []any{map[string]any{"k": "a"}}}
	env := mapEnv{"volume": vol, "typed": map[string]int64{"usedPct": 95}}
	for _, tc := range []struct {
		src, err string // "" for no error
		want     any
	}{
		{`volume.usedPtc`, `volume has no member "usedPtc"; did you mean "usedPct"? (its members: mount, tags, usedPct); if it may be absent, write volume?.usedPtc or volume.usedPtc ?? a default`, nil},
		{`{"u": volume.usedPtc}`, `did you mean "usedPct"`, nil},
		{`volume.tags[0].kk`, `volume.tags[0] has no member "kk"; did you mean "k"?`, nil},
		{`typed.usedPtc`, `typed has no member "usedPtc"; did you mean "usedPct"?`, nil},
		{`volume.reason`, "", nil},
		{`volume?.usedPtc`, "", nil},
		{`volume.usedPtc ?? -1`, "", -1},
		{`volume.usedPct`, "", 95},
		{`volume.af_absent`, "", nil},
	} {
		v, _, err := MustCompile(tc.src).Value(env)
		if tc.err == "" {
			if err != nil || v != tc.want {
				t.Errorf("%s: %v, %v; want %v and no error", tc.src, v, err, tc.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) || v != nil {
			t.Errorf("%s: %v, %v; want no value and an error saying %q", tc.src, v, err, tc.err)
		}
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

// TestValueNotingSaysTheAbsentMember: ValueNoting says which member read
// its object lacked with no near name (Value reads it as null), so a set:
// can say its key rests on no value; a near name is still the error, and
// a read written to allow absence says nothing.
func TestValueNotingSaysTheAbsentMember(t *testing.T) {
	env := mapEnv{"d": map[string]any{"status": map[string]any{"replicas": 2, "conditions": []any{}}}}
	for _, tc := range []struct{ src, absent, err string }{
		{`d.status.readyReplicas`, `d.status has no member "readyReplicas"`, ""},
		{`d.status.readyReplicas == 0`, `d.status has no member "readyReplicas"`, ""},
		{`d.status.replica`, "", `did you mean "replicas"?`},
		{`d.status.readyReplicas ?? 0`, "", ""},
		{`d.status?.readyReplicas`, "", ""},
		{`d.status.replicas`, "", ""},
	} {
		_, _, absent, err := MustCompile(tc.src).ValueNoting(env)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %v; want an error saying %q", tc.src, err, tc.err)
			}
			continue
		}
		if err != nil || !strings.Contains(absent, tc.absent) || (tc.absent == "") != (absent == "") {
			t.Errorf("%s: absent %q, %v; want %q", tc.src, absent, err, tc.absent)
		}
	}
}

// TestAbsentKeyWithDotsHintIsBracketed: sysctl -a under parse: kv keys
// its values "net.ipv4.ip_forward", and a rule reading one the host did
// not print (a key a user without root cannot read) was told to write
// s.stdout?.net.ipv4.ip_forward, which reads a member "net" that no
// object has: the hint must be the bracketed read it meant, which the
// hint itself is held to by evaluating it.
func TestAbsentKeyWithDotsHintIsBracketed(t *testing.T) {
	env := mapEnv{"s": map[string]any{"stdout": map[string]any{"net.ipv4.ip_forward": 1, "used pct": 3}}}
	for _, tc := range []struct{ src, hint string }{
		{`s.stdout["net.ipv4.ip_forwardX"] == 1`, `write s.stdout?.["net.ipv4.ip_forwardX"] or s.stdout["net.ipv4.ip_forwardX"] ?? a default`},
		{`s.stdout["used pc"] == 1`, `write s.stdout?.["used pc"] or`},
		{`s.stdout.forward == 1`, `write s.stdout?.forward or`},
	} {
		out := MustCompile(tc.src).Eval(env)
		if !strings.Contains(out.Err, tc.hint) {
			t.Errorf("%s: err %q, want it to say %q", tc.src, out.Err, tc.hint)
			continue
		}
		alt := strings.TrimPrefix(tc.hint, "write ")
		alt, _, _ = strings.Cut(alt, " or")
		if v, _, err := MustCompile(alt).Value(env); err != nil || v != nil {
			t.Errorf("the hint %s reads %v, %v; want null and no error", alt, v, err)
		}
	}
}

// TestMemberInAnotherCaseOffersNoEscape: `ip.stdout[0].operState` over
// `ip -j link`'s operstate said to write `ip.stdout[0]?.operState` "if it
// may be absent"; taken, that read null over every link, `state ==
// "DOWN"` was false and the check said ok, Consistent (wave-lineage). A
// member the object has in another case is a misspelling, never a field
// left out: the words name it and offer no escape, in an expression, a
// filter condition and a builtin's predicate. A near name in other
// letters (Kubernetes' availableReplicas beside unavailableReplicas) may
// be another field, and keeps the escape.
func TestMemberInAnotherCaseOffersNoEscape(t *testing.T) {
	link := map[string]any{"ifname": "lo", "operstate": "UNKNOWN", "mtu": 65536}
	env := mapEnv{"ip": map[string]any{"stdout": []any{link}}}
	_, _, err := MustCompile(`ip.stdout[0].operState == "DOWN"`).Value(env)
	if err == nil || !strings.Contains(err.Error(), `did you mean "operstate"?`) || strings.Contains(err.Error(), "may be absent") {
		t.Errorf("expression: %v; want the near name and no escape", err)
	}
	_, _, err = MustCompile(`filter(ip.stdout, .operState == "DOWN")`).Value(env)
	if err == nil || !strings.Contains(err.Error(), `did you mean "operstate"?`) || strings.Contains(err.Error(), "may be absent") {
		t.Errorf("predicate: %v; want the near name and no escape", err)
	}
	f := MustFilter(Where("ip.stdout[0].operState", OpEq, "DOWN"))
	out := f.Eval(env)
	reason := ""
	for _, c := range out.Conditions {
		reason += c.Reason
	}
	if !strings.Contains(reason, `did you mean "operstate"?`) || strings.Contains(reason, "may be absent") {
		t.Errorf("filter condition: %q; want the near name and no escape", reason)
	}
	dep := mapEnv{"d": map[string]any{"status": map[string]any{"replicas": 1, "unavailableReplicas": 1}}}
	if _, _, err := MustCompile(`d.status.availableReplicas < 1`).Value(dep); err == nil || !strings.Contains(err.Error(), "if it may be absent") {
		t.Errorf("another field's near name: %v; want the escape kept", err)
	}
}
