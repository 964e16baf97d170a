package runbook_test

import (
	"os"
	"slices"
	"testing"

	"github.com/openrunbook/runbook/chart"
)

// TestExecResultHoldsOnlyTheMembersTheLoaderKnows: the loader refuses an
// expression reading a member an exec or read: stage's result never holds
// (chart.ExecResultMembers, chart.ReadResultMembers), so a member this
// package writes that the lists leave out would be refused in every
// chart reading it. Real processes in every outcome that adds one: an
// answer with bits, a parse problem, output past the cap, a signal, a
// command not found, a timeout; a file read, one missing, one past the
// cap, one that does not parse.
func TestExecResultHoldsOnlyTheMembersTheLoaderKnows(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := dir + "/big"
	for name, text := range map[string]string{big: string(make([]byte, 4096)), dir + "/bad.json": "{"} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rb := parse(t, `version: 1
runbook: members
inputs:
  dir: {type: string}
stages:
  - id: answered
    exec: {shell: 'echo "{"; exit 3', exitCodes: {0: ok, 3: some}, exitBits: {1: one, 2: two}, parse: {as: json}}
    onError: continue
  - id: big
    exec: {shell: 'head -c 4096 /dev/zero', maxOutput: 1KiB}
    onError: continue
  - id: killed
    exec: {shell: 'kill -9 $$'}
    onError: continue
  - id: missing
    exec: {command: [no-such-command-here]}
    onError: continue
  - id: slow
    exec: {command: [sleep, "5"], timeout: 50ms}
    onError: continue
  - id: file
    read: {path: 'dir + "/bad.json"', parse: {as: json}}
  - id: bigfile
    read: {path: 'dir + "/big"', maxSize: 1KiB}
  - id: gone
    read: {path: 'dir + "/gone"'}
`)
	rec := exec(t, rb, map[string]any{"dir": dir})
	for _, tc := range []struct {
		keys    []string
		members []string
	}{
		{[]string{"answered", "big", "killed", "missing", "slow"}, chart.ExecResultMembers},
		{[]string{"file", "bigfile", "gone"}, chart.ReadResultMembers},
	} {
		seen := map[string]bool{}
		for _, key := range tc.keys {
			v, ok := rec.State[key].(map[string]any)
			if !ok {
				t.Fatalf("%s: no result in the state: %v", key, rec.State[key])
			}
			for m := range v {
				seen[m] = true
				if !slices.Contains(tc.members, m) {
					t.Errorf("%s holds %q, which the loader's list leaves out", key, m)
				}
			}
		}
		for _, m := range tc.members {
			if !seen[m] {
				t.Errorf("no result here holds %q: the test reaches no outcome that writes it", m)
			}
		}
	}
}
