package runbook

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/openrunbook/runbook/record"
)

// TestCheckAnswersIsResumesRefusal: CheckAnswers refuses what Resume
// refuses, in its words, takes what it takes, and runs nothing — the
// paused record is left as it was, still resumable.
func TestCheckAnswersIsResumesRefusal(t *testing.T) {
	rb, err := Open("../examples/approval/chart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := rb.Exec(context.Background(), map[string]any{"dir": t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.RunRecord())
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := record.ParseRecord(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []map[string]any{{"approve": "maybe"}, {"approve": "true", "force": "yes"}, nil} {
		got := rb.CheckAnswers(rec, bad, false)
		_, want := rb.Resume(context.Background(), rec, bad)
		if got == nil || want == nil || got.Error() != want.Error() {
			t.Errorf("answers %v: CheckAnswers %v, Resume %v; want the same refusal", bad, got, want)
		}
	}
	if err := rb.CheckAnswers(rec, nil, true); err != nil {
		t.Errorf("a rejection: %v", err)
	}
	if err := rb.CheckAnswers(rec, map[string]any{"approve": "true"}, false); err != nil {
		t.Fatalf("a good answer: %v", err)
	}
	if err := record.CheckCheckpoint(rec); err != nil {
		t.Errorf("the record was changed by the checks: %v", err)
	}
	if _, err := rb.Resume(context.Background(), rec, map[string]any{"approve": "true"}); err != nil {
		t.Errorf("the checked answer does not resume: %v", err)
	}
}
