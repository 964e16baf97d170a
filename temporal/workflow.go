package temporal

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
)

// The names the workflow and its activity are registered and started by:
// a worker and an executor of different builds agree on these, not on Go
// function names.
const (
	WorkflowName = "runbook.Run"
	ActivityName = "runbook.Exec"
	// ReadActivityName is the activity of a read: stage.
	ReadActivityName = "runbook.Read"
	// DefaultTaskQueue is the task queue an Executor and a worker use when
	// given none.
	DefaultTaskQueue = "runbook"
	// QueueEnv, set in an exec stage's environment (env: or envFrom:),
	// names the task queue its process runs on: a foreach over hosts sets
	// it from the item, and the worker on each host polls its own queue.
	// The process sees it too, as in a local run, where it means nothing.
	QueueEnv = "RUNBOOK_TASK_QUEUE"
)

// activityMargin is how long past an exec stage's own timeout its activity
// may run: the process is stopped at the timeout by the worker (a record's
// "timed out" is the worker's), then has its grace and drain to end.
// StartToCloseTimeout is only the backstop for a worker that went away.
const activityMargin = 30 * time.Second

// noTimeout bounds the activity of an exec stage with no timeout.
const noTimeout = 24 * time.Hour

// readTimeout bounds a read: stage's activity: a read starts no process
// and has no timeout of its own.
const readTimeout = 10 * time.Minute

// RunInput is one run as the workflow receives it: the chart itself, so
// the run does not depend on a file the worker may not have.
type RunInput struct {
	// File is the chart's path where it was read: it names positions in
	// errors and is the record's chart.
	File string
	// Chart is the chart file's bytes.
	Chart []byte
	// Inputs are the person's inputs, as runbook.Runbook.Exec takes them
	// (strings are converted to the declared type).
	// Read as a local run's JSON inputs are (runbook.Inputs): whole
	// numbers ints, not Temporal's JSON's float64s.
	Inputs runbook.Inputs `json:",omitempty"`
	// MaxRows, when set, caps the verdict rows the record shows, as
	// runbook.WithMaxRows (`runbook exec --max-rows`).
	MaxRows int `json:",omitempty"`
	// Narrative keeps the run's narrative in the record, as
	// runbook.WithNarrative (`runbook exec --verbose`).
	Narrative bool `json:",omitempty"`
	// ResumeCommand is the command a paused record tells the person to
	// answer it with, as runbook.WithResumeCommand: on Temporal it names
	// the workflow, not a record file.
	ResumeCommand string `json:",omitempty"`
	// Sources are the chart files the chart mounts (subflow charts), by
	// the path it loaded them at (runbook.Runbook.SubflowFiles): the
	// workflow loads them from here, not from the worker's disk, so the
	// run is of the chart it was started with wherever it runs. Nil for a
	// chart that mounts none (and for runs started before it was sent).
	Sources map[string][]byte `json:",omitempty"`
	// Timeout, when set, bounds the run up to its end or its first pause,
	// as runbook.WithTimeout (`runbook exec --timeout`), on a workflow
	// timer (deadline.go). A run answered later has no timeout, as a
	// local `runbook resume` without --timeout.
	Timeout time.Duration `json:",omitempty"`
	// ContinueAfter is the history length (events) past which the run
	// continues as new at its next stage boundary outside any fan-out;
	// zero is DefaultContinueAfter. It travels in the input, not in the
	// worker's configuration, so a replay decides as the run did.
	ContinueAfter int `json:",omitempty"`
	// Continued is the run so far, when this workflow run goes on from one
	// that continued as new; nil for a run's first workflow run.
	Continued *Continued `json:",omitempty"`
	// Zone is the zone the run reads as its machine's (now(), "Local");
	// Executor.Exec sends its own machine's (LocalZone) when it is nil.
	// A run started without one reads the worker's, as it did.
	Zone *Zone `json:",omitempty"`
}

// loadOptions load the run's chart from its sources when it was sent
// them.
func (in RunInput) loadOptions() []chart.LoadOption {
	if in.Sources == nil {
		return nil
	}
	return []chart.LoadOption{chart.Sources(in.Sources)}
}

// execOptions are the run options a RunInput asks for beyond the
// workflow's own; the zero RunInput asks for none, so a history recorded
// before these fields existed replays as it ran.
func (in RunInput) execOptions() []runbook.ExecOption {
	var opts []runbook.ExecOption
	if in.MaxRows != 0 {
		opts = append(opts, runbook.WithMaxRows(in.MaxRows))
	}
	if in.Narrative {
		opts = append(opts, runbook.WithNarrative())
	}
	if in.ResumeCommand != "" {
		opts = append(opts, runbook.WithResumeCommand(in.ResumeCommand))
	}
	return opts
}

// Continued is a run carried from one workflow run into the next by
// continue-as-new: its record's bytes as a local run saves them, paused
// with a checkpoint of kind continue (gzipped past gzipPast, as RunOutput),
// and how many times it had paused at an ask: stage (Paused.Seq goes on
// counting).
type Continued struct {
	Record     []byte `json:",omitempty"`
	RecordGzip []byte `json:",omitempty"`
	Seq        int    `json:",omitempty"`
	// Deadline is when the run's timeout (RunInput.Timeout) ends, on the
	// workflow's clock; zero when it has none or it no longer applies
	// (the run paused at an ask: first).
	Deadline time.Time `json:",omitempty"`
}

// DefaultContinueAfter is the history length past which a run continues
// as new when its RunInput sets none. The server suggests it sooner by
// default (limit.historyCount.suggestContinueAsNew, 4096 events, or 4 MB
// of history), which the workflow heeds too; this is the backstop for a
// server told to suggest it later or never. It stays far from the 51,200
// events at which the server ends a workflow, because a run continues only
// between stages outside any fan-out: one fan-out of up to maxInFlight
// activities at a time adds three events per activity, several thousand
// in one workflow task, before the next boundary is reached.
const DefaultContinueAfter = 10_000

// RunOutput is what the workflow returns: the run record, the bytes a
// local run saves (runbook.Result.WriteRecord), as they are or, past
// gzipPast, gzipped (Temporal refuses a payload over 2 MiB; a foreach's
// record repeats itself item after item and shrinks many times over).
// One of the two is set.
type RunOutput struct {
	Record     []byte `json:",omitempty"`
	RecordGzip []byte `json:",omitempty"`
}

// gzipPast is the record size past which the workflow returns it gzipped:
// a smaller one stays readable in Temporal's own tools.
const gzipPast = 256 << 10

// maxResult is the most the workflow returns: Temporal's default payload
// limit (limit.blobSize.error, 2 MiB) less room for the JSON around it,
// counted before the base64 a []byte is sent as (4 bytes for 3).
const maxResult = (2<<20 - 16<<10) / 4 * 3

// maxInFlight is how many activities one run keeps scheduled at once. The
// server fails a workflow task that would take a run past 2000 pending
// activities (limit.numPendingActivities.error), so a foreach of more
// items waits for a slot; the record is unchanged, flow's join merges the
// branches in declaration order whenever they end.
const maxInFlight = 1000

// RunWorkflow is the workflow of one run (registered as WorkflowName). A
// chart that does not load, or inputs that are refused, fail the workflow;
// a run that fails is a record like any other. A run that pauses at an
// ask: stage waits for AnswerSignal and goes on with runbook's Resume, as
// many times as it asks (PausedQuery reads it while it waits).
func RunWorkflow(ctx workflow.Context, in RunInput) (*RunOutput, error) {
	spec, err := chart.Parse(in.File, in.Chart, in.loadOptions()...)
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), "chart", nil)
	}
	rb, err := runbook.Build(spec)
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), "chart", nil)
	}
	zone, err := in.Zone.location()
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), "zone", nil)
	}
	st := &workflowStubs{ctx: ctx, zone: zone}
	// The paused run, while the workflow waits for its answer; nil when
	// not waiting. A query makes no event, so a history of a run that
	// never asked replays as before.
	var paused *Paused
	if err := workflow.SetQueryHandler(ctx, PausedQuery, func() (*Paused, error) {
		if paused == nil {
			return nil, errNotPaused
		}
		return paused, nil
	}); err != nil {
		return nil, err
	}
	execOpts := append([]runbook.ExecOption{runbook.WithStubs(st), runbook.WithInline(), runbook.WithFanout(st.fanout),
		runbook.WithYield(continueAsNew(ctx, st, in.ContinueAfter))}, in.execOptions()...)
	// The run's context ends when the workflow is cancelled (and the
	// activities it waits on with it), so the run stops and says so.
	runCtx := st.cancellable()
	res, seq, err := start(ctx, st, rb, in, runCtx, execOpts)
	if err != nil {
		return nil, err
	}
	answers := workflow.GetSignalChannel(ctx, AnswerSignal)
	for {
		if res.Record.Status == "paused" && res.Run.Checkpoint.Kind == flow.CheckpointContinue {
			return nil, continued(ctx, in, res, seq, st.deadlineAt)
		}
		b, err := json.MarshalIndent(res.RunRecord(), "", "  ")
		if err != nil {
			return nil, fmt.Errorf("the run record: %w", err)
		}
		b = append(b, '\n')
		if res.Record.Status != "paused" {
			return output(b)
		}
		seq++
		// Paused at an ask: the record goes through its bytes, as a local
		// run's goes through its file before `runbook resume` reads it, so
		// the resumed run starts from the same values (JSON's numbers).
		rec, problems, err := record.ParseRecord(b)
		if err != nil || len(problems) > 0 {
			return nil, temporal.NewNonRetryableApplicationError(fmt.Sprintf("the paused record does not read back: %v %v", err, problems), "record", nil)
		}
		out, err := output(b)
		if err != nil {
			return nil, err
		}
		paused = &Paused{Seq: seq, File: in.File, Chart: in.Chart, Sources: in.Sources, Record: out.Record, RecordGzip: out.RecordGzip}
		for {
			var a Answer
			answers.Receive(ctx, &a)
			if a.Seq != 0 && a.Seq != seq {
				workflow.GetLogger(ctx).Warn("an answer to another question was dropped; the run still waits", "answered", a.Seq, "waiting", seq, "by", a.By)
				continue
			}
			// The answer's who and when come in the signal, so a replay
			// makes the same record; Resume refuses what a local resume
			// refuses (the Executor checked it before sending), and a
			// refused answer leaves the run waiting, as a refused
			// `runbook resume` leaves the record paused.
			at := a.At
			opts := []runbook.ResumeOption{runbook.ResumeExec(execOpts...), runbook.AnsweredBy(a.By),
				runbook.ResumeClock(func() time.Time { return at })}
			if a.Reject != "" {
				opts = append(opts, runbook.ResumeReject(a.Reject))
			}
			next, err := rb.Resume(runCtx, rec, a.Answers, opts...)
			if err != nil {
				workflow.GetLogger(ctx).Warn("an answer was refused; the run still waits", "error", err.Error())
				continue
			}
			res, paused = next, nil
			break
		}
	}
}

// start starts the run, or, in a workflow run that continues one
// (in.Continued), goes on with it from its record: runbook's Resume of a
// continue, which adds nothing to the record, the secret inputs given
// again as a local resume takes them. seq is how many times the run had
// paused at an ask: stage.
//
// A run with a timeout (in.Timeout) has it up to its end or its first
// pause, across continues: the deadline is set on the workflow's clock
// when the run starts and carried (Continued.Deadline), and each workflow
// run times what is left of it.
func start(ctx workflow.Context, st *workflowStubs, rb *runbook.Runbook, in RunInput, runCtx context.Context, execOpts []runbook.ExecOption) (*runbook.Result, int, error) {
	if c := in.Continued; in.Timeout > 0 && (c == nil || !c.Deadline.IsZero()) {
		left := in.Timeout
		if c != nil {
			left = c.Deadline.Sub(workflow.Now(ctx))
			st.pastDue = left <= 0 && deadlineByClock(ctx)
			left = max(left, time.Nanosecond)
		}
		st.deadlineAt = workflow.Now(ctx).Add(left)
		execOpts = append(slices.Clip(execOpts), runbook.WithTimeout(left), runbook.WithDeadline(st.deadline))
	}
	if in.Continued == nil {
		res, err := rb.Exec(runCtx, in.Inputs, execOpts...)
		if err != nil {
			return nil, 0, temporal.NewNonRetryableApplicationError(err.Error(), "inputs", nil)
		}
		return res, 0, nil
	}
	b := in.Continued.Record
	if in.Continued.RecordGzip != nil {
		var err error
		if b, err = gunzip(in.Continued.RecordGzip); err != nil {
			return nil, 0, temporal.NewNonRetryableApplicationError("the run carried into this workflow run: "+err.Error(), "record", nil)
		}
	}
	rec, problems, err := record.ParseRecord(b)
	if err != nil || len(problems) > 0 {
		return nil, 0, temporal.NewNonRetryableApplicationError(fmt.Sprintf("the run carried into this workflow run does not read back: %v %v", err, problems), "record", nil)
	}
	secrets := map[string]any{}
	for _, is := range rb.Spec().Inputs {
		if v, ok := in.Inputs[is.Name]; ok && is.Secret {
			secrets[is.Name] = v
		}
	}
	res, err := rb.Resume(runCtx, rec, secrets, runbook.ResumeExec(execOpts...))
	if err != nil {
		return nil, 0, temporal.NewNonRetryableApplicationError("the run carried into this workflow run: "+err.Error(), "record", nil)
	}
	return res, in.Continued.Seq, nil
}

// continueAsNew is the run's yield (runbook.WithYield): asked at each
// stage boundary outside any fan-out, it says to continue as new when the
// server suggests it or the history is past after (DefaultContinueAfter
// when zero). Both read the workflow task's own facts, so a replay
// decides the same. A run started by code that never continued (a
// history with no marker) replays without continuing: workflow.GetVersion
// says which code started it, asked only once a run would continue, so a
// history that never got so far has no marker and needs none. Before
// that, it ends a run whose deadline has passed on the workflow's clock
// (deadline.go): a continue would otherwise carry it on, as the timer had
// not yet fired.
func continueAsNew(ctx workflow.Context, st *workflowStubs, after int) func() bool {
	if after <= 0 {
		after = DefaultContinueAfter
	}
	return func() bool {
		if st.pastDeadline(ctx) {
			st.expire() // the run ends here, timed out (flow.WithYield)
			return false
		}
		info := workflow.GetInfo(ctx)
		if !info.GetContinueAsNewSuggested() && info.GetCurrentHistoryLength() < after {
			return false
		}
		return workflow.GetVersion(ctx, "runbook.continueAsNew", workflow.DefaultVersion, 1) == 1
	}
}

// continued is the continue-as-new of a run its yield stopped: the next
// workflow run, of the same workflow id, gets the chart, the inputs and
// the run so far (its record's bytes, gzipped when large). The record is
// carried without indentation, which no one reads but the next run (2000
// sequential exec stages: 1.2 MB, 88 KB gzipped, against 2.8 MB and 100
// KB indented). A run too large to carry, even gzipped, fails in words
// that say so.
func continued(ctx workflow.Context, in RunInput, res *runbook.Result, seq int, deadline time.Time) error {
	rec, err := json.Marshal(res.RunRecord())
	if err != nil {
		return fmt.Errorf("the run record: %w", err)
	}
	out := pack(rec)
	next := in
	next.Continued = &Continued{Record: out.Record, RecordGzip: out.RecordGzip, Seq: seq}
	if seq == 0 {
		next.Continued.Deadline = deadline // past an ask, the run has no timeout
	}
	size := len(in.Chart) + len(out.Record) + len(out.RecordGzip)
	for _, b := range in.Sources {
		size += len(b)
	}
	if size > maxResult {
		return temporal.NewNonRetryableApplicationError(fmt.Sprintf(
			"the run so far is a record of %d bytes, %d with its chart as the next workflow run would take them, more than a workflow may carry into its next run on Temporal (its payload limit, 2 MiB): the run stopped where it would have continued as new and cannot go on; split the chart into smaller runs (docs/SCALE.md)",
			len(rec), size), "record", nil)
	}
	return workflow.NewContinueAsNewError(ctx, WorkflowName, next)
}

// PausedQuery is the query that reads a run waiting at an ask: stage
// (a *Paused); a run that is not waiting answers it with an error.
const PausedQuery = "runbook.paused"

// AnswerSignal is the signal that answers a run waiting at an ask: stage
// (an Answer).
const AnswerSignal = "runbook.answer"

var errNotPaused = errors.New("the run is not waiting for an answer")

// Paused is a run waiting for an answer: its chart (what a resume is
// checked against) and its paused record, the bytes a local run saves
// (gzipped past gzipPast, as RunOutput). Seq counts the run's pauses, so
// a caller that answered one can tell the next from it.
type Paused struct {
	Seq        int
	File       string
	Chart      []byte
	Sources    map[string][]byte `json:",omitempty"`
	Record     []byte            `json:",omitempty"`
	RecordGzip []byte            `json:",omitempty"`
}

// Answer is the answer to a run's question, as `runbook resume` gives it:
// the values by name (strings are converted to the expected type), or a
// rejection; who answered, and when.
type Answer struct {
	// Seq is the pause it answers (Paused.Seq; Executor.Answer sets it).
	// The run drops an answer for another pause and goes on waiting: a
	// chart that asks the same question twice would otherwise take an
	// answer meant for the first, arriving late, as the second's. Zero (a
	// signal sent by hand without it) answers whichever pause waits.
	Seq     int            `json:",omitempty"`
	Answers runbook.Inputs `json:",omitempty"`
	Reject  string         `json:",omitempty"`
	By      string
	At      time.Time
}

// output is the record as the workflow returns it: gzipped when large,
// refused in words when even that is past what Temporal takes.
func output(rec []byte) (*RunOutput, error) {
	out := pack(rec)
	if len(out.RecordGzip) > maxResult {
		return nil, temporal.NewNonRetryableApplicationError(fmt.Sprintf(
			"the run record is %d bytes (%d gzipped), more than a workflow may return on Temporal (its payload limit, 2 MiB): the run ran, its record is lost; split the chart's foreach into smaller runs (docs/SCALE.md)",
			len(rec), len(out.RecordGzip)), "record", nil)
	}
	return out, nil
}

// pack is a record as a payload carries it: as it is, or past gzipPast
// gzipped (a record repeats itself stage after stage and shrinks many
// times over). gzip's default level, not its fastest: a record of 2000
// sequential exec stages gzips to 100 KB at it, 151 KB at the fastest,
// and the payload limit is what bounds a run; the time (a fraction of a
// second for a record of tens of MB) is spent once per workflow run.
func pack(rec []byte) *RunOutput {
	if len(rec) <= gzipPast {
		return &RunOutput{Record: rec}
	}
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.DefaultCompression) // the level is valid
	_, _ = zw.Write(rec)                                      // a bytes.Buffer does not fail
	_ = zw.Close()
	return &RunOutput{RecordGzip: z.Bytes()}
}

// workflowStubs answer a run's exec stages from activities, on the
// workflow's goroutine (runbook.WithInline calls them there) or one of its
// coroutines (fanout).
type workflowStubs struct {
	ctx workflow.Context
	// zone is the run's zone (RunInput.Zone); nil: the worker's.
	zone *time.Location
	// deadlineAt is when the run's timeout ends on the workflow's clock
	// (zero: none), carried by a continue-as-new.
	deadlineAt time.Time
	// expire ends the run's deadline context now, as its timer's firing
	// would (nil until the run has one); pastDue says the run was
	// continued past its deadline, so it ends before its first stage.
	expire  func()
	pastDue bool
	// inFlight counts the run's activities scheduled and not ended (a
	// batch's, each of its exec stages); the coroutines share it one at a
	// time (Temporal runs one at a time).
	inFlight int
	// batch gathers exec calls into batch activities (batch.go).
	batch batcher
}

// slot waits, when maxInFlight activities are already scheduled, for one
// of them to end, and takes its place; the func gives it back. A run
// started by code that did not wait (a history with no marker) replays
// without waiting: workflow.GetVersion says which code started it.
func (s *workflowStubs) slot(w workflow.Context) func() {
	if s.inFlight >= maxInFlight && workflow.GetVersion(w, "runbook.maxInFlight", workflow.DefaultVersion, 1) == 1 {
		_ = workflow.Await(w, func() bool { return s.inFlight < maxInFlight }) // an error is the run's cancellation, seen by the activity
	}
	s.inFlight++
	return func() { s.inFlight-- }
}

// coroutineKey holds, in a branch's context, the workflow context of the
// coroutine that runs the branch: a blocking call (an activity's Get, a
// timer) must be made with its own coroutine's context.
type coroutineKey struct{}

// wctx is the workflow context of the coroutine ctx belongs to.
func (s *workflowStubs) wctx(ctx context.Context) workflow.Context {
	if w, ok := ctx.Value(coroutineKey{}).(workflow.Context); ok {
		return w
	}
	return s.ctx
}

// fanout runs a fan-out's branches as workflow coroutines (workflow.Go),
// so their activities are scheduled together and run at once on the
// workers, while the workflow starts no goroutine. Temporal's scheduler
// runs one coroutine at a time, switching at blocking calls, in an order a
// replay repeats. A fan-out wider than maxInFlight in a run that batches
// its exec stages runs on maxInFlight coroutines, each taking the next
// branch when its last one ends (fanoutPool).
func (s *workflowStubs) fanout(ctx context.Context, n int, work func(context.Context, int)) {
	parent := s.wctx(ctx)
	if n > maxInFlight && batches(parent) {
		s.fanoutPool(ctx, parent, n, maxInFlight, work)
		return
	}
	wg := workflow.NewWaitGroup(parent)
	for i := range n {
		wg.Add(1)
		workflow.Go(parent, func(w workflow.Context) {
			defer wg.Done()
			work(context.WithValue(ctx, coroutineKey{}, w), i)
		})
	}
	wg.Wait(parent)
}

// once are the options of an activity tried once: a stage's retry is the
// runbook's, each attempt a row of the record as in a local run. The
// activity heartbeats (heartbeating), so a worker lost while it runs is
// seen after heartbeatTimeout, not after timeout.
func once(ctx workflow.Context, timeout time.Duration) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: timeout,
		HeartbeatTimeout:    heartbeatTimeout,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
}

// heartbeatTimeout is how long a worker running an activity may go
// without a heartbeat before the server calls it lost and fails the
// activity. Without one, a worker that died inside an exec stage was seen
// only when the stage's timeout plus activityMargin passed (a day for a
// stage with no timeout). 20 s: long enough that a busy machine (a GC
// pause, two cores shared with the processes it runs) or a short network
// stall does not cost a process its outcome, short enough that a run goes
// on within seconds of its worker's death. The activity heartbeats every
// quarter of it.
const heartbeatTimeout = 20 * time.Second

// heartbeating runs f, recording a heartbeat every quarter of the
// activity's heartbeat timeout while it runs (none when it has none).
// Each heartbeat carries this worker's name (workerName), so a run that
// loses it can say which worker it lost. The first is a quarter in, not at
// the start: most activities (a short command, a read) end before it and
// cost the server no heartbeat at all; a foreach's thousand activities
// heartbeating at once slowed the embedded server enough to miss a
// heartbeat timeout (TestConformance, large.yaml).
func heartbeating[T any](ctx context.Context, f func() T) T {
	defer beat(ctx, activity.GetInfo(ctx).HeartbeatTimeout/4)()
	return f()
}

// beat records a heartbeat naming this worker every period (none when
// period is not positive) until the func it returns is called: the one
// heartbeat of every activity, a lone one's or a batch's.
func beat(ctx context.Context, every time.Duration) (stop func()) {
	if every <= 0 {
		return func() {}
	}
	who := workerName()
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				activity.RecordHeartbeat(ctx, who)
			}
		}
	}()
	return func() { close(done) }
}

// workerName names this worker process where a person looks for it:
// pid@host, as Temporal's own identities begin.
func workerName() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%d@%s", os.Getpid(), host)
}

// heartbeatFrom names the worker whose last heartbeat te carries.
func heartbeatFrom(te *temporal.TimeoutError) string {
	var who string
	if te.HasLastHeartbeatDetails() && te.LastHeartbeatDetails(&who) == nil && who != "" {
		return "worker " + who
	}
	return "its worker"
}

// workerLostType is the type of the error an activity fails with when its
// worker stops while the process runs.
const workerLostType = "runbook.WorkerLost"

// workerStopped is the failure of an activity (a lone exec's or a
// batch's) whose worker was told to stop while its process ran: each
// stage's record says it in these words.
func workerStopped() error {
	return temporal.NewNonRetryableApplicationError(
		fmt.Sprintf("worker %s stopped while the process ran", workerName()), workerLostType, nil)
}

// lost says why err, an exec activity's failure, means its worker was
// lost while the process ran ("" when it does not): the server saw no
// heartbeat in heartbeat (the worker died or was cut off), none reported
// in timeout (0: a batch's, which varies), or the worker stopped and said
// so.
func lost(err error, timeout, heartbeat time.Duration) string {
	var te *temporal.TimeoutError
	var ae *temporal.ApplicationError
	switch {
	case errors.As(err, &te) && te.TimeoutType() == enums.TIMEOUT_TYPE_HEARTBEAT:
		return fmt.Sprintf("no heartbeat from %s for %s", heartbeatFrom(te), heartbeat)
	case errors.As(err, &te) && te.TimeoutType() == enums.TIMEOUT_TYPE_START_TO_CLOSE && timeout > 0:
		return fmt.Sprintf("%s did not report within %s, the activity's timeout", heartbeatFrom(te), timeout)
	case errors.As(err, &te) && te.TimeoutType() == enums.TIMEOUT_TYPE_START_TO_CLOSE:
		return fmt.Sprintf("%s did not report within its batch's timeout", heartbeatFrom(te))
	case errors.As(err, &ae) && ae.Type() == workerLostType:
		return ae.Message()
	}
	return ""
}

// Exec runs an exec stage's process on a worker: in a batch with the
// other stages the run's coroutines reach at once (batch.go), or, in a run
// started by the code before batches, one activity of its own.
func (s *workflowStubs) Exec(bctx context.Context, call runbook.ExecCall) (*runbook.ExecStub, error) {
	w := s.wctx(bctx)
	if batches(w) {
		facts, err := s.batchedExec(w, call)
		if err != nil {
			return s.unfinished(bctx, w, err, 0, batchHeartbeat)
		}
		return &runbook.ExecStub{Ran: facts}, nil
	}
	timeout := noTimeout
	if call.Timeout > 0 {
		timeout = call.Timeout + activityMargin
	}
	ctx := once(w, timeout)
	if q := call.Env[QueueEnv]; q != "" {
		// No worker on q: the activity waits for one, as a run waits for
		// a worker on its own queue.
		ctx = workflow.WithTaskQueue(ctx, q)
	}
	defer s.slot(ctx)()
	var facts runbook.ProcFacts
	if err := workflow.ExecuteActivity(ctx, ActivityName, call).Get(ctx, &facts); err != nil {
		return s.unfinished(bctx, ctx, fmt.Errorf("exec on a Temporal worker: %w", err), timeout, heartbeatTimeout)
	}
	return &runbook.ExecStub{Ran: &facts}, nil
}

// unfinished is what an exec stage whose activity (alone, or its batch's)
// did not come back files: the one rule for both paths.
//
//	the run's context ended (its deadline,     cancelled: as a local run files
//	the workflow cancelled)                    a process its run's end stopped
//	the worker was lost while it ran           outcome unknown, its cause said
//	anything else                              the stage fails with err
//
// Whether a cancelled process had started on a worker is not known here,
// so it is said to have (its outcome is then unknown, never "did not
// run"). A lost worker's stage is retried only by its own retry:. A
// history recorded before the lost-worker rule (no marker) replays as it
// ran: the stage failed.
func (s *workflowStubs) unfinished(bctx context.Context, w workflow.Context, err error, timeout, heartbeat time.Duration) (*runbook.ExecStub, error) {
	if bctx.Err() != nil {
		return &runbook.ExecStub{Ran: &runbook.ProcFacts{Started: true, Cancelled: true}}, nil
	}
	if why := lost(err, timeout, heartbeat); why != "" && workflow.GetVersion(w, "runbook.workerLost", workflow.DefaultVersion, 1) == 1 {
		return &runbook.ExecStub{Ran: runbook.LostFacts(why)}, nil
	}
	return nil, err
}

// Plugin stubs nothing: the run calls the real plugin, on a worker, as
// a runbook.PluginHost (CallPlugin, plugin.go).
func (s *workflowStubs) Plugin(context.Context, runbook.PluginCall) (*runbook.PluginStub, error) {
	return nil, nil
}

// Read reads on a worker (ReadActivity). A read the stage refuses (a
// folder, too many matches) comes back as its words, so the stage fails
// as a local one does; an activity that did not finish fails it too.
func (s *workflowStubs) Read(bctx context.Context, call runbook.ReadCall) (*runbook.ReadStub, error) {
	ctx := once(s.wctx(bctx), readTimeout)
	defer s.slot(ctx)()
	var ans ReadAnswer
	if err := workflow.ExecuteActivity(ctx, ReadActivityName, call).Get(ctx, &ans); err != nil {
		return nil, fmt.Errorf("read on a Temporal worker: %w", err)
	}
	if ans.Refused != "" {
		return nil, errors.New(ans.Refused)
	}
	return &ans.ReadStub, nil
}

// Now is the workflow's clock (runbook.Clock): every now() a chart's
// expressions call reads the time of the workflow task, which a replay
// reads again as the run first read it; the worker's clock would read
// another time, and a decision over it take another branch than the
// history's (a nondeterminism error, the run stuck).
//
// The time is in the run's zone, as a local run's time.Now() is in its
// host's: now().Hour() and now().Format(…) answer alike on both.
func (s *workflowStubs) Now() time.Time {
	if s.zone != nil {
		return workflow.Now(s.ctx).In(s.zone)
	}
	return workflow.Now(s.ctx)
}

// Zone is the zone date(x, layout, "Local") reads (runbook.Zone): the run's,
// never the worker's.
func (s *workflowStubs) Zone() *time.Location { return s.zone }

// Sleep waits out a retry delay on a workflow timer, which a replay does
// not wait again.
func (s *workflowStubs) Sleep(ctx context.Context, d time.Duration) {
	_ = workflow.Sleep(s.wctx(ctx), d) // an error is the workflow's cancellation, seen by the next activity
}

// ReadAnswer is what a read: stage found on a worker: the read's whole
// answer (its files, and a glob's folders and files it could not read,
// which the run files as not checked), or the words the stage fails with
// (a folder, too many matches). The answer is runbook's own ReadStub, so
// nothing a local read says is lost on the way: a glob over a folder the
// worker may not read came back as its files alone, and a run that read
// the files it could stood Consistent where the local one was Not sure.
type ReadAnswer struct {
	runbook.ReadStub
	Refused string `json:",omitempty"`
}

// ReadActivity runs one read: stage's read on this worker (registered as
// ReadActivityName): runbook.RunRead, the same read a local run does, a
// relative path read from the chart's folder as the executor named it.
func ReadActivity(ctx context.Context, call runbook.ReadCall) (*ReadAnswer, error) {
	return heartbeating(ctx, func() *ReadAnswer {
		stub, err := runbook.RunRead(ctx, call)
		if err != nil {
			return &ReadAnswer{Refused: err.Error()}
		}
		return &ReadAnswer{ReadStub: *stub}
	}), nil
}

// ExecActivity runs one exec stage's process on this worker (registered
// as ActivityName): runbook.RunExec, the same runner a local run uses,
// heartbeating while it runs. A worker told to stop kills the process,
// and the activity fails as lost (workerLostType) rather than report a
// process the run never cancelled as cancelled.
func ExecActivity(ctx context.Context, call runbook.ExecCall) (*runbook.ProcFacts, error) {
	f := heartbeating(ctx, func() *runbook.ProcFacts { return runbook.RunExec(ctx, call) })
	select {
	case <-activity.GetWorkerStopChannel(ctx):
		if f.Cancelled {
			return nil, workerStopped()
		}
	default:
	}
	return f, nil
}
