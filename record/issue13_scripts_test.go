package record_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestIssue13ScriptRowFieldsValidate: a saved record whose script rows
// carry ran, answer and cause is valid against the published schema and
// reads back with them, still at RecordVersion 2.
func TestIssue13ScriptRowFieldsValidate(t *testing.T) {
	t.Parallel()
	rb, err := runbook.Open("../testdata/issue13/nagios-exit/chart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// Run from record/, ./check_fake is not found: that row is
	// outcome-unknown with a cause, and the shell stages' rows carry
	// answers, so every new field is in the record.
	res, err := rb.Exec(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
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
		t.Fatalf("a saved record breaks the published schema: %v", err)
	}
	rec, problems, err := record.ParseRecord(b)
	if err != nil || len(problems) > 0 {
		t.Fatalf("err %v, problems %q", err, problems)
	}
	rows := rec.Result.Scripts
	if len(rows) != 3 || rows[0].Ran == nil || rows[0].Cause != "could not be started: ./check_fake not found" || rows[2].Answer != "degraded" || rows[2].Ran.Shell != "exit 4" {
		t.Errorf("script rows read back: %+v", rows)
	}
}
