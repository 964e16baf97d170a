package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUpdateNamesTheFailedCasesItRewrote: --update over a case failing on
// a chart's mistake (rules in the wrong order, a volume 95% full
// expected full and read filling) rewrote it to expect the mistake, and
// said only "updated FILE" before every case read ok. It now names each
// case that had failed, and says to review the diff; a file whose cases
// all passed is said updated as before.
func TestUpdateNamesTheFailedCasesItRewrote(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := `version: 1
runbook: disk
result: {kind: verdict/disk}
stages:
  - {id: df, exec: {command: [df, -P], parse: json}}
  - id: d
    decide:
      rules:
        - {when: 'df.stdout >= crit', then: full, label: full}
      default: filling
    branches:
      full: [{id: f, verdict: {subject: '"/"', verdict: '"full"'}}]
      filling: [{id: w, verdict: {subject: '"/"', verdict: '"filling"'}}]
inputs:
  crit: {type: number, default: 99}
`
	cases := `version: 1
chart: chart.yaml
cases:
  - name: full root
    inputs: {crit: 99}
    stubs: {df: {stdout: "95\n"}}
    expect:
      verdicts: [{subject: /, verdict: full}]
  - name: passing
    inputs: {crit: 99}
    stubs: {df: {stdout: "5\n"}}
    expect:
      verdicts: [{subject: /, verdict: filling}]
`
	for name, body := range map[string]string{"chart.yaml": chart, "c_test.yaml": cases} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := runCLI(t, dir, "test", "--update", "c_test.yaml")
	want := `updated c_test.yaml: the case "full root" failed and now expects what its run gave; review the diff (a case that failed on a mistake of the chart now expects the mistake)`
	if !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q; want it to hold %q", r.stderr, want)
	}
	if strings.Contains(r.stderr, `"passing"`) {
		t.Errorf("a case that passed is named: %q", r.stderr)
	}
}
