package temporal_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/openrunbook/runbook/runbook"
	"github.com/openrunbook/runbook/temporal"
)

// historyOf is a run's workflow history, every event.
func historyOf(t *testing.T, ctx context.Context, c client.Client, run *temporal.Run) []*historypb.HistoryEvent {
	t.Helper()
	var events []*historypb.HistoryEvent
	it := c.GetWorkflowHistory(ctx, run.WorkflowID, run.RunID, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, e)
	}
	return events
}

// conformingRun runs chart on Temporal on queue and holds its record to
// the local run's, durations masked.
func conformingRun(t *testing.T, ctx context.Context, c client.Client, queue, chart string) *temporal.Run {
	t.Helper()
	run, err := (&temporal.Executor{Client: c, TaskQueue: queue}).ExecFile(ctx, chart, nil)
	if err != nil {
		t.Fatal(err)
	}
	if local := masked(localRecord(t, chart, nil)); masked(run.Record) != local {
		t.Errorf("the record on Temporal differs from the local one:\n%s", lineDiff(local, masked(run.Record)))
	}
	return run
}

// scheduledCalls are the exec calls each activity of the history carried,
// by its scheduled event's id: one for a runbook.Exec activity, a batch's
// for a runbook.ExecBatch one; other activities are left out.
func scheduledCalls(t *testing.T, events []*historypb.HistoryEvent) map[int64][]runbook.ExecCall {
	t.Helper()
	calls := map[int64][]runbook.ExecCall{}
	dc := converter.GetDefaultDataConverter()
	for _, e := range events {
		a := e.GetActivityTaskScheduledEventAttributes()
		if a == nil {
			continue
		}
		switch a.GetActivityType().GetName() {
		case temporal.ActivityName:
			var call runbook.ExecCall
			if err := dc.FromPayloads(a.GetInput(), &call); err != nil {
				t.Fatal(err)
			}
			calls[e.GetEventId()] = []runbook.ExecCall{call}
		case temporal.BatchActivityName:
			var batch []runbook.ExecCall
			if err := dc.FromPayloads(a.GetInput(), &batch); err != nil {
				t.Fatal(err)
			}
			calls[e.GetEventId()] = batch
		}
	}
	return calls
}

// TestBatchMembersEndOnTheirOwn: a foreach's four exec stages go to the
// worker as one batch activity, whose timeout is its members' (1 s) plus
// the margin, one after another (its heartbeat timeout capped at that); one member exits 3 and one passes its own timeout, and
// neither fails its batch-mates: the record is the local run's, each
// process's own outcome in it.
func TestBatchMembersEndOnTheirOwn(t *testing.T) {
	_, c := server(t, "batch")
	const chart = "testdata/charts/batch.yaml"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run := conformingRun(t, ctx, c, "batch", chart)
	events := historyOf(t, ctx, c, run)
	calls := scheduledCalls(t, events)
	if len(calls) != 1 {
		t.Fatalf("%d exec activities were scheduled (%v), want the foreach's one batch", len(calls), calls)
	}
	for id, batch := range calls {
		var paths []string
		for _, call := range batch {
			paths = append(paths, call.Path)
		}
		if want := "per-item~0/run#1 per-item~1/run#1 per-item~2/run#1 per-item~3/run#1"; strings.Join(paths, " ") != want {
			t.Errorf("the batch carried %q, want %q", paths, want)
		}
		for _, e := range events {
			if e.GetEventId() == id {
				a := e.GetActivityTaskScheduledEventAttributes()
				if got := a.GetStartToCloseTimeout().AsDuration(); got != 4*31*time.Second {
					t.Errorf("the batch's StartToCloseTimeout is %v, want its four members' 1s plus the 30s margin, one after another", got)
				}
				// A minute: under the StartToCloseTimeout, which the
				// server would cap it at.
				if got := a.GetHeartbeatTimeout().AsDuration(); got != time.Minute {
					t.Errorf("the batch's HeartbeatTimeout is %v, want a minute", got)
				}
			}
		}
	}
}

// TestBatchWithholdsPastThePayloadLimit: a batch whose processes print
// more than one activity may return keeps the smallest that fit, and says
// of each other member, in words with its size, that its facts did not
// fit; a member alone comes back whatever its size.
func TestBatchWithholdsPastThePayloadLimit(t *testing.T) {
	print := func(n int) runbook.ExecCall {
		return runbook.ExecCall{Path: fmt.Sprintf("p%d", n), Shell: fmt.Sprintf("head -c %d /dev/zero | tr '\\0' a", n), Timeout: 30 * time.Second}
	}
	ctx := context.Background()
	// As JSON (base64) 1.2 MB, a few dozen bytes, 0.8 MB and 0.93 MB:
	// the two smallest fit in 1.5 MiB, a third would not.
	got, err := temporal.ExecBatchActivity(ctx, []runbook.ExecCall{print(900_000), print(10), print(600_000), print(700_000)})
	if err != nil {
		t.Fatal(err)
	}
	returned := func(i, n int) {
		t.Helper()
		if got[i].Facts == nil || len(got[i].Facts.Stdout) != n {
			t.Errorf("member %d: %+v, want its %d bytes of output back", i, got[i].Withheld, n)
		}
	}
	withheld := func(i int) {
		t.Helper()
		if got[i].Facts != nil || !strings.Contains(got[i].Withheld, "its process ran, but its facts (") || !strings.Contains(got[i].Withheld, "2 MiB payload limit") {
			t.Errorf("member %d: facts %v, words %q, want it withheld in words", i, got[i].Facts != nil, got[i].Withheld)
		}
	}
	returned(1, 10)
	returned(2, 600_000)
	withheld(3)
	withheld(0)

	alone, err := temporal.ExecBatchActivity(ctx, []runbook.ExecCall{print(1_100_000)})
	if err != nil {
		t.Fatal(err)
	}
	if alone[0].Facts == nil || !alone[0].Facts.Truncated {
		t.Errorf("a member alone: %+v, want its facts (past the output cap) back", alone[0].Withheld)
	}
}

// TestConformanceBeyondOneHistory: a foreach of more exec stages than one
// workflow history holds as one activity each (the server ends a history
// at 51,200 events, three an activity) completes on Temporal, in batches,
// and its record is the local run's byte for byte, durations masked.
// RUNBOOK_FLEET_ITEMS sets the count (default 20000; under the race
// detector the test runs only when it is set). The processes run
// on a worker of their own process (runbook-temporal worker, on the queue
// the stage names), as a worker runs beside no server in production: run
// in this process, beside the server and the 20k-branch workflow, the
// runner's pipe readers waited past its drain window and an echo's output
// was lost, 1 to 3 items in 20,000 (docs/SCALE.md).
func TestConformanceBeyondOneHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("a 20k-item run: minutes")
	}
	n := 20000
	v := os.Getenv("RUNBOOK_FLEET_ITEMS")
	if v == "" && raceDetector {
		t.Skip("a 20k-item run under the race detector: set RUNBOOK_FLEET_ITEMS to run it")
	}
	if v != "" {
		if _, err := fmt.Sscan(v, &n); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "fleet.yaml")
	if err := os.WriteFile(path, fmt.Appendf(nil, `version: 1
runbook: fleet
stages:
  - id: per-item
    foreach:
      items: 'map(1..%d, #)'
      as: i
      maxBranches: %d
      stages:
        - {id: probe, exec: {shell: 'echo "$I"', envFrom: {I: i}, env: {RUNBOOK_TASK_QUEUE: fleet-exec}, into: p}}
`, n, n), 0o644); err != nil {
		t.Fatal(err)
	}
	ts, c := server(t, "fleet")
	bin := filepath.Join(t.TempDir(), "runbook-temporal")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/runbook-temporal").CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/runbook-temporal: %v\n%s", err, out)
	}
	w := exec.Command(bin, "worker", "--temporal", ts.GetFrontendHostPort(), "--namespace", ts.GetDefaultNamespace(), "--task-queue", "fleet-exec")
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Process.Signal(syscall.SIGTERM); _ = w.Wait() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	start := time.Now()
	run, err := (&temporal.Executor{Client: c, TaskQueue: "fleet"}).ExecFile(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	start = time.Now()
	local := masked(localRecord(t, path, nil))
	tookLocal := time.Since(start)
	if masked(run.Record) != local {
		t.Errorf("the record on Temporal differs from the local one:\n%s", lineDiff(local, masked(run.Record)))
	}
	d, err := c.DescribeWorkflowExecution(ctx, run.WorkflowID, run.RunID)
	if err != nil {
		t.Fatal(err)
	}
	events := d.GetWorkflowExecutionInfo().GetHistoryLength()
	if events >= 3*int64(n) {
		t.Errorf("the run's history has %d events, want far fewer than three an item", events)
	}
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.BestSpeed) // as the workflow gzips it
	_, _ = zw.Write(run.Record)
	_ = zw.Close()
	t.Logf("%d items: %v on Temporal (%v locally), %d history events (%.1f MiB), a record of %d bytes (%d gzipped)", n, took.Round(time.Second), tookLocal.Round(time.Second),
		events, float64(d.GetWorkflowExecutionInfo().GetHistorySizeBytes())/(1<<20), len(run.Record), z.Len())
}

// TestReplayedBatchHistoryIsBatched: the history TestReplay holds the
// batch path to (batch.json) is one of that path: its foreach's four exec
// stages went in one runbook.ExecBatch activity, after the version marker.
func TestReplayedBatchHistoryIsBatched(t *testing.T) {
	h := recordedHistory(t, "testdata/charts/batch.yaml")
	calls := scheduledCalls(t, h.Events)
	if len(calls) != 1 {
		t.Fatalf("the recorded history has %d exec activities, want one batch", len(calls))
	}
	for _, batch := range calls {
		if len(batch) != 4 {
			t.Errorf("the recorded batch carried %d calls, want the foreach's 4", len(batch))
		}
	}
	marker := false
	for _, e := range h.Events {
		if e.GetMarkerRecordedEventAttributes() != nil {
			marker = true
		}
	}
	if !marker {
		t.Error("the recorded history has no version marker: a replay could not tell it from a run begun before batches")
	}
}

// TestReplayedWideHistoryIsBatched: the history TestReplay holds the
// wide fan-out to (wide.json: 1100 branches on 1000 coroutines) sent each
// item's exec stage once, in batches of at most 100.
func TestReplayedWideHistoryIsBatched(t *testing.T) {
	h := recordedHistory(t, "testdata/charts/wide.yaml")
	seen := map[string]int{}
	for _, batch := range scheduledCalls(t, h.Events) {
		if len(batch) > 100 {
			t.Errorf("a batch carried %d calls, want at most 100", len(batch))
		}
		for _, call := range batch {
			seen[call.Path]++
		}
	}
	for i := range 1100 {
		if p := fmt.Sprintf("per-item~%d/probe#1", i); seen[p] != 1 {
			t.Errorf("%s was sent %d times, want once", p, seen[p])
		}
	}
	if len(seen) != 1100 {
		t.Errorf("%d exec stages were sent, want 1100", len(seen))
	}
}
