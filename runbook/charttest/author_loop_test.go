package charttest

import (
	"context"
	"strings"
	"testing"
)

// failingChart fails at "pct" when df's capacity column is not a number:
// int("abc") is a run-time error, the run's status failed.
const failingChart = `version: 1
runbook: disk
result: {kind: verdict/disk}
stages:
  - id: df
    exec: {command: [df, -P], parse: {as: columns, last: rest}}
  - id: per-fs
    foreach:
      items: df.stdout
      as: fs
      maxBranches: 10
      stages:
        - id: pct
          set: {used: 'int(trimSuffix(fs.Capacity, "%"))'}
        - id: v
          verdict: {subject: 'fs["Mounted on"]', verdict: '"ok"', used: used}
`

// TestCaseFailsWhenTheRunBreaksUnexpected: a case that does not say how
// its run ends (no status:, no exit:) fails when the run failed, naming
// the stage and the error at the case's expect; one that expects the
// failure passes. Before, "verdicts: []" and a standing held over a run
// that broke at its first item, so a chart that cannot run passed its
// test: `ok  e_test.yaml  run fails, rows expected empty`.
func TestCaseFailsWhenTheRunBreaksUnexpected(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "chart.yaml", failingChart)
	stub := "    stubs:\n      df: {stdout: \"Filesystem 1024-blocks Used Available Capacity Mounted on\\n/dev/vda1 100 95 5 abc /\\n\"}\n"
	text := "version: 1\nchart: chart.yaml\ncases:\n" +
		"  - name: rows only\n" + stub + "    expect:\n      verdicts: []\n      standing: not-sure\n" +
		"  - name: no expect\n" + stub +
		"  - name: failure expected\n" + stub + "    expect:\n      status: failed\n      verdicts: []\n" +
		"  - name: exit expected\n" + stub + "    expect:\n      exit: 1\n"
	f, err := Load(writeFile(t, dir, "e_test.yaml", text))
	if err != nil {
		t.Fatal(err)
	}
	res := f.Run(context.Background())
	want := []bool{false, false, true, true}
	for i, c := range res.Cases {
		if c.Passed() != want[i] {
			t.Errorf("case %q: passed %v, want %v (failures %v)", c.Case.Name, c.Passed(), want[i], c.Failures)
		}
	}
	got := res.Cases[0].Failures
	if len(got) != 1 || got[0].Key != "status" || got[0].Pos.Line != 7 {
		t.Fatalf("rows only: failures %+v; want one, on status, at the expect (line 7)", got)
	}
	if s := got[0].String(); !strings.Contains(s, "e_test.yaml:7:5: status: expected completed, got failed") ||
		!strings.Contains(s, "the run failed at per-fs~0/pct: set used:") || !strings.Contains(s, "expect status: failed") {
		t.Errorf("rows only: %q; want the place, the stage, the error and the fix", s)
	}
	if got := res.Cases[1].Failures; len(got) != 1 || got[0].Pos.Line != 10 {
		t.Errorf("no expect: failures %+v; want one, at the case (line 10)", got)
	}
}

// TestUnstubbedStageIsTheOneFailure: a run broken by a stage reached with
// no stub fails its case once, naming the stage, not again as a status
// the case did not expect.
func TestUnstubbedStageIsTheOneFailure(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "chart.yaml", failingChart)
	f, err := Load(writeFile(t, dir, "u_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n  - name: df not stubbed\n    expect:\n      verdicts: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := f.Run(context.Background()).Cases[0].Failures
	if len(got) != 1 || got[0].Key != "stub" || !strings.Contains(got[0].Msg, `stage "df" was reached with no stub`) {
		t.Errorf("failures %+v; want one, the stub's", got)
	}
}
