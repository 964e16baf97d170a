package flow

import (
	"context"
	"time"

	"github.com/openrunbook/runbook/recorder"
)

// RunOption configures one run.
type RunOption func(*runOptions)

type runOptions struct {
	recorders   []recorder.Recorder
	live        []recorder.Recorder
	inputs      map[string]any
	timeout     time.Duration
	maxDepth    int
	concurrency int

	abandonGrace    time.Duration
	abandonGraceSet bool
	value           any
	gather          []string
	inline          bool
	fanout          Fanout
	deadline        Deadline
	yield           func() bool
	sleep           func(ctx context.Context, d time.Duration)
	clock           func() time.Time
	zone            *time.Location
}

// WithRecorders attaches recorders to the run.
func WithRecorders(rs ...recorder.Recorder) RunOption {
	return func(o *runOptions) { o.recorders = append(o.recorders, rs...) }
}

// WithLiveRecorders attaches recorders that see events the moment they
// happen, in every branch, where WithRecorders' recorders see a branch's
// events in one piece at its join (so that each sees the run in the order
// the chart reads). They are for displays of a run going on (a progress
// line): they see the events of the kinds they want (recorder.Selective)
// as they happen, from whichever goroutine runs the stage, one call at a
// time, in no fixed order between branches, and never again at a join.
// A live recorder that panics is detached, as by the dispatcher. When the
// run ends each is flushed (recorder.Flusher) and its problems are in
// Result.RecorderProblems, as for WithRecorders.
func WithLiveRecorders(rs ...recorder.Recorder) RunOption {
	return func(o *runOptions) { o.live = append(o.live, rs...) }
}

// WithInputs writes values to the scope before the first stage. They have
// no writer in the log: explain chains end at them.
func WithInputs(in map[string]any) RunOption {
	return func(o *runOptions) { o.inputs = in }
}

// WithTimeout bounds the whole run; past it the run is cancelled.
func WithTimeout(d time.Duration) RunOption { return func(o *runOptions) { o.timeout = d } }

// Deadline makes a run's timeout context on a host's clock: a context
// that ends d after the call, its Err then context.DeadlineExceeded (so
// the run says it timed out, not that it was cancelled), and the func
// that lets go of it. WithTimeout's context is the wall clock's
// (context.WithTimeout); a host whose code must be deterministic, as a
// Temporal workflow's, gives its own timer.
type Deadline func(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc)

// WithDeadline makes WithTimeout's context with f.
func WithDeadline(f Deadline) RunOption { return func(o *runOptions) { o.deadline = f } }

// WithMaxDepth bounds nesting (default DefaultMaxDepth).
func WithMaxDepth(n int) RunOption { return func(o *runOptions) { o.maxDepth = n } }

// WithAbandonGrace sets how long a running stage has to return after its
// context ends before the run abandons it (default DefaultAbandonGrace).
// Writes it makes before returning commit; writes after it was abandoned
// never do.
func WithAbandonGrace(d time.Duration) RunOption {
	return func(o *runOptions) { o.abandonGrace = d; o.abandonGraceSet = true }
}

// WithRunValue attaches one value to the run that every stage function can
// reach through Scope.RunValue: what a layer above flow keeps per run (a
// chart is immutable and shared by runs; the state its stage functions
// file into is not). Flow never reads it.
func WithRunValue(v any) RunOption { return func(o *runOptions) { o.value = v } }

// WithGather names keys whose writes by parallel branches (parallel,
// select, foreach, a subflow's join) are GATHERED rather than merged: each
// key holds a list, each branch may only append to it, and the rows the
// branches appended are concatenated in branch order, each write naming
// the branch commits its rows came from. Any other key two branches write
// with different values fails the run. The layer running a chart chooses
// (package runbook gathers its verdict rows); flow knows no such key.
func WithGather(keys ...string) RunOption {
	return func(o *runOptions) {
		if o.gather == nil {
			// the first keys given are kept as they are, capacity cut so a
			// later WithGather copies rather than writes into them: a run
			// that gathers one key (every runbook run) allocates nothing here
			o.gather = keys[:len(keys):len(keys)]
			return
		}
		o.gather = append(o.gather, keys...)
	}
}

// WithConcurrency bounds how many branches of one fan-out run at once
// (default: 4 × GOMAXPROCS, at least 8). It never changes the record.
func WithConcurrency(n int) RunOption { return func(o *runOptions) { o.concurrency = n } }

// WithInline runs every stage body on the caller's goroutine and the
// branches of a fan-out (parallel, select, foreach, a subflow's join) one
// after another in declaration order: the run starts no goroutine. It is
// for a host that forbids them, as a Temporal workflow does (its code must
// be deterministic and run only on the workflow's own goroutine). The
// price is the abandon: a stage's timeout is not enforced by flow and a
// run's context is not watched while a stage runs, so the host must bound
// a stage itself (the Temporal executor gives an exec stage's activity the
// stage's timeout). The record is the same as a concurrent run's, since
// branch order never changes it.
func WithInline() RunOption { return func(o *runOptions) { o.inline = true } }

// Fanout runs work(ctx, i) once for every i in [0, n) and returns when all
// have returned: a host's own way to run a fan-out's branches. work may
// run on any goroutine or coroutine the host schedules, one at a time or
// at once; its ctx must be ctx or one derived from it (a host hands a
// branch its own values there: a Temporal workflow its coroutine's
// context). A work that panics is recovered by flow.
type Fanout func(ctx context.Context, n int, work func(ctx context.Context, i int))

// WithFanout runs the branches of every fan-out of two or more (parallel,
// select, foreach, a subflow's join) by f rather than flow's pool: with
// WithInline, for a host whose concurrency is its own and deterministic,
// as a Temporal workflow's coroutines are (workflow.Go), so its branches'
// activities run at once while no goroutine is started. The record is the
// same whatever order f runs them in (the join merges in declaration
// order).
func WithFanout(f Fanout) RunOption { return func(o *runOptions) { o.fanout = f } }

// WithYield lets a host stop the run at a stage boundary and carry it on
// elsewhere (a Temporal workflow continuing as new before its history is
// too long). Before each node the run starts outside any fan-out (the
// chart's top-level sequence, a decider's branch, a loop's next pass: the
// positions a Checkpoint names; never inside a parallel, select, foreach
// or subflow, which run whole), except the first node the run starts,
// yield is asked; when it says true the run stops there, that node not
// run, and ends paused with no Pause and a Checkpoint of kind
// CheckpointContinue. Yielding makes no commit and no event: Chart.Resume
// of that checkpoint, with no answers, runs that node first, and the two
// parts leave the log, state, counters and loop passes of a run that never
// yielded. yield runs on the run's own goroutine (a fan-out's branches
// never call it). A yield that says false may end the run's context (a
// host whose clock says the run's deadline passed, before its timer
// fired): the run then ends there as it would have had the context ended
// before the boundary, that node not started.
func WithYield(yield func() bool) RunOption { return func(o *runOptions) { o.yield = yield } }

// WithSleep waits out a retried stage's backoff by sleep rather than by
// this process's clock: a Temporal workflow must wait on its own timer
// (its code may not block on the process's, and a replay must not wait
// again), and a chart's tests need not wait at all. sleep returns when d
// has passed or ctx is done; the run then goes on as after any wait (a
// done ctx cancels it).
func WithSleep(sleep func(ctx context.Context, d time.Duration)) RunOption {
	return func(o *runOptions) { o.sleep = sleep }
}

// WithClock makes now tell the time for the run's expressions: every
// now() a stage's or a rule's expression calls reads it (Scope.Now), so a
// chart's tests can fix the time a rule judges against and a Temporal
// workflow reads its own clock, which a replay repeats. Without it, the
// host's clock.
func WithClock(now func() time.Time) RunOption {
	return func(o *runOptions) { o.clock = now }
}

// WithZone makes zone this machine's zone for the run's expressions: a
// date(x, layout, "Local") reads x in it (Scope.Zone), so a chart's test
// that fixes the clock in a zone (now: 2026-12-06T08:50:00+01:00) reads a
// log's local stamps in that zone too, not in the zone of whichever host
// runs the test. Without it, the host's zone.
func WithZone(zone *time.Location) RunOption {
	return func(o *runOptions) { o.zone = zone }
}
