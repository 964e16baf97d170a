package runbook_test

import (
	"strings"
	"testing"

	"github.com/openrunbook/runbook/chart"

	"github.com/openrunbook/runbook/rules"
)

// TestLoadRefusesHugeExpression: an expression past the node budget is a
// load error with its position, like any expression that does not compile;
// nothing runs.
func TestLoadRefusesHugeExpression(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("x + ", int(rules.DefaultMaxNodes)) + "x"
	_, err := chart.Parse("huge.yaml", []byte("version: 1\nrunbook: r\nstages:\n  - {id: a, set: {y: '"+huge+"'}}\n"))
	if err == nil || !strings.Contains(err.Error(), "huge.yaml:4:") || !strings.Contains(err.Error(), "exceeds maximum allowed nodes") {
		t.Fatalf("err = %.300v", err)
	}
}

// TestMemoryHungryExpressionFailsTheStage: an expression stopped by the
// memory budget fails its stage with the reason; the run ends, failed.
func TestMemoryHungryExpressionFailsTheStage(t *testing.T) {
	t.Parallel()
	rec := exec(t, parse(t, `version: 1
runbook: r
honesty: []
stages:
  - {id: big, set: {y: 'map(1..1000000, # * 2)'}}
`), nil)
	if rec.Status != "failed" || rec.Error == nil || rec.Error.Stage != "big" || !strings.Contains(rec.Error.Message, "memory budget exceeded") {
		t.Fatalf("status %s error %+v", rec.Status, rec.Error)
	}
}
