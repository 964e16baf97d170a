package flow

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openrunbook/runbook/recorder"
)

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
	// final is the final committed state (State), kept as the root
	// frame's slots until a reader asks for it as a map.
	final *finalState
	// Log is every commit, in order (parallel branches spliced in
	// declaration order).
	Log Log
	// Pause and Checkpoint are set when the run paused at a stage that asks.
	Pause      *Pause
	Checkpoint *Checkpoint
	// Truncations lists foreach nodes that had more items than maxBranches.
	Truncations []Truncation
	// NullItems lists foreach nodes whose items expression was null.
	NullItems []NullItems
	// Continued lists the failures the run went on past (ContinueOnError),
	// in the order they happened.
	Continued []Continued
	// RecorderProblems lists recorders that panicked or failed; they never
	// break the run.
	RecorderProblems []recorder.Problem
	// Stages is the number of stage executions (commits).
	Stages int
	// Elapsed is the run's wall time (the one field that varies between runs
	// of the same chart and inputs, with the events' timings).
	Elapsed time.Duration
}

// State is the run's final committed state, a key for each value. The
// map is built the first time it is asked for and is the same map on
// every call after: a run's caller that reads no state (a benchmark, a
// run judged from its log) builds none — the map was a tenth of a short
// run's instructions and two of its five allocations. Callers share the
// map: change a copy (maps.Clone), not it. Nil for a Result that holds no
// state (its zero value).
func (r *Result) State() map[string]any {
	if r.final == nil {
		return nil
	}
	return r.final.get()
}

// SetState gives a Result built outside a run (a rejected question's, a
// test's) its final state m, which State then returns.
func (r *Result) SetState(m map[string]any) {
	r.final = &finalState{}
	r.final.SetMap(m)
}

// finalState is a run's final state as its root frame held it, spelled
// out as a map once asked. It takes no lock: two goroutines asking at once
// may both spell it, and the first to store its map is the map every
// caller gets. (A sync.Once here made the runner, which holds one, 8 bytes
// too large for its allocation size class: TestShortRunnerIsOneSmallAllocation.)
type finalState struct {
	slots []slot
	m     atomic.Pointer[map[string]any]
}

func (fs *finalState) get() map[string]any {
	if p := fs.m.Load(); p != nil {
		return *p
	}
	m := make(map[string]any, len(fs.slots))
	for i := range fs.slots {
		if s := &fs.slots[i]; !s.del {
			m[s.key] = s.v
		}
	}
	if !fs.m.CompareAndSwap(nil, &m) {
		return *fs.m.Load()
	}
	return m
}

// SetMap makes m the state, built already.
func (fs *finalState) SetMap(m map[string]any) { fs.m.Store(&m) }

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

// clockBase is the start of the monotonic readings a run's Elapsed is the
// difference of: time.Since of a time read with its monotonic clock reads
// that clock alone, where time.Now reads the wall clock too — a run's one
// use of the clock needs no wall time, and its second reading cost a short
// run a twentieth of its time.
var clockBase = time.Now()

// Run executes the chart. The error is nil when the run completed or paused;
// otherwise it is the Result's Err. The Result is never nil.
func (c *Chart) Run(ctx context.Context, opts ...RunOption) (*Result, error) {
	r := newRunner(c, opts)
	root := r.rootFrame()
	if len(r.opts.inputs) > 0 { // not even an iterator's set-up for none
		for k, v := range r.opts.inputs {
			root.state.put(k, entry{v: v})
		}
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
	live   *liveSink // WithLiveRecorders; nil when none
	stages atomic.Int64

	mu        sync.Mutex
	truncs    []Truncation
	nulls     []NullItems
	continued []Continued
	// started is when the run started, as a reading of the monotonic clock
	// (clockBase).
	started time.Duration // on the monotonic clock: since clockBase
	// begun is set once the run has started its first node in the root
	// frame (WithYield never stops a run before it).
	begun bool
	// continues says the run goes on from a yielded one (a checkpoint of
	// kind CheckpointContinue): it is not a new start for the recorders.
	continues bool

	// The root frame, its counter, log and event emitter, the Result, and
	// the first scope and arena chunks of the root frame live here, so a
	// short run starts
	// with one allocation for all of them. What a Result keeps of the runner
	// (paths and evidence in these first chunks) keeps it alive; finish
	// drops the runner's other references so that nothing else is kept.
	root    frame
	rec0    emitter // the root frame's, when a recorder is attached
	arena0  arena
	counter int
	log     []packedCommit
	res     Result
	final   finalState
	// arenas are the run's arenas that kept commits (arenaID), under mu.
	arenas  []*arena
	arenas0 [1]*arena
	// plog is the Result's log as the run kept it (Log.packed).
	plog    packedLog
	scope0  Scope
	strs0   [96]byte
	reads0  [4]Read
	writes0 [6]Write
	// log0 and state0 are the first room of a short run's log and root
	// state (what its state held, its log holds too). Every first room
	// here is sized for a short run — three commits, six writes, six
	// keys — and no larger: the runner is allocated, zeroed and scanned
	// whole on every run (TestShortRunnerIsOneSmallAllocation).
	log0   [3]packedCommit
	state0 [6]slot
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
	if len(r.opts.recorders) > 0 {
		r.disp = recorder.NewDispatcher(r.opts.recorders...)
	}
	if len(r.opts.live) > 0 {
		d := recorder.NewDispatcher(r.opts.live...)
		r.live = &liveSink{d: d, mask: d.Mask()}
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
	if size <= len(r.log0) {
		r.log = r.log0[:0]
	} else {
		r.log = make([]packedCommit, 0, size)
	}
	f := &r.root
	keys := int(r.chart.lastState.Load())
	if keys == 0 {
		keys = min(len(r.chart.byID), 1024)
	}
	// r is new, so all of it is zero: its fields are set one by one, not
	// as whole structs, whose copies write every pointer word of them
	// through the collector's write barrier when it is marking.
	if keys <= len(r.state0) {
		f.state.slots = r.state0[:0]
	} else {
		f.state = newState(keys)
	}
	f.r, f.counter, f.log, f.arena = r, &r.counter, &r.log, &r.arena0
	f.arena.strs = r.strs0[:0]
	f.arena.firstRooms(r.reads0[:], r.writes0[:])
	r.scope0.f = f
	r.scope0.staged = r.scope0.stagedBuf[:0]
	f.arena.spare = &r.scope0
	if r.disp != nil || r.live != nil {
		e := &r.rec0
		e.d, e.mask, e.deliver, e.live = r.disp, r.disp.Mask(), r.disp.Mask(), r.live
		if r.live != nil {
			e.mask |= r.live.mask
		}
		f.rec = e
	}
	return f
}

// finish runs body under the run's timeout and turns what it returned into
// a Result.
func (r *runner) finish(ctx context.Context, root *frame, body func(context.Context) error) (*Result, error) {
	r.started = time.Since(clockBase)
	if r.opts.timeout > 0 {
		var cancel context.CancelFunc
		if r.opts.deadline != nil {
			ctx, cancel = r.opts.deadline(ctx, r.opts.timeout)
		} else {
			ctx, cancel = context.WithTimeout(ctx, r.opts.timeout)
		}
		defer cancel()
	}
	if !r.continues {
		root.event(recorder.Event{Kind: recorder.RunStart, StageName: r.chart.name})
	}
	err := body(ctx)

	res := &r.res // zero until now: set field by field (see rootFrame)
	res.Chart, res.Status, res.Stages = r.chart.name, StatusCompleted, int(r.stages.Load())
	r.mu.Lock()
	r.plog.commits, r.plog.arenas, r.plog.base = *root.log, r.arenas, root.logBase
	res.Log.packed = &r.plog
	r.mu.Unlock()
	if root.logBase == 0 {
		r.chart.lastLog.Store(int64(len(*root.log)))
		r.chart.lastState.Store(int64(root.state.len()))
	}
	if len(r.opts.inputs) > 0 {
		res.Log.Inputs = r.opts.inputs
	}
	if root.parent == nil {
		r.final.slots = root.state.slots // release drops the frame's hold, not this one
	} else {
		r.final.SetMap(root.snapshot())
	}
	res.final = &r.final
	res.Truncations = r.truncs
	res.NullItems = r.nulls
	res.Continued = r.continued

	ps := asPause(err)
	switch {
	case err == nil:
	case ps != nil:
		res.Status = StatusPaused
		res.Pause = ps.pause
		res.Checkpoint = root.checkpoint(r.chart, ps)
		err = nil
		if ps.pause == nil { // yielded: the run goes on elsewhere, no trace here
			res.Elapsed = time.Since(clockBase) - r.started
			return r.flushed(res), nil
		}
		root.event(recorder.Event{Kind: recorder.Pause, Path: ps.pause.Path, StageID: ps.pause.Stage})
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
	res.Elapsed = time.Since(clockBase) - r.started
	if res.Status == StatusCompleted || res.Status == StatusPaused {
		root.event(recorder.Event{Kind: recorder.RunEnd, StageName: r.chart.name, Elapsed: res.Elapsed})
	} else {
		root.event(recorder.Event{Kind: recorder.RunFailed, StageName: r.chart.name, Path: res.Err.Path, Err: res.Err.Message, Elapsed: res.Elapsed})
	}
	return r.flushed(res), err
}

// flushed delivers what the recorders still hold and lets the runner go.
func (r *runner) flushed(res *Result) *Result {
	if r.disp != nil {
		r.disp.Flush()
		res.RecorderProblems = r.disp.Problems()
	}
	if r.live != nil {
		// A live recorder that buffers (recorder.NDJSON) is flushed as the
		// others are: it was not, and a run's whole event stream, or its
		// last 4 KiB (the decisions, the end), never reached its writer
		// (TestLiveRecordersAreFlushed).
		r.live.d.Flush()
		res.RecorderProblems = append(res.RecorderProblems, r.live.d.Problems()...)
	}
	r.release()
	return res
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
	f.state, f.loops, f.rec, r.arena0.spare = state{}, nil, nil, nil
	r.rec0.d, r.rec0.live, r.rec0.buf = nil, nil, nil // and so the recorders
	// the arena's chunks are held by the commits that use them; its slab's
	// first box may hold a decision's evidence, so the arena stays
	r.log = nil
	r.disp, r.live = nil, nil
	r.opts = runOptions{}
	if s := &r.scope0; s.mu == nil { // never one an abandoned stage may still hold
		// What it refers to beyond the runner and the log: its grown
		// buffers, its node (and so the chart), its last question and
		// refusal. Its own buffer holds values the log holds.
		s.n, s.reads, s.staged, s.stagedIdx, s.pending, s.ask, s.refused = nil, nil, nil, nil, nil, nil, nil
	}
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
