package runbook_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAssumedValueEqualToASecretIsMasked: a PostgreSQL check took its
// user from a default, "postgres", and its password, a secret, was
// "postgres" too, as on many a developer's server. Every output masked
// the secret's text, save the standing line, which named the default
// read in the clear: `Not sure — … user = "postgres" were assumed by
// pg-liveness's rule`, in the text output and the record's
// assessment.line (the chart is testdata/wave-dba/liveness.yaml). The
// line is masked as the rest of the record is.
func TestAssumedValueEqualToASecretIsMasked(t *testing.T) {
	t.Parallel()
	rb := parse(t, `version: 1
runbook: pg
inputs:
  host: {type: string, default: db-primary.internal}
  password: {type: string, secret: true, required: true}
stages:
  - {id: target, set: {where: 'host + ":5432"'}}
`)
	res, err := rb.Exec(context.Background(), map[string]any{"password": "db-primary.internal"})
	if err != nil {
		t.Fatal(err)
	}
	a := res.Record.Assessment
	if a == nil || !strings.Contains(a.Line, "host = ") {
		t.Fatalf("the standing line does not name the assumed host: %+v", a)
	}
	if strings.Contains(a.Line, "db-primary.internal") {
		t.Errorf("the standing line shows the secret's text: %s", a.Line)
	}
	path := filepath.Join(t.TempDir(), "rec.json")
	if err := res.WriteRecord(path); err != nil {
		t.Fatal(err)
	}
	if saved, _ := os.ReadFile(path); strings.Contains(string(saved), "db-primary.internal") {
		t.Errorf("the record holds the secret's text: %s", saved)
	}
}
