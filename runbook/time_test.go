package runbook

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/openrunbook/runbook/record"
)

// TestDurationSetBeforeAskReadsTheSameAfterResume: `vars: {maxAge:
// duration("24h")}` kept a time.Duration in the scope, where `age >
// maxAge` (age in seconds) could not be evaluated: a rule-error, Not
// sure. Paused at an ask and resumed, the same maxAge came back from the
// record as the number 86400000000000 (nanoseconds), the rule compared
// 259200 seconds with it, and a three-day-old file read fresh with nothing
// to doubt. A duration an expression yields is now its text ("24h0m0s"),
// which no number compares with, before a pause and after it alike, and
// which duration() reads back.
func TestDurationSetBeforeAskReadsTheSameAfterResume(t *testing.T) {
	t.Parallel()
	const src = `version: 1
runbook: age
vars:
  maxAge: duration("24h")
  age: 259200
stages:
  - id: q
    ask: {question: '"go on?"', expects: {go: bool}}
  - id: fresh
    name: Freshness
    decide:
      rules:
        - {when: age > maxAge, then: stale, label: Older than maxAge}
        - {when: 'age > duration(maxAge).Seconds()', then: stale, label: Older than maxAge in seconds}
      default: {branch: fresh, label: Within maxAge}
    branches:
      stale: [{id: s, set: {verdict: '"stale"'}}]
      fresh: [{id: f, set: {verdict: '"fresh"'}}]
`
	path := filepath.Join(t.TempDir(), "age.yaml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	rb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := rb.Exec(context.Background(), nil)
	if err != nil || res.Record.Status != "paused" {
		t.Fatalf("err %v, status %s", err, res.Record.Status)
	}
	if got := res.Record.State["maxAge"]; got != "24h0m0s" {
		t.Errorf("maxAge = %#v, want the text \"24h0m0s\"", got)
	}
	b, err := json.Marshal(res.RunRecord())
	if err != nil {
		t.Fatal(err)
	}
	rec, problems, err := record.ParseRecord(b)
	if err != nil || len(problems) > 0 {
		t.Fatalf("%v %q", err, problems)
	}
	out, err := rb.Resume(context.Background(), rec, map[string]any{"go": "true"}, answerTime)
	if err != nil {
		t.Fatal(err)
	}
	if out.Record.State["verdict"] != "stale" {
		t.Errorf("after resume, verdict = %v, want stale", out.Record.State["verdict"])
	}
	d := out.Record.Decisions[len(out.Record.Decisions)-1]
	if len(d.Rules) < 2 || d.Rules[0].Err == "" || !d.Rules[1].Matched {
		t.Errorf("after resume, rules = %+v; want rule 1 an error (a number and a duration's text) and rule 2 matched", d.Rules)
	}
}
