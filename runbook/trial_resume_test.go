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

// TestRejectNeedsNoSecret: a paused run given a secret input is rejected
// without the secret (a rejection runs nothing); before, resume asked for
// the secret again while the CLI's --reject refuses every --input, so such
// a run could not be rejected at all (trial: "input "token": is secret:
// the record does not keep it; give it again", then "--reject answers the
// question: give no --input with it").
func TestRejectNeedsNoSecret(t *testing.T) {
	t.Parallel()
	rb := openYAMLChart(t, `version: 1
runbook: reject-secret
inputs:
  token: {type: string, secret: true, required: true}
stages:
  - id: s
    set: {header: '"Bearer " + token'}
  - id: q
    ask:
      question: '"go on?"'
      expects: {ok: bool}
`)
	const token = "tok-Rj7Lq2Zx9w"
	res, err := rb.Exec(context.Background(), map[string]any{"token": token})
	if err != nil || res.Record.Status != "paused" {
		t.Fatalf("err %v, status %s", err, res.Record.Status)
	}
	b, _ := json.Marshal(res.RunRecord())
	rec, problems, err := record.ParseRecord(b)
	if err != nil || len(problems) > 0 {
		t.Fatalf("%v %q", err, problems)
	}
	next, err := rb.Resume(context.Background(), rec, nil, ResumeReject("not during the freeze"), AnsweredBy("ann"))
	if err != nil {
		t.Fatalf("rejecting without the secret: %v", err)
	}
	if next.Record.Status != "failed" || next.Record.Error == nil || !strings.Contains(next.Record.Error.Message, "rejected by ann: not during the freeze") {
		t.Fatalf("status %s, error %+v: want failed, rejected by ann", next.Record.Status, next.Record.Error)
	}
	b, _ = json.Marshal(next.RunRecord())
	if strings.Contains(string(b), token) || strings.Contains(string(b), "Bearer tok") {
		t.Errorf("the rejected record shows the secret:\n%s", b)
	}
}

// TestMisspelledAnswerSaysDidYouMean: an answer name a letter off the one
// the question expects is refused with "did you mean", as a misspelled
// input is (trial: --input aprove=true said only what it expects).
func TestMisspelledAnswerSaysDidYouMean(t *testing.T) {
	t.Parallel()
	rb := openYAMLChart(t, `version: 1
runbook: typo
stages:
  - id: q
    ask:
      question: '"go on?"'
      expects: {approve: bool}
`)
	res, err := rb.Exec(context.Background(), nil)
	if err != nil || res.Record.Status != "paused" {
		t.Fatalf("err %v, status %s", err, res.Record.Status)
	}
	b, _ := json.Marshal(res.RunRecord())
	rec, _, err := record.ParseRecord(b)
	if err != nil {
		t.Fatal(err)
	}
	_, err = rb.Resume(context.Background(), rec, map[string]any{"aprove": "true"})
	want := `input "aprove": is not an answer the question expects; did you mean "approve"? (it expects approve (bool))`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err %v, want it to say %q", err, want)
	}
}

// TestCannotResumeIsSaidAtThePause: a paused run whose checkpoint holds a
// secret-derived value resume cannot derive again (a verdict row) says so
// while it pauses; one whose derived values a set: stage wrote can be
// resumed, and says nothing.
func TestCannotResumeIsSaidAtThePause(t *testing.T) {
	t.Parallel()
	rb := openYAMLChart(t, `version: 1
runbook: stuck
inputs:
  token: {type: string, secret: true, required: true}
stages:
  - id: vb
    verdict: {subject: '"s"', verdict: '"b"', up: 'upper(token)'}
  - id: q
    ask: {question: '"go on?"', expects: {ok: bool}}
`)
	res, err := rb.Exec(context.Background(), map[string]any{"token": "tok-St8Kq2Lw"})
	if err != nil || res.Record.Status != "paused" {
		t.Fatalf("err %v, status %s", err, res.Record.Status)
	}
	if err := res.CannotResume(); err == nil || !strings.Contains(err.Error(), `stage "vb" is not a set: stage`) {
		t.Errorf("CannotResume = %v, want it to name the verdict stage", err)
	}
	rb, _, _ = pausedSecrets(t, "tok-5Gh2Lq9wZx")
	res, err = rb.Exec(context.Background(), map[string]any{"token": "tok-5Gh2Lq9wZx"})
	if err != nil || res.Record.Status != "paused" {
		t.Fatalf("err %v, status %s", err, res.Record.Status)
	}
	if err := res.CannotResume(); err != nil {
		t.Errorf("a run whose derived values set: stages wrote: CannotResume = %v, want nil", err)
	}
}
