package temporal_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openrunbook/runbook/runbook"
	"github.com/openrunbook/runbook/temporal"
	"go.temporal.io/api/enums/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"go.temporal.io/server/temporaltest"
)

// TestTimeoutOnAWorkflowTimer: a run's --timeout on Temporal is a workflow
// timer: the run ends when it fires (cancelled, timed out: a run its
// stages' 30 s let finish would have completed), not when its activities'
// own timeouts pass, with the record of a local run that timed out at the
// same point (the same statuses, script rows and standing), and the
// processes it cancelled are stopped on the worker as locally.
func TestTimeoutOnAWorkflowTimer(t *testing.T) {
	const chart = "testdata/charts/slow.yaml"
	_, c := server(t, "timeout")
	ex := &temporal.Executor{Client: c, TaskQueue: "timeout"}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now() // the marks are looked for once the sleeps would have ended
	marks := t.TempDir()
	onTemporal, local := filepath.Join(marks, "temporal"), filepath.Join(marks, "local")
	run, err := ex.ExecFileWith(ctx, chart, temporal.RunInput{Timeout: 3 * time.Second, Inputs: map[string]any{"mark": onTemporal}})
	if err != nil {
		t.Fatal(err)
	}
	rb, err := runbook.Open(chart)
	if err != nil {
		t.Fatal(err)
	}
	res, err := rb.Exec(ctx, map[string]any{"mark": local}, runbook.WithTimeout(3*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	got, err := run.RunRecord()
	if err != nil {
		t.Fatal(err)
	}
	want := res.Record
	if got.Result.Status != want.Status || got.Result.Status != "cancelled" {
		t.Errorf("status %q; the local run's %q (want cancelled)", got.Result.Status, want.Status)
	}
	if got.Result.Error == nil || want.Error == nil || got.Result.Error.Message != want.Error.Message {
		t.Errorf("error %+v; the local run's %+v", got.Result.Error, want.Error)
	}
	if g, w := got.Result.Assessment.Line, want.Assessment.Line; g != w || !strings.Contains(g, "timed out") {
		t.Errorf("standing line\n  %s\nthe local run's\n  %s\n(want it to say the run timed out)", g, w)
	}
	if g, w := len(got.Result.Scripts), len(want.Scripts); g != w {
		t.Fatalf("%d script rows; the local run has %d", g, w)
	}
	for i := range want.Scripts {
		g, w := got.Result.Scripts[i], want.Scripts[i]
		if g.Path != w.Path || g.Label != w.Label || g.Cause != w.Cause || g.Words != w.Words {
			t.Errorf("script row %d: %s %s (%s); the local run's %s %s (%s)", i, g.Path, g.Label, g.Cause, w.Path, w.Label, w.Cause)
		}
	}
	// The processes were stopped on the worker, as locally: past the time
	// they would have finished, neither touched its mark.
	time.Sleep(time.Until(start.Add(15 * time.Second)))
	for _, mark := range []string{onTemporal, local} {
		if _, err := os.Stat(mark); err == nil {
			t.Errorf("%s was touched: a process the run's timeout cancelled ran to its end", mark)
		}
	}
}

// TestTimeoutAcrossContinues: a run's timeout bounds the whole run, not
// each workflow run of its chain: the deadline is carried through each
// continue-as-new (Continued.Deadline) and the run ends timed out once,
// however many times it continued (a deadline started afresh in each
// workflow run would never fire: each continues within a second or two,
// and the 100,000 passes would outlast the test's two minutes).
// The chain must continue before the timeout, however loaded the machine:
// on one with a load of 20, a first run had not reached 200 history events
// (ContinueAfter, as this test had it) in the timeout's 6 s, and the test
// failed on a chain of one run; a run now continues after a few passes.
func TestTimeoutAcrossContinues(t *testing.T) {
	_, c := server(t, "timeout-continues")
	ex := &temporal.Executor{Client: c, TaskQueue: "timeout-continues", WorkflowID: "poll-timeout"}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	run, err := ex.ExecFileWith(ctx, "testdata/charts/poll.yaml", temporal.RunInput{Inputs: map[string]any{"passes": "100000"},
		ContinueAfter: 40, Timeout: 6 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := run.RunRecord()
	if err != nil {
		t.Fatal(err)
	}
	runs, _, _ := runChain(t, c, run.WorkflowID, run.RunID)
	if len(runs) < 2 {
		t.Fatalf("a chain of %d runs: the test wants the timeout to outlive a continue", len(runs))
	}
	if rec.Result.Status != "cancelled" || rec.Result.Error == nil || !strings.Contains(rec.Result.Error.Message, "context deadline exceeded") {
		t.Errorf("status %s, error %+v; want cancelled by the run's deadline", rec.Result.Status, rec.Result.Error)
	}
}

// TestTimeoutAcrossShortContinues: a run whose workflow runs last a second
// or less continued before its deadline's timer fired, each run timing
// what was left, and a run continued past the deadline started a 1 ns
// timer that did not fire before it continued again: the run went on
// past its 3 s timeout until the test's 40 s ran out. The workflow's clock
// now ends it at the first stage boundary past its deadline, and a run
// continued past it before its first stage; each run of the chain
// replays.
func TestTimeoutAcrossShortContinues(t *testing.T) {
	_, c := server(t, "timeout-short-continues")
	ex := &temporal.Executor{Client: c, TaskQueue: "timeout-short-continues", WorkflowID: "poll-timeout-short"}
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	run, err := ex.ExecFileWith(ctx, "testdata/charts/poll.yaml", temporal.RunInput{Inputs: map[string]any{"passes": "100000"},
		ContinueAfter: 15, Timeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := run.RunRecord()
	if err != nil {
		t.Fatal(err)
	}
	if rec.Result.Status != "cancelled" || rec.Result.Error == nil || !strings.Contains(rec.Result.Error.Message, "context deadline exceeded") {
		t.Errorf("status %s, error %+v; want cancelled by the run's deadline", rec.Result.Status, rec.Result.Error)
	}
	runs, _, _ := runChain(t, c, run.WorkflowID, run.RunID)
	if len(runs) < 2 {
		t.Fatalf("a chain of %d runs: the test wants the timeout to outlive a continue", len(runs))
	}
	for i, id := range runs {
		file := filepath.Join(t.TempDir(), fmt.Sprintf("run%d.json", i+1))
		saveHistory(t, c, run.WorkflowID, id, file)
		r := worker.NewWorkflowReplayer()
		r.RegisterWorkflowWithOptions(temporal.RunWorkflow, workflow.RegisterOptions{Name: temporal.WorkflowName})
		if err := r.ReplayWorkflowHistoryFromJSONFile(nil, file); err != nil {
			t.Errorf("run %d of %d does not replay: %v", i+1, len(runs), err)
		}
	}
}

// TestTimeoutBoundsAWaitForAWorker: a run's --timeout is its workflow's
// timer, which starts when a worker first runs the workflow: on a task
// queue no worker polls (a mistyped --task-queue, a worker not started)
// the run waited without end, whatever its timeout, and a CI job with it.
// The Executor now ends the wait at the timeout: it terminates the
// workflow no worker took, and says so.
func TestTimeoutBoundsAWaitForAWorker(t *testing.T) {
	_, c := server(t, "timeout-worker")
	ex := &temporal.Executor{Client: c, TaskQueue: "nobody-polls-this", WorkflowID: "unclaimed"}
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	run, err := ex.ExecFileWith(ctx, "testdata/charts/poll.yaml", temporal.RunInput{Timeout: 2 * time.Second})
	if err == nil || ctx.Err() != nil || !strings.Contains(err.Error(), `no worker had taken the run from task queue "nobody-polls-this" when its timeout of 2s passed`) {
		t.Fatalf("run %v, err %v; want the wait ended at the timeout, saying no worker took it", run, err)
	}
	d, err := c.DescribeWorkflowExecution(ctx, "unclaimed", "")
	if err != nil {
		t.Fatal(err)
	}
	if s := d.GetWorkflowExecutionInfo().GetStatus(); s != enums.WORKFLOW_EXECUTION_STATUS_TERMINATED {
		t.Errorf("the workflow is %v, want terminated: a worker started later must not run it", s)
	}
}

// TestAWorkerSlowInItsFirstTaskHasTakenTheRun: a worker still inside the
// first attempt of the workflow's first task (a loaded machine, a large
// chart to build) when the timeout passes has taken the run: it is not
// terminated as unclaimed, and its own timer ends it with a record.
func TestAWorkerSlowInItsFirstTaskHasTakenTheRun(t *testing.T) {
	const queue = "slow-first-task"
	c := bareServer(t)
	var slowed atomic.Bool
	startWorker(t, c, queue, func(ctx workflow.Context, in temporal.RunInput) (*temporal.RunOutput, error) {
		if !slowed.Swap(true) {
			time.Sleep(4 * time.Second) // the first task outlasts the run's timeout
		}
		return temporal.RunWorkflow(ctx, in)
	}, temporal.WorkflowName)
	ex := &temporal.Executor{Client: c, TaskQueue: queue, WorkflowID: "slow-first-task"}
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	run, err := ex.ExecFileWith(ctx, "testdata/charts/poll.yaml", temporal.RunInput{Inputs: map[string]any{"passes": "3"}, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatalf("%v; want the run a worker had taken to end by its own timer", err)
	}
	wantTimedOut(t, run)
}

// TestAnOddDescriptionIsNoEvidenceOfNoWorker: the wait for a worker judged
// a run unclaimed while the server described its history as two events
// or fewer. A run several workflow tasks along was once described as one
// event long, with no task pending, and the watch terminated it as "no
// worker had taken the run". (That description was of the chain's next
// run, which the watch should not have asked about at all:
// TestTheClaimWatchedIsTheFirstRunOfTheChain.) The claim is read from the
// history's events, not the description's length: this client describes
// every run so.
func TestAnOddDescriptionIsNoEvidenceOfNoWorker(t *testing.T) {
	_, c := server(t, "odd-description")
	ex := &temporal.Executor{Client: oddDescriber{c}, TaskQueue: "odd-description", WorkflowID: "odd-description"}
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	run, err := ex.ExecFileWith(ctx, "testdata/charts/poll.yaml", temporal.RunInput{Inputs: map[string]any{"passes": "100000"}, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatalf("%v; want the run a worker had taken to end by its own timer", err)
	}
	wantTimedOut(t, run)
}

// TestTheClaimWatchedIsTheFirstRunOfTheChain: the watch for a worker asked
// wr.GetRunID() each time, which names the next run of the chain once
// wr.Get has followed a continue. On CI a run continued past its deadline,
// not yet in its first task, was judged the chain's claim and terminated:
// "no worker had taken the run" over a run three continues along. This
// client answers no description of the first run until the chain has
// continued, so the watch is still on when Get follows; every run it then
// asks about must be the first.
func TestTheClaimWatchedIsTheFirstRunOfTheChain(t *testing.T) {
	_, c := server(t, "watch-first-run")
	lc := &lateDescriber{Client: c}
	ex := &temporal.Executor{Client: lc, TaskQueue: "watch-first-run", WorkflowID: "watch-first-run"}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	run, err := ex.ExecFileWith(ctx, "testdata/charts/poll.yaml", temporal.RunInput{Inputs: map[string]any{"passes": "10"},
		ContinueAfter: 15, Timeout: 50 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := run.RunRecord()
	if err != nil {
		t.Fatal(err)
	}
	if rec.Result.Status != "completed" {
		t.Errorf("status %s, error %+v; want the chain to finish", rec.Result.Status, rec.Result.Error)
	}
	if runs, _, _ := runChain(t, c, run.WorkflowID, run.RunID); len(runs) < 3 {
		t.Fatalf("a chain of %d runs: the test wants Get to follow continues while the watch is on", len(runs))
	}
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if len(lc.asked) == 0 {
		t.Fatal("the watch asked about no run")
	}
	for _, id := range lc.asked {
		if id != lc.first {
			t.Fatalf("the watch asked about run %s; want only the chain's first, %s (asked: %v)", id, lc.first, lc.asked)
		}
	}
}

// lateDescriber does not describe the first run of the workflow it
// started until the workflow has continued as new; it keeps the runs the
// watch asked about.
type lateDescriber struct {
	client.Client
	mu    sync.Mutex
	first string
	asked []string
}

func (l *lateDescriber) ExecuteWorkflow(ctx context.Context, o client.StartWorkflowOptions, wf any, args ...any) (client.WorkflowRun, error) {
	wr, err := l.Client.ExecuteWorkflow(ctx, o, wf, args...)
	if err == nil {
		l.mu.Lock()
		l.first = wr.GetRunID()
		l.mu.Unlock()
	}
	return wr, err
}

func (l *lateDescriber) DescribeWorkflowExecution(ctx context.Context, id, runID string) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
	if runID == "" {
		return l.Client.DescribeWorkflowExecution(ctx, id, runID)
	}
	l.mu.Lock()
	l.asked = append(l.asked, runID)
	first := l.first
	l.mu.Unlock()
	latest, err := l.Client.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return nil, err
	}
	if latest.GetWorkflowExecutionInfo().GetExecution().GetRunId() == first {
		return nil, errors.New("not yet (the test's client)")
	}
	return l.Client.DescribeWorkflowExecution(ctx, id, runID)
}

func (l *lateDescriber) TerminateWorkflow(ctx context.Context, id, runID, reason string, details ...any) error {
	l.mu.Lock()
	l.asked = append(l.asked, runID)
	l.mu.Unlock()
	return l.Client.TerminateWorkflow(ctx, id, runID, reason, details...)
}

// oddDescriber describes every run as the loaded test server once did.
type oddDescriber struct{ client.Client }

func (oddDescriber) DescribeWorkflowExecution(context.Context, string, string) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
	return &workflowservice.DescribeWorkflowExecutionResponse{WorkflowExecutionInfo: &workflowpb.WorkflowExecutionInfo{
		Status: enums.WORKFLOW_EXECUTION_STATUS_RUNNING, HistoryLength: 1}}, nil
}

// TestAWorkerThatCannotRunTheRunIsBoundedByItsTimeout: a worker on the
// queue that fails the workflow's task (another program's worker, a build
// without runbook.Run) made the run's history longer than two events, the
// wait took that for a claim, and the run waited without end, as on a
// queue no worker polls. It is now terminated at its timeout, and the
// error says what the worker said.
func TestAWorkerThatCannotRunTheRunIsBoundedByItsTimeout(t *testing.T) {
	const queue = "another-program"
	c := bareServer(t)
	startWorker(t, c, queue, func(workflow.Context) error { return nil }, "another.Workflow")
	ex := &temporal.Executor{Client: c, TaskQueue: queue, WorkflowID: "not-runnable"}
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	run, err := ex.ExecFileWith(ctx, "testdata/charts/poll.yaml", temporal.RunInput{Timeout: 2 * time.Second})
	if err == nil || ctx.Err() != nil || !strings.Contains(err.Error(), `a worker on task queue "another-program" took the run but could not run it (`) ||
		!strings.Contains(err.Error(), temporal.WorkflowName) {
		t.Fatalf("run %v, err %v; want the wait ended at the timeout, quoting the worker's failure", run, err)
	}
	t.Log(err)
}

// bareServer is a test server with no worker of the project's.
func bareServer(t *testing.T) client.Client {
	t.Helper()
	return temporaltest.NewServer(temporaltest.WithT(t)).GetDefaultClient()
}

// startWorker starts a worker on queue running wf under the name given,
// and the project's exec activities.
func startWorker(t *testing.T, c client.Client, queue string, wf any, name string) {
	t.Helper()
	// Sleeping in a workflow task is the point of one test: the deadlock
	// detector would fail the task and a retry would run it at once.
	w := worker.New(c, queue, worker.Options{DeadlockDetectionTimeout: time.Minute})
	w.RegisterWorkflowWithOptions(wf, workflow.RegisterOptions{Name: name})
	w.RegisterActivityWithOptions(temporal.ExecActivity, activity.RegisterOptions{Name: temporal.ActivityName})
	w.RegisterActivityWithOptions(temporal.ExecBatchActivity, activity.RegisterOptions{Name: temporal.BatchActivityName})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
}

// wantTimedOut: the run ended by its own deadline, with a record.
func wantTimedOut(t *testing.T, run *temporal.Run) {
	t.Helper()
	rec, err := run.RunRecord()
	if err != nil {
		t.Fatal(err)
	}
	if rec.Result.Status != "cancelled" || rec.Result.Error == nil || !strings.Contains(rec.Result.Error.Message, "context deadline exceeded") {
		t.Errorf("status %s, error %+v; want cancelled by the run's deadline", rec.Result.Status, rec.Result.Error)
	}
}
