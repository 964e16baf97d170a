package temporal

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
)

// Executor runs charts on Temporal: each run one workflow on TaskQueue,
// run by the workers there (NewWorker).
type Executor struct {
	Client    client.Client
	TaskQueue string // DefaultTaskQueue when ""
	// WorkflowID names the workflow of a run; "" lets Temporal choose.
	WorkflowID string
	// SecretsEncrypted says the client's data converter encrypts payloads
	// (a Temporal payload codec: codec.DataConverter, or one of your own).
	// A run's inputs, and the secret values its
	// commands' output is masked by, are stored in the workflow's history:
	// without it, a chart that declares a secret input is refused.
	SecretsEncrypted bool
}

// Run is one run on Temporal: the workflow that ran it and its run record.
type Run struct {
	WorkflowID, RunID string
	// Record is the run record's bytes, as a local run saves them
	// (runbook.Result.WriteRecord).
	Record []byte
	// Paused says the run waits at an ask: stage for an answer
	// (Executor.Answer); Record is then the paused record.
	Paused bool
	// Chart is the chart the run was started with, when the caller did
	// not have it (a run answered by Executor.Answer): the file's name
	// and bytes and the charts it mounts, as RunInput carries them.
	Chart *RunChart `json:",omitempty"`
}

// RunChart is the chart a run was started with: what `runbook resume
// --executor temporal` prints a continued run with (its result.nagios,
// its scripts' keys). runbook-temporal resume --save-chart writes it as
// JSON.
type RunChart struct {
	File    string
	Chart   []byte
	Sources map[string][]byte `json:",omitempty"`
}

// RunRecord reads the run's record.
func (r *Run) RunRecord() (*record.RunRecord, error) {
	rec, problems, err := record.ParseRecord(r.Record)
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("the run record from Temporal: %s", problems[0])
	}
	return rec, nil
}

// ExecFile runs the chart at path with inputs on Temporal and waits for
// its record. The chart is read here and sent whole, so a worker needs no
// copy of it.
func (e *Executor) ExecFile(ctx context.Context, path string, inputs map[string]any) (*Run, error) {
	return e.ExecFileWith(ctx, path, RunInput{Inputs: inputs})
}

// ExecFileWith is ExecFile with the rest of a RunInput (row cap,
// narrative, resume command); its File and Chart are path's.
func (e *Executor) ExecFileWith(ctx context.Context, path string, in RunInput) (*Run, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) > chart.MaxChartBytes {
		return nil, fmt.Errorf("%s: %d bytes, more than a chart may be (%d)", path, len(b), chart.MaxChartBytes)
	}
	// The chart's name goes absolute: a worker reads a read: stage's
	// relative path from the chart's folder, and "rel.yaml" would name its
	// own working folder, not the one the chart is in here (a missing file
	// there is an answer, exists: false, not an error).
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	in.File, in.Chart = abs, b
	return e.Exec(ctx, in)
}

// Exec starts one run's workflow and waits for its record, or, when the
// run pauses at an ask: stage, for its paused record (Run.Paused): the
// workflow then waits for Answer. The error is
// the run's failing to start or to finish (a chart that does not load and
// inputs refused, both said before any workflow starts; a worker that
// never answered), never a run that failed: that is the record's status.
func (e *Executor) Exec(ctx context.Context, in RunInput) (*Run, error) {
	// The chart and the inputs are checked here, as a local run checks
	// them, so a refusal is said before any workflow starts.
	spec, err := chart.Parse(in.File, in.Chart, in.loadOptions()...)
	if err != nil {
		return nil, err
	}
	rb, err := runbook.Build(spec)
	if err != nil {
		return nil, err
	}
	if in.Sources == nil {
		// The charts it mounts go with it: a worker may not have them, or
		// have others by the same names.
		if in.Sources, err = rb.SubflowFiles(); err != nil {
			return nil, err
		}
	}
	if _, err := rb.PlanInputs(in.Inputs); err != nil {
		return nil, err
	}
	if in.Zone == nil {
		if in.Zone, err = LocalZone(); err != nil {
			return nil, err
		}
	}
	if _, err := in.Zone.location(); err != nil {
		return nil, err
	}
	if in.Timeout < 0 {
		return nil, fmt.Errorf("a run timeout of %s: want a positive duration, or 0 for none (RunInput.Timeout)", in.Timeout)
	}
	if in.MaxRows < 0 {
		return nil, fmt.Errorf("a row cap of %d: want a whole number of rows ≥ 1, or 0 for the chart's own (RunInput.MaxRows)", in.MaxRows)
	}
	if !e.SecretsEncrypted {
		if where := rb.SecretCarrier(); where != "" {
			return nil, fmt.Errorf("%s: %s, and on Temporal a run's inputs and secret values are stored in the workflow's history: give runbook-temporal --codec-key FILE (from Go: a client with codec.DataConverter, and Executor.SecretsEncrypted set; docs/SCALE.md)", in.File, where)
		}
	}
	wr, err := e.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: e.WorkflowID, TaskQueue: queue(e.TaskQueue)}, WorkflowName, in)
	if err != nil {
		return nil, fmt.Errorf("start the run on Temporal: %w", err)
	}
	if in.Timeout <= 0 {
		return e.wait(ctx, wr, 0)
	}
	unclaimed := e.watchClaim(ctx, wr, in.Timeout)
	run, err := e.wait(ctx, wr, 0)
	if why := unclaimed(); why != nil {
		return nil, why
	}
	return run, err
}

// watchClaim ends a run no worker takes within its timeout. The run's
// timeout is its workflow's timer (deadline.go), which the workflow sets
// in its first workflow task: until a worker completes that task nothing
// bounds the run, and on a task queue no worker polls (a mistyped
// --task-queue, a worker not started) or whose worker cannot run the
// workflow (another program's worker, a build without runbook.Run) the
// run would wait without end, whatever its timeout. Every pollPaused it
// asks the server how far the workflow got (claimOf); when the timeout
// passes first, it terminates the workflow, so a worker started later
// never runs it. The func it returns stops the watch and, when it
// terminated the run, says why in the user's words.
//
// The watch is of the chain's first run, read once here: wr.GetRunID()
// moves to the next run as wr.Get follows a continue, and a watch that
// asked it each time judged a run continued past its deadline, not yet
// in its first task, as the chain, and terminated a run well under way
// (TestTheClaimWatchedIsTheFirstRunOfTheChain).
func (e *Executor) watchClaim(ctx context.Context, wr client.WorkflowRun, timeout time.Duration) (unclaimed func() error) {
	ctx, cancel := context.WithCancel(ctx)
	deadline := time.Now().Add(timeout)
	first := execution{id: wr.GetID(), run: wr.GetRunID()}
	var why error
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(pollPaused)
		defer tick.Stop()
		for {
			c, err := e.claimOf(ctx, first)
			// A question the server did not answer is no evidence: the
			// watch asks again rather than ending a run on it.
			if err == nil && (c.taken || c.ended) {
				return // its own timer bounds it now, or nothing need
			}
			if err == nil && time.Now().After(deadline) && !c.working {
				reason := fmt.Sprintf("no worker ran the run's first step within its timeout of %s", timeout)
				if e.Client.TerminateWorkflow(ctx, first.id, first.run, reason) == nil {
					why = e.unclaimedError(ctx, first, timeout)
				}
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	return func() error {
		cancel()
		<-done
		return why
	}
}

// execution names one run of a workflow.
type execution struct{ id, run string }

// claim is how far a workflow got with its first step.
type claim struct {
	// taken: a worker completed a workflow task (the run's timer is set).
	taken bool
	// ended: the run is no longer running.
	ended bool
	// working: a worker is inside the first attempt of the first task now;
	// one slow to build a large chart on a loaded machine is given the
	// time to finish it, as its own timer then ends the run with a record.
	working bool
	// failed: why the worker's last attempt at a task failed, if one did.
	failed string
}

// claimOf reads the claim from the run's history, the server's lasting
// account, not from the size its description gives
// (TestAnOddDescriptionIsNoEvidenceOfNoWorker).
func (e *Executor) claimOf(ctx context.Context, ex execution) (claim, error) {
	d, err := e.Client.DescribeWorkflowExecution(ctx, ex.id, ex.run)
	if err != nil {
		return claim{}, err
	}
	c := claim{ended: d.GetWorkflowExecutionInfo().GetStatus() != enums.WORKFLOW_EXECUTION_STATUS_RUNNING}
	if p := d.GetPendingWorkflowTask(); p != nil {
		c.working = p.GetState() == enums.PENDING_WORKFLOW_TASK_STATE_STARTED && p.GetAttempt() <= 1
	}
	it := e.Client.GetWorkflowHistory(ctx, ex.id, ex.run, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return claim{}, err
		}
		switch ev.GetEventType() {
		case enums.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
			c.taken = true
			return c, nil
		case enums.EVENT_TYPE_WORKFLOW_TASK_FAILED:
			c.failed = ev.GetWorkflowTaskFailedEventAttributes().GetFailure().GetMessage()
		}
	}
	return c, nil
}

// unclaimedError says why a run was terminated at its timeout, from how
// far its workflow had got when it was.
func (e *Executor) unclaimedError(ctx context.Context, ex execution, timeout time.Duration) error {
	q := queue(e.TaskQueue)
	c, err := e.claimOf(context.WithoutCancel(ctx), ex)
	switch {
	case err == nil && c.taken:
		return fmt.Errorf("a worker on task queue %q took the run just as its timeout of %s passed: workflow %s was terminated, and its first stages may have started (its history says which)",
			q, timeout, ex.id)
	case err == nil && c.failed != "":
		return fmt.Errorf("a worker on task queue %q took the run but could not run it (%s) before its timeout of %s passed: workflow %s was terminated, and nothing ran (run runbook worker --task-queue %s there, of this version)",
			q, c.failed, timeout, ex.id, q)
	}
	return fmt.Errorf("no worker had taken the run from task queue %q when its timeout of %s passed: workflow %s was terminated, and nothing ran (start one: runbook worker --task-queue %s)",
		q, timeout, ex.id, q)
}

// pollPaused is how often a caller waiting for a run asks whether it
// paused: a workflow waiting for a signal does not end, and a query is
// the one way to see it wait.
const pollPaused = 200 * time.Millisecond

// wait waits for the run to end or to pause past pause afterSeq.
func (e *Executor) wait(ctx context.Context, wr client.WorkflowRun, afterSeq int) (*Run, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the Get below when the run paused
	type ended struct {
		out RunOutput
		err error
	}
	done := make(chan ended, 1)
	go func() {
		var r ended
		r.err = wr.Get(ctx, &r.out)
		done <- r
	}()
	tick := time.NewTicker(pollPaused)
	defer tick.Stop()
	for {
		select {
		case r := <-done:
			if r.err != nil {
				return nil, fmt.Errorf("the run on Temporal (workflow %s): %w", wr.GetID(), r.err)
			}
			// Get has returned: the run it names is the chain's last.
			return record2run(execution{wr.GetID(), wr.GetRunID()}, r.out.Record, r.out.RecordGzip)
		case <-tick.C:
			// The workflow's latest run, not wr's: a run that continued as
			// new waits in the last run of its chain (wr.Get follows it).
			p, err := e.paused(ctx, wr.GetID(), "")
			if err == nil && p.Seq > afterSeq {
				// The paused run is asked for by name: wr's is Get's to
				// move, in its own goroutine, as it follows the chain.
				d, err := e.Client.DescribeWorkflowExecution(ctx, wr.GetID(), "")
				if err != nil {
					return nil, fmt.Errorf("the paused run on Temporal (workflow %s): %w", wr.GetID(), err)
				}
				run, err := record2run(execution{wr.GetID(), d.GetWorkflowExecutionInfo().GetExecution().GetRunId()}, p.Record, p.RecordGzip)
				if run != nil {
					run.Paused = true
				}
				return run, err
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func record2run(ex execution, rec, gz []byte) (*Run, error) {
	if gz != nil {
		var err error
		if rec, err = gunzip(gz); err != nil {
			return nil, fmt.Errorf("the run record from Temporal (workflow %s): %w", ex.id, err)
		}
	}
	return &Run{WorkflowID: ex.id, RunID: ex.run, Record: rec}, nil
}

// paused reads a run waiting at an ask: stage (PausedQuery).
func (e *Executor) paused(ctx context.Context, workflowID, runID string) (*Paused, error) {
	v, err := e.Client.QueryWorkflow(ctx, workflowID, runID, PausedQuery)
	if err != nil {
		return nil, err
	}
	var p Paused
	if err := v.Get(&p); err != nil {
		return nil, err
	}
	return &p, nil
}

// Answer answers the question of the run of workflow workflowID, waiting
// at an ask: stage, and waits for the run to end or ask again, as
// `runbook resume` continues a paused record. The answer is checked first
// against the paused record, as a local resume checks it: a refusal is the
// error, in a local resume's words, and the run goes on waiting. An empty
// By is the OS user, a zero At now.
func (e *Executor) Answer(ctx context.Context, workflowID string, a Answer) (*Run, error) {
	p, err := e.paused(ctx, workflowID, "")
	if err != nil {
		if strings.Contains(err.Error(), errNotPaused.Error()) {
			// The workflow's own answer to the query says it in these words.
			return nil, fmt.Errorf("resume: workflow %s is not waiting for an answer (it was answered, or ended)", workflowID)
		}
		return nil, fmt.Errorf("resume: workflow %s is not waiting for an answer: %w", workflowID, err)
	}
	rb, rec, err := pausedRun(p)
	if err != nil {
		return nil, fmt.Errorf("resume: workflow %s: %w", workflowID, err)
	}
	if err := rb.CheckAnswers(rec, a.Answers, a.Reject != ""); err != nil {
		return nil, err
	}
	if a.By == "" {
		a.By = osUser()
	}
	if a.At.IsZero() {
		a.At = time.Now()
	}
	a.At = a.At.UTC()
	a.Seq = p.Seq // the pause checked: the run drops it if another waits by then
	if err := e.Client.SignalWorkflow(ctx, workflowID, "", AnswerSignal, a); err != nil {
		return nil, fmt.Errorf("resume: answer workflow %s: %w", workflowID, err)
	}
	run, err := e.wait(ctx, e.Client.GetWorkflow(ctx, workflowID, ""), p.Seq)
	if run != nil {
		run.Chart = &RunChart{File: p.File, Chart: p.Chart, Sources: p.Sources}
	}
	if err == nil {
		err = tookAnswer(run, workflowID, p.Seq, a)
	}
	return run, err
}

// tookAnswer says, with an error, when the answer the run's record holds
// for pause seq is not a: another answer reached the run first (a second
// person answering at once, both checks passing), and the run dropped a
// (Answer.Seq). Who and when tell them apart, to the second (the
// record's precision); the run is returned with the error, as it now is.
func tookAnswer(run *Run, workflowID string, seq int, a Answer) error {
	rec, err := run.RunRecord()
	if err != nil {
		return err
	}
	if seq < 1 || seq > len(rec.Answers) {
		return fmt.Errorf("resume: workflow %s: its record holds no answer to question %d", workflowID, seq)
	}
	got := rec.Answers[seq-1]
	if got.By != a.By || got.At != a.At.Format(time.RFC3339) || got.Rejected != a.Reject {
		return fmt.Errorf("resume: workflow %s: %s answered this question at %s, before this answer reached the run; this answer was not used", workflowID, got.By, got.At)
	}
	return nil
}

// pausedRun is the runbook and the record of a paused run.
func pausedRun(p *Paused) (*runbook.Runbook, *record.RunRecord, error) {
	spec, err := chart.Parse(p.File, p.Chart, RunInput{Sources: p.Sources}.loadOptions()...)
	if err != nil {
		return nil, nil, err
	}
	rb, err := runbook.Build(spec)
	if err != nil {
		return nil, nil, err
	}
	b := p.Record
	if p.RecordGzip != nil {
		if b, err = gunzip(p.RecordGzip); err != nil {
			return nil, nil, err
		}
	}
	rec, problems, err := record.ParseRecord(b)
	if err != nil {
		return nil, nil, err
	}
	if len(problems) > 0 {
		return nil, nil, fmt.Errorf("the paused record: %s", problems[0])
	}
	return rb, rec, nil
}

// osUser is who answers when the caller names no one, as in a local
// resume: the OS user.
func osUser() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	return "unknown"
}

// maxRecord bounds a gzipped record's expansion: far past any record a
// run writes (a 10k-item foreach's is about 15 MB), short of exhausting
// memory on a corrupt payload.
const maxRecord = 1 << 30

func gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	rec, err := io.ReadAll(io.LimitReader(zr, maxRecord+1))
	if err != nil {
		return nil, err
	}
	if len(rec) > maxRecord {
		return nil, fmt.Errorf("more than %d bytes gzipped", maxRecord)
	}
	return rec, nil
}
