package gate_test

// Tests that run a chart: outside package gate, since package runbook
// asks gate (the result record's verdicts.unjudged).

import (
	"context"
	"testing"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/internal/gate"
	"github.com/openrunbook/runbook/runbook"
)

// TestIssue14RowsAreTheProjectionsRows: Rows counts what the projection
// counts — an entry that is not an object with a string verdict is no row
// — so a hidden row and a shown one are judged alike.
func TestIssue14RowsAreTheProjectionsRows(t *testing.T) {
	t.Parallel()
	spec, err := chart.Parse("chart.yaml", []byte(`version: 1
runbook: rows
result:
  kind: verdict/state
  maxRows: 1
honesty: []
stages:
  - id: put
    set:
      verdicts: '[{"subject": "a", "verdict": "ok"}, 3, {"verdict": 1}, "x", {"subject": "b", "verdict": "critical"}]'
`))
	if err != nil {
		t.Fatal(err)
	}
	rb, err := runbook.Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	res, err := rb.Exec(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := res.Record
	rows := gate.Rows(rec)
	if len(rows) != rec.Verdicts.RowsTotal || len(rows) != 2 || rec.Verdicts.RowsDropped != 3 {
		t.Fatalf("Rows %v; the projection counted %d rows, dropped %d", rows, rec.Verdicts.RowsTotal, rec.Verdicts.RowsDropped)
	}
	c := gate.Judge(rec, gate.MappingOf(rb.Spec()))
	if c.State != gate.Critical || len(c.Words) != 2 {
		t.Errorf("judged %+v, want CRITICAL over 2 words", c)
	}
	// honesty: [] — no assessment: the standing is not-assessed.
	notAssessed, err := gate.ParseConditions([]string{"not-assessed"})
	if err != nil {
		t.Fatal(err)
	}
	if got := gate.Held(rec, notAssessed); len(got) != 1 {
		t.Errorf("no assessment: held %v, want not-assessed", got)
	}
}
