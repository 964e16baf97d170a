package temporal

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
)

// TestTookAnswerSaysAnotherAnswerWasTaken: two people answer one paused
// run at once; both checks pass, the run takes the first answer and drops
// the second (Answer.Seq). The second caller's Answer is told its answer
// was not used, and by whom the question was answered, rather than
// handed the run as if it had answered it.
func TestTookAnswerSaysAnotherAnswerWasTaken(t *testing.T) {
	ctx := context.Background()
	rb, err := runbook.Open("testdata/charts/ask-each.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := rb.Exec(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.RunRecord())
	if err != nil {
		t.Fatal(err)
	}
	paused, problems, err := record.ParseRecord(b)
	if err != nil || len(problems) > 0 {
		t.Fatalf("the paused record: %v %v", err, problems)
	}
	at := time.Date(2026, 12, 6, 11, 0, 0, 0, time.UTC)
	res, err = rb.Resume(ctx, paused, map[string]any{"ok": "true"}, runbook.AnsweredBy("ann"), runbook.ResumeClock(func() time.Time { return at }))
	if err != nil {
		t.Fatal(err)
	}
	if b, err = json.Marshal(res.RunRecord()); err != nil {
		t.Fatal(err)
	}
	run := &Run{Record: b}
	if err := tookAnswer(run, "w", 1, Answer{By: "ann", At: at}); err != nil {
		t.Errorf("ann's own answer: %v, want it taken", err)
	}
	for _, other := range []Answer{
		{By: "bob", At: at},
		{By: "ann", At: at.Add(time.Second)},
		{By: "ann", At: at, Reject: "not now"},
	} {
		err := tookAnswer(run, "w", 1, other)
		if err == nil || !strings.Contains(err.Error(), "ann answered this question at 2026-12-06T11:00:00Z") {
			t.Errorf("answer %+v: %v, want it said not used, answered by ann", other, err)
		}
	}
	if err := tookAnswer(run, "w", 2, Answer{By: "ann", At: at}); err == nil {
		t.Error("an answer to a question the record has no answer for was said taken")
	}
}

// TestResumeRefusalSaysHowToGiveASecretAgain: a resume on Temporal not
// given a secret input again was refused with `input "token": is secret:
// the record does not keep it`, and nothing on how to give it; the
// refusal names the file flags of both commands (never --answer, which
// puts the secret in argv).
func TestResumeRefusalSaysHowToGiveASecretAgain(t *testing.T) {
	got := giveAgain(&runbook.InputError{Input: "token", Msg: "is secret: the record does not keep it", Fix: runbook.FixGiveAgain})
	for _, want := range []string{`{"token": …}`, "runbook resume --inputs FILE", "runbook-temporal resume --answers FILE"} {
		if !strings.Contains(got, want) {
			t.Errorf("giveAgain says %q; want it to name %q", got, want)
		}
	}
	if got := giveAgain(&runbook.InputError{Input: "n", Msg: "is not a number"}); got != "" {
		t.Errorf("giveAgain over another refusal says %q; want nothing", got)
	}
}
