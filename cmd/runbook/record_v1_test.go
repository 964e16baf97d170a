package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestExplainReadsRecordVersion1 explains records saved by the runbook of
// record version 1 (testdata/records/v1-*.json, written by `runbook exec
// --record` before commits carried their scope and counter): every answer
// is the one that runbook gave, byte for byte (the .explain.golden files
// were printed by it, not by this one, so they are never -update'd), but
// for the wrong answers fixed since, each edited into the golden by hand:
// issue 13, a row's first line names the branch commit that wrote it
// (v1-disk's verdicts[0]), not the foreach that gathered it; and a
// commit that ran a command says how it ended ("how it ended: completed")
// and a cut value says --full shows it whole; and a stage asked about
// that decided says what it chose (explain version 4).
func TestExplainReadsRecordVersion1(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "testdata", "records")
	tests := []struct {
		record, golden string
		queries        [][]string
	}{
		{"v1-disk.json", "v1-disk.explain.golden", [][]string{{}, {"verdicts[0]"}, {"per-volume~0/headroom"}, {"--why-not", "at-risk"}}},
		{"v1-approval.paused.json", "v1-approval.explain.golden", [][]string{{}, {"scan"}, {"approve"}}},
	}
	for _, tc := range tests {
		t.Run(tc.record, func(t *testing.T) {
			t.Parallel()
			want, err := os.ReadFile(filepath.Join(dir, tc.golden))
			if err != nil {
				t.Fatal(err)
			}
			var got string
			for _, q := range tc.queries {
				r := runCLI(t, dir, append([]string{"explain", tc.record}, q...)...)
				if r.code != 0 {
					t.Fatalf("explain %s %v: exit %d: %s", tc.record, q, r.code, r.stderr)
				}
				got += r.stdout + r.stderr
			}
			if got != string(want) {
				t.Errorf("explaining the version 1 record %s changed:\n--- got\n%s\n--- want (the version 1 runbook's)\n%s", tc.record, got, want)
			}
		})
	}
}
