package temporal_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
	"github.com/openrunbook/runbook/temporal"
)

// answeredAt is when the tests' person answers: the record keeps it.
var answeredAt = time.Date(2026, 12, 4, 9, 30, 0, 0, time.UTC)

// localResume is `runbook resume` of a saved paused record: read from its
// bytes, resumed with answers by ann at answeredAt, saved again. err is a
// refusal.
func localResume(t *testing.T, path string, paused []byte, a temporal.Answer) ([]byte, error) {
	t.Helper()
	path, err := filepath.Abs(path) // as Executor.ExecFile sends it
	if err != nil {
		t.Fatal(err)
	}
	rb, err := runbook.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	rec, problems, err := record.ParseRecord(paused)
	if err != nil || len(problems) > 0 {
		t.Fatalf("the paused record: %v %v", err, problems)
	}
	opts := []runbook.ResumeOption{runbook.AnsweredBy(a.By), runbook.ResumeClock(func() time.Time { return a.At })}
	if a.Reject != "" {
		opts = append(opts, runbook.ResumeReject(a.Reject))
	}
	res, err := rb.Resume(context.Background(), rec, a.Answers, opts...)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(res.RunRecord(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n'), nil
}

// digest is a paused record's seal: a hash over its commits, which hold
// the processes' durations, so it differs whenever they do.
var digest = regexp.MustCompile(`"checkpointDigest": "[^"]*"`)

// sameRecord fails the test when the Temporal run's record is not the
// local one, timings masked. A paused record's checkpointDigest is masked
// too, for it hashes the timings; instead each record must be sealed by
// its own digest, and the two digests of the records with their timings
// masked must be one.
func sameRecord(t *testing.T, what string, local []byte, run *temporal.Run) {
	t.Helper()
	got, want := masked(run.Record), masked(local)
	if g, w := digest.ReplaceAllString(got, ""), digest.ReplaceAllString(want, ""); g != w {
		t.Errorf("%s: the record on Temporal differs from the local one:\n%s", what, lineDiff(w, g))
	}
	var seals [2]string
	for i, b := range []string{got, want} {
		rec, _, err := record.ParseRecord([]byte(b))
		if err != nil {
			t.Fatal(err)
		}
		seals[i] = record.CheckpointDigest(rec)
	}
	if seals[0] != seals[1] {
		t.Errorf("%s: the checkpoint on Temporal differs from the local one (digests, timings masked: %s, %s)", what, seals[0], seals[1])
	}
	if rec, err := run.RunRecord(); err != nil {
		t.Errorf("%s: %v", what, err)
	} else if err := record.CheckCheckpoint(rec); err != nil {
		t.Errorf("%s: the record on Temporal is not sealed by its digest: %v", what, err)
	}
}

// TestAskAnsweredBySignal: a run that asks waits on Temporal for a signal
// carrying the answer; each answer continues it, and every record it
// leaves — paused, paused again, completed — is the record a local run
// and `runbook resume` with the same answers leave. An answer a local
// resume refuses (a wrong type, a name not asked for, none) is refused in
// the same words, and the run goes on waiting for a good one.
func TestAskAnsweredBySignal(t *testing.T) {
	_, c := server(t, "ask")
	ex := &temporal.Executor{Client: c, TaskQueue: "ask", WorkflowID: "ask-twice"}
	const chart = "testdata/charts/ask.yaml"
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	run, err := ex.ExecFile(ctx, chart, nil)
	if err != nil {
		t.Fatal(err)
	}
	local := localRecord(t, chart, nil)
	if !run.Paused || run.WorkflowID != "ask-twice" {
		t.Fatalf("paused %v, workflow %q; want the run waiting, workflow ask-twice", run.Paused, run.WorkflowID)
	}
	sameRecord(t, "paused", local, run)

	for _, bad := range []map[string]any{
		{"approve": "maybe"},
		{"approve": "true", "force": "yes"},
		nil,
	} {
		a := temporal.Answer{Answers: bad, By: "ann", At: answeredAt}
		_, err := ex.Answer(ctx, run.WorkflowID, a)
		_, want := localResume(t, chart, local, a)
		if err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("answer %v: err = %v, want the local refusal %v", bad, err, want)
		}
	}

	// A signal sent past the Executor's check is refused by the workflow,
	// which goes on waiting: it leaves no trace in the record.
	if err := c.SignalWorkflow(ctx, run.WorkflowID, "", temporal.AnswerSignal, temporal.Answer{Answers: map[string]any{"approve": "maybe"}, By: "eve", At: answeredAt}); err != nil {
		t.Fatal(err)
	}

	for i, answers := range []map[string]any{{"approve": "true"}, {"count": "3"}} {
		a := temporal.Answer{Answers: answers, By: "ann", At: answeredAt.Add(time.Duration(i) * time.Minute)}
		run, err = ex.Answer(ctx, run.WorkflowID, a)
		if err != nil {
			t.Fatalf("answer %v: %v", answers, err)
		}
		if local, err = localResume(t, chart, local, a); err != nil {
			t.Fatal(err)
		}
		sameRecord(t, "answered", local, run)
		if wantPaused := i == 0; run.Paused != wantPaused {
			t.Errorf("answer %v: paused %v, want %v", answers, run.Paused, wantPaused)
		}
	}
	rec, err := run.RunRecord()
	if err != nil {
		t.Fatal(err)
	}
	if rec.Result.Status != "completed" || len(rec.Answers) != 2 || rec.Answers[1].By != "ann" {
		t.Errorf("status %s, answers %+v; want completed with both answers by ann", rec.Result.Status, rec.Answers)
	}
	// The run has ended: there is nothing left to answer.
	if _, err := ex.Answer(ctx, run.WorkflowID, temporal.Answer{Answers: map[string]any{"count": "1"}}); err == nil {
		t.Error("an answer to an ended run was taken")
	}
}

// TestAskRejectedBySignal: a rejection ends the run failed at the asking
// stage, as `runbook resume --reject` does.
func TestAskRejectedBySignal(t *testing.T) {
	_, c := server(t, "reject")
	ex := &temporal.Executor{Client: c, TaskQueue: "reject"}
	const chart = "testdata/charts/ask.yaml"
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	run, err := ex.ExecFile(ctx, chart, map[string]any{"dir": "/srv"})
	if err != nil {
		t.Fatal(err)
	}
	local := localRecord(t, chart, map[string]any{"dir": "/srv"})
	a := temporal.Answer{Reject: "not during the freeze", By: "bob", At: answeredAt}
	run, err = ex.Answer(ctx, run.WorkflowID, a)
	if err != nil {
		t.Fatal(err)
	}
	if local, err = localResume(t, chart, local, a); err != nil {
		t.Fatal(err)
	}
	sameRecord(t, "rejected", local, run)
	if rec, err := run.RunRecord(); err != nil || rec.Result.Status != "failed" {
		t.Errorf("record %v, err %v; want the run failed by the rejection", rec, err)
	}
}

// TestStaleAnswerNeverAnswersTheNextQuestion: a chart that asks the same
// question twice (the same names, the same types). An answer sent for the
// first pause that reaches the run when it already waits at the second —
// a second person's resume whose check raced the first's, or a signal
// sent by hand — was taken as the answer to the second question: the
// record said bob answered "Restart host 2?" with no, a question bob
// never saw. An answer names the pause it answers (Answer.Seq, set by
// Executor.Answer); the workflow drops one for another pause and goes on
// waiting.
func TestStaleAnswerNeverAnswersTheNextQuestion(t *testing.T) {
	_, c := server(t, "ask-each")
	ex := &temporal.Executor{Client: c, TaskQueue: "ask-each", WorkflowID: "ask-each"}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	run, err := ex.ExecFile(ctx, "testdata/charts/ask-each.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !run.Paused {
		t.Fatal("the run did not ask")
	}
	if run, err = ex.Answer(ctx, run.WorkflowID, temporal.Answer{Answers: map[string]any{"ok": "true"}, By: "ann", At: answeredAt}); err != nil || !run.Paused {
		t.Fatalf("the first answer: paused %v, err %v; want the run asking again", run != nil && run.Paused, err)
	}
	stale := temporal.Answer{Seq: 1, Answers: map[string]any{"ok": "false"}, By: "bob", At: answeredAt}
	if err := c.SignalWorkflow(ctx, run.WorkflowID, "", temporal.AnswerSignal, stale); err != nil {
		t.Fatal(err)
	}
	run, err = ex.Answer(ctx, run.WorkflowID, temporal.Answer{Answers: map[string]any{"ok": "true"}, By: "ann", At: answeredAt.Add(time.Minute)})
	if err != nil {
		t.Fatalf("the second answer: %v (the stale answer took its place?)", err)
	}
	rec, err := run.RunRecord()
	if err != nil {
		t.Fatal(err)
	}
	if rec.Result.Status != "completed" || len(rec.Answers) != 2 || rec.Answers[1].By != "ann" || rec.Answers[1].Answers["ok"] != true {
		t.Errorf("status %s, answers %+v; want completed, the second question answered yes by ann", rec.Result.Status, rec.Answers)
	}
}
