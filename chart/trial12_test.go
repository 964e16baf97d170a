package chart

import (
	"errors"
	"strings"
	"testing"
)

// A chart test file handed where a chart goes (runbook exec, validate, a
// chart of runbook mcp) is said to be one, with the command that runs it,
// in one error, not four about a chart's missing and unknown keys.
func TestTrialTestFileIsNotAChart(t *testing.T) {
	_, err := Parse("svc_test.yaml", []byte("version: 1\nchart: chart.yaml\ncases:\n  - name: a\n"))
	var les LoadErrors
	if !errors.As(err, &les) || len(les) != 1 {
		t.Fatalf("err %v: want one load error", err)
	}
	if msg := les[0].Error(); !strings.Contains(msg, "svc_test.yaml:1:1:") || !strings.Contains(msg, "a test file of chart.yaml") || !strings.Contains(msg, "runbook test svc_test.yaml") {
		t.Errorf("error %q: want it to say the file is a test file of chart.yaml and how to run it", msg)
	}
}
