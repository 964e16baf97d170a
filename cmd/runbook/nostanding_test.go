package main

import (
	"strings"
	"testing"

	"github.com/openrunbook/runbook/record"
)

// TestNoAssessmentSaysNoStanding: a chart with `honesty: []` printed its
// table and nothing where the standing line goes, in the text, the
// Nagios long text and an agent's answer, while the MCP server tells an
// agent to repeat the standing line: silence read as no doubt. It says
// the answer's standing was not judged.
func TestNoAssessmentSaysNoStanding(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "off.yaml", `
version: 1
runbook: off
honesty: []
result: {kind: verdict/x}
stages:
  - id: mark
    verdict: {subject: '"a"', verdict: '"ok"'}
`)
	for _, format := range []string{"text", "nagios", "markdown"} {
		r := runCLI(t, dir, "exec", chart, "--format", format)
		if !strings.Contains(r.stdout, record.NoStanding) {
			t.Errorf("%s: no word of the standing:\n%s", format, r.stdout)
		}
	}
	r := runCLI(t, dir, "exec", chart)
	if strings.Contains(r.stdout, "Consistent with") {
		t.Errorf("a standing was said:\n%s", r.stdout)
	}
}
