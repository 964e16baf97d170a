package temporal_test

import (
	"context"
	"testing"
	"time"

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
	run := conformingRun(t, ctx, c, "hosts", chart)

	// Each process's queue and the worker that ran it: the calls an
	// activity carried (a batch's, or one), on the queue it was scheduled
	// on, run by the worker that started it.
	events := historyOf(t, ctx, c, run)
	calls := scheduledCalls(t, events)
	queueOf := map[int64]string{} // scheduled event id → its task queue
	ranOn := map[string][]string{}
	for _, e := range events {
		if a := e.GetActivityTaskScheduledEventAttributes(); a != nil {
			queueOf[e.GetEventId()] = a.GetTaskQueue().GetName()
		}
		if a := e.GetActivityTaskStartedEventAttributes(); a != nil {
			q := queueOf[a.GetScheduledEventId()]
			for _, call := range calls[a.GetScheduledEventId()] {
				if call.Env[temporal.QueueEnv] != "" && call.Env[temporal.QueueEnv] != q {
					t.Errorf("%s names queue %q and was scheduled on %q", call.Path, call.Env[temporal.QueueEnv], q)
				}
				ranOn[q] = append(ranOn[q], a.GetIdentity())
			}
		}
	}
	if got := ranOn["host-a"]; len(got) != 2 || got[0] != "worker-host-a" || got[1] != "worker-host-a" {
		t.Errorf("host-a's processes ran on %q, want worker-host-a twice", got)
	}
	if got := ranOn["host-b"]; len(got) != 1 || got[0] != "worker-host-b" {
		t.Errorf("host-b's processes ran on %q, want worker-host-b once", got)
	}
	if got := ranOn["hosts"]; len(got) != 1 || got[0] == "worker-host-a" || got[0] == "worker-host-b" {
		t.Errorf("the run queue's processes ran on %q, want one, on the run queue's worker", got)
	}
	if len(ranOn) != 3 {
		t.Errorf("processes ran on queues %v, want host-a, host-b and hosts only", ranOn)
	}
}
