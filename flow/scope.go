package flow

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/recorder"
)

// Scope is a stage's view of the run's state. Reads are tracked (the key,
// the value seen, and which commit wrote it); writes are staged, visible to
// this stage at once (read-your-writes) and to other stages only after this
// stage commits. Values read are shared, not copied: treat them as read-only
// and write a new value instead of changing one in place.
//
// A Scope is valid only during its stage's execution. Its methods are safe
// for the stage's own goroutine; a stage that starts goroutines must not use
// the scope from them after it returns.
type Scope struct {
	f     *frame
	n     *node
	path  string
	count int // the execution counter in path
	reads []Read
	// staged writes, in first-written order.
	staged []staged
	// index over staged once it grows past a handful of keys.
	stagedIdx map[string]int

	// mu is set when the stage runs on its own goroutine (it has a timeout or
	// the run can be cancelled), so an abandoned stage's late writes can be
	// cut off safely.
	mu        *sync.Mutex
	abandoned bool

	ask *Pause

	// refused is the first write Set refused (a value no JSON can hold):
	// the stage fails with it when it returns (runStage).
	refused error

	// gathered: the stage asked the world (Gathered); its writes are
	// facts. Atomic: goroutines a stage waits for may run its commands.
	gathered atomic.Bool

	// the first writes go here, so a short stage allocates no buffer (a
	// frame reuses its scope, buffer and all, stage after stage); its
	// reads go straight into its arena's room (arena.readRoom)
	stagedBuf [4]staged

	// pending are the keys read since BeginKey, each once; perKey says
	// BeginKey was called in this stage; pendingOwn that one of pending
	// read the stage's own staged write, not a Read.
	pending    []string
	perKey     bool
	pendingOwn bool
}

// Now is what time it is for the stage's expressions (rules.Clock): the
// run's clock (WithClock), or the host's.
func (s *Scope) Now() time.Time {
	if c := s.f.r.opts.clock; c != nil {
		return c()
	}
	return time.Now()
}

// Zone is this machine's zone for the stage's expressions (rules.Zoned):
// the run's (WithZone), or nil for the host's.
func (s *Scope) Zone() *time.Location { return s.f.r.opts.zone }

// newScope makes a scope with its write buffer in place; the caller gives
// it room for its reads (arena.readRoom).
func newScope(f *frame, n *node) *Scope {
	s := &Scope{f: f, n: n}
	s.staged = s.stagedBuf[:0]
	return s
}

type staged struct {
	key         string
	value       any
	deleted     bool
	fact        bool // SetFact: written even when equal to the value it replaces
	derived     bool // SetDerived: so too, but a join leaves it out when it leaves the parent's value as it was
	readsBefore int
	// readKeys, when set, are the keys read since the stage's previous
	// write (see Write.ReadKeys); nil when they are all its reads so far.
	readKeys *[]string
	from     []string
}

const stagedIndexAt = 8

// Get returns the value at key and whether it exists. It implements
// rules.Env, so rules read through the same tracked path as stages.
func (s *Scope) Get(key string) (any, bool) {
	if s.mu != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.abandoned {
			return nil, false
		}
	}
	if i := s.find(key); i >= 0 {
		// A key the stage wrote reads its own write: the key computed now
		// rests on it (Write.ReadKeys names it, dataCauses follows it).
		s.note(key)
		s.pendingOwn = s.pendingOwn || s.perKey
		st := &s.staged[i]
		return st.value, !st.deleted
	}
	s.note(key)
	// A key read before in this stage reads the same again: the state a
	// stage sees does not change until it commits (a branch's parent waits
	// at the join). Only the first read is tracked and is an event.
	for i := range s.reads {
		if r := &s.reads[i]; r.Key == key {
			return r.Value, !r.Missing
		}
	}
	var v any
	var writer string
	ok := false
	if e := s.f.see(key); e != nil {
		writer = e.writer
		if !e.del {
			v, ok = e.v, true
		}
	}
	n := len(s.reads)
	if n == cap(s.reads) {
		s.reads = s.f.arena.moreReads(s.reads)
	}
	// the read is written in its place in the arena's room, field by
	// field: an append of a whole Read built first copied it twice
	s.reads = s.reads[:n+1]
	r := &s.reads[n]
	r.Key, r.Value, r.Writer, r.Missing = key, v, writer, !ok
	if s.f.rec != nil { // no call at all when nobody listens
		s.emit(recorder.Read, key, v, !ok)
	}
	return v, ok
}

// Value returns the value at key, or nil when it does not exist.
func (s *Scope) Value(key string) any {
	v, _ := s.Get(key)
	return v
}

// Set stages a write of key. A value JSON cannot hold as it is (a float
// NaN or ±Inf anywhere in it, a text that is not UTF-8, a []byte, which
// JSON writes as base64 while a rule reads numbers, a channel, a
// function) is refused: it is not
// written, and the stage fails when it returns, naming the key — the
// run's state is what its record holds, and a record is JSON.
//
// A write of the very Go value the key holds (reflect.DeepEqual) changes
// nothing and is left out of the commit; one equal under the comparison
// law but of another Go type (1 over 1.0, []int{1} over []any{1}, a time
// in another zone) is written, so the next stage reads what this one set.
func (s *Scope) Set(key string, v any) { s.set(key, v, false, false) }

// SetFact is Set for a fact the stage gathered — what a process it ran
// answered — rather than a value it computed: it is written, and the
// stage named its writer, even when it equals the value it replaces. Set
// leaves out a write that changes nothing, and a fact that carries a
// timing (an exec stage's durationMs) equalled the last one only when the
// two timings happened to agree, so whether the commit held the write,
// and whom explain named, depended on the clock.
func (s *Scope) SetFact(key string, v any) { s.set(key, v, true, false) }

// SetDerived is Set for a value the stage computed now from what it read
// now (a set: key's expression): like a fact, it is written, and the stage
// named its writer, even when it equals the value it replaces, since it
// rests on this execution's reads, not on the earlier write's. Left to
// Set's rule, a loop's second pass whose set: gave false again wrote
// nothing, and the loop's next jump was explained by the FIRST pass's
// reads (runbook TestLoopPassNamesItsOwnSetAndRead). Unlike a fact, a
// join of parallel branches leaves out a derived value that leaves the
// parent's as it was, as it left out a write that changed nothing: a
// branch's set: {worst: max(worst, 0)} beside another's max(worst, 2)
// is no conflict (runbook TestJoinOfADerivedValueThatChangedNothing).
func (s *Scope) SetDerived(key string, v any) { s.set(key, v, false, true) }

// Gathered says this stage execution asked the world (runbook.RunCommand
// calls it for each command it runs): every write it makes, before or
// after, commits as a fact (SetFact), named to this execution even when it
// equals the value it replaces. Left to Set's rule, a loop's second pass
// whose command answered as the first did wrote nothing, and explain
// named the first pass's command as the evidence for what the second
// decided — or hid that the second's command had failed. It costs one
// write per unchanged key a gathering stage sets.
func (s *Scope) Gathered() { s.gathered.Store(true) }

func (s *Scope) set(key string, v any, fact, derived bool) {
	if !s.n.jsonWrites {
		if err := jsonv.Writable(v); err != nil {
			if s.refused == nil {
				s.refused = fmt.Errorf("the stage wrote %q = %s; a run's state holds JSON values only, so the write is refused", key, err)
			}
			return
		}
	}
	s.write(key, v, false, fact, derived)
}

// Delete stages the removal of key.
func (s *Scope) Delete(key string) { s.write(key, nil, true, false, false) }

// RunValue is the value the run was given with WithRunValue (nil: none).
func (s *Scope) RunValue() any { return s.f.r.opts.value }

// Path is the stage's runtime path (`per-volume~3/posture#2`).
func (s *Scope) Path() string { return s.where() }

// where is the scope's display path, spelled when first asked for: most
// executions of a long run are never named — no recorder listens, nothing
// fails, nothing is written — and spelling every one was a seventh of
// loop10k's instructions. Whatever may name the execution after its
// scope is released, or from another goroutine, spells it before
// (runner.call, runForEach, runSubflow, the fork).
func (s *Scope) where() string {
	if s.path == "" {
		s.path = s.f.spell(s.n.id, s.count)
	}
	return s.path
}

// Stage is the stage's id.
func (s *Scope) Stage() string { return s.n.id }

// ErrPaused is returned by Ask; a stage returns it to pause the run.
var ErrPaused = errors.New("flow: run paused for input")

// Ask pauses the run after this stage commits, to wait for a person's
// answer: expects maps each answer name to its type name (checked by the
// caller that resumes). The stage returns what Ask returns:
//
//	return s.Ask("Restart db-1 now?", map[string]string{"approve": "bool"})
//
// A run can pause only outside parallel, select and foreach branches and
// outside subflows; elsewhere Ask returns an error saying so.
func (s *Scope) Ask(question string, expects map[string]string) error {
	if s.f.branch || s.f.prefix != "" {
		return errors.New("a run can pause only at the top level of its chart or inside a decider's branch, not inside a parallel, select, foreach branch or subflow")
	}
	ex := make(map[string]string, len(expects))
	for k, v := range expects {
		ex[k] = v
	}
	s.ask = &Pause{Path: s.where(), Stage: s.n.id, Question: question, Expects: ex}
	return ErrPaused
}

func (s *Scope) write(key string, v any, del, fact, derived bool) {
	if s.mu != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.abandoned {
			return
		}
	}
	if i := s.find(key); i >= 0 {
		s.staged[i].value, s.staged[i].deleted, s.staged[i].fact, s.staged[i].derived = v, del, fact, derived
		s.pending, s.pendingOwn = s.pending[:0], false
	} else {
		rk := s.sinceWrite()
		n := len(s.staged)
		if n == cap(s.staged) {
			s.staged = slices.Grow(s.staged, 1)
		}
		// written field by field, the pointer fields only where they
		// change (the buffer is reused stage after stage): a whole staged
		// write copied in went through the collector's bulk barrier
		// whenever it was marking
		s.staged = s.staged[:n+1]
		st := &s.staged[n]
		st.key, st.value, st.deleted, st.fact, st.derived, st.readsBefore = key, v, del, fact, derived, len(s.reads)
		if st.readKeys != rk {
			st.readKeys = rk
		}
		if st.from != nil {
			st.from = nil
		}
		if s.stagedIdx != nil {
			s.stagedIdx[key] = len(s.staged) - 1
		} else if len(s.staged) > stagedIndexAt {
			s.stagedIdx = make(map[string]int, len(s.staged)*2)
			for j, st := range s.staged {
				s.stagedIdx[st.key] = j
			}
		}
	}
	if s.f.rec != nil {
		s.emit(recorder.Write, key, v, del)
	}
}

// BeginKey says the stage is about to compute its next key from reads of
// its own (a set: stage, one expression a key): that key's write then rests
// on the keys read since BeginKey, not on every earlier read of the stage
// (Write.ReadKeys), and explain credits it so. A stage that never calls it
// has each write rest on every read before it.
func (s *Scope) BeginKey() {
	if s.mu != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	s.perKey = true
	s.pending, s.pendingOwn = s.pending[:0], false
}

// note keeps key among the keys read since BeginKey.
func (s *Scope) note(key string) {
	if !s.perKey {
		return
	}
	for _, k := range s.pending {
		if k == key {
			return
		}
	}
	s.pending = append(s.pending, key)
}

// sinceWrite is the keys read since the previous write, when they are not
// every key the stage has read (nil then: Write.ReadsBefore says it), and
// starts the next write's keys afresh.
func (s *Scope) sinceWrite() *[]string {
	var out *[]string
	// Equal counts mean every read only when no pending key is the
	// stage's own write (which is not among its reads).
	if s.perKey && (len(s.pending) != len(s.reads) || s.pendingOwn) {
		ks := slices.Clone(s.pending)
		if ks == nil {
			ks = []string{}
		}
		out = &ks
	}
	s.pending, s.pendingOwn = s.pending[:0], false
	return out
}

func (s *Scope) find(key string) int {
	if s.stagedIdx != nil {
		if i, ok := s.stagedIdx[key]; ok {
			return i
		}
		return -1
	}
	for i := range s.staged {
		if s.staged[i].key == key {
			return i
		}
	}
	return -1
}

func (s *Scope) emit(k recorder.Kind, key string, v any, gone bool) {
	if !s.f.rec.wants(k) {
		return
	}
	ev := recorder.Event{Kind: k, Path: s.where(), StageID: s.n.id, StageName: s.n.name, Subflow: s.f.prefix, Place: s.f.general, Key: key, Value: v}
	if k == recorder.Read {
		ev.Missing = gone // the read found no key
	} else {
		ev.Deleted = gone // the write removes the key
	}
	s.f.rec.send(&ev)
}

// abandon cuts off a stage that outlived its context: from now on its reads
// see nothing and its writes are dropped.
func (s *Scope) abandon() {
	s.mu.Lock()
	s.abandoned = true
	s.mu.Unlock()
}

// setFrom is Set for a value gathered from other commits (a foreach's
// rows): a write like any other, naming where its parts came from.
func (s *Scope) setFrom(key string, v any, from []string) {
	s.write(key, v, false, false, false)
	if i := s.find(key); i >= 0 {
		s.staged[i].from = from
	}
}

// stage writes a value that came from another commit (a join): no event,
// no read dependency, the origin kept; a fact stays one (SetFact), and a
// derived value one (SetDerived).
func (s *Scope) stage(key string, v any, del, fact, derived bool, from []string) {
	s.staged = append(s.staged, staged{key: key, value: v, deleted: del, fact: fact, derived: derived, from: from})
}
