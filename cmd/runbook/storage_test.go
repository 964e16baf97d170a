package main

import (
	"strings"
	"testing"
)

// TestNagiosPercentOfAPetabyteFilesystemIsNotOk: `df -B1` of a 729 PB
// Lustre filesystem prints byte counts near 2^60, and `v.Used * 100 /
// size` wrapped round int64 to -5.19 for one 96% full: `OK`, exit 0,
// Consistent. The multiplication past int64 is an error now: the rule
// could not be evaluated, the check is UNKNOWN, saying what to write.
func TestNagiosPercentOfAPetabyteFilesystemIsNotOk(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", perRowChart("lustre", "Headroom", `
      shell: |
        printf 'Filesystem                    1B-blocks               Used          Available Capacity Mounted on\n'
        printf '10.0.0.1@o2ib:/orion 729000000000000000 700000000000000000  29000000000000000      97%% /lustre/orion\n'
        printf '/dev/vda                   270553174016        91000000000       179553174016      34%% /\n'
      parse: {as: columns, last: rest}`, "fs", `
              - {when: 'fs.Used * 100 / fs["1B-blocks"] >= 90', then: bad, label: Nine tenths used}`, `fs["Mounted on"]`))
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	if r.code != 3 || !strings.HasPrefix(r.stdout, "lustre UNKNOWN") {
		t.Errorf("exit %d; want 3 and UNKNOWN, not OK over /lustre/orion at 96%%:\n%s", r.code, r.stdout)
	}
	if !strings.Contains(r.stdout, "700000000000000000 * 100 is 70000000000000000000, past the largest whole number") {
		t.Errorf("want the reason naming the product:\n%s", r.stdout)
	}
	r = runCLI(t, dir, "exec", chart)
	if !strings.Contains(r.stdout, `Not sure — decider "Headroom" could not evaluate rule 1`) {
		t.Errorf("want Not sure over the rule whose product wrapped:\n%s", r.stdout)
	}
}

// TestInputDefaultIsTheNumberAGivenOneIs: the YAML parser gave a chart's
// `default: 1000` as the uint 1000, so `-maxShrink` wrapped to
// 18446744073709550616 and a rule `growth < -maxShrink` held over a
// volume that had grown: `shrunk`, CRITICAL, over the default, `ok` over
// the same 1000 given with --input. A literal integer (an input's
// default, a set: value, a filter's value) is an int, as a given one is.
func TestInputDefaultIsTheNumberAGivenOneIs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `version: 1
runbook: shrink
inputs:
  maxShrink: {type: number, default: 1000}
  huge: {type: number, default: 18446744073709551615}
result:
  kind: verdict/shrink
  decider: Shrink
  nagios: {critical: [shrunk], ok: [ok]}
stages:
  - id: growth
    set: {growth: 5, step: 3}
  - id: shrink
    name: Shrink
    decide:
      rules:
        - {when: growth < -maxShrink, then: shrunk, label: Shrank by more than maxShrink}
        - {when: -step > 0, then: shrunk, label: A negative step}
      default: {branch: ok, label: Within maxShrink}
    branches:
      shrunk: [{id: s, verdict: {subject: '"/srv"', verdict: '"shrunk"'}}]
      ok: [{id: o, verdict: {subject: '"/srv"', verdict: '"ok"', huge: string(huge)}}]
`)
	for _, args := range [][]string{nil, {"--input", "maxShrink=1000"}} {
		r := runCLI(t, dir, append([]string{"exec", chart, "--format", "nagios"}, args...)...)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "shrink OK") {
			t.Errorf("%v: exit %d; want 0 and OK over a volume that grew by 5 bytes:\n%s", args, r.code, r.stdout)
		}
		if !strings.Contains(r.stdout, "huge: 18446744073709551615") {
			t.Errorf("%v: want the default past int64 kept to its digits:\n%s", args, r.stdout)
		}
	}
}

// TestNagiosZeroSizeDeviceIsNotOk: lsblk -b gives zram0 size 0, and
// `used * 100 / size >= 90` made 0/0, NaN, which expr ordered as false
// with no word: `OK zram0: ok`, exit 0, Consistent, over a device no rule
// judged. The division by zero is a rule error now: UNKNOWN, naming it.
func TestNagiosZeroSizeDeviceIsNotOk(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	yaml := strings.Replace(perRowChart("devices", "Use", `
      shell: |
        printf '{"blockdevices": [{"name": "vda", "size": 274877906944, "fsused": 92844257280}, {"name": "zram0", "size": 0, "fsused": 0}]}\n'
      parse: json`, "d", `
              - {when: 'd.fsused * 100 / d.size >= 90', then: bad, label: Nine tenths used}`, `d.name`), "items: out.stdout", "items: out.stdout.blockdevices", 1)
	chart := writeChart(t, dir, "c.yaml", yaml)
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	if r.code != 3 || !strings.HasPrefix(r.stdout, "devices UNKNOWN") {
		t.Errorf("exit %d; want 3 and UNKNOWN, not OK over a device no rule judged:\n%s", r.code, r.stdout)
	}
	if !strings.Contains(r.stdout, "d.fsused * 100 / d.size: 0 / 0 divides by zero") {
		t.Errorf("want the reason naming the division:\n%s", r.stdout)
	}
}
