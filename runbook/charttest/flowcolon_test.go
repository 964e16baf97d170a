package charttest

import (
	"errors"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/chart"
)

// TestURLWithPortInAFlowListOfATestFileSaysQuoteIt: a case's `inputs:
// {urls: [http://a:8080/]}` or a stub's `{argv: [curl, http://a:8080/]}`
// is split by the YAML parser at the colon into a map, where YAML reads
// one text, and the case was refused with "argv is a list of strings; a
// mapping is not a string", naming a map nobody wrote (a list input took
// the maps in silence). It is refused at the value, quoted, as a chart's
// is (chart TestURLWithPortInAFlowListSaysQuoteIt).
func TestURLWithPortInAFlowListOfATestFileSaysQuoteIt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	copyChart(t, dir)
	_, err := Load(writeFile(t, dir, "u_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n  - name: x\n    inputs: {urls: [http://a:8080/, \"http://b:8080/\"]}\n    stubs:\n      list: {stdout: a, argv: [curl, http://a:8080/]}\n"))
	var les chart.LoadErrors
	if !errors.As(err, &les) || len(les) != 2 {
		t.Fatalf("err %v: want two load errors", err)
	}
	for i, want := range []string{
		`u_test.yaml:5:21: the YAML parser reads http://a:8080/ inside this [...] list as a map ("http://a": 8080/), not the text written: inside a {...} map it splits a plain value at a ":"; quote it: "http://a:8080/"`,
		`u_test.yaml:7:38: the YAML parser reads http://a:8080/`,
	} {
		if !strings.Contains(les[i].Error(), want) {
			t.Errorf("error %d: %v\nwant it to hold %s", i, les[i], want)
		}
	}
}
