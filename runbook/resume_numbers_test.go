package runbook_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
)

// TestResumedIntegerStaysAnInteger: a counter the run kept as an integer
// is an integer again once the run is answered. Its paused record is JSON,
// which reads every number back as a float, and the resumed run failed at
// `n % 2` (float64 % int) where the uninterrupted run had gone on; the
// checkpoint now says which numbers were integers, as a continue's did.
func TestResumedIntegerStaysAnInteger(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := filepath.Join(dir, "count.yaml")
	if err := os.WriteFile(chart, []byte(`version: 1
runbook: count-ask
stages:
  - {id: seed, set: {n: "3"}}
  - id: approve
    ask: {question: '"go on?"', expects: {more: number}}
  - {id: count, set: {n: n + more, parity: 'n % 2'}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	rb, err := runbook.Open(chart)
	if err != nil {
		t.Fatal(err)
	}
	res, err := rb.Exec(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	paused := filepath.Join(dir, "paused.json")
	if err := res.WriteRecord(paused); err != nil {
		t.Fatal(err)
	}
	rec, _, err := record.ReadRecord(paused)
	if err != nil {
		t.Fatal(err)
	}
	done, err := rb.Resume(context.Background(), rec, map[string]any{"more": "2"}, runbook.AnsweredBy("ann"))
	if err != nil {
		t.Fatal(err)
	}
	if done.Record.Status != "completed" || done.Record.State["parity"] != 1 {
		t.Errorf("status %s, error %+v, parity %v; want completed with parity 1", done.Record.Status, done.Record.Error, done.Record.State["parity"])
	}
}
