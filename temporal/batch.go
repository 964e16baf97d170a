package temporal

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/openrunbook/runbook/runbook"
)

// BatchActivityName is the activity that runs a batch of exec stages'
// processes on one worker (ExecBatchActivity).
const BatchActivityName = "runbook.ExecBatch"

// batchMax is the most exec stages one batch activity carries. A foreach
// of 20,000 items is then 200 activities, not 20,000: its history stays
// far under the server's 51,200 events (docs/SCALE.md measures 100
// against 1000: both fit, 100 ties fewer branches to one slow process).
const batchMax = 100

// batchCallBytes is the most the calls of one batch may weigh as JSON
// (their stdin and environment): Temporal refuses an activity input past
// 2 MiB. A call past it alone still goes, alone, as before batching.
const batchCallBytes = 1 << 20

// batchResultBytes is the most the facts a batch activity returns may
// weigh as JSON (the output a []byte carries as base64): Temporal's
// payload limit, 2 MiB, less room. The worker returns the members that
// fit, smallest first; a member past it comes back withheld (its process
// ran; its stage fails in words). One member always comes back, as one
// activity per stage did.
const batchResultBytes = 3 << 19

// BatchResult is one member's answer in a batch: the facts of its process,
// or why they could not come back with the batch.
type BatchResult struct {
	Facts    *runbook.ProcFacts `json:",omitempty"`
	Withheld string             `json:",omitempty"`
}

// batchProcs is how many processes of batches one worker runs at once,
// the others of a batch waiting their turn: as many as a local run runs
// a foreach's branches at a time (flow's default concurrency, max(8,
// 4×GOMAXPROCS)), not every member of every batch in flight at once (a
// thousand processes). In a worker sharing its process with the embedded
// server and a 20k-branch workflow on a busy 2-core machine, an `echo`'s
// output came back empty, the runner's drain window (proc.DefaultDrain)
// past before the pipes were read: a thousand at once lost some at 1500
// items; 16 and 8 at a time still lost 1 to 3 in 20,000; a worker in its
// own process lost none (docs/SCALE.md).
var batchProcs = make(chan struct{}, max(8, 4*runtime.GOMAXPROCS(0)))

// batchBeat is how often a batch activity tells the server its worker is
// alive, and batchHeartbeat how long the server waits for that before it
// gives the batch up (and its members are filed outcome-unknown, their
// worker lost). The SDK holds heartbeats back for up to 0.8 of the
// timeout, capped by the worker's MaxHeartbeatThrottleInterval: at its
// default cap (a minute), a 2-minute timeout lost a batch on a machine
// loaded 15 deep, whose heartbeats came a minute apart; NewWorker caps it
// at heartbeatThrottle, so a batch's heartbeats reach the server every 10
// s and a minute leaves room for a loaded machine.
const (
	batchBeat      = 10 * time.Second
	batchHeartbeat = time.Minute
)

// ExecBatchActivity runs a batch of exec stages' processes on this worker
// (registered as BatchActivityName), batchProcs at a time, each by
// runbook.RunExec and so each stopped at its own timeout, and returns
// their facts in the calls' order. A process's failure is its facts (an
// exit code, a start error): it fails no other member. While it runs it
// heartbeats every batchBeat, so a worker gone mid-batch is found in
// batchHeartbeat, however long its members wait their turn.
func ExecBatchActivity(ctx context.Context, calls []runbook.ExecCall) ([]BatchResult, error) {
	if activity.IsActivity(ctx) { // a caller of its own (a test) has no server to tell
		defer beat(ctx, batchBeat)()
	}
	facts := make([]*runbook.ProcFacts, len(calls))
	var wg sync.WaitGroup
	for i, call := range calls {
		wg.Go(func() {
			select {
			case batchProcs <- struct{}{}:
				defer func() { <-batchProcs }()
			case <-ctx.Done(): // RunExec files the cancellation as a run's
			}
			facts[i] = runbook.RunExec(ctx, call)
		})
	}
	wg.Wait()
	if !activity.IsActivity(ctx) {
		return fitResults(facts, batchResultBytes), nil
	}
	select {
	case <-activity.GetWorkerStopChannel(ctx):
		// As ExecActivity: a worker told to stop ended its processes,
		// which the run never cancelled; they were lost with it.
		if slices.ContainsFunc(facts, func(f *runbook.ProcFacts) bool { return f.Cancelled }) {
			return nil, workerStopped()
		}
	default:
	}
	return fitResults(facts, batchResultBytes), nil
}

// fitResults are facts as a batch returns them: the smallest first while
// their JSON fits in budget (the first always), the others withheld in
// words that name their size.
func fitResults(facts []*runbook.ProcFacts, budget int) []BatchResult {
	out := make([]BatchResult, len(facts))
	sizes := make([]int, len(facts))
	order := make([]int, len(facts))
	for i, f := range facts {
		b, _ := json.Marshal(f) // facts are bytes, strings and numbers
		sizes[i], order[i] = len(b), i
	}
	slices.SortStableFunc(order, func(a, b int) int { return sizes[a] - sizes[b] })
	used := 0
	for n, i := range order {
		if n > 0 && used+sizes[i] > budget {
			out[i].Withheld = fmt.Sprintf("its process ran, but its facts (%d bytes as JSON) did not fit in what one batch of exec stages may return on Temporal (%d bytes, under its 2 MiB payload limit) with its batch-mates'", sizes[i], budget)
			continue
		}
		used += sizes[i]
		out[i].Facts = facts[i]
	}
	return out
}

// batcher gathers the exec calls a run's coroutines make and sends them to
// the workers in batches (runbook.ExecBatch), one batch per task queue. Its
// state is the workflow's, touched by one coroutine at a time.
type batcher struct {
	// queues are the task queues with calls waiting, in the order their
	// first call came; waiting the calls of each, in order.
	queues  []string
	waiting map[string][]*member
	// sending says a dispatch coroutine is running; a call made while
	// none is starts one.
	sending bool
}

// member is one exec call waiting in a batch for its facts.
type member struct {
	call runbook.ExecCall
	size int
	set  workflow.Settable
}

// batchedExec runs call in a batch: it waits with the other coroutines'
// calls until the dispatch coroutine sends them, and its facts come back
// through its own future. The dispatch coroutine is started behind every
// coroutine alive now, so it runs after each of them has run as far as it
// can: a foreach's branches that all reach an exec stage in the same
// workflow task go in the same batches. Which calls share a batch is the
// workflow's own deterministic order, so a replay makes the same batches.
func (s *workflowStubs) batchedExec(w workflow.Context, call runbook.ExecCall) (*runbook.ProcFacts, error) {
	b := &s.batch
	if b.waiting == nil {
		b.waiting = map[string][]*member{}
	}
	size := 0
	if j, err := json.Marshal(call); err == nil {
		size = len(j)
	}
	f, set := workflow.NewFuture(w)
	q := call.Env[QueueEnv]
	if len(b.waiting[q]) == 0 {
		b.queues = append(b.queues, q)
	}
	b.waiting[q] = append(b.waiting[q], &member{call: call, size: size, set: set})
	if !b.sending {
		b.sending = true
		workflow.Go(s.ctx, s.dispatch)
	}
	var facts *runbook.ProcFacts
	if err := f.Get(w, &facts); err != nil {
		return nil, err
	}
	return facts, nil
}

// dispatch sends the waiting calls as batch activities until none waits:
// each batch the calls of one task queue, in order, at most batchMax of
// them and batchCallBytes of input, and no more than keep the run's
// processes in flight at maxInFlight.
func (s *workflowStubs) dispatch(w workflow.Context) {
	b := &s.batch
	defer func() { b.sending = false }()
	for len(b.queues) > 0 {
		if err := workflow.Await(w, func() bool { return s.inFlight < maxInFlight }); err != nil {
			// The run was cancelled: every waiting call ends with it.
			for _, q := range b.queues {
				for _, m := range b.waiting[q] {
					m.set.Set(nil, fmt.Errorf("exec on a Temporal worker: %w", err))
				}
				delete(b.waiting, q)
			}
			b.queues = nil
			return
		}
		q := b.queues[0]
		batch := take(b.waiting[q], min(batchMax, maxInFlight-s.inFlight))
		if rest := b.waiting[q][len(batch):]; len(rest) > 0 {
			b.waiting[q] = rest
		} else {
			delete(b.waiting, q)
			b.queues = b.queues[1:]
		}
		s.send(w, q, batch)
	}
}

// take is the longest head of waiting that makes one batch: at most n
// calls and batchCallBytes of them, and at least one.
func take(waiting []*member, n int) []*member {
	size := 0
	for i, m := range waiting {
		if i == n || (i > 0 && size+m.size > batchCallBytes) {
			return waiting[:i]
		}
		size += m.size
	}
	return waiting
}

// send starts one batch's activity on queue q ("" the run's) and hands
// each member its facts when it ends. A member's process is stopped at its
// own timeout by the worker; the batch may take as long as its members
// one after another, each its timeout plus activityMargin (none:
// noTimeout), since the worker runs batchProcs at a time; a worker gone is
// found by the heartbeat (batchHeartbeat), not by that bound.
func (s *workflowStubs) send(w workflow.Context, q string, batch []*member) {
	longest := time.Duration(0)
	calls := make([]runbook.ExecCall, len(batch))
	for i, m := range batch {
		calls[i] = m.call
		if m.call.Timeout <= 0 {
			longest = noTimeout - activityMargin
		}
		longest = max(longest, m.call.Timeout)
	}
	ctx := workflow.WithActivityOptions(w, workflow.ActivityOptions{
		StartToCloseTimeout: time.Duration(len(batch)) * (longest + activityMargin),
		HeartbeatTimeout:    batchHeartbeat,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	if q != "" {
		ctx = workflow.WithTaskQueue(ctx, q)
	}
	s.inFlight += len(batch)
	fut := workflow.ExecuteActivity(ctx, BatchActivityName, calls)
	workflow.Go(w, func(w workflow.Context) {
		var results []BatchResult
		err := fut.Get(w, &results)
		s.inFlight -= len(batch)
		for i, m := range batch {
			switch {
			case err != nil:
				m.set.Set(nil, fmt.Errorf("exec on a Temporal worker: %w", err))
			case i >= len(results) || (results[i].Facts == nil && results[i].Withheld == ""):
				m.set.Set(nil, fmt.Errorf("exec on a Temporal worker: its batch came back with %d results for %d calls", len(results), len(batch)))
			case results[i].Facts == nil:
				m.set.Set(nil, fmt.Errorf("exec on a Temporal worker: %s", results[i].Withheld))
			default:
				m.set.Set(results[i].Facts, nil)
			}
		}
	})
}

// batches says whether this run sends its exec stages in batches: a run
// started by the code before batching (its history has no marker) goes
// on, when a worker replays it, with one activity per stage.
func batches(w workflow.Context) bool {
	return workflow.GetVersion(w, "runbook.execBatch", workflow.DefaultVersion, 1) == 1
}

// fanoutPool runs n branches on size coroutines, each taking the next
// branch (in declaration order) when its last one ends. The SDK's
// scheduler visits every live coroutine on every pass of every workflow
// task: a coroutine per branch of a 20,000-item foreach made each task
// long enough (past the 10 s a workflow task may take, on a loaded
// machine) that the server timed tasks out and the worker replayed the
// run from its start again and again. No more than maxInFlight of a run's
// exec stages are in flight at once, so more coroutines than that would
// only wait. flow's join merges branches in declaration order, so which
// coroutine ran a branch never shows in the record.
func (s *workflowStubs) fanoutPool(ctx context.Context, parent workflow.Context, n, size int, work func(context.Context, int)) {
	wg := workflow.NewWaitGroup(parent)
	next := 0
	for range min(n, size) {
		wg.Add(1)
		workflow.Go(parent, func(w workflow.Context) {
			defer wg.Done()
			bctx := context.WithValue(ctx, coroutineKey{}, w)
			for next < n {
				i := next
				next++
				work(bctx, i)
			}
		})
	}
	wg.Wait(parent)
}
