package temporal_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/openrunbook/runbook/temporal"
)

// runChain is the chain of runs of the workflow that runID belongs to,
// first to last, read from each run's history: a run that continued as
// new names the next. Each run's history length comes with it, and the
// last run's last event.
func runChain(t testing.TB, c client.Client, workflowID, runID string) (runs []string, events []int, last enums.EventType) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := c.DescribeWorkflowExecution(ctx, workflowID, runID)
	if err != nil {
		t.Fatal(err)
	}
	for runID := d.GetWorkflowExecutionInfo().GetFirstRunId(); runID != ""; {
		runs = append(runs, runID)
		it := c.GetWorkflowHistory(ctx, workflowID, runID, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		n, next := 0, ""
		for it.HasNext() {
			e, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			n++
			last = e.GetEventType()
			if a := e.GetWorkflowExecutionContinuedAsNewEventAttributes(); a != nil {
				next = a.GetNewExecutionRunId()
			}
		}
		events = append(events, n)
		runID = next
	}
	return runs, events, last
}

// readChart is a chart's bytes, for an Executor.Exec with a RunInput.
func readChart(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestContinueAsNew: a loop whose body runs a process each pass, with a
// history threshold small enough that its workflow continues as new
// several times, leaves the local run's record byte for byte (timings
// masked). The workflow's history shows the chain: each run but the last
// ended ContinuedAsNew, none grew far past the threshold, and the
// Executor waited for the last run, as a client waiting on the workflow
// id alone does (GetWorkflow with no run id follows the chain).
func TestContinueAsNew(t *testing.T) {
	_, c := server(t, "continue")
	ex := &temporal.Executor{Client: c, TaskQueue: "continue", WorkflowID: "poll-continues"}
	const chart = "testdata/charts/poll.yaml"
	in := map[string]any{"passes": "40"}
	const after = 100
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	run, err := ex.ExecFileWith(ctx, chart, temporal.RunInput{Inputs: in, ContinueAfter: after})
	if err != nil {
		t.Fatal(err)
	}
	local := masked(localRecord(t, chart, in))
	if got := masked(run.Record); got != local {
		t.Fatalf("the record on Temporal differs from the local one:\n%s", lineDiff(local, got))
	}
	runs, events, last := runChain(t, c, run.WorkflowID, run.RunID)
	if len(runs) < 4 || last != enums.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED {
		t.Fatalf("a chain of %d runs (%v events), the last ending %v; want at least 4, the last completed", len(runs), events, last)
	}
	if run.RunID != runs[len(runs)-1] {
		t.Errorf("the Executor's run is %s, not the chain's last run %s", run.RunID, runs[len(runs)-1])
	}
	for i, n := range events[:len(events)-1] {
		// A run continues at its first boundary past the threshold: one
		// pass of the loop at most (two processes, a few dozen events).
		if n < after || n > after+40 {
			t.Errorf("run %d of the chain had %d events; want it to continue soon past %d", i+1, n, after)
		}
	}
	var out temporal.RunOutput
	if err := c.GetWorkflow(ctx, run.WorkflowID, "").Get(ctx, &out); err != nil || masked(out.Record) != local {
		t.Errorf("the workflow's own result (err %v) is not the run's record", err)
	}
	t.Logf("a chain of %d runs, their history lengths %v", len(runs), events)
}

// TestAskAfterContinue: a run that continues as new before it asks waits
// for its answer in the chain's last run, where the Executor finds it by
// the workflow id; the answer, checked and signalled as ever, goes on
// with a run that continues as new again, and every record it leaves is
// the one a local run and `runbook resume` leave.
func TestAskAfterContinue(t *testing.T) {
	_, c := server(t, "continue-ask")
	ex := &temporal.Executor{Client: c, TaskQueue: "continue-ask", WorkflowID: "poll-ask"}
	const chart = "testdata/charts/poll-ask.yaml"
	in := map[string]any{"passes": "12"}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	run, err := ex.ExecFileWith(ctx, chart, temporal.RunInput{Inputs: in, ContinueAfter: 40})
	if err != nil {
		t.Fatal(err)
	}
	if !run.Paused {
		t.Fatal("the run did not wait for its answer")
	}
	local := localRecord(t, chart, in)
	sameRecord(t, "paused after continuing", local, run)
	before, _, _ := runChain(t, c, run.WorkflowID, run.RunID)
	if len(before) < 2 {
		t.Fatalf("the run asked in the first run of its chain (%d runs): the test continues nothing", len(before))
	}

	a := temporal.Answer{Answers: map[string]any{"more": "12"}, By: "ann", At: answeredAt}
	done, err := ex.Answer(ctx, run.WorkflowID, a)
	if err != nil {
		t.Fatal(err)
	}
	want, err := localResume(t, chart, local, a)
	if err != nil {
		t.Fatal(err)
	}
	if done.Paused {
		t.Fatal("the answered run still waits")
	}
	sameRecord(t, "answered, continued again", want, done)
	after, _, last := runChain(t, c, run.WorkflowID, run.RunID)
	if len(after) <= len(before) || last != enums.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED {
		t.Errorf("the answered run continued as new %d times more (want at least one) and ended %v", len(after)-len(before), last)
	}
}

// continuedChart is the chart whose recorded chain of workflow runs
// TestReplayContinued holds the workflow code to: a loop that continued
// as new twice (ContinueAfter 40), each run's history in its own file.
const continuedChart = "testdata/charts/poll.yaml"

var continuedInputs = map[string]any{"passes": "10"}

func chainFile(i int) string {
	return filepath.Join("testdata", "history", fmt.Sprintf("poll.run%d.json", i))
}

// TestReplayContinued replays each run of a recorded chain: the first
// (started by the Executor, ended by continue-as-new at a history length
// past its threshold), the middle one (started from the run so far) and
// the last (completed). A change to where or whether a run continues, or
// to what the next run is given, fails here. -update records the chain
// anew.
func TestReplayContinued(t *testing.T) {
	if *update {
		recordChain(t)
	}
	files, err := filepath.Glob(filepath.Join("testdata", "history", "poll.run*.json"))
	if err != nil || len(files) < 3 {
		t.Fatalf("want a recorded chain of at least 3 runs, found %v (%v)", files, err)
	}
	for i := range files {
		t.Run(filepath.Base(chainFile(i+1)), func(t *testing.T) {
			r := worker.NewWorkflowReplayer()
			r.RegisterWorkflowWithOptions(temporal.RunWorkflow, workflow.RegisterOptions{Name: temporal.WorkflowName})
			if err := r.ReplayWorkflowHistoryFromJSONFile(nil, chainFile(i+1)); err != nil {
				t.Fatalf("the workflow no longer replays its recorded history: %v", err)
			}
		})
	}
	// The recorded chain did continue: every run but the last ended so.
	for i := range files {
		f, err := os.Open(chainFile(i + 1))
		if err != nil {
			t.Fatal(err)
		}
		h, err := client.HistoryFromJSON(f, client.HistoryJSONOptions{})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		end := h.Events[len(h.Events)-1].GetEventType()
		want := enums.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW
		if i == len(files)-1 {
			want = enums.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED
		}
		if end != want {
			t.Errorf("run %d of the recorded chain ended %v, want %v", i+1, end, want)
		}
	}
}

// recordChain runs continuedChart on the embedded server with a small
// threshold and saves each run's history of its chain as JSON.
func recordChain(t *testing.T) {
	_, c := server(t, "replay-chain")
	ex := &temporal.Executor{Client: c, TaskQueue: "replay-chain"}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := ex.Exec(ctx, temporal.RunInput{File: continuedChart, Chart: readChart(t, continuedChart), Inputs: continuedInputs, ContinueAfter: 40})
	if err != nil {
		t.Fatal(err)
	}
	old, _ := filepath.Glob(filepath.Join("testdata", "history", "poll.run*.json"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	runs, _, _ := runChain(t, c, run.WorkflowID, run.RunID)
	for i, runID := range runs {
		saveHistory(t, c, run.WorkflowID, runID, chainFile(i+1))
	}
}

// saveHistory saves the history of one workflow run as JSON, as the
// replayer reads it.
func saveHistory(t testing.TB, c client.Client, workflowID, runID, file string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h := &historypb.History{}
	it := c.GetWorkflowHistory(ctx, workflowID, runID, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		h.Events = append(h.Events, e)
	}
	b, err := protojson.MarshalOptions{Multiline: true, Indent: "  "}.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReplayContinuedRefusesARunThatWouldNotContinue is TestReplayContinued's
// teeth: the same workflow given a threshold its history never reaches
// goes on with the next stage where the recorded run continued as new,
// and the replayer refuses it.
func TestReplayContinuedRefusesARunThatWouldNotContinue(t *testing.T) {
	never := func(ctx workflow.Context, in temporal.RunInput) (*temporal.RunOutput, error) {
		in.ContinueAfter = 1 << 30
		return temporal.RunWorkflow(ctx, in)
	}
	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflowWithOptions(never, workflow.RegisterOptions{Name: temporal.WorkflowName})
	quiet := log.NewStructuredLogger(slog.New(slog.DiscardHandler))
	if err := r.ReplayWorkflowHistoryFromJSONFile(quiet, chainFile(1)); err == nil {
		t.Fatal("the replayer accepted a run that did not continue as new where the recorded one did")
	}
}

// TestContinueTooLargeToCarry: a run whose record so far is, even
// gzipped, more than a workflow may carry into its next run fails there
// in words that name its size and the limit, not in Temporal's own.
func TestContinueTooLargeToCarry(t *testing.T) {
	_, c := server(t, "continue-large")
	ex := &temporal.Executor{Client: c, TaskQueue: "continue-large"}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, err := ex.Exec(ctx, temporal.RunInput{File: "noise.yaml", ContinueAfter: 60, Chart: []byte(`version: 1
runbook: noise-loop
stages:
  - id: seed
    set: {n: "0"}
  - id: noise
    exec: {shell: 'head -c 150000 /dev/urandom | base64 -w0', into: noise}
  - id: count
    set: {n: n + 1}
  - id: again
    loop: {to: noise, while: n < 16, max: 16}
`)})
	if err == nil || !regexp.MustCompile(`the run so far is a record of [0-9]+ bytes, [0-9]+ with its chart as the next workflow run would take them, more than a workflow may carry into its next run on Temporal \(its payload limit, 2 MiB\)`).MatchString(err.Error()) {
		t.Fatalf("err = %v, want the run's size and the payload limit named", err)
	}
}
