package flow

import (
	"unsafe"

	"github.com/openrunbook/runbook/decide"
)

// arena hands out the storage a frame's commits keep — their runtime paths,
// reads and writes — from chunks, so a stage costs no allocation of its own
// for them. It owns one rule: what it hands out is never written again.
//
//	paths    appended to a byte chunk; each path is a string over its bytes,
//	         which are never changed once written
//	reads    sub-slices of a []Read chunk, capacity cut at their length
//	writes   sub-slices of a []Write chunk, likewise
//	evidence decide.Slab: deciders' evidence, rules and conditions
//
// A chunk that is full is left as it is (the commits that hold parts of it
// keep it alive) and a new one, twice as large up to a bound, is started:
// what a run retains grows with what it recorded, by at most one partly
// used chunk of each kind per frame.
//
// An arena belongs to one frame and is used from that frame's goroutine
// only (commits are made by the frame that runs the stage).
type arena struct {
	strs   []byte
	reads  []Read
	writes []Write
	// slab holds the frame's decision evidence.
	slab decide.Slab
}

const (
	arenaFirst = 8    // first chunk, in elements (bytes ×32 for paths)
	arenaMax   = 1024 // chunks stop doubling here
)

// nextCap is the size of the chunk after one of size c.
func nextCap(c int) int {
	if c == 0 {
		return arenaFirst
	}
	return min(2*c, arenaMax)
}

// path writes prefix/id#n (prefix and the slash left out when prefix is
// empty) and returns it as a string over the arena's bytes.
func (a *arena) path(prefix, id string, n int) string {
	need := len(prefix) + 1 + len(id) + 1 + 20
	if cap(a.strs)-len(a.strs) < need {
		size := max(32*nextCap(cap(a.strs)/32), need)
		a.strs = make([]byte, 0, size)
	}
	start := len(a.strs)
	b := appendExecution(a.strs, prefix, id, n)
	a.strs = b
	return unsafe.String(&b[start], len(b)-start)
}

// takeReads copies rs into the arena.
func (a *arena) takeReads(rs []Read) []Read {
	n := len(rs)
	if n == 0 {
		return nil
	}
	if cap(a.reads)-len(a.reads) < n {
		a.reads = make([]Read, 0, max(nextCap(cap(a.reads)), n))
	}
	start := len(a.reads)
	a.reads = append(a.reads, rs...)
	return a.reads[start : start+n : start+n]
}

// writeRoom returns room for n writes; keepWrites then keeps the first k.
func (a *arena) writeRoom(n int) []Write {
	if cap(a.writes)-len(a.writes) < n {
		a.writes = make([]Write, 0, max(nextCap(cap(a.writes)), n))
	}
	return a.writes[len(a.writes):len(a.writes)]
}

// keepWrites keeps ws, which writeRoom handed out and which has not grown
// past the room asked for.
func (a *arena) keepWrites(ws []Write) []Write {
	k := len(ws)
	start := len(a.writes)
	a.writes = a.writes[:start+k]
	return a.writes[start : start+k : start+k]
}
