package rules

import (
	"os/exec"
	"strings"
	"testing"
)

// TestVersionsWrittenAsTextHaveNoOrder: package versions are text, and
// text orders them by character, so a patch audit's rule `p.version <
// minimum[p.pkg]` said bash 5.2.15-2+b8 was at or above its minimum
// 5.2.15-2+b13 ("8" after "1"): `patched`, Consistent, over a package
// below its minimum; dpkg 1.21.22 below 1.21.9; bind9-host
// 1:9.18.47-1~deb12u1 (an epoch) below 9.18.49-1~deb12u3. Two versions
// whose text order is not their version order (dpkg's) have no order
// now, in an expression, a filter and a sort alike, and the reason says
// to ask the package manager; two whose orders agree still order.
func TestVersionsWrittenAsTextHaveNoOrder(t *testing.T) {
	t.Parallel()
	const why = "are versions written as text"
	env := mapEnv{"p": map[string]any{"bash": "5.2.15-2+b8", "dpkg": "1.21.22", "bind": "1:9.18.47-1~deb12u1",
		"ssl": "3.0.19-1~deb12u2", "rc": "1.0~rc1", "ip": "10.0.0.9", "same": "1.0", "k8s": "v1.28.10"}}
	runOutcomes(t, env, []outcomeCase{
		{`p.bash < "5.2.15-2+b13"`, false, `"5.2.15-2+b13" before "5.2.15-2+b8"`},
		{`p.dpkg < "1.21.9"`, false, why},
		{`p.bind < "9.18.49-1~deb12u3"`, false, why},
		{`p.rc < "1.0"`, false, why},
		{`p.ip < "10.0.0.10"`, false, why},
		{`p.same + "-1" < "1.00-1"`, false, "as the same version as"},
		{`p.ssl < "3.0.15-1~deb12u1"`, false, ""}, // text and dpkg agree
		{`p.ssl < "3.0.20"`, true, ""},
		{`p.rc < "1.0.1"`, false, why}, // "~" orders after "." as text, before it as a version
		{`p.ssl > "3.0.19-1~deb12u1"`, true, ""},
		{`last(sort(["1.21.9", "1.21.22"])) == "1.21.22"`, false, why},
		{`p.k8s > "v1.28.9"`, false, why}, // kubectl's "v1.28.10"
		{`p.k8s > "v1.28.1"`, true, ""},
		{`"9:30" < "10:05"`, false, ""}, // a time of day, no version
		{`"beta" < "alpha"`, false, ""},
		// UUIDs (lsblk's, journalctl --list-boots') are ids: text order
		{`"9e107d9d-372b-4f5a-8f35-0b5a3d6b2c11" < "10a7c5e2-4b1d-4c3a-9e2f-5d6c7b8a9f00"`, false, ""},
		{`last(sort(["9e107d9d-372b-4f5a-8f35-0b5a3d6b2c11", "10a7c5e2-4b1d-4c3a-9e2f-5d6c7b8a9f00"])) == "9e107d9d-372b-4f5a-8f35-0b5a3d6b2c11"`, true, ""},
	})
	f := MustFilter(Where("p.bash", Op("lt"), "5.2.15-2+b13"))
	if out := f.Eval(env); out.Matched || len(out.Conditions) != 1 || !strings.Contains(out.Conditions[0].Reason, why) {
		t.Errorf("{p.bash: {lt: 5.2.15-2+b13}}: %+v; want no match and the reason %q", out, why)
	}
}

// TestVersionCompareIsDpkgs holds versionCompare to dpkg's own order:
// each pair's sign as deb-version(7) gives it, and, where dpkg is
// installed, as dpkg --compare-versions answers.
func TestVersionCompareIsDpkgs(t *testing.T) {
	t.Parallel()
	pairs := []struct {
		a, b string
		want int
	}{
		{"1.0~rc1", "1.0", -1},
		{"1.0", "1.0+b1", -1},
		{"1.0", "1.0-1", -1},
		{"1:2.3", "2.4", 1},
		{"0:1.0", "1.0", 0},
		{"1.0", "1.00", 0},
		{"3.0.9-1", "3.0.15-1~deb12u1", -1},
		{"5.2.15-2+b8", "5.2.15-2+b13", -1},
		{"1.0a", "1.0.1", -1},
		{"2.6.1", "2.6.2", -1},
		{"1.2-1ubuntu0.1", "1.2-1", 1},
		{"1.2-1~deb12u1", "1.2-1", -1},
		{"20230311+deb12u1", "20250419~deb12u2", -1},
		{"1.0~~", "1.0~", -1},
		{"10.0.0.9", "10.0.0.10", -1},
	}
	dpkg, _ := exec.LookPath("dpkg")
	for _, p := range pairs {
		va, okA := versionOf(p.a)
		vb, okB := versionOf(p.b)
		if !okA || !okB {
			t.Errorf("versionOf(%q), versionOf(%q): %v, %v; want both versions", p.a, p.b, okA, okB)
			continue
		}
		if got := versionCompare(va, vb); got != p.want {
			t.Errorf("versionCompare(%q, %q) = %d, want %d", p.a, p.b, got, p.want)
		}
		if dpkg == "" {
			continue
		}
		for op, holds := range map[string]bool{"lt": p.want < 0, "eq": p.want == 0, "gt": p.want > 0} {
			err := exec.Command(dpkg, "--compare-versions", p.a, op, p.b).Run()
			if (err == nil) != holds {
				t.Errorf("dpkg --compare-versions %s %s %s: holds %v, our order says %v", p.a, op, p.b, err == nil, holds)
			}
		}
	}
	for _, s := range []string{"", "beta", "9:30", "10", "v1.2", "1.2 3", ":1.0", "1.0-", "a:1.0"} {
		if _, ok := versionOf(s); ok {
			t.Errorf("versionOf(%q) is a version; want none", s)
		}
	}
}

// TestSemverPreReleaseHasNoTextOrder: a release and its semver
// pre-release ("4.17.21-beta.1", "4.17.21") have no order here: semver
// puts the pre-release first, text and dpkg after, and the text does not
// say its scheme. Before, a lockfile gate's `v < minimum[name]` called
// lodash 4.17.21-beta.1 not older than a minimum of 4.17.21, ok,
// Consistent (testdata/wave-ci/lockfile). Pre-releases of one release
// (rc.9, rc.10 compared as numbers by both) and a pair not so related
// order as before.
func TestSemverPreReleaseHasNoTextOrder(t *testing.T) {
	t.Parallel()
	const why = "are versions whose order depends on their scheme"
	env := mapEnv{"v": map[string]any{"pre": "4.17.21-beta.1", "rel": "4.17.21", "k": "v1.29.0-rc.1", "rc9": "1.0.0-rc.9", "rc1": "1.0.0-rc.1"}}
	runOutcomes(t, env, []outcomeCase{
		{`v.pre < "4.17.21"`, false, why},
		{`v.pre >= "4.17.21"`, false, `semver's (npm, Cargo, Go modules, Helm charts) puts the pre-release "4.17.21-beta.1" before "4.17.21"`},
		{`"4.17.21" > v.pre`, false, why},
		{`v.k < "v1.29.0"`, false, why},
		{`v.rc9 < "1.0.0-rc.10"`, false, "are versions written as text"}, // semver and dpkg put rc.9 first; text does not
		{`v.rc1 < "1.0.0-rc.2"`, true, ""},
		{`v.rel < "4.17.3"`, false, "are versions written as text"},
		{`v.pre < "4.18.0"`, true, ""},
	})
}

// TestGoToolchainVersionsHaveNoTextOrder: Go names its releases "go1.9.2",
// "go1.10.1" (go version, go version -m BINARY, runtime.Version(), a
// go.mod's toolchain line), and text put "go1.10.1" before "go1.9.2", so a
// release gate's `built < floor` over `go version -m`'s first line called
// a binary built with go1.9.2 not older than a floor of go1.10.1, with no
// word said: the "v" of "v1.28.10" was read past, Go's "go" was not. Both
// read past "go" now; other words before a number (host names, "web9"
// beside "web10.example.com") still order as text.
func TestGoToolchainVersionsHaveNoTextOrder(t *testing.T) {
	t.Parallel()
	const why = "are versions written as text"
	env := mapEnv{"b": map[string]any{"go": "go1.9.2", "rc": "go1.21rc2"}}
	runOutcomes(t, env, []outcomeCase{
		{`b.go < "go1.10.1"`, false, why},
		{`b.go < "go1.9.10"`, false, why},
		{`b.go < "go1.9.3"`, true, ""},                          // text and Go agree
		{`b.rc < "go1.21.0"`, false, why},                       // Go's rc is before its release; text puts "." first
		{`"web9.example.com" < "web10.example.com"`, false, ""}, // a host, no version
		{`"gopher9.local" < "gopher10.local"`, false, ""},
	})
}
