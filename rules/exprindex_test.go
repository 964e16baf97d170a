package rules

import (
	"strings"
	"testing"
)

// TestMemberByAComputedKeyItsObjectLacksIsUnjudged: a kernel-hardening
// chart looks each wanted key up in what `sysctl -a` printed; run as a
// user, sysctl could not read net.core.bpf_jit_harden (permission denied
// on stderr, exit 0), the lookup read null, and a rule asking for the
// bad value, `sys.stdout[w.key] == 0 → fail`, was a plain no: the key
// stood pass, Consistent (one asking `!= w.want` said fail over no value;
// testdata/wave-audit/sysctl). A member read by a computed
// key that its object lacks is a rule error, as a constant path's is;
// one present is read as before, and a read written to allow absence,
// or behind a guard that keeps it from being read, is not judged.
func TestMemberByAComputedKeyItsObjectLacksIsUnjudged(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"sys":  map[string]any{"stdout": map[string]any{"kernel.randomize_va_space": 2, "fs.suid_dumpable": 0}},
		"w":    map[string]any{"key": "net.core.bpf_jit_harden"},
		"have": map[string]any{"key": "fs.suid_dumpable"},
		"k":    "net.core.bpf_jit_harden",
		"list": []any{"a", "b"},
		"i":    1,
	}
	const why = `sys.stdout has no member "net.core.bpf_jit_harden" (the key w.key gave)`
	for _, tc := range []struct {
		src     string
		err     string // "" for no error
		matched bool
	}{
		{`sys.stdout[w.key] == 0`, why, false},
		{`sys.stdout[w.key] != 2`, why, false},
		{`sys.stdout[k] == 0`, `(the key k gave)`, false},
		{`sys.stdout[have.key] == 0`, "", true},
		{`(sys.stdout[w.key] ?? 2) == 2`, "", true},
		{`sys.stdout[w.key] == nil`, "", true},
		{`sys.stdout?.[w.key] == nil`, "", true},
		{`w.key in sys.stdout && sys.stdout[w.key] == 0`, "", false},
		{`list[i] == "b"`, "", true},
		{`list[-1] == "b"`, "", true},
		{`any(["fs.suid_dumpable"], sys.stdout[#] == 0)`, "", true},
	} {
		evalWants(t, env, tc.src, tc.err, tc.matched)
	}
	// A set: writes null and says why, as for a constant path.
	v, _, absent, err := MustCompile(`sys.stdout[w.key]`).ValueNoting(env)
	if err != nil || v != nil || !strings.Contains(absent, why) {
		t.Errorf("set: value %v err %v absent %q, want null and %q", v, err, absent, why)
	}
}

// TestMemberOfACallsResultIsJudged: sshd's effective settings, read by
// `first(filter(effective.stdout, .key == "permitrootlogin")).value`,
// `.valu` misspelt, read null as no setting, and the check stood
// Consistent (found by misspelling one member at a time in the wave
// charts): a member read by name from a call's result, a let variable or
// what a computed key found was read as expr reads it, null. Such a
// member its object lacks, where it has one a typo away, is a rule
// error, as a scope key's path's is, and a set: writes null and says
// why; one present, one with no near name (a regex's optional group),
// a read written to allow absence, and a call that found nothing read
// as before.
func TestMemberOfACallsResultIsJudged(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"eff": map[string]any{"stdout": []any{
			map[string]any{"key": "permitrootlogin", "value": "no"},
			map[string]any{"key": "port", "value": "22"},
		}},
		"sh": map[string]any{"alice": map[string]any{"kind": "hash"}},
		"a":  map[string]any{"user": "alice"},
	}
	for _, tc := range []struct {
		src     string
		err     string // "" for no error
		matched bool
	}{
		{`first(filter(eff.stdout, .key == "permitrootlogin")).valu == "yes"`, `first(filter(eff.stdout, .key == "permitrootlogin")) has no member "valu"; did you mean "value"? (its members: key, value); if it may be absent, write`, false},
		{`filter(eff.stdout, .key == "port")[0].valu == "22"`, `has no member "valu"; did you mean "value"?`, false},
		{`last(eff.stdout).vlue != "22"`, `did you mean "value"?`, false},
		{`sh[a.user].kid == "empty"`, `has no member "kid"; did you mean "kind"?`, false},
		{`let s = sh[a.user]; s.kid == "empty"`, `has no member "kid"`, false},
		{`reduce(eff.stdout, ({"user": #acc.usr}), {"user": "a"}).user == "a"`, `#acc has no member "usr"; did you mean "user"?`, false},
		{`first(filter(eff.stdout, .key == "port")).value == "22"`, "", true},
		{`sh[a.user].kind == "hash"`, "", true},
		{`(first(filter(eff.stdout, .key == "x")) ?? {}).value == nil`, "", true},
		{`first(filter(eff.stdout, .key == "port"))?.valu == nil`, "", true},
		{`(last(eff.stdout).vlue ?? "22") == "22"`, "", true},
		{`first(eff.stdout).never == "Never"`, "", false},
		{`({}).value == "x"`, "", false},
	} {
		evalWants(t, env, tc.src, tc.err, tc.matched)
	}
	// a value (a set:, a verdict column) read from such a member is an
	// error too, as a scope key's misspelt path is: last(c[1]).tie, a
	// verdict column of the last OOM kill's time, was null, Consistent
	v, _, err := MustCompile(`last(eff.stdout).tie`).Value(mapEnv{"eff": map[string]any{"stdout": []any{map[string]any{"time": "t1"}}}})
	if err == nil || !strings.Contains(err.Error(), `has no member "tie"; did you mean "time"?`) {
		t.Errorf("value: %v err %v, want an error naming the member", v, err)
	}
}

// Kubernetes leaves status.availableReplicas out of a Deployment none
// of whose replicas is available, beside unavailableReplicas: the read
// is a member left out, not a typo of its opposite. The verdict column
// first(filter(…)).status.availableReplicas failed the run with `did you
// mean "unavailableReplicas"?` over a deployment that was down.
func TestOppositeMemberIsNoTypo(t *testing.T) {
	t.Parallel()
	env := mapEnv{"k": map[string]any{"items": []any{
		map[string]any{"name": "api", "status": map[string]any{"replicas": 2, "unavailableReplicas": 2}},
	}}}
	v, _, err := MustCompile(`first(filter(k.items, .name == "api")).status.availableReplicas`).Value(env)
	if err != nil || v != nil {
		t.Errorf("value: %v err %v, want null and no error", v, err)
	}
	// a typo of it is still one
	_, _, err = MustCompile(`first(filter(k.items, .name == "api")).status.unavailableReplica`).Value(env)
	if err == nil || !strings.Contains(err.Error(), `did you mean "unavailableReplicas"?`) {
		t.Errorf("err %v, want the typo named", err)
	}
	for _, pair := range [][2]string{{"availableReplicas", "unavailableReplicas"}, {"Active(anon)", "Inactive(anon)"}, {"ActiveEnterTimestamp", "InactiveEnterTimestamp"}, {"mounted", "unmounted"}} {
		if n := nearMember(pair[0], []string{pair[1]}); n != "" {
			t.Errorf("nearMember(%q, %q) = %q, want none: its opposite", pair[0], pair[1], n)
		}
		if n := nearMember(pair[1], []string{pair[0]}); n != "" {
			t.Errorf("nearMember(%q, %q) = %q, want none: its opposite", pair[1], pair[0], n)
		}
	}
	if n := nearMember("stauts", []string{"status"}); n != "status" {
		t.Errorf("nearMember(stauts) = %q, want status", n)
	}
}
