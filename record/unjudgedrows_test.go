package record_test

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestSavedRecordKeepsUnjudgedRows: the row a decision routed past a rule
// it could not evaluate is marked in the result record (unjudgedRows,
// its place and why), the saved record holding it validates against the
// published schema and reads back with it; the row itself keeps the keys
// the chart wrote. A run whose every rule judged marks none.
func TestSavedRecordKeepsUnjudgedRows(t *testing.T) {
	t.Parallel()
	rb, err := runbook.Open("../testdata/wave-rows/rule-error/chart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	procs := []any{map[string]any{"name": "sshd", "rss": 4000}, map[string]any{"name": "java", "rss": "50 kB"}}
	res, err := rb.Exec(context.Background(), map[string]any{"procs": procs})
	if err != nil {
		t.Fatal(err)
	}
	want := []record.UnjudgedRow{{Row: 1, Subject: "java", Why: []string{`rule 1 ("Over 100 MB resident") of decider Memory could not be evaluated`}}}
	if got := res.Record.Verdicts.UnjudgedRows; !reflect.DeepEqual(got, want) {
		t.Errorf("unjudgedRows %+v, want %+v", got, want)
	}
	if row := res.Record.Verdicts.Rows[1]; !reflect.DeepEqual(row.Keys, []string{"subject", "verdict"}) {
		t.Errorf("the row's keys are not the chart's: %v", row.Keys)
	}
	b, err := json.Marshal(res.RunRecord())
	if err != nil {
		t.Fatal(err)
	}
	sch, err := compileRecordSchema()
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("a record with unjudged rows breaks the published schema: %v", err)
	}
	back, problems, err := record.ParseRecord(b)
	if err != nil || len(problems) > 0 {
		t.Fatalf("err %v, problems %q", err, problems)
	}
	if got := back.Result.Verdicts.UnjudgedRows; !reflect.DeepEqual(got, want) {
		t.Errorf("read back: %+v", got)
	}

	res, err = rb.Exec(context.Background(), map[string]any{"procs": procs[:1]})
	if err != nil {
		t.Fatal(err)
	}
	if vs := res.Record.Verdicts; vs.UnjudgedRows != nil || vs.UnjudgedNotShown != 0 {
		t.Errorf("rows marked where every rule judged: %+v", vs)
	}
}
