package flow

import (
	"reflect"
	"slices"
	"unsafe"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/rules"
)

// commit applies a stage execution's staged writes (net changes only) and
// appends its commit to the log. A discarded attempt applies nothing.
func (f *frame) commit(s *Scope, ev *decide.Evidence, lazy lazyDecision, attempt int, discarded bool, msg string) {
	f.r.stages.Add(1)
	var writes span
	if len(s.staged) > 0 {
		ws := f.arena.writeRoom(len(s.staged))
		for k := range s.staged {
			st := &s.staged[k] // not copied: a staged write is ten words
			if !discarded {
				// the key is found once: its slot is written in place
				i := f.state.find(st.key)
				var old entry
				var ok bool
				if i >= 0 {
					old = f.state.slots[i].entry
					ok = !old.del
				} else if f.parent != nil {
					old, ok = f.parent.lookup(st.key)
				}
				if st.deleted && !ok {
					continue
				}
				fact := st.fact || s.gathered.Load()
				if !st.deleted && ok && !fact && !st.derived && unchanged(old.v, st.value) {
					continue
				}
				e := entry{v: st.value, writer: s.where(), del: st.deleted, fact: fact, derived: st.derived}
				if i >= 0 {
					f.state.slots[i].set(&e)
				} else {
					f.state.add(st.key, e)
				}
			}
			// field by field (see slot.set); the room is fresh, so a
			// pointer field that stays empty is not written at all
			ws = ws[:len(ws)+1]
			w := &ws[len(ws)-1]
			w.Key, w.Value, w.Deleted, w.ReadsBefore = st.key, st.value, st.deleted, st.readsBefore
			if st.readKeys != nil {
				w.ReadKeys = st.readKeys
			}
			if st.from != nil {
				w.From = st.from
			}
		}
		if len(ws) > 0 {
			writes = f.arena.keepWrites(ws)
		}
	}
	// The commit is filled in its slot of the log, which is zero
	// (nextCommit), and only where it is not.
	c := packedCommit{arena: f.r.arenaID(f.arena), ref: f.refIn(s.n), node: s.n.ord, n: uint32(s.count), writes: writes, attempt: uint32(attempt)}
	if len(s.reads) > 0 {
		c.reads = f.arena.keepReads(s.reads)
	}
	if ev != nil || msg != "" {
		if f.arena.extras == nil {
			f.arena.extras = f.arena.extras0[:0]
		}
		f.arena.extras = append(f.arena.extras, commitExtra{ev: ev, err: msg})
		c.extra = uint32(len(f.arena.extras))
	}
	if lazy.n != nil {
		c.bits, c.matched = lazy.c.Parts()
		c.flags |= flagLazy
	}
	if discarded {
		c.flags |= flagDiscarded
	}
	*nextCommit(f.log) = c // no pointer in it: one copy, no write barrier
	if f.rec.wants(recorder.Commit) {
		e := f.nodeEvent(recorder.Commit, s.n, s.where())
		e.Index = int(writes.n)
		f.rec.emit(e)
	}
}

// nextCommit extends the log by one commit and returns it, doubling the
// log when it is full (append's own growth of large slices, 1.25×, copies
// a long log many more times).
func nextCommit(log *[]packedCommit) *packedCommit {
	l := *log
	if len(l) == cap(l) {
		grown := make([]packedCommit, len(l), max(2*cap(l), 4))
		copy(grown, l)
		l = grown
	}
	l = l[:len(l)+1]
	*log = l
	return &l[len(l)-1]
}

// lazyDecision is a decision kept compact in its commit: the decider (its
// rules and default, immutable once built) and what it decided. A commit
// whose decider is nil holds none.
type lazyDecision struct {
	n *node
	c decide.Compact
}

// Evidence is the commit's decision evidence, nil when it made no
// decision. A decision the run kept compact (no recorder wanted its
// evidence as it was made) is rebuilt here from the commit's reads — the
// values the decision read — by the same evaluation a run that keeps
// evidence uses, so the two are the same; each call rebuilds it afresh.
// Every reader of a run's decisions reads them here, not from Decision.
func (c *Commit) Evidence() *decide.Evidence {
	if c.Decision != nil || c.lazy.n == nil {
		return c.Decision
	}
	return c.lazy.n.plan.Materialize(c.lazy.c, readsEnv(c.Reads))
}

// Decided reports whether the commit holds a decision (kept compact or
// not), without rebuilding it.
func (c *Commit) Decided() bool { return c.Decision != nil || c.lazy.n != nil }

// Compact reports whether the commit holds its decision compact (Decision
// nil until Materialize).
func (c *Commit) Compact() bool { return c.Decision == nil && c.lazy.n != nil }

// Materialize fills Decision on every commit that keeps its decision
// compact, so that code reading Decision directly, or a copy of the log,
// sees the evidence. A log is materialized once, by its owner, before it
// is shared between goroutines.
func (l *Log) Materialize() {
	cs := l.Commits()
	for i := range cs {
		if c := &cs[i]; c.Compact() {
			c.Decision, c.lazy = c.Evidence(), lazyDecision{}
		}
	}
}

// MarshalJSON writes the commit with its decision's evidence, rebuilt when
// the run kept it compact, so no JSON of a log leaves it out. HTML
// characters are left as they are: the encoder calling this escapes them
// or not, as it was told.
func (c Commit) MarshalJSON() ([]byte, error) {
	if c.Compact() {
		c.Decision = c.Evidence()
	}
	return jsonv.Marshal((*PlainCommit)(&c))
}

// readsEnv answers a rule's reads from a commit's reads: each key the
// decision read, with the value it saw.
type readsEnv []Read

func (rs readsEnv) Get(key string) (any, bool) {
	for i := range rs {
		if rs[i].Key == key {
			return rs[i].Value, !rs[i].Missing
		}
	}
	return nil, false
}

// PlainCommit is a Commit as its JSON is written: the same fields, the
// decision in Decision, and no MarshalJSON of its own — so a whole log is
// written in one pass of the encoder rather than one MarshalJSON (and its
// output re-read) per commit.
type PlainCommit Commit

// PlainCommits is the log's commits with every compact decision
// materialized: l's own commits, viewed as PlainCommits, when none is
// compact; a copy when some are (l is not changed).
func (l *Log) PlainCommits() []PlainCommit {
	cs := l.Commits()
	for i := range cs {
		if cs[i].Compact() {
			cs = slices.Clone(cs)
			for j := i; j < len(cs); j++ {
				if c := &cs[j]; c.Compact() {
					c.Decision, c.lazy = c.Evidence(), lazyDecision{}
				}
			}
			break
		}
	}
	// PlainCommit's underlying type is Commit: the same layout.
	return unsafe.Slice((*PlainCommit)(unsafe.Pointer(unsafe.SliceData(cs))), len(cs))
}

// MarshalJSON writes the log with its decisions' evidence (PlainCommits).
func (l Log) MarshalJSON() ([]byte, error) {
	return jsonv.Marshal(struct {
		Inputs  map[string]any `json:"inputs,omitempty"`
		Commits []PlainCommit  `json:"commits"`
	}{l.Inputs, l.PlainCommits()})
}

// unchanged says whether a write leaves the value a later stage reads as it
// was, so the commit may leave it out (Set's "a write that changes
// nothing"). Equal under the comparison law is not enough: a Go stage that
// set n = 1 over an earlier stage's 1.0 was left out, the next stage read
// the float64 and its s.Value("n").(int) panicked; so were []int{1} over
// []any{1} and a time in another zone. The value must also be the same Go
// value (reflect.DeepEqual), which the common case, two of one scalar type,
// answers without reflecting.
func unchanged(old, v any) bool {
	if !rules.Equal(old, v) {
		return false
	}
	switch old.(type) {
	case int, float64, string, bool:
		return reflect.TypeOf(old) == reflect.TypeOf(v)
	}
	return reflect.DeepEqual(old, v)
}
