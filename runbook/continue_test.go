package runbook

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/record"
)

var continueDurations = regexp.MustCompile(`"durationMs":[0-9.e+-]+|"finishedAt":"[^"]*"`)

// runContinuing runs the chart at path to its end as a host that stops it
// whenever yield says so would: each part's record through its bytes,
// resumed from them (a continue with no answers, an ask with the answers
// given), as a Temporal workflow does. It returns the final record's
// bytes, timings masked, and how many times the run continued.
func runContinuing(t *testing.T, rb *Runbook, inputs, answers map[string]any, yield func() bool) (string, int) {
	t.Helper()
	var opts []ExecOption
	if yield != nil {
		opts = append(opts, WithYield(yield))
	}
	res, err := rb.Exec(context.Background(), inputs, opts...)
	if err != nil {
		t.Fatal(err)
	}
	continues := 0
	for {
		b, err := json.Marshal(res.RunRecord())
		if err != nil {
			t.Fatal(err)
		}
		if res.Record.Status != "paused" {
			return continueDurations.ReplaceAllString(string(b), `"durationMs":0`), continues
		}
		rec, problems, err := record.ParseRecord(b)
		if err != nil || len(problems) > 0 {
			t.Fatalf("%v %q", err, problems)
		}
		given := answers
		if rec.Checkpoint.Kind == flow.CheckpointContinue {
			if res.Record.Pause != nil || res.Run.Pause != nil {
				t.Fatalf("a continue left a question: %+v", res.Record.Pause)
			}
			continues++
			given = nil
		}
		res, err = rb.Resume(context.Background(), rec, given, ResumeExec(opts...), AnsweredBy("ann"), answerTime)
		if err != nil {
			t.Fatalf("resume after %d continues: %v", continues, err)
		}
	}
}

// TestContinuedRecordIsTheUninterruptedOne: a run stopped by its host at
// each boundary in turn (and at every one), its record through its bytes
// and resumed, leaves the record of the run that never stopped, byte for
// byte with timings masked — an ask answered between, its answer recorded
// once, a loop's integer counter still an integer (`n + 1` compared with
// a number input), and no trace of the continues.
func TestContinuedRecordIsTheUninterruptedOne(t *testing.T) {
	t.Parallel()
	rb, err := Open("testdata/continue/poll-ask.yaml")
	if err != nil {
		t.Fatal(err)
	}
	in, ans := map[string]any{"passes": "3"}, map[string]any{"more": "2"}
	asked := 0
	want, _ := runContinuing(t, rb, in, ans, func() bool { asked++; return false })
	if plain, _ := runContinuing(t, rb, in, ans, nil); plain != want {
		t.Fatal("asking the yield changed the record")
	}
	for k := 1; k <= asked+1; k++ {
		n := 0
		got, continues := runContinuing(t, rb, in, ans, func() bool { n++; return n == k })
		if got != want {
			t.Fatalf("stopped at boundary %d: the record differs:\n got %s\nwant %s", k, got, want)
		}
		if continues == 0 && k <= asked-1 {
			t.Errorf("boundary %d: the run never continued", k)
		}
	}
	got, continues := runContinuing(t, rb, in, ans, func() bool { return true })
	if got != want || continues < asked/2 {
		t.Fatalf("stopped everywhere (%d continues): the record differs:\n got %s\nwant %s", continues, got, want)
	}
}

// TestContinueRefusesAnswersAndRejection: a continue is asked nothing.
func TestContinueRefusesAnswersAndRejection(t *testing.T) {
	t.Parallel()
	rb, err := Open("testdata/continue/poll-ask.yaml")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	res, err := rb.Exec(context.Background(), map[string]any{"passes": "3"}, WithYield(func() bool { n++; return n == 2 }))
	if err != nil || res.Run.Checkpoint == nil || res.Run.Checkpoint.Kind != flow.CheckpointContinue {
		t.Fatalf("%v %+v", err, res.Run.Checkpoint)
	}
	b, _ := json.Marshal(res.RunRecord())
	rec, _, _ := record.ParseRecord(b)
	for _, tc := range []struct {
		answers map[string]any
		opts    []ResumeOption
		want    string
	}{
		{map[string]any{"more": "2"}, nil, `input "more": is not an answer the question expects`},
		{nil, []ResumeOption{ResumeReject("no")}, "nothing to reject"},
	} {
		_, err := rb.Resume(context.Background(), rec, tc.answers, tc.opts...)
		if err == nil || !regexp.MustCompile(regexp.QuoteMeta(tc.want)).MatchString(err.Error()) {
			t.Errorf("%v %d: err = %v, want %q", tc.answers, len(tc.opts), err, tc.want)
		}
	}
	if _, err := rb.Resume(context.Background(), rec, nil); err != nil {
		t.Errorf("the continue itself: %v", err)
	}
}

// TestResumeKeepsDecisionNames: the decisions made before a pause kept
// their path and stage-name path through a resume but lost their name
// ("name", Record.Decisions), so a resumed record was not the record of
// the run that never paused: a Temporal run continued as new after a
// decider showed it (TestContinueAsNew). Resume now carries the name.
func TestResumeKeepsDecisionNames(t *testing.T) {
	t.Parallel()
	rb, rec := pausedFleet(t)
	before := rec.Result.Decisions
	if len(before) == 0 {
		t.Fatal("the paused fleet made no decision before its ask")
	}
	res, err := rb.Resume(context.Background(), rec, map[string]any{"proceed": "true", "note": "ok"}, AnsweredBy("ann"), answerTime)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range before {
		if got := res.Record.Decisions[i]; d.Name == "" || got.Name != d.Name {
			t.Errorf("decision %s: name %q after the resume, %q before", d.Path, got.Name, d.Name)
		}
	}
}
