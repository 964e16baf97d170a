package chart

import (
	"strings"
	"testing"
)

// TestIndexInAFlowMappingSaysQuoteIt: `verdict: {subject:
// running.stdout[0], verdict: '"current"'}`, the first line of uname -r
// as a verdict's subject, was refused with the YAML parser's words
// alone, "',' or '}' must be specified", at the column after the index:
// inside {…} a "[" starts a list, so the plain value ended before it.
// The error says so and gives the value whole, in single quotes.
func TestIndexInAFlowMappingSaysQuoteIt(t *testing.T) {
	t.Parallel()
	src := "version: 1\nrunbook: c\nstages:\n  - id: running\n    exec: {command: [uname, -r], parse: lines}\n  - {id: mark, verdict: {subject: running.stdout[0], verdict: '\"current\"'}}\n"
	_, err := Parse("chart.yaml", []byte(src))
	want := `the file is not valid YAML: ',' or '}' must be specified (a "[" inside {…} starts a list, so the plain value "running.stdout" ended before its index; quote the value whole, an expression in single quotes: 'running.stdout[0]')`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v\nwant it to hold %s", err, want)
	}
	fixed := strings.Replace(src, "subject: running.stdout[0],", "subject: 'running.stdout[0]',", 1)
	if _, err := Parse("chart.yaml", []byte(fixed)); err != nil {
		t.Errorf("the quoting it gives: %v", err)
	}
}
