package flow

import (
	"strconv"
	"unsafe"

	"github.com/openrunbook/runbook/decide"
)

// arena hands out the storage a frame's commits keep — their runtime paths,
// reads and writes — from chunks, so a stage costs no allocation of its own
// for them. It owns one rule: what it hands out is never written again.
//
//	paths    appended to a byte chunk; each path is a string over its bytes,
//	         which are never changed once written
//	reads    sub-slices of a []Read chunk, capacity cut at their length;
//	         a stage appends its reads to the chunk's free room as it reads
//	         (readRoom) and its commit keeps them there (keepReads)
//	writes   sub-slices of a []Write chunk, likewise
//	evidence decide.Slab: deciders' evidence, rules and conditions
//
// A chunk that is full is left as it is (the commits that hold parts of it
// keep it alive) and a new one, twice as large up to a bound, is started:
// what a run retains grows with what it recorded, by at most one partly
// used chunk of each kind per frame.
//
// An arena is used from one goroutine at a time, by the frames that run
// there one after another: the root frame and its subflows, or the
// branches a fan-out worker runs in turn (commits are made by the frame
// that runs the stage). A branch's log may be cut from the arena's commit
// room only while no other frame on that goroutine is filling one: a
// worker's arena, never its caller's (fanout).
type arena struct {
	strs   []byte
	reads  []Read
	writes []Write
	// readChunks and writeChunks are every read and write chunk the arena
	// made, in order, the last the one it fills: a packed commit names
	// its reads and writes by chunk and place (span), not by pointer, so
	// that the log is memory the collector neither zeroes eagerly nor
	// scans. Their first rooms are here, so a short run's arena makes no
	// allocation for them.
	readChunks   [][]Read
	writeChunks  [][]Write
	readChunks0  [1][]Read
	writeChunks0 [1][]Write
	// refs are the frames whose commits this arena keeps: a packed
	// commit's scope and chart (frameRef).
	refs  []frameRef
	refs0 [1]frameRef
	// extras are what few commits hold beyond the packed fields: eager
	// decision evidence, an error message.
	extras  []commitExtra
	extras0 [1]commitExtra
	// id is the arena's place in its run's list (runner.arenas), set when
	// it keeps its first commit; registered says it has one.
	id         uint32
	registered bool
	// slab holds the frames' decision evidence.
	slab decide.Slab
	// commits is room for the logs of the branches run on this arena, one
	// after another (branchLog, keepLog).
	commits []packedCommit
	// spare is a scope whose stage finished inline, ready to be used again
	// by the next stage run on this arena's goroutine.
	spare *Scope
	// count is the decimal spelling of the execution counter last written
	// into a path: the counter mostly goes up by one between paths, so the
	// next spelling is this one with its last digits carried, not a fresh
	// conversion (a tenth of a loop's instructions went to strconv).
	count counterText
}

// span is where a commit's reads or writes are in its arena: n of them
// from place off of chunk number chunk.
type span struct{ chunk, off, n uint32 }

// newReads starts a read chunk of capacity c (kept in readChunks).
func (a *arena) newReads(c int) {
	a.reads = make([]Read, 0, c)
	if a.readChunks == nil {
		a.readChunks = a.readChunks0[:0]
	}
	a.readChunks = append(a.readChunks, a.reads[:c])
}

// newWrites starts a write chunk of capacity c (kept in writeChunks).
func (a *arena) newWrites(c int) {
	a.writes = make([]Write, 0, c)
	if a.writeChunks == nil {
		a.writeChunks = a.writeChunks0[:0]
	}
	a.writeChunks = append(a.writeChunks, a.writes[:c])
}

// firstRooms makes reads and writes, rooms the arena did not make (the
// runner's), the chunks it fills first.
func (a *arena) firstRooms(reads []Read, writes []Write) {
	a.reads, a.writes = reads[:0], writes[:0]
	a.readChunks = append(a.readChunks0[:0], reads[:cap(reads)])
	a.writeChunks = append(a.writeChunks0[:0], writes[:cap(writes)])
}

// readsAt and writesAt are the reads and writes at sp, capacity cut at
// their length (nil for none), as the commit kept them.
func (a *arena) readsAt(sp span) []Read {
	if sp.n == 0 {
		return nil
	}
	return a.readChunks[sp.chunk][sp.off : sp.off+sp.n : sp.off+sp.n]
}

func (a *arena) writesAt(sp span) []Write {
	if sp.n == 0 {
		return nil
	}
	return a.writeChunks[sp.chunk][sp.off : sp.off+sp.n : sp.off+sp.n]
}

// counterText is a non-negative counter and its decimal digits.
type counterText struct {
	n      int
	set    bool
	digits [20]byte
	len    int
}

// spell returns n's decimal digits, valid until the next call. A counter
// a little above the last one spelled — the next execution, or one a few
// unnamed executions later (Scope.where spells only what is named) — is
// added to the digits in place.
func (t *counterText) spell(n int) []byte {
	if d := n - t.n; t.set && d > 0 && d < 10 {
		last := &t.digits[t.len-1]
		if *last+byte(d) <= '9' { // the common case, without carry's loop
			*last += byte(d)
			t.n = n
			return t.digits[:t.len]
		}
		*last += byte(d) - 10
		if t.carry(t.len - 2) {
			t.n = n
			return t.digits[:t.len]
		}
	}
	t.n, t.set = n, true
	t.len = len(strconv.AppendInt(t.digits[:0], int64(n), 10))
	return t.digits[:t.len]
}

// carry adds one to the digits from digit i leftwards, in place; false
// when they would need one more digit (a 9…9), which spell then writes
// afresh.
func (t *counterText) carry(i int) bool {
	for ; i >= 0; i-- {
		if t.digits[i] != '9' {
			t.digits[i]++
			return true
		}
		t.digits[i] = '0'
	}
	return false
}

const (
	arenaFirst = 8    // first chunk, in elements (bytes ×32 for paths)
	arenaMax   = 1024 // chunks stop doubling here
)

// nextCap is the size of the chunk after one of size c: the power of two
// above it, from arenaFirst to arenaMax. A first room of an odd size (the
// runner's) leads back to the powers of two, not to a chain of its
// multiples whose last chunk overshoots a long run by half again.
func nextCap(c int) int {
	n := arenaFirst
	for n <= c && n < arenaMax {
		n *= 2
	}
	return n
}

// path writes prefix/id#n (prefix and the slash left out when prefix is
// empty) and returns it as a string over the arena's bytes.
func (a *arena) path(prefix, id string, n int) string {
	digits := a.count.spell(n)
	need := len(id) + 1 + len(digits)
	if prefix != "" {
		need += len(prefix) + 1
	}
	if cap(a.strs)-len(a.strs) < need {
		size := max(32*nextCap(cap(a.strs)/32), need)
		a.strs = make([]byte, 0, size)
	}
	start := len(a.strs)
	b := a.strs
	if prefix != "" {
		b = append(b, prefix...)
		b = append(b, '/')
	}
	b = append(b, id...)
	b = append(b, '#')
	b = append(b, digits...)
	a.strs = b
	return unsafe.String(&b[start], need)
}

// readRoom is where a stage puts its reads as it makes them: the free
// part of the arena's read chunk, so that its commit keeps them in place
// (keepReads) instead of copying them — a copy of pointer words that went
// through the collector's write barrier whenever it was marking. A stage
// whose reads outgrow the room moves them to a new chunk (moreReads). One
// stage at a time takes the room: a frame's stages commit one after
// another, and a frame that runs while another's stage is open (a
// foreach's branches) runs on another arena.
func (a *arena) readRoom() []Read {
	return a.reads[len(a.reads):len(a.reads)]
}

// moreReads moves a stage's reads rs, which fill the room they were given,
// to the start of a new chunk with room for more: the chunk the arena
// goes on with, as when a chunk is full.
func (a *arena) moreReads(rs []Read) []Read {
	a.newReads(max(nextCap(cap(a.reads)), 2*len(rs)))
	return append(a.reads, rs...)
}

// keepReads keeps a committed stage's reads rs: where they are when they
// are in the room readRoom gave (they did not outgrow it), copied into
// the arena when they are not.
func (a *arena) keepReads(rs []Read) span {
	n := len(rs)
	if n == 0 {
		return span{}
	}
	start := len(a.reads)
	if start+n <= cap(a.reads) && &a.reads[start : start+1][0] == &rs[0] {
		a.reads = a.reads[:start+n]
		return span{uint32(len(a.readChunks) - 1), uint32(start), uint32(n)}
	}
	return a.takeReads(rs)
}

// takeReads copies rs into the arena.
func (a *arena) takeReads(rs []Read) span {
	n := len(rs)
	if n == 0 {
		return span{}
	}
	if cap(a.reads)-len(a.reads) < n {
		a.newReads(max(nextCap(cap(a.reads)), n))
	}
	start := len(a.reads)
	a.reads = append(a.reads, rs...)
	return span{uint32(len(a.readChunks) - 1), uint32(start), uint32(n)}
}

// writeRoom returns room for n writes; keepWrites then keeps the first k.
func (a *arena) writeRoom(n int) []Write {
	if cap(a.writes)-len(a.writes) < n {
		a.newWrites(max(nextCap(cap(a.writes)), n))
	}
	return a.writes[len(a.writes):len(a.writes)]
}

// keepWrites keeps ws, which writeRoom handed out and which has not grown
// past the room asked for.
func (a *arena) keepWrites(ws []Write) span {
	k := len(ws)
	start := len(a.writes)
	a.writes = a.writes[:start+k]
	return span{uint32(len(a.writeChunks) - 1), uint32(start), uint32(k)}
}

// branchLog is an empty log for a branch about to run: the rest of the
// arena's commit chunk (a new chunk when little is left). A branch that
// commits more than the room moves its log out, as any log grows.
func (a *arena) branchLog() []packedCommit {
	if cap(a.commits)-len(a.commits) < arenaFirst {
		a.commits = make([]packedCommit, 0, 8*nextCap(cap(a.commits)/8))
	}
	return a.commits[len(a.commits):len(a.commits)]
}

// keepLog keeps the log a finished branch filled from branchLog's room,
// and cuts its capacity, so that nothing appended to it later can reach
// the next branch's commits.
func (a *arena) keepLog(log *[]packedCommit) {
	l := *log
	*log = l[:len(l):len(l)]
	rest := a.commits[len(a.commits):cap(a.commits)]
	switch {
	case len(l) > 0 && len(rest) > 0 && &l[0] == &rest[0]:
		a.commits = a.commits[:len(a.commits)+len(l)]
	case len(l) > 0:
		// The branch outgrew the room and moved its log out: the room
		// holds what it wrote before the move, and is never handed out
		// again — every commit slot a log extends into is zero
		// (nextCommit), which commit relies on.
		a.commits = a.commits[:cap(a.commits)]
	}
}

// drop lets go of what only the arena needs, once no frame will run on it
// again: its commit room (the branch logs in it were spliced into their
// parent's) and its spare scope. The arena itself may live on — its
// slab's first box can hold a decision's evidence that a commit keeps —
// and must not keep those alive with it.
func (a *arena) drop() {
	a.commits, a.spare = nil, nil
}
