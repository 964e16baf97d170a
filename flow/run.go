package flow

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/rules"
	"github.com/sourcegraph/conc/pool"
)

// IndexKey is the key every foreach branch sees its item's position under
// (its item is under ForEach.As).
const IndexKey = "index"

// DefaultMaxDepth bounds nesting (subflow mounts and branches within
// branches). Loop passes and foreach width do not count against it.
const DefaultMaxDepth = 500

// Status is how a run ended.
type Status string

// The run statuses (cli.md).
const (
	StatusCompleted Status = "completed"
	StatusFailed    Status = "failed"
	StatusCancelled Status = "cancelled"
	StatusPaused    Status = "paused"
)

// Result is everything a run leaves: its status, its final state and its
// log. It is complete when Run returns: nothing walks the run afterwards.
type Result struct {
	Chart  string
	Status Status
	// Err says what failed or where the run was cancelled (nil otherwise).
	Err *RunError
	// State is the final committed state.
	State map[string]any
	// Log is every commit, in order (parallel branches spliced in
	// declaration order).
	Log Log
	// Pause and Checkpoint are set when the run paused at a stage that asks.
	Pause      *Pause
	Checkpoint *Checkpoint
	// Truncations lists foreach nodes that had more items than maxBranches.
	Truncations []Truncation
	// RecorderProblems lists recorders that panicked or failed; they never
	// break the run.
	RecorderProblems []recorder.Problem
	// Stages is the number of stage executions (commits).
	Stages int
	// Elapsed is the run's wall time (the one field that varies between runs
	// of the same chart and inputs, with the events' timings).
	Elapsed time.Duration
}

// RunError is a run's failure or cancellation, naming the stage.
type RunError struct {
	// Path is the runtime path of the stage that failed or was running.
	Path string `json:"path"`
	// Stage is its id.
	Stage string `json:"stage"`
	// Message says what went wrong.
	Message string `json:"message"`
	// Stack is set when the stage panicked.
	Stack string `json:"stack,omitempty"`
	// Cancelled is true when the run was stopped from outside (context
	// cancelled or run timeout) rather than failing.
	Cancelled bool `json:"cancelled,omitempty"`
	err       error
}

func (e *RunError) Error() string {
	if e.Path == "" {
		return e.Message
	}
	return fmt.Sprintf("stage %s: %s", e.Path, e.Message)
}

// Unwrap gives the underlying error (a stage's own error, or the context's).
func (e *RunError) Unwrap() error { return e.err }

// Pause is a stage's question to a person, waiting for an answer.
type Pause struct {
	Path     string            `json:"path"`
	Stage    string            `json:"stage"`
	Question string            `json:"question"`
	Expects  map[string]string `json:"expects,omitempty"`
}

// Truncation records a foreach that had more items than it may start.
type Truncation struct {
	Path        string `json:"path"`
	Items       int    `json:"items"`
	MaxBranches int    `json:"maxBranches"`
}

// RunOption configures one run.
type RunOption func(*runOptions)

type runOptions struct {
	recorders   []recorder.Recorder
	inputs      map[string]any
	timeout     time.Duration
	maxDepth    int
	concurrency int

	abandonGrace    time.Duration
	abandonGraceSet bool
	value           any
	gather          []string
}

// WithRecorders attaches recorders to the run.
func WithRecorders(rs ...recorder.Recorder) RunOption {
	return func(o *runOptions) { o.recorders = append(o.recorders, rs...) }
}

// WithInputs writes values to the scope before the first stage. They have
// no writer in the log: explain chains end at them.
func WithInputs(in map[string]any) RunOption {
	return func(o *runOptions) { o.inputs = in }
}

// WithTimeout bounds the whole run; past it the run is cancelled.
func WithTimeout(d time.Duration) RunOption { return func(o *runOptions) { o.timeout = d } }

// WithMaxDepth bounds nesting (default DefaultMaxDepth).
func WithMaxDepth(n int) RunOption { return func(o *runOptions) { o.maxDepth = n } }

// DefaultAbandonGrace is how long a running stage has to return once the
// run is cancelled or its timeout passes, before it is abandoned.
const DefaultAbandonGrace = 5 * time.Second

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
	return func(o *runOptions) { o.gather = append(o.gather, keys...) }
}

// WithConcurrency bounds how many branches of one fan-out run at once
// (default: 4 × GOMAXPROCS, at least 8). It never changes the record.
func WithConcurrency(n int) RunOption { return func(o *runOptions) { o.concurrency = n } }

// Run executes the chart. The error is nil when the run completed or paused;
// otherwise it is the Result's Err. The Result is never nil.
func (c *Chart) Run(ctx context.Context, opts ...RunOption) (*Result, error) {
	r := newRunner(c, opts)
	root := r.rootFrame()
	for k, v := range r.opts.inputs {
		root.state[k] = entry{v: v}
	}
	return r.finish(ctx, root, func(ctx context.Context) error {
		_, err := r.runSeq(ctx, root, c.root, 0)
		return err
	})
}

type runner struct {
	chart  *Chart
	opts   runOptions
	disp   *recorder.Dispatcher
	stages atomic.Int64

	mu     sync.Mutex
	truncs []Truncation
	// cancelledAt is set once, by the first stage that saw the run's context
	// end: the run reports it as the stage that was running.
	started time.Time

	// The root frame, its counter and log, the Result, and the first scope
	// and arena chunks of the root frame live here, so a short run starts
	// with one allocation for all of them. What a Result keeps of the runner
	// (paths and evidence in these first chunks) keeps it alive; finish
	// drops the runner's other references so that nothing else is kept.
	root    frame
	counter int
	log     []Commit
	res     Result
	scope0  Scope
	strs0   [256]byte
	reads0  [8]Read
	writes0 [8]Write
}

func newRunner(c *Chart, opts []RunOption) *runner {
	r := &runner{chart: c}
	for _, o := range opts {
		o(&r.opts)
	}
	if r.opts.maxDepth <= 0 {
		r.opts.maxDepth = DefaultMaxDepth
	}
	if !r.opts.abandonGraceSet {
		r.opts.abandonGrace = DefaultAbandonGrace
	}
	if r.opts.concurrency <= 0 {
		r.opts.concurrency = max(8, 4*runtime.GOMAXPROCS(0))
	}
	if len(r.opts.recorders) > 0 {
		r.disp = recorder.NewDispatcher(r.opts.recorders...)
	}
	return r
}

func (r *runner) rootFrame() *frame {
	// The log's first capacity is what the chart's last run committed, or
	// before any, its node count: exact for a straight chain, and a fair
	// start for anything else (it doubles).
	size := int(r.chart.lastLog.Load())
	if size == 0 {
		size = min(max(len(r.chart.byID), 4), 4096)
	}
	r.log = make([]Commit, 0, size)
	f := &r.root
	keys := int(r.chart.lastState.Load())
	if keys == 0 {
		keys = min(len(r.chart.byID), 1024)
	}
	*f = frame{r: r, state: make(map[string]entry, keys), counter: &r.counter, log: &r.log}
	f.arena.strs, f.arena.reads, f.arena.writes = r.strs0[:0], r.reads0[:0], r.writes0[:0]
	r.scope0 = Scope{f: f}
	r.scope0.reads, r.scope0.staged = r.scope0.readsBuf[:0], r.scope0.stagedBuf[:0]
	f.spare = &r.scope0
	if r.disp != nil {
		f.rec = &emitter{d: r.disp, mask: r.disp.Mask()}
	}
	return f
}

// finish runs body under the run's timeout and turns what it returned into
// a Result.
func (r *runner) finish(ctx context.Context, root *frame, body func(context.Context) error) (*Result, error) {
	r.started = time.Now()
	if r.opts.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.opts.timeout)
		defer cancel()
	}
	root.event(recorder.Event{Kind: recorder.RunStart, StageName: r.chart.name})
	err := body(ctx)

	res := &r.res
	*res = Result{Chart: r.chart.name, Status: StatusCompleted, Stages: int(r.stages.Load())}
	base := root.logBase
	res.Log.Commits = *root.log
	if root.logBase == 0 {
		r.chart.lastLog.Store(int64(len(res.Log.Commits)))
		r.chart.lastState.Store(int64(len(root.state)))
	}
	for i := range res.Log.Commits {
		res.Log.Commits[i].Index = base + i
	}
	if len(r.opts.inputs) > 0 {
		res.Log.Inputs = r.opts.inputs
	}
	res.State = root.snapshot()
	res.Truncations = r.truncs

	ps := asPause(err)
	switch {
	case err == nil:
	case ps != nil:
		res.Status = StatusPaused
		res.Pause = ps.pause
		res.Checkpoint = root.checkpoint(r.chart, ps)
		root.event(recorder.Event{Kind: recorder.Pause, Path: ps.pause.Path, StageID: ps.pause.Stage})
		err = nil
	default:
		var re *RunError
		if !errors.As(err, &re) {
			re = &RunError{Message: err.Error(), err: err}
		}
		res.Err = re
		res.Status = StatusFailed
		if re.Cancelled {
			res.Status = StatusCancelled
		}
		err = re
	}
	res.Elapsed = time.Since(r.started)
	if res.Status == StatusCompleted || res.Status == StatusPaused {
		root.event(recorder.Event{Kind: recorder.RunEnd, StageName: r.chart.name, Elapsed: res.Elapsed})
	} else {
		root.event(recorder.Event{Kind: recorder.RunFailed, StageName: r.chart.name, Path: res.Err.Path, Err: res.Err.Message, Elapsed: res.Elapsed})
	}
	if r.disp != nil {
		r.disp.Flush()
		res.RecorderProblems = r.disp.Problems()
	}
	r.release()
	return res, err
}

// asPause returns the pause an error carries, or nil (errors.As without
// its target escaping on the path where err is nil).
func asPause(err error) *pauseSignal {
	if err == nil {
		return nil
	}
	var ps *pauseSignal
	if errors.As(err, &ps) {
		return ps
	}
	return nil
}

// release drops what the runner holds beyond the Result, which keeps the
// runner alive (see runner.res): the run's state, its recorders, the root
// frame's spare scope and chunks.
func (r *runner) release() {
	f := &r.root
	f.state, f.order, f.loops, f.rec, f.spare = nil, nil, nil, nil, nil
	// the arena's chunks are held by the commits that use them; its slab's
	// first box may hold a decision's evidence, so the arena stays
	r.log = nil
	r.disp = nil
	r.opts = runOptions{}
	if r.scope0.mu == nil { // never one an abandoned stage may still hold
		r.scope0 = Scope{}
	}
}

// entry is one committed value and the commit that wrote it. A deleted key
// keeps its entry (del) so a later read can name who removed it.
type entry struct {
	v      any
	writer string
	del    bool
}

// frame is where a sequence of stages runs: the root of a run, a subflow, or
// one branch of a fan-out. A branch frame has its own overlay state, log and
// event buffer, and reads through to its parent, which does not change while
// the branch runs (the parent waits at the join).
type frame struct {
	r      *runner
	parent *frame
	state  map[string]entry
	// order lists overlay keys in first-written order, so merges (and the
	// errors they report) are deterministic.
	order   []string
	prefix  string
	branch  bool
	counter *int
	log     *[]Commit
	logBase int
	rec     *emitter
	depth   int
	// loops counts the passes of each active loop (made on the first jump).
	loops map[*node]int
	// arena holds what this frame's commits keep (paths, reads, writes).
	arena arena
	// spare is a scope whose stage finished inline, ready to be used again.
	spare *Scope
}

// emitter delivers events: straight to the dispatcher at the root, into a
// buffer in a branch (spliced into the parent's at the join).
type emitter struct {
	d   *recorder.Dispatcher
	buf []recorder.Event
	// mask: the kinds some attached recorder wants (Dispatcher.Mask); the
	// others are never built on the hot paths, and dropped here elsewhere.
	mask uint32
}

// wants says whether an event of kind k would reach a recorder; false on a
// nil emitter (no recorder attached).
func (e *emitter) wants(k recorder.Kind) bool { return e != nil && e.mask&(1<<k) != 0 }

func (e *emitter) emit(ev recorder.Event) { e.send(&ev) }

// send is emit by pointer, for the hot paths (scope reads and writes, stage
// starts): an Event is 216 bytes, and the dispatcher reads it in place.
func (e *emitter) send(ev *recorder.Event) {
	if e.mask&(1<<ev.Kind) == 0 {
		return
	}
	if e.d != nil {
		e.d.RecordEvent(ev)
		return
	}
	e.buf = append(e.buf, *ev)
}

func (f *frame) event(ev recorder.Event) {
	if f.rec != nil {
		f.rec.emit(ev)
	}
}

func (f *frame) nodeEvent(k recorder.Kind, n *node, path string) recorder.Event {
	return recorder.Event{Kind: k, Path: path, StageID: n.id, StageName: n.name, Subflow: f.prefix}
}

func (f *frame) lookup(key string) (entry, bool) {
	for fr := f; fr != nil; fr = fr.parent {
		if e, ok := fr.state[key]; ok {
			if e.del {
				return entry{writer: e.writer}, false
			}
			return e, true
		}
	}
	return entry{}, false
}

func (f *frame) set(key string, e entry) {
	if f.parent != nil {
		if _, had := f.state[key]; !had {
			f.order = append(f.order, key)
		}
	}
	f.state[key] = e
}

// snapshot is the frame's visible state as plain values.
func (f *frame) snapshot() map[string]any {
	out := make(map[string]any, len(f.state))
	if f.parent == nil {
		for k, e := range f.state {
			if !e.del {
				out[k] = e.v
			}
		}
		return out
	}
	var chain []*frame
	for fr := f; fr != nil; fr = fr.parent {
		chain = append(chain, fr)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		for k, e := range chain[i].state {
			if e.del {
				delete(out, k)
			} else {
				out[k] = e.v
			}
		}
	}
	return out
}

// overlay is the frame's own writes as plain values (tombstones as
// absent), less the keys in skip.
func (f *frame) overlay(skip []string) map[string]any {
	out := make(map[string]any, len(f.order))
	for _, k := range f.order {
		if slices.Contains(skip, k) {
			continue
		}
		if e := f.state[k]; !e.del {
			out[k] = e.v
		}
	}
	return out
}

func (f *frame) path(id string) string {
	n := *f.counter
	*f.counter++
	return f.arena.path(f.prefix, id, n)
}

// newScope starts a stage execution: the frame's spare scope when it has
// one (its buffers reused), a new one otherwise.
func (f *frame) newScope(n *node) *Scope {
	s := f.spare
	if s == nil {
		return newScope(f, n, f.path(n.id))
	}
	f.spare = nil
	s.n, s.path = n, f.path(n.id)
	return s
}

// release hands a committed scope back to its frame for the next stage.
// A scope whose stage ran on its own goroutine is never reused: an
// abandoned stage may still hold it.
func (f *frame) release(s *Scope) {
	if s.mu != nil || s.f != f {
		return
	}
	clear(s.reads)
	clear(s.staged)
	s.reads, s.staged = s.reads[:0], s.staged[:0]
	s.stagedIdx, s.ask = nil, nil
	f.spare = s
}

// commit applies a stage execution's staged writes (net changes only) and
// appends its commit to the log. A discarded attempt applies nothing.
func (f *frame) commit(s *Scope, ev *decide.Evidence, attempt int, discarded bool, msg string) {
	f.r.stages.Add(1)
	var writes []Write
	if len(s.staged) > 0 {
		ws := f.arena.writeRoom(len(s.staged))
		for _, st := range s.staged {
			if !discarded {
				old, ok := f.lookup(st.key)
				if st.deleted && !ok {
					continue
				}
				if !st.deleted && ok && rules.Equal(old.v, st.value) {
					continue
				}
				f.set(st.key, entry{v: st.value, writer: s.path, del: st.deleted})
			}
			ws = append(ws, Write{Key: st.key, Value: st.value, Deleted: st.deleted, ReadsBefore: st.readsBefore, From: st.from})
		}
		if len(ws) > 0 {
			writes = f.arena.keepWrites(ws)
		}
	}
	// The commit is filled in its slot of the log, not copied there.
	c := nextCommit(f.log)
	c.Path, c.Stage, c.Reads, c.Writes = s.path, s.n.id, f.arena.takeReads(s.reads), writes
	c.Decision, c.Attempt, c.Discarded, c.Err = ev, attempt, discarded, msg
	if f.rec.wants(recorder.Commit) {
		e := f.nodeEvent(recorder.Commit, s.n, s.path)
		e.Index = len(writes)
		f.rec.emit(e)
	}
}

// nextCommit extends the log by one zero commit and returns it, doubling
// the log when it is full (append's own growth of large slices, 1.25×,
// copies a long log many more times).
func nextCommit(log *[]Commit) *Commit {
	l := *log
	if len(l) == cap(l) {
		grown := make([]Commit, len(l), max(2*cap(l), 4))
		copy(grown, l)
		l = grown
	}
	l = l[:len(l)+1]
	*log = l
	return &l[len(l)-1]
}

// runSeq runs seq from index `from`. It returns a node to jump to when a
// loop targets a stage outside seq (the caller that holds it jumps).
func (r *runner) runSeq(ctx context.Context, f *frame, seq *sequence, from int) (*node, error) {
	for i := from; i < len(seq.nodes); i++ {
		n := seq.nodes[i]
		if err := ctx.Err(); err != nil {
			return nil, &RunError{Path: f.prefixed(n.id), Stage: n.id, Message: "the run was cancelled before this stage started: " + err.Error(), Cancelled: true, err: err}
		}
		jump, err := r.runNode(ctx, f, n)
		if err != nil {
			return nil, err
		}
		if jump != nil {
			if jump.seq == seq {
				i = jump.index - 1
				continue
			}
			return jump, nil
		}
		if i+1 < len(seq.nodes) && f.rec.wants(recorder.Next) {
			e := f.nodeEvent(recorder.Next, n, "")
			e.Target = seq.nodes[i+1].id
			f.rec.emit(e)
		}
	}
	return nil, nil
}

func (f *frame) prefixed(id string) string {
	if f.prefix == "" {
		return id
	}
	return f.prefix + "/" + id
}

func (r *runner) runNode(ctx context.Context, f *frame, n *node) (*node, error) {
	switch n.kind {
	case KindStage:
		return nil, r.runStage(ctx, f, n)
	case KindDecide:
		return r.runDecide(ctx, f, n)
	case KindSelect:
		return nil, r.runSelect(ctx, f, n)
	case KindParallel:
		return nil, r.runParallel(ctx, f, n)
	case KindForEach:
		return nil, r.runForEach(ctx, f, n)
	case KindSubflow:
		return nil, r.runSubflow(ctx, f, n)
	case KindLoop:
		return r.runLoop(ctx, f, n)
	}
	return nil, &RunError{Path: f.prefixed(n.id), Stage: n.id, Message: fmt.Sprintf("unknown node kind %q", n.kind)}
}

// runStage runs a function stage with its retry policy and timeout.
func (r *runner) runStage(ctx context.Context, f *frame, n *node) error {
	attempts := 1
	if n.retry != nil {
		attempts = max(1, n.retry.Attempts)
	}
	for a := 1; ; a++ {
		x := f.begin(n, true)
		s := x.s
		var err error
		if r.inline(ctx, n) {
			err = safeStage(ctx, n.fn, s)
		} else {
			err = r.call(ctx, s, func(ctx context.Context) error { return n.fn(ctx, s) })
		}
		attempt := 0
		if n.retry != nil {
			attempt = a
		}
		if err == nil {
			return f.end(n, x, nil, attempt, nil, false)
		}
		if errors.Is(err, ErrPaused) && s.ask != nil && ctx.Err() == nil {
			ask := s.ask
			f.end(n, x, nil, attempt, nil, false)
			return &pauseSignal{pause: ask, at: []Step{{Node: n.id}}}
		}
		cancelled := ctx.Err() != nil
		if !cancelled && a < attempts && (n.retry.On == nil || n.retry.On(err)) {
			f.commit(s, nil, attempt, true, err.Error())
			if f.rec != nil {
				e := f.nodeEvent(recorder.Retry, n, s.path)
				e.Index, e.Total, e.Err = a, attempts, err.Error()
				f.rec.emit(e)
			}
			if werr := sleepCtx(ctx, backoff(n.retry, a)); werr != nil {
				return &RunError{Path: s.path, Stage: n.id, Message: "the run was cancelled while waiting to retry: " + werr.Error(), Cancelled: true, err: werr}
			}
			continue
		}
		return f.end(n, x, nil, attempt, err, cancelled)
	}
}

// stageStart emits StageStart and reads the clock for StageEnd's Elapsed,
// each only when a recorder wants it: with none attached it does neither.
func (f *frame) stageStart(n *node, path string) time.Time {
	if f.rec.wants(recorder.StageStart) {
		ev := f.nodeEvent(recorder.StageStart, n, path)
		f.rec.send(&ev)
	}
	if f.rec.wants(recorder.StageEnd) {
		return time.Now()
	}
	return time.Time{}
}

func (f *frame) stageEnd(n *node, path string, t0 time.Time) {
	if f.rec.wants(recorder.StageEnd) {
		e := f.nodeEvent(recorder.StageEnd, n, path)
		e.Elapsed = time.Since(t0)
		f.rec.emit(e)
	}
}

// fail records a stage failure and turns it into the run's error.
func (f *frame) fail(n *node, path string, err error, cancelled bool) *RunError {
	re := &RunError{Path: path, Stage: n.id, Message: err.Error(), Cancelled: cancelled, err: err}
	var pe *PanicError
	if errors.As(err, &pe) {
		re.Stack = pe.Stack
	}
	if f.rec != nil {
		e := f.nodeEvent(recorder.Error, n, path)
		e.Err = re.Message
		f.rec.emit(e)
	}
	return re
}

// PanicError is a stage that panicked: recovered, and recorded as that
// stage's failure with its stack.
type PanicError struct {
	Value any
	Stack string
}

func (e *PanicError) Error() string { return fmt.Sprintf("the stage panicked: %v", e.Value) }

// ErrStageTimeout is the failure of a stage that ran past its own timeout.
var ErrStageTimeout = errors.New("the stage ran past its timeout")

// inline says whether a stage body can run on the run's goroutine with no
// way to abandon it: no stage timeout, and a context that never ends. call
// would run it inline too; deciding here first spares the closure.
func (r *runner) inline(ctx context.Context, n *node) bool {
	return n.timeout <= 0 && ctx.Done() == nil
}

// safeStage is safeCall for a stage function, with no closure.
func safeStage(ctx context.Context, fn StageFunc, s *Scope) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Value: v, Stack: string(debug.Stack())}
		}
	}()
	return fn(ctx, s)
}

// call runs one stage body. With a timeout, or a context that can end, the
// body runs on its own goroutine so an overrunning stage can be abandoned:
// its late writes never commit. Otherwise it runs inline (no goroutine).
func (r *runner) call(ctx context.Context, s *Scope, body func(context.Context) error) error {
	runCtx := ctx
	if s.n.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.n.timeout)
		defer cancel()
	}
	if ctx.Done() == nil {
		return safeCall(ctx, body)
	}
	s.mu = &sync.Mutex{}
	done := make(chan error, 1)
	go func() { done <- safeCall(ctx, body) }()
	var err error
	select {
	case err = <-done:
		s.mu = nil // the body has returned: the scope can be reused
	case <-ctx.Done():
		// A stage that honours its context (an exec stage stopping its
		// process group) gets a grace to finish, so what it did — and the
		// processes it must stop — are settled before the run returns. Past
		// the grace it is abandoned: its late writes never commit.
		t := time.NewTimer(r.opts.abandonGrace)
		select {
		case err = <-done:
			s.mu = nil
		case <-t.C:
			s.abandon()
			err = ctx.Err()
		}
		t.Stop()
		if err == nil {
			err = ctx.Err()
		}
	}
	if err != nil && runCtx.Err() == nil && ctx.Err() != nil && errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w (%s)", ErrStageTimeout, s.n.timeout)
	}
	if err != nil && runCtx.Err() != nil {
		return fmt.Errorf("the run was cancelled while this stage ran: %w", err)
	}
	return err
}

func safeCall(ctx context.Context, body func(context.Context) error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Value: v, Stack: string(debug.Stack())}
		}
	}()
	return body(ctx)
}

func backoff(p *RetryPolicy, attempt int) time.Duration {
	d := p.Backoff
	for i := 1; i < attempt && d > 0; i++ {
		d *= 2
		if p.MaxBackoff > 0 && d >= p.MaxBackoff {
			d = p.MaxBackoff
			break
		}
	}
	if p.MaxBackoff > 0 && d > p.MaxBackoff {
		d = p.MaxBackoff
	}
	if p.Jitter && d > 1 {
		d = d/2 + rand.N(d/2+1)
	}
	return d
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// evaluate runs a decider's or selector's rules (or its Go function) as one
// stage execution and commits the evidence.
func (r *runner) evaluate(ctx context.Context, f *frame, n *node) (*decide.Evidence, string, error) {
	x := f.begin(n, true)
	s := x.s
	var ev *decide.Evidence
	var err error
	switch {
	case n.decideFn != nil:
		fnEv := new(decide.Evidence)
		err = r.call(ctx, s, func(ctx context.Context) error {
			e, err := n.decideFn(ctx, s)
			*fnEv = e
			return err
		})
		ev = fnEv
	case n.kind == KindSelect:
		ev = f.arena.slab.Select(s, n.rules)
	default:
		ev = f.arena.slab.Decide(s, n.rules, *n.def)
	}
	path := s.path
	if err != nil {
		return nil, path, f.end(n, x, ev, 0, err, ctx.Err() != nil)
	}
	return ev, path, f.end(n, x, ev, 0, nil, false)
}

func (n *node) branchNamed(name string) *branch {
	for _, b := range n.branches {
		if b.name == name {
			return b
		}
	}
	return nil
}

func (n *node) branchNames() string {
	names := make([]string, len(n.branches))
	for i, b := range n.branches {
		names[i] = b.name
	}
	return strings.Join(names, ", ")
}

func (r *runner) runDecide(ctx context.Context, f *frame, n *node) (*node, error) {
	ev, path, err := r.evaluate(ctx, f, n)
	if err != nil {
		return nil, err
	}
	if len(ev.Chosen) != 1 {
		return nil, f.fail(n, path, fmt.Errorf("decider %q chose %d branches %v; a decider chooses exactly one (branches: %s)", n.name, len(ev.Chosen), ev.Chosen, n.branchNames()), false)
	}
	br := n.branchNamed(ev.Chosen[0])
	if br == nil {
		return nil, f.fail(n, path, fmt.Errorf("decider %q chose branch %q, which does not exist (branches: %s)", n.name, ev.Chosen[0], n.branchNames()), false)
	}
	if err := r.deeper(f, ""); err != nil {
		return nil, f.fail(n, path, err, false) // the decision's commit is made
	}
	f.depth++
	jump, err := r.runSeq(ctx, f, br.seq, 0)
	f.depth--
	if ps := asPause(err); ps != nil {
		ps.at = append([]Step{{Node: n.id, Branch: br.name}}, ps.at...)
	}
	return jump, err
}

func (r *runner) runSelect(ctx context.Context, f *frame, n *node) error {
	ev, path, err := r.evaluate(ctx, f, n)
	if err != nil {
		return err
	}
	var brs []*branch
	for _, name := range ev.Chosen {
		if n.branchNamed(name) == nil {
			return f.fail(n, path, fmt.Errorf("selector %q chose branch %q, which does not exist (branches: %s)", n.name, name, n.branchNames()), false)
		}
	}
	for _, b := range n.branches { // declaration order
		for _, name := range ev.Chosen {
			if b.name == name {
				brs = append(brs, b)
				break
			}
		}
	}
	return r.fork(ctx, f, n, path, brs)
}

func (r *runner) runParallel(ctx context.Context, f *frame, n *node) error {
	x := f.begin(n, false)
	path := x.s.path
	f.end(n, x, nil, 0, nil, false)
	return r.fork(ctx, f, n, path, n.branches)
}

// child makes a branch frame reading through to f.
func (f *frame) child(prefix string, ownLog bool) *frame {
	c := &frame{r: f.r, parent: f, state: map[string]entry{}, prefix: prefix, depth: f.depth + 1}
	if ownLog {
		// A branch counts on from where its parent is, and the parent takes
		// up the highest count at the join (splice): runtime paths stay
		// unique even when a loop runs the same fan-out again, and stay the
		// same on every run, since no branch's count depends on another's.
		counter := *f.counter
		log := []Commit(nil)
		c.counter, c.log, c.branch = &counter, &log, true
		if f.rec != nil {
			c.rec = &emitter{mask: f.rec.mask}
		}
	} else {
		c.counter, c.log, c.rec = f.counter, f.log, f.rec
	}
	return c
}

// fanout runs work(i) for i in [0, n) on a bounded pool and waits. Errors
// are kept per index so the caller reports the first in declaration order,
// whatever finished first.
func (r *runner) fanout(n int, work func(i int) error) []error {
	errs := make([]error, n)
	guarded := func(i int) {
		defer func() {
			if v := recover(); v != nil {
				errs[i] = &PanicError{Value: v, Stack: string(debug.Stack())}
			}
		}()
		errs[i] = work(i)
	}
	switch n {
	case 0:
		return errs
	case 1:
		guarded(0)
		return errs
	}
	p := pool.New().WithMaxGoroutines(min(n, r.opts.concurrency))
	for i := 0; i < n; i++ {
		p.Go(func() { guarded(i) })
	}
	p.Wait()
	return errs
}

// fork runs branches in parallel, each in its own frame, then joins: logs
// and events spliced and writes merged in declaration order.
func (r *runner) fork(ctx context.Context, f *frame, n *node, path string, brs []*branch) error {
	if len(brs) == 0 {
		return nil
	}
	if err := r.deeper(f, ""); err != nil {
		return f.fail(n, path, err, false) // the fork's commit is made
	}
	names := make([]string, len(brs))
	for i, b := range brs {
		names[i] = b.name
	}
	if f.rec != nil {
		e := f.nodeEvent(recorder.Fork, n, path)
		e.Branches = names
		f.rec.emit(e)
	}
	children := make([]*frame, len(brs))
	for i, b := range brs {
		children[i] = f.child(f.prefixed(n.id)+"~"+b.name, true)
	}
	errs := r.fanout(len(brs), func(i int) error {
		c := children[i]
		if c.rec != nil {
			e := c.nodeEvent(recorder.BranchStart, n, path)
			e.Branch, e.Index = brs[i].name, i
			c.rec.emit(e)
		}
		jump, err := r.runSeq(ctx, c, brs[i].seq, 0)
		if err == nil && jump != nil {
			err = &RunError{Path: path, Stage: n.id, Message: fmt.Sprintf("a loop in branch %q jumps to %q, outside the branch", brs[i].name, jump.id)}
		}
		if c.rec != nil {
			e := c.nodeEvent(recorder.BranchEnd, n, path)
			e.Branch, e.Index = brs[i].name, i
			c.rec.emit(e)
		}
		return err
	})
	for _, c := range children {
		f.splice(c)
	}
	if err := firstErr(errs); err != nil {
		return err
	}
	if err := f.join(n, names, children); err != nil {
		return err
	}
	if f.rec != nil {
		e := f.nodeEvent(recorder.Join, n, path)
		e.Branches = names
		f.rec.emit(e)
	}
	return nil
}

func firstErr(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// splice appends a finished branch's commits and events to f's.
func (f *frame) splice(c *frame) {
	*f.log = append(*f.log, *c.log...)
	if c.branch && *c.counter > *f.counter {
		*f.counter = *c.counter
	}
	if f.rec != nil && c.rec != nil {
		for i := range c.rec.buf {
			f.rec.send(&c.rec.buf[i])
		}
		c.rec.buf = nil
	}
}

// join commits the branches' overlays into f as one commit of n, in
// declaration order. The same key written with different values by two
// branches is an error naming both; gathered keys (WithGather) are
// gathered instead. Each write names the branch commit it came from
// (Write.From), so a chain can be followed through the join.
func (f *frame) join(n *node, names []string, children []*frame) error {
	x := execution{s: f.newScope(n)}
	type owner struct {
		e      entry
		branch string
	}
	seen := map[string]owner{}
	for i, c := range children {
		for _, k := range c.order {
			if f.r.gathers(k) {
				continue
			}
			e := c.state[k]
			if prev, ok := seen[k]; ok {
				if prev.e.del != e.del || !rules.Equal(prev.e.v, e.v) {
					return f.end(n, x, nil, 0, &RunError{Path: x.s.path, Stage: n.id, Message: fmt.Sprintf("branches %q and %q both wrote %q with different values; parallel branches must write different keys (or the same value)", prev.branch, names[i], k)}, false)
				}
				continue
			}
			seen[k] = owner{e, names[i]}
			x.s.stage(k, e.v, e.del, e.writer)
		}
	}
	for _, k := range f.r.opts.gather {
		list, from, err := f.gather(k, children, names)
		if err != nil {
			return f.end(n, x, nil, 0, &RunError{Path: x.s.path, Stage: n.id, Message: err.Error()}, false)
		}
		if list != nil {
			x.s.stage(k, list, false, from)
		}
	}
	return f.end(n, x, nil, 0, nil, false)
}

// gathers says whether key is gathered at joins (WithGather).
func (r *runner) gathers(key string) bool {
	for _, k := range r.opts.gather {
		if k == key {
			return true
		}
	}
	return false
}

// gather is the one gathering of a key at a join (parallel, select, a
// subflow's) and at a foreach's end: the rows each branch appended to key,
// in branch order, after the rows the parent already had; the branch
// commits they came from (space-separated, Write.From); and the error of a
// branch that did not only append. A nil list: no branch appended a row.
func (f *frame) gather(key string, children []*frame, names []string) (list []any, from string, err error) {
	base, _ := f.lookup(key)
	baseRows, _ := base.v.([]any)
	var rows []any
	var froms []string
	for i, c := range children {
		e, ok := c.state[key]
		if !ok {
			continue
		}
		added, err := appendedRows(key, baseRows, e, names[i])
		if err != nil {
			return nil, "", err
		}
		if len(added) > 0 {
			rows = append(rows, added...)
			froms = append(froms, e.writer)
		}
	}
	if rows == nil {
		return nil, "", nil
	}
	list = make([]any, 0, len(baseRows)+len(rows))
	return append(append(list, baseRows...), rows...), strings.Join(froms, " "), nil
}

// appendedRows returns the rows a branch added after the base list.
func appendedRows(key string, base []any, e entry, branch string) ([]any, error) {
	if e.del {
		return nil, fmt.Errorf("branch %q deleted %q; branches may only append rows to it", branch, key)
	}
	rows, ok := e.v.([]any)
	if !ok {
		return nil, fmt.Errorf("branch %q wrote %q as %T; it must stay a list of rows", branch, key, e.v)
	}
	if len(rows) < len(base) {
		return nil, fmt.Errorf("branch %q removed rows from %q; branches may only append", branch, key)
	}
	return rows[len(base):], nil
}

// ItemsOf adapts a rules.Valuer (an expression) to a foreach's items: the
// value must be a list.
func ItemsOf(v rules.Valuer) ItemsFunc {
	return func(ctx context.Context, s *Scope) ([]any, error) {
		val, _, err := v.Value(s)
		if err != nil {
			return nil, err
		}
		switch l := val.(type) {
		case []any:
			return l, nil
		case nil:
			return nil, nil
		}
		// A typed list (expr's 0..9 is []int; split gives []string).
		if rv := reflect.ValueOf(val); rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array {
			l := make([]any, rv.Len())
			for i := range l {
				l[i] = rv.Index(i).Interface()
			}
			return l, nil
		}
		return nil, fmt.Errorf("items %s gave %T, not a list", v.String(), val)
	}
}

func (r *runner) runForEach(ctx context.Context, f *frame, n *node) error {
	fe := n.forEach
	x := f.begin(n, true)
	s := x.s
	var items []any
	err := r.call(ctx, s, func(ctx context.Context) error {
		var err error
		items, err = fe.items(ctx, s)
		return err
	})
	if err != nil {
		return f.end(n, x, nil, 0, err, ctx.Err() != nil)
	}
	if err := r.deeper(f, ""); err != nil {
		return f.end(n, x, nil, 0, err, false)
	}
	total := len(items)
	if total > fe.maxBranches {
		items = items[:fe.maxBranches]
		r.mu.Lock()
		r.truncs = append(r.truncs, Truncation{Path: s.path, Items: total, MaxBranches: fe.maxBranches})
		r.mu.Unlock()
		if f.rec != nil {
			e := f.nodeEvent(recorder.Truncated, n, s.path)
			e.Total, e.Index = total, fe.maxBranches
			f.rec.emit(e)
		}
	}
	if f.rec != nil {
		e := f.nodeEvent(recorder.Fork, n, s.path)
		e.Total = len(items)
		f.rec.emit(e)
	}
	prefix := f.prefixed(n.id) + "~"
	children := make([]*frame, len(items))
	for i, it := range items {
		c := f.child(prefix+strconv.Itoa(i), true)
		c.state[fe.as] = entry{v: it, writer: s.path}
		c.state[IndexKey] = entry{v: i, writer: s.path}
		c.order = append(c.order, fe.as, IndexKey)
		children[i] = c
	}
	errs := r.fanout(len(items), func(i int) error {
		c := children[i]
		if c.rec != nil {
			e := c.nodeEvent(recorder.BranchStart, n, s.path)
			e.Index, e.Branch = i, c.prefix
			c.rec.emit(e)
		}
		_, err := r.runSeq(ctx, c, fe.body.root, 0)
		if c.rec != nil {
			e := c.nodeEvent(recorder.BranchEnd, n, s.path)
			e.Index, e.Branch = i, c.prefix
			c.rec.emit(e)
		}
		return err
	})
	var results []any
	if fe.into != "" {
		results = make([]any, len(children))
	}
	names := make([]string, len(children))
	for i, c := range children {
		f.splice(c)
		names[i] = c.prefix
		if results != nil {
			results[i] = c.overlay(f.r.opts.gather)
		}
	}
	if f.rec != nil {
		e := f.nodeEvent(recorder.Join, n, s.path)
		e.Total = len(items)
		f.rec.emit(e)
	}
	if results != nil {
		s.Set(fe.into, results)
	}
	for _, k := range f.r.opts.gather {
		list, from, gerr := f.gather(k, children, names)
		if gerr != nil {
			if firstErr(errs) == nil {
				errs = append(errs, &RunError{Path: s.path, Stage: n.id, Message: gerr.Error()})
			}
			continue
		}
		if list != nil {
			s.setFrom(k, list, from)
		}
	}
	if err := firstErr(errs); err != nil {
		// A branch's failure, recorded where it happened: the foreach's own
		// execution ends with it, and the run fails with it.
		return f.end(n, x, nil, 0, err, false)
	}
	return f.end(n, x, nil, 0, nil, false)
}

// frameEnv reads a frame's state without tracking (output bindings read a
// finished subflow).
type frameEnv struct{ f *frame }

func (e frameEnv) Get(key string) (any, bool) {
	en, ok := e.f.lookup(key)
	return en.v, ok
}

func (r *runner) runSubflow(ctx context.Context, f *frame, n *node) error {
	x := f.begin(n, true)
	s := x.s
	path := s.path
	if err := r.deeper(f, " subflows and branches (a subflow that mounts itself?)"); err != nil {
		return f.end(n, x, nil, 0, err, false)
	}
	c := f.child(f.prefixed(n.id), false)
	isolated := n.mount.Inputs != nil
	if isolated {
		c.parent = nil
		for _, b := range n.mount.Inputs {
			v, _, err := b.From.Value(s)
			if err != nil {
				return f.end(n, x, nil, 0, fmt.Errorf("subflow input %q: %w", b.Key, err), false)
			}
			c.state[b.Key] = entry{v: v, writer: path}
		}
	}
	f.end(n, x, nil, 0, nil, false)
	f.event(f.nodeEvent(recorder.SubflowEnter, n, path))
	jump, err := r.runSeq(ctx, c, n.subflow.root, 0)
	f.event(f.nodeEvent(recorder.SubflowExit, n, path))
	if err != nil {
		return err
	}
	if jump != nil {
		return &RunError{Path: path, Stage: n.id, Message: fmt.Sprintf("a loop jumps to %q, outside the subflow", jump.id)}
	}
	if n.mount.Outputs == nil {
		if isolated {
			c.parent = f
		}
		return f.join(n, []string{n.id}, []*frame{c})
	}
	out := f.begin(n, false)
	env := frameEnv{c}
	for _, b := range n.mount.Outputs {
		v, _, err := b.From.Value(env)
		if err != nil {
			return f.end(n, out, nil, 0, fmt.Errorf("subflow output %q: %w", b.Key, err), false)
		}
		out.s.Set(b.Key, v)
	}
	return f.end(n, out, nil, 0, nil, false)
}

// setLoop records a loop's passes, making the map on the first.
func (f *frame) setLoop(n *node, count int) {
	if f.loops == nil {
		f.loops = make(map[*node]int)
	}
	f.loops[n] = count
}

func (r *runner) runLoop(ctx context.Context, f *frame, n *node) (*node, error) {
	x := f.begin(n, false)
	holds := true
	var msg string
	if n.loop.While != nil {
		out := n.loop.While.Eval(x.s)
		holds = out.Matched
		msg = out.Err
	}
	path := x.s.path
	if msg != "" {
		x.msg = msg
		return nil, f.end(n, x, nil, 0, fmt.Errorf("loop condition %s: %s", n.loop.While.String(), msg), false)
	}
	f.end(n, x, nil, 0, nil, false)
	if !holds {
		delete(f.loops, n) // the bound is per activation: a loop entered again starts afresh
		return nil, nil
	}
	count := f.loops[n] + 1
	if count > n.loop.Max {
		return nil, f.fail(n, path, fmt.Errorf("loop %q reached its bound of %d passes back to %q and its condition still held; the runbook did not settle", n.id, n.loop.Max, n.loop.To), false)
	}
	f.setLoop(n, count)
	if f.rec != nil {
		e := f.nodeEvent(recorder.Loop, n, path)
		e.Target, e.Index, e.Total = n.loop.To, count, n.loop.Max
		f.rec.emit(e)
	}
	return n.loopTarget, nil
}

// sortedKeys is used where map order would leak into a record.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
