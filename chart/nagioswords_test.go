package chart

import (
	"strings"
	"testing"
)

// TestNagiosWordNoRowCanHaveIsRefused: a misspelled result.nagios word
// (critical: [at-rsik], warning: [Filling]) loaded, and the rows it meant
// were words nothing maps: a check over a volume at risk said UNKNOWN,
// exit 3, where its author had mapped CRITICAL. A word no row of the
// chart can have, near one it can, is refused at its place; a word near
// none (one mapped ahead of the rows that will have it) still loads.
func TestNagiosWordNoRowCanHaveIsRefused(t *testing.T) {
	t.Parallel()
	const src = `version: 1
runbook: disks
result: {kind: verdict/x, nagios: {critical: [at-rsik], warning: [Filling], unknown: [declined]}}
stages:
  - id: a
    verdict: {subject: '"/var"', verdict: '"at-risk"'}
  - id: b
    verdict: {subject: '"/home"', verdict: '"filling"'}
`
	_, err := Parse("chart.yaml", []byte(src))
	for _, want := range []string{
		`chart.yaml:3:47: result nagios critical lists the verdict "at-rsik", which no row of this chart can have (its verdict stages write the verdict words at-risk, filling), so no row reading "at-risk" is CRITICAL by it; did you mean "at-risk"?`,
		`chart.yaml:3:67: result nagios warning lists the verdict "Filling", which no row of this chart can have`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v\nwant it to hold %s", err, want)
		}
	}
	if err != nil && strings.Contains(err.Error(), "declined") {
		t.Errorf("a word near none of the chart's is refused: %v", err)
	}
	// Rows whose words no constant says (a verdict from an expression
	// reading the run) leave the list unknown: nothing is refused.
	if _, err := Parse("chart.yaml", []byte(strings.Replace(src, `verdict: '"at-risk"'`, `verdict: 'x ?? "at-risk"'`, 1))); err != nil && strings.Contains(err.Error(), "result nagios") {
		t.Errorf("a chart whose words are not all known: %v", err)
	}
}
