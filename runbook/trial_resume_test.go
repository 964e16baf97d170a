package runbook

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/record"
)

// openYAMLChart writes text to a chart file of the test's own and opens it.
func openYAMLChart(t *testing.T, text string) *Runbook {
	t.Helper()
	path := filepath.Join(t.TempDir(), "chart.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	rb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return rb
}

// TestPausedRecordMasksTheQuestion: an ask: whose question reads a secret
// input keeps the question masked in the saved record's checkpoint too,
// not only in the result's pause (trial: the record file held
// "question": "token is SEKRET123 pin 4711" while every output showed ***).
func TestPausedRecordMasksTheQuestion(t *testing.T) {
	t.Parallel()
	rb := openYAMLChart(t, `version: 1
runbook: ask-secret
inputs:
  token: {type: string, secret: true, required: true}
stages:
  - id: q
    ask:
      question: '"token is " + token + ", go on?"'
      expects: {ok: bool}
  - id: v
    verdict: {subject: '"x"', verdict: 'ok ? "yes" : "no"'}
`)
	const token = "tok-Qw8Zr3Lp2x"
	res, err := rb.Exec(context.Background(), map[string]any{"token": token})
	if err != nil || res.Record.Status != "paused" {
		t.Fatalf("err %v, status %s", err, res.Record.Status)
	}
	b, err := json.Marshal(res.RunRecord())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), token) {
		t.Fatalf("the paused record shows the secret:\n%s", b)
	}
	rec, problems, err := record.ParseRecord(b)
	if err != nil || len(problems) > 0 {
		t.Fatalf("%v %q", err, problems)
	}
	if q := rec.Checkpoint.Pause.Question; q != "token is ***, go on?" {
		t.Errorf("the checkpoint's question = %q, want it masked", q)
	}
	next, err := rb.Resume(context.Background(), rec, map[string]any{"ok": true, "token": token})
	if err != nil {
		t.Fatal(err)
	}
	if next.Record.Status != "completed" {
		t.Fatalf("status %s %+v", next.Record.Status, next.Record.Error)
	}
	b, _ = json.Marshal(next.RunRecord())
	if strings.Contains(string(b), token) {
		t.Errorf("the resumed record shows the secret:\n%s", b)
	}
}
