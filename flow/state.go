package flow

import "slices"

// state is a frame's keys in the order first written, each with its
// committed entry. It is found by a scan while it holds few keys — most
// frames do: a foreach item's branch, a loop's counter, a decision's
// facts — and through an index once it holds more. A map a frame cost a
// fan-out two allocations a branch and every lookup a hash, and kept the
// order of a branch's writes in a slice of its own besides.
type state struct {
	slots []slot
	index map[string]int32
}

type slot struct {
	key string
	entry
}

// set writes e into the slot field by field: a whole entry copied in went
// through the collector's bulk barrier whenever it was marking, on every
// commit of every key.
func (sl *slot) set(e *entry) {
	sl.v, sl.writer = e.v, e.writer
	sl.del, sl.bound, sl.fact, sl.derived = e.del, e.bound, e.fact, e.derived
}

// stateScan is how many keys a state scans before it builds its index.
const stateScan = 8

// newState is a state with room for n keys.
func newState(n int) state {
	if n <= 0 {
		return state{}
	}
	return state{slots: make([]slot, 0, n)}
}

func (t *state) find(key string) int {
	if t.index != nil {
		if i, ok := t.index[key]; ok {
			return int(i)
		}
		return -1
	}
	for i := range t.slots {
		if t.slots[i].key == key {
			return i
		}
	}
	return -1
}

// get is key's entry, if the state holds one.
func (t *state) get(key string) (entry, bool) {
	if i := t.find(key); i >= 0 {
		return t.slots[i].entry, true
	}
	return entry{}, false
}

// put sets key's entry; a key new to the state goes last.
func (t *state) put(key string, e entry) {
	if i := t.find(key); i >= 0 {
		t.slots[i].set(&e)
		return
	}
	t.add(key, e)
}

// add appends key, which the state does not hold.
func (t *state) add(key string, e entry) {
	n := len(t.slots)
	if n == cap(t.slots) {
		t.slots = slices.Grow(t.slots, 1)
	}
	t.slots = t.slots[:n+1]
	t.slots[n].key = key
	t.slots[n].set(&e)
	switch {
	case t.index != nil:
		t.index[key] = int32(len(t.slots) - 1)
	case len(t.slots) > stateScan:
		t.index = make(map[string]int32, cap(t.slots))
		for i := range t.slots {
			t.index[t.slots[i].key] = int32(i)
		}
	}
}

// len is the number of keys held, tombstones included.
func (t *state) len() int { return len(t.slots) }

// keys lists the keys held, in the order first written.
func (t *state) keys() []string {
	out := make([]string, len(t.slots))
	for i := range t.slots {
		out[i] = t.slots[i].key
	}
	return out
}
