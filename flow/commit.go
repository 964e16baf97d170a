package flow

import (
	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/rules"
)

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
			ws = append(ws, Write{Key: st.key, Value: st.value, Deleted: st.deleted, ReadsBefore: st.readsBefore, ReadKeys: st.readKeys, From: st.from})
		}
		if len(ws) > 0 {
			writes = f.arena.keepWrites(ws)
		}
	}
	// The commit is filled in its slot of the log, not copied there.
	c := nextCommit(f.log)
	c.Path, c.Stage, c.Scope, c.N = s.path, s.n.id, f.steps, s.count
	c.Reads, c.Writes = f.arena.takeReads(s.reads), writes
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
