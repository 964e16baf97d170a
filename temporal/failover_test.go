package temporal_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
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
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	done := startRun(ctx, ex, chart, inputs)

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

// ended is a run's end as a test waits for it.
type ended struct {
	run *temporal.Run
	err error
}

// startRun runs chart on ex in the background: the channel gives its end.
func startRun(ctx context.Context, ex *temporal.Executor, chart string, inputs map[string]any) <-chan ended {
	done := make(chan ended, 1)
	go func() {
		run, err := ex.ExecFile(ctx, chart, inputs)
		done <- ended{run, err}
	}()
	return done
}

// waitForFile polls until a run's process has made path.
func waitForFile(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no process made %s: %v", path, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
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

// TestWorkerLostWhileItsProcessRuns kills (SIGKILL, as a machine dies) the
// worker process running two exec stages' processes, once each has
// heartbeated, and starts another
// worker on its queue: the run goes on within about the heartbeat timeout
// (20 s), not the stages' timeouts (10 min); the stage tried once is
// outcome-unknown, its cause that its worker was lost and its into.error
// naming the worker (pid@host), never completed and never run again; the
// stage with retry: runs its second attempt on the new worker, which
// completes, the record showing both attempts.
func TestWorkerLostWhileItsProcessRuns(t *testing.T) {
	ts := temporaltest.NewServer(temporaltest.WithT(t))
	c := ts.GetDefaultClient()
	dir := t.TempDir()
	t.Cleanup(func() { // the killed worker's processes outlive it
		for _, f := range []string{"once.pid", "retried.pid"} {
			if b, err := os.ReadFile(filepath.Join(dir, f)); err == nil {
				if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
			}
		}
	})
	run := temporal.NewWorker(c, "lost-run") // the workflow
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	defer run.Stop()
	host := command(t, "worker", "--temporal", ts.GetFrontendHostPort(), "--namespace", ts.GetDefaultNamespace(), "--task-queue", "lost-host")

	ex := &temporal.Executor{Client: c, TaskQueue: "lost-run", WorkflowID: "lost-run"}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	done := startRun(ctx, ex, "testdata/charts/lost.yaml", map[string]any{"dir": dir})
	for _, f := range []string{"once.pid", "retried.pid"} { // both processes run
		waitForFile(t, ctx, filepath.Join(dir, f))
	}
	// and each has heartbeated once (5 s in), so the server knows whose
	// they are.
	// (Both processes may run in one batch activity: every pending
	// activity has heartbeated.)
	for beat, pending := 0, 0; beat == 0 || beat < pending; {
		d, err := c.DescribeWorkflowExecution(ctx, "lost-run", "")
		if err != nil {
			t.Fatal(err)
		}
		beat, pending = 0, len(d.GetPendingActivities())
		for _, a := range d.GetPendingActivities() {
			if a.GetHeartbeatDetails() != nil {
				beat++
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the activities never heartbeated: %v", ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
	lostName := fmt.Sprintf("%d@", host.Process.Pid)
	if err := host.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = host.Wait()
	killed := time.Now()
	next := temporal.NewWorker(c, "lost-host")
	if err := next.Start(); err != nil {
		t.Fatal(err)
	}
	defer next.Stop()

	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	// It ended inside ctx's 3 minutes, so on the heartbeat timeout (20 s
	// alone, a minute in a batch), not the stages' 10-minute timeouts.
	t.Logf("the run ended %v after its worker was killed", time.Since(killed).Round(time.Millisecond))
	rec, err := r.run.RunRecord()
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	causes := map[string][]string{}
	for _, row := range rec.Result.Scripts {
		id := row.Path[strings.LastIndex(row.Path, "/")+1:]
		rows[id] = append(rows[id], string(row.Label))
		causes[id] = append(causes[id], row.Cause)
	}
	if got := strings.Join(rows["once"], " "); got != "outcome-unknown" || causes["once"][0] != "its worker was lost" {
		t.Errorf("stage once: rows %q causes %q, want one outcome-unknown row, its worker was lost", got, causes["once"])
	}
	if got := strings.Join(rows["retried"], " "); got != "outcome-unknown completed" || causes["retried"][0] != "its worker was lost" {
		t.Errorf("stage retried: rows %q causes %q, want outcome-unknown (its worker was lost) then completed", got, causes["retried"])
	}
	want := "the worker running the process was lost: no heartbeat from worker " + lostName
	if !strings.Contains(string(r.run.Record), want) {
		t.Errorf("the record does not name the lost worker (%q):\n%s", want, r.run.Record)
	}
	if !strings.Contains(string(r.run.Record), `"stdout": "second\n"`) {
		t.Errorf("the retried stage's second attempt did not complete:\n%s", r.run.Record)
	}
	// A worker that takes the run over replays the lost attempts as they
	// were filed (the workerLost marker where it was written).
	h := &historypb.History{}
	it := c.GetWorkflowHistory(ctx, "lost-run", r.run.RunID, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		h.Events = append(h.Events, e)
	}
	rp := worker.NewWorkflowReplayer()
	rp.RegisterWorkflowWithOptions(temporal.RunWorkflow, workflow.RegisterOptions{Name: temporal.WorkflowName})
	if err := rp.ReplayWorkflowHistory(nil, h); err != nil {
		t.Errorf("the run's history does not replay: %v", err)
	}
}

// TestWorkerStoppedWhileItsProcessRuns: a worker told to stop (as
// SIGTERM stops runbook-temporal worker) while its process runs stops the
// process and says so at once: the stage is outcome-unknown, its worker
// lost, the record saying the worker stopped — not found gone by a missed
// heartbeat; never "cancelled", which would say the run was cancelled.
func TestWorkerStoppedWhileItsProcessRuns(t *testing.T) {
	ts := temporaltest.NewServer(temporaltest.WithT(t))
	c := ts.GetDefaultClient()
	dir := t.TempDir()
	run := temporal.NewWorker(c, "stop-run")
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	defer run.Stop()
	host := temporal.NewWorker(c, "stop-host")
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	done := startRun(ctx, &temporal.Executor{Client: c, TaskQueue: "stop-run"}, "testdata/charts/stopped.yaml", map[string]any{"dir": dir})
	waitForFile(t, ctx, filepath.Join(dir, "started"))
	stopped := time.Now()
	host.Stop()
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	t.Logf("the run ended %v after its worker was told to stop", time.Since(stopped).Round(time.Millisecond))
	rec, err := r.run.RunRecord()
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Result.Scripts) != 1 || rec.Result.Scripts[0].Label != "outcome-unknown" || rec.Result.Scripts[0].Cause != "its worker was lost" {
		t.Errorf("rows %+v, want one outcome-unknown row, its worker was lost", rec.Result.Scripts)
	}
	want := fmt.Sprintf("the worker running the process was lost: worker %d@", os.Getpid())
	// The worker said it stopped: the run did not wait for the heartbeat
	// timeout to find it gone (that says "no heartbeat from worker").
	if !strings.Contains(string(r.run.Record), want) || !strings.Contains(string(r.run.Record), "stopped while the process ran") ||
		strings.Contains(string(r.run.Record), "no heartbeat") {
		t.Errorf("the record does not say the worker stopped (%q), or says a heartbeat was missed:\n%s", want, r.run.Record)
	}
}
