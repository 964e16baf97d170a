package main

import (
	"strings"
	"testing"
)

// TestNagiosEmptyTableSaysNothingWasJudged: a check whose table has no
// rows said `UNKNOWN - 1 stage did not check everything (verdicts), no
// verdict rows`, naming a stage no chart has (verdicts is the rows' key)
// and "verdicts did not check any subject" in its long text. The status
// line says nothing was judged; the long text names the verdict table and
// the key a chart of findings writes; a chart that declares no rows its
// answer is OK and its table sentence says that it is the chart's claim.
func TestNagiosEmptyTableSaysNothingWasJudged(t *testing.T) {
	t.Parallel()
	const chart = `version: 1
runbook: failed-units
result: {kind: verdict/units{EMPTY}}
stages:
  - id: units
    exec: {shell: "printf '[]\\n'", parse: json}
  - id: per
    foreach:
      items: units.stdout
      maxBranches: 100
      stages:
        - {id: mark, verdict: {subject: item.unit, verdict: '"critical"'}}
`
	r := execTempChart(t, strings.Replace(chart, "{EMPTY}", "", 1), "--format", "nagios")
	lines := strings.Split(r.stdout, "\n")
	if r.code != 3 || lines[0] != "failed-units UNKNOWN - no verdict rows: nothing was judged" ||
		!strings.HasPrefix(lines[1], "UNKNOWN: the verdict table is empty: the run wrote no verdict row") || !strings.Contains(lines[1], "result: {empty: answer}") {
		t.Errorf("exit %d, want 3:\n%s", r.code, r.stdout)
	}
	r = execTempChart(t, strings.Replace(chart, "{EMPTY}", ", empty: answer", 1), "--format", "nagios")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "failed-units OK - no verdict rows\n") {
		t.Errorf("empty: answer: exit %d, want 0:\n%s", r.code, r.stdout)
	}
	r = execTempChart(t, strings.Replace(chart, "{EMPTY}", ", empty: answer", 1))
	if r.code != 0 || !strings.Contains(r.stdout, "which the chart declares its answer (result.empty: answer): nothing to report.") {
		t.Errorf("empty: answer, text: exit %d:\n%s", r.code, r.stdout)
	}
}
