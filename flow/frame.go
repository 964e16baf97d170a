package flow

import (
	"slices"
	"sync"

	"github.com/openrunbook/runbook/recorder"
)

// entry is one committed value and the commit that wrote it. A deleted key
// keeps its entry (del) so a later read can name who removed it.
type entry struct {
	v      any
	writer string
	del    bool
	// bound marks a subflow's input binding in its frame: a value the
	// frame was given, not one it wrote, so its join leaves it out.
	bound bool
	// fact: written by SetFact, so its join writes it on even when the
	// value is the one the parent holds.
	fact bool
	// derived: written by SetDerived; its join leaves it out when it is
	// the value the parent holds, as a write that changed nothing.
	derived bool
}

// frame is where a sequence of stages runs: the root of a run, a subflow, or
// one branch of a fan-out. A branch frame has its own overlay state, log and
// event buffer, and reads through to its parent, which does not change while
// the branch runs (the parent waits at the join).
type frame struct {
	r      *runner
	parent *frame
	// state is the frame's own keys, in first-written order, so merges
	// (and the errors they report) are deterministic.
	state state
	// steps is the scope this frame runs in (shared by its commits, never
	// changed); prefix is its display path, general the same with item
	// indexes written `*` (GeneralScope).
	steps   []ScopeStep
	prefix  string
	general string
	branch  bool
	// isolated marks an isolated mount's subflow (Mount.Inputs): it began
	// with none of its parent's keys, a gathered key's rows among them, so
	// every row it holds at the join is its own (gather).
	isolated bool
	counter  *int
	log      *[]packedCommit
	logBase  int
	// ownCount and ownLog are a branch frame's own counter and log
	// (counter and log point at them); other frames share their parent's.
	ownCount int
	ownLog   []packedCommit
	// ref is this frame's place in refArena's refs, for nodes of refOwner
	// (refIn).
	ref      uint32
	refArena *arena
	refOwner *Chart
	rec      *emitter
	depth    int
	// loops counts the passes of each active loop (made on the first jump).
	loops []loopPasses
	// arena holds what this frame's commits keep (paths, reads, writes)
	// and its spare scope. Frames that run one after another on one
	// goroutine share one: a subflow its parent's, the branches a fan-out
	// worker runs the worker's (fanout); a branch frame has none until it
	// runs.
	arena *arena
}

// emitter delivers events: straight to the dispatcher at the root, into a
// buffer in a branch (spliced into the parent's at the join); and, in every
// frame, at once to the live recorders (WithLiveRecorders).
type emitter struct {
	d   *recorder.Dispatcher
	buf []recorder.Event
	// mask: the kinds some attached or live recorder wants; the others are
	// never built on the hot paths, and dropped here elsewhere.
	mask uint32
	// deliver: the kinds some attached recorder wants (Dispatcher.Mask):
	// those go to d or buf.
	deliver uint32
	live    *liveSink // nil: no live recorder
}

// liveSink is the run's live recorders behind their own dispatcher (the
// one rule that a recorder never breaks the run), called by one branch's
// goroutine at a time.
type liveSink struct {
	mu   sync.Mutex
	d    *recorder.Dispatcher
	mask uint32
}

func (l *liveSink) record(ev *recorder.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.d.RecordEvent(ev)
}

// wants says whether an event of kind k would reach a recorder; false on a
// nil emitter (no recorder attached).
func (e *emitter) wants(k recorder.Kind) bool { return e != nil && e.mask&(1<<k) != 0 }

// wantsEvidence says whether some recorder wants a decision's evidence as
// it is made (recorder.EvidenceMask); one that reads compact decisions
// is sent the decision compact.
func (e *emitter) wantsEvidence() bool { return e != nil && e.mask&recorder.EvidenceMask != 0 }

func (e *emitter) emit(ev recorder.Event) { e.send(&ev) }

// send is emit by pointer, for the hot paths (scope reads and writes, stage
// starts): an Event is 216 bytes, and the dispatcher reads it in place.
func (e *emitter) send(ev *recorder.Event) {
	bit := uint32(1) << ev.Kind
	if e.mask&bit == 0 {
		return
	}
	if e.live != nil && e.live.mask&bit != 0 {
		e.live.record(ev)
	}
	e.pass(ev)
}

// pass hands ev on to the attached recorders (or the branch's buffer),
// never to the live ones: a branch's buffered events, spliced at the join,
// were live when they happened.
func (e *emitter) pass(ev *recorder.Event) {
	if e.deliver&(1<<ev.Kind) == 0 {
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
	return recorder.Event{Kind: k, Path: path, StageID: n.id, StageName: n.name, Subflow: f.prefix, Place: f.general}
}

func (f *frame) lookup(key string) (entry, bool) {
	e := f.see(key)
	switch {
	case e == nil:
		return entry{}, false
	case e.del:
		return entry{writer: e.writer}, false
	}
	return *e, true
}

// see is the entry a read of key finds — the frame's own, or its nearest
// ancestor's, a tombstone included — in place; nil when none holds key. A
// frame's ancestors do not change while it runs (they wait at its join).
func (f *frame) see(key string) *entry {
	for fr := f; fr != nil; fr = fr.parent {
		if i := fr.state.find(key); i >= 0 {
			return &fr.state.slots[i].entry
		}
	}
	return nil
}

// snapshot is the frame's visible state as plain values.
func (f *frame) snapshot() map[string]any {
	out := make(map[string]any, f.state.len())
	if f.parent == nil {
		for i := range f.state.slots {
			if s := &f.state.slots[i]; !s.del {
				out[s.key] = s.v
			}
		}
		return out
	}
	var chain []*frame
	for fr := f; fr != nil; fr = fr.parent {
		chain = append(chain, fr)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		for _, s := range chain[i].state.slots {
			if s.del {
				delete(out, s.key)
			} else {
				out[s.key] = s.v
			}
		}
	}
	return out
}

// overlay is the frame's own writes as plain values (tombstones as
// absent), less the keys in skip.
func (f *frame) overlay(skip []string) map[string]any {
	out := make(map[string]any, f.state.len())
	for i := range f.state.slots {
		s := &f.state.slots[i]
		if s.bound || s.del || slices.Contains(skip, s.key) {
			continue
		}
		out[s.key] = s.v
	}
	return out
}

// take takes the frame's next execution counter.
func (f *frame) take() int {
	n := *f.counter
	*f.counter++
	return n
}

// spell is the display path of node id's execution numbered n in this
// frame (prefix/id#n), written into the frame's arena.
func (f *frame) spell(id string, n int) string {
	return f.arena.path(f.prefix, id, n)
}

// newScope starts a stage execution: the frame's spare scope when it has
// one (its buffers reused), a new one otherwise.
func (f *frame) newScope(n *node) *Scope {
	s := f.arena.spare
	if s == nil {
		s = newScope(f, n)
		s.count = f.take()
		s.reads = f.arena.readRoom()
		return s
	}
	f.arena.spare = nil
	if s.f != f {
		s.f = f
	}
	s.n = n
	s.path, s.count = "", f.take()
	s.reads = f.arena.readRoom()
	return s
}

// release hands a committed scope back to its frame for the next stage.
// A scope whose stage ran on its own goroutine is never reused: an
// abandoned stage may still hold it.
//
// The buffers are cut to length zero, not cleared: what they held was
// just committed, so the log keeps it alive anyway (all but a staged value
// equal to the one it replaced), and the next stage overwrites it; the
// runner and a fan-out worker drop their spare scope when the run or the
// worker is done. Clearing them ran the collector's write barrier over
// every pointer word, on every stage.
func (f *frame) release(s *Scope) {
	if s.mu != nil || s.f != f {
		return
	}
	// s.reads is in the log now; newScope gives the next stage fresh room.
	// A buffer cut back to its start is one statement each, so that only
	// its length is stored (the compiler writes no pointer, and so runs
	// no write barrier, for a slice cut in place), and a field already
	// empty is not written again.
	s.staged = s.staged[:0]
	s.pending = s.pending[:0]
	s.perKey, s.pendingOwn = false, false
	if s.stagedIdx != nil {
		s.stagedIdx = nil
	}
	if s.ask != nil {
		s.ask = nil
	}
	if s.refused != nil {
		s.refused = nil
	}
	if s.gathered.Load() {
		s.gathered.Store(false)
	}
	f.arena.spare = s
}

// child makes the frame of a scope step below f (a branch, a foreach item,
// a subflow mount), reading through to f. general, when not "", is the
// new scope's general spelling (GeneralScope), which every item of one
// foreach shares: the caller spells it once rather than once an item.
func (f *frame) child(st ScopeStep, ownLog bool, general string) *frame {
	steps := make([]ScopeStep, len(f.steps), len(f.steps)+1)
	copy(steps, f.steps)
	steps = append(steps, st)
	c := &frame{r: f.r, parent: f, steps: steps, prefix: ScopeString(steps), depth: f.depth + 1}
	// Without a foreach item in the scope the general spelling is the
	// display path: share it rather than spell it again per branch.
	switch {
	case general != "":
		c.general = general
	case st.Item != nil || f.general != f.prefix:
		c.general = GeneralScope(steps)
	default:
		c.general = c.prefix
	}
	if ownLog {
		// A branch counts on from where its parent is, and the parent takes
		// up the highest count at the join (splice): runtime paths stay
		// unique even when a loop runs the same fan-out again, and stay the
		// same on every run, since no branch's count depends on another's.
		// Its counter and log live in its frame: one allocation, not three.
		c.ownCount = *f.counter
		c.counter, c.log, c.branch = &c.ownCount, &c.ownLog, true
		if f.rec != nil {
			c.rec = &emitter{mask: f.rec.mask, deliver: f.rec.deliver, live: f.rec.live}
		}
	} else {
		c.counter, c.log, c.rec, c.arena = f.counter, f.log, f.rec, f.arena
	}
	return c
}

// splice appends a finished branch's commits and events to f's.
func (f *frame) splice(c *frame) {
	*f.log = append(*f.log, *c.log...)
	if c.branch && *c.counter > *f.counter {
		*f.counter = *c.counter
	}
	if f.rec != nil && c.rec != nil {
		for i := range c.rec.buf {
			f.rec.pass(&c.rec.buf[i])
		}
		c.rec.buf = nil
	}
}
