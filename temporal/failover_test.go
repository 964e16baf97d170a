package temporal_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/server/temporaltest"

	"github.com/openrunbook/runbook/temporal"
)

// TestWorkerReplacedMidRun stops the only worker while a run waits out a
// retry delay and starts another, with an empty workflow cache, so the
// second worker rebuilds the run by replaying its history: the run
// completes, each process ran exactly as often as the record shows it
// (the failed attempt once, the retry once, the next stage once), the
// workflow tasks after the delay were the second worker's, and the record
// is the local run's.
func TestWorkerReplacedMidRun(t *testing.T) {
	ts := temporaltest.NewServer(temporaltest.WithT(t))
	c := ts.GetDefaultClient()
	const chart = "testdata/charts/failover.yaml"
	dir := t.TempDir()
	inputs := map[string]any{"dir": dir}

	local := masked(localRecord(t, chart, inputs))
	for _, f := range []string{"runs", "once"} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}

	a := temporal.NewWorker(c, "failover", worker.Options{Identity: "worker-a"})
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	ex := &temporal.Executor{Client: c, TaskQueue: "failover", WorkflowID: "failover-run"}
	type result struct {
		run *temporal.Run
		err error
	}
	done := make(chan result, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	go func() {
		run, err := ex.ExecFile(ctx, chart, inputs)
		done <- result{run, err}
	}()

	// The first attempt has failed and the workflow waits on the retry's
	// timer: no activity is in flight.
	waitForEvent(t, ctx, c, "failover-run", enums.EVENT_TYPE_TIMER_STARTED)
	a.Stop()
	worker.PurgeStickyWorkflowCache()
	b := temporal.NewWorker(c, "failover", worker.Options{Identity: "worker-b"})
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	defer b.Stop()

	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := masked(r.run.Record); got != local {
		t.Errorf("the record of the run that changed workers differs from the local one:\n%s", lineDiff(local, got))
	}
	runs, err := os.ReadFile(filepath.Join(dir, "runs"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Fields(string(runs)); strings.Join(got, " ") != "flaky flaky after" {
		t.Errorf("the processes that ran: %q, want flaky flaky after (each once as the record shows it)", got)
	}
	// Who completed what: worker-a up to the timer, worker-b after it.
	var after []string
	timer := false
	it := c.GetWorkflowHistory(ctx, "failover-run", r.run.RunID, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if e.GetEventType() == enums.EVENT_TYPE_TIMER_FIRED {
			timer = true
		}
		if a := e.GetWorkflowTaskCompletedEventAttributes(); a != nil && timer {
			after = append(after, a.GetIdentity())
		}
	}
	if len(after) == 0 || strings.Count(strings.Join(after, " "), "worker-b") != len(after) {
		t.Errorf("workflow tasks after the timer were completed by %q, want worker-b only", after)
	}
}

// waitForEvent polls the workflow's history until an event of type typ is
// in it.
func waitForEvent(t *testing.T, ctx context.Context, c client.Client, id string, typ enums.EventType) {
	t.Helper()
	for {
		it := c.GetWorkflowHistory(ctx, id, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			e, err := it.Next()
			if err != nil {
				break // not started yet
			}
			if e.GetEventType() == typ {
				return
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no %s event in workflow %s: %v", typ, id, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}
