package temporal_test

import (
	"context"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/worker"

	"github.com/openrunbook/runbook/temporal"
)

// TestPerHostTaskQueue: a foreach over hosts whose exec stage sets
// RUNBOOK_TASK_QUEUE from the item runs each branch's process on the
// worker polling that host's queue, a stage without it on the run's own
// queue, and the record is the local run's.
func TestPerHostTaskQueue(t *testing.T) {
	_, c := server(t, "hosts") // the run's queue: the workflow and the first stage
	for _, q := range []string{"host-a", "host-b"} {
		w := temporal.NewWorker(c, q, worker.Options{Identity: "worker-" + q})
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Stop)
	}
	const chart = "testdata/charts/hosts.yaml"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := (&temporal.Executor{Client: c, TaskQueue: "hosts"}).ExecFile(ctx, chart, nil)
	if err != nil {
		t.Fatal(err)
	}
	if local := masked(localRecord(t, chart, nil)); masked(run.Record) != local {
		t.Errorf("the record on Temporal differs from the local one:\n%s", lineDiff(local, masked(run.Record)))
	}

	queueOf := map[int64]string{} // scheduled event id → its task queue
	ranOn := map[string][]string{}
	it := c.GetWorkflowHistory(ctx, run.WorkflowID, run.RunID, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := e.GetActivityTaskScheduledEventAttributes(); a != nil {
			queueOf[e.GetEventId()] = a.GetTaskQueue().GetName()
		}
		if a := e.GetActivityTaskStartedEventAttributes(); a != nil {
			q := queueOf[a.GetScheduledEventId()]
			ranOn[q] = append(ranOn[q], a.GetIdentity())
		}
	}
	if got := ranOn["host-a"]; len(got) != 2 || got[0] != "worker-host-a" || got[1] != "worker-host-a" {
		t.Errorf("host-a's activities ran on %q, want worker-host-a twice", got)
	}
	if got := ranOn["host-b"]; len(got) != 1 || got[0] != "worker-host-b" {
		t.Errorf("host-b's activities ran on %q, want worker-host-b once", got)
	}
	if got := ranOn["hosts"]; len(got) != 1 || got[0] == "worker-host-a" || got[0] == "worker-host-b" {
		t.Errorf("the run queue's activities ran on %q, want one, on the run queue's worker", got)
	}
	if len(ranOn) != 3 {
		t.Errorf("activities ran on queues %v, want host-a, host-b and hosts only", ranOn)
	}
}
