package temporal_test

import (
	"context"
	"flag"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/openrunbook/runbook/temporal"
)

var update = flag.Bool("update", false, "record the replay test's workflow histories anew (on the embedded server)")

// replayed are the charts whose recorded workflow histories the replay test
// holds the workflow code to.
var replayed = []string{"testdata/charts/foreach.yaml", "testdata/charts/reads.yaml", "testdata/charts/ask.yaml", "testdata/charts/batch.yaml", "testdata/charts/wide.yaml", "testdata/charts/clock.yaml"}

// preBatch are the histories recorded by the code before exec stages went
// to the workers in batches (one activity a stage): they hold a run begun
// then to the path it began on, so -update leaves them as they are.
var preBatch = map[string]bool{"testdata/charts/foreach.yaml": true, "testdata/charts/reads.yaml": true, "testdata/charts/ask.yaml": true}

// replayAnswers are the signals a replayed chart's run was answered by, in
// order: for the run that asks, an answer the workflow refuses (sent past
// the Executor's check), then the two it takes.
var replayAnswers = map[string][]temporal.Answer{
	"testdata/charts/ask.yaml": {
		{Answers: map[string]any{"approve": "maybe"}, By: "eve", At: answeredAt},
		{Answers: map[string]any{"approve": "true"}, By: "ann", At: answeredAt},
		{Answers: map[string]any{"count": "3"}, By: "ann", At: answeredAt},
	},
}

func historyFile(chart string) string {
	return filepath.Join("testdata", "history", strings.TrimSuffix(filepath.Base(chart), ".yaml")+".json")
}

// TestReplay holds the workflow code to the histories of runs it made
// before: a change that would make a run in flight take another path on
// its next worker (the chart walked in another order, an activity more or
// less) fails here, not in production. -update records them anew.
func TestReplay(t *testing.T) {
	if *update {
		recordHistories(t)
	}
	for _, chart := range replayed {
		t.Run(filepath.Base(chart), func(t *testing.T) {
			r := worker.NewWorkflowReplayer()
			r.RegisterWorkflowWithOptions(temporal.RunWorkflow, workflow.RegisterOptions{Name: temporal.WorkflowName})
			if err := r.ReplayWorkflowHistoryFromJSONFile(nil, historyFile(chart)); err != nil {
				t.Fatalf("the workflow no longer replays its recorded history: %v", err)
			}
		})
	}
}

// TestReplayRefusesChangedCode is TestReplay's teeth: workflow code that
// does one thing more than the recorded run (here a timer before the
// chart starts) is refused by the replayer.
func TestReplayRefusesChangedCode(t *testing.T) {
	changed := func(ctx workflow.Context, in temporal.RunInput) (*temporal.RunOutput, error) {
		if err := workflow.Sleep(ctx, time.Second); err != nil {
			return nil, err
		}
		return temporal.RunWorkflow(ctx, in)
	}
	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflowWithOptions(changed, workflow.RegisterOptions{Name: temporal.WorkflowName})
	// The SDK logs the refusal with its stack; the test says it in a line.
	quiet := log.NewStructuredLogger(slog.New(slog.DiscardHandler))
	if err := r.ReplayWorkflowHistoryFromJSONFile(quiet, historyFile(replayed[0])); err == nil {
		t.Fatal("the replayer accepted workflow code that starts a timer the recorded run never started")
	}
}

// recordHistories runs each replayed chart (but the preBatch ones) on the
// embedded server and saves its workflow's history as JSON.
func recordHistories(t *testing.T) {
	_, c := server(t, "replay")
	ex := &temporal.Executor{Client: c, TaskQueue: "replay"}
	for _, chart := range replayed {
		if preBatch[chart] {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		run, err := ex.ExecFile(ctx, chart, nil)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		for _, a := range replayAnswers[chart] {
			if err := c.SignalWorkflow(ctx, run.WorkflowID, "", temporal.AnswerSignal, a); err != nil {
				cancel()
				t.Fatal(err)
			}
		}
		if err := c.GetWorkflow(ctx, run.WorkflowID, run.RunID).Get(ctx, nil); err != nil {
			cancel()
			t.Fatal(err)
		}
		cancel()
		saveHistory(t, c, run.WorkflowID, run.RunID, historyFile(chart))
	}
}

// TestForeachActivitiesStartTogether reads the recorded history (which
// TestReplay holds the code to): the foreach's four exec stages were
// scheduled by one workflow task, so their processes ran at once on the
// workers — the branches are workflow coroutines, not a loop.
func TestForeachActivitiesStartTogether(t *testing.T) {
	h := recordedHistory(t, "testdata/charts/foreach.yaml")
	byTask := map[int64]int{}
	most := 0
	for _, e := range h.Events {
		if a := e.GetActivityTaskScheduledEventAttributes(); a != nil {
			byTask[a.WorkflowTaskCompletedEventId]++
			most = max(most, byTask[a.WorkflowTaskCompletedEventId])
		}
	}
	if most != 4 {
		t.Errorf("at most %d activities were scheduled by one workflow task (%v), want the foreach's 4", most, byTask)
	}
}

// recordedHistory is the history TestReplay holds the code to for chart
// (testdata/history), for tests that read what the run did.
func recordedHistory(t *testing.T, chart string) *historypb.History {
	t.Helper()
	f, err := os.Open(historyFile(chart))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, err := client.HistoryFromJSON(f, client.HistoryJSONOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return h
}
