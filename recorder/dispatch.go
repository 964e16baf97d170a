package recorder

import (
	"fmt"
	"sync"
)

// Dispatcher hands each event of a run to the recorders attached to it, and
// owns the rule that a recorder never breaks the run:
//
//	recorder panics in Record      detached: not called again this run; reported
//	recorder panics in Flush/Err   reported; the others are still flushed
//	recorder has Err() error ≠ nil reported by Flush, after every Flusher ran
//	no recorder attached           Active() is false: the engine builds no event
//	no recorder Wants a kind       Wants(kind) is false: the engine builds none
//	                               of that kind (see Selective)
//
// A nil *Dispatcher is valid and inactive. Record is called by the engine from
// one goroutine at a time (see Recorder); Problems may be called at any time.
//
// Cost: one interface call per attached recorder per event, plus a deferred
// recover; nothing when none is attached.
type Dispatcher struct {
	// live are the recorders still attached, in the order given.
	live []attached
	// one holds live when a single recorder is attached (the common case:
	// a run's narrative or record), so attaching it costs no allocation of
	// its own
	one [1]attached
	// mask: the kinds some live recorder wants (see Selective)
	mask uint32

	mu       sync.Mutex
	problems []Problem
	flushed  bool
}

type attached struct {
	index int
	r     Recorder
	// narrative is r when r is a *Narrative: it is handed the event by
	// pointer (see RecordEvent), never a copy.
	narrative *Narrative
	// mask has a bit per kind the recorder wants (all, unless Selective).
	mask uint32
}

// Selective is implemented by a recorder that wants only some kinds of
// event. The dispatcher delivers it no others; when no attached recorder
// wants a kind, the engine does not build events of that kind at all (nor
// read the clock for a StageEnd nobody wants). Wants is asked once per kind,
// when the recorder is attached, and must not change afterwards.
type Selective interface {
	Wants(k Kind) bool
}

// maskOf asks a recorder which kinds it wants.
func maskOf(r Recorder) uint32 {
	s, ok := r.(Selective)
	if !ok {
		return ^EvidenceMask | evidenceBit(r, ^EvidenceMask)
	}
	var m uint32
	for k := range kindNames {
		if k > 0 && s.Wants(Kind(k)) {
			m |= 1 << k
		}
	}
	return m | evidenceBit(r, m)
}

// evidenceBit is EvidenceMask when a recorder wanting the kinds in m
// wants decisions' evidence as they are made.
func evidenceBit(r Recorder, m uint32) uint32 {
	if m&(1<<Decision|1<<Select) == 0 {
		return 0
	}
	if c, ok := r.(CompactReader); ok && c.ReadsCompact() && m&(1<<Read) != 0 {
		return 0
	}
	return EvidenceMask
}

// Problem is a recorder that misbehaved: it panicked (and was detached) or
// reported an error. The run it observed is unaffected.
type Problem struct {
	// Index is the recorder's position among those given to NewDispatcher.
	Index int `json:"index"`
	// Recorder is its Go type (`*recorder.NDJSON`).
	Recorder string `json:"recorder"`
	// Event is the kind of event being delivered when it panicked; zero for
	// an error reported by Err or a panic in Flush.
	Event Kind `json:"event,omitempty"`
	// Message says what went wrong (`panic: …` or the error's text).
	Message string `json:"message"`
}

// String is the problem in one line: `recorder 1 (*x.Sink): panic: boom`.
func (p Problem) String() string {
	return fmt.Sprintf("recorder %d (%s): %s", p.Index, p.Recorder, p.Message)
}

// NewDispatcher attaches recorders to a run, in order; nil recorders are
// skipped (their index still counts, so Problem.Index matches the caller's
// list).
func NewDispatcher(recorders ...Recorder) *Dispatcher {
	d := &Dispatcher{}
	n := 0
	for _, r := range recorders {
		if r != nil {
			n++
		}
	}
	switch {
	case n == 1:
		d.live = d.one[:]
	case n > 1:
		d.live = make([]attached, n)
	}
	k := 0
	for i, r := range recorders {
		if r != nil {
			nr, _ := r.(*Narrative)
			d.live[k] = attached{index: i, r: r, narrative: nr, mask: maskOf(r)}
			k++
		}
	}
	d.remask()
	return d
}

// remask recomputes which kinds some live recorder wants.
func (d *Dispatcher) remask() {
	d.mask = 0
	for _, a := range d.live {
		d.mask |= a.mask
	}
}

// Wants reports whether any attached recorder wants events of kind k. The
// engine asks it before building one; false for a nil or empty Dispatcher.
func (d *Dispatcher) Wants(k Kind) bool { return d != nil && d.mask&(1<<k) != 0 }

// Mask is Wants for every kind at once: bit k is set when some attached
// recorder wants kind k. A branch's event buffer keeps it, to build only
// the events the dispatcher will deliver.
func (d *Dispatcher) Mask() uint32 {
	if d == nil {
		return 0
	}
	return d.mask
}

// Active reports whether any recorder is still attached. The engine asks it
// before building an event, so a run without recorders pays for nothing:
//
//	if d.Active() {
//		d.Record(recorder.Event{Kind: recorder.Read, Path: p, Key: k, Value: v})
//	}
func (d *Dispatcher) Active() bool { return d != nil && len(d.live) > 0 }

// Record delivers e to every attached recorder in order. A recorder that
// panics is detached and reported; the others still receive e.
func (d *Dispatcher) Record(e Event) { d.RecordEvent(&e) }

// RecordEvent is Record with the event passed by pointer, for the engine's
// hot path: it reads *e during the call and never keeps or changes it. Each
// recorder still receives its own copy (Record takes an Event), except a
// Narrative, which the dispatcher hands the pointer: it keeps only the
// fields it tells. An Event is 216 bytes; passing it by value through the
// engine, the dispatcher and a recorder copied it once a call.
func (d *Dispatcher) RecordEvent(e *Event) {
	if d == nil {
		return
	}
	detached := false
	bit := uint32(1) << e.Kind
	for i := range d.live {
		if d.live[i].mask&bit == 0 {
			continue
		}
		if !d.deliver(&d.live[i], e) {
			d.live[i].r = nil
			detached = true
		}
	}
	if detached {
		d.live = compact(d.live)
		d.remask()
	}
}

// Flush flushes every recorder that is a Flusher (deferred delivery, buffered
// writers), then collects the error of every recorder that has an
// `Err() error` method. It is called once, before the run returns; later
// calls do nothing. A detached recorder is neither flushed nor asked.
func (d *Dispatcher) Flush() {
	if d == nil {
		return
	}
	d.mu.Lock()
	if d.flushed {
		d.mu.Unlock()
		return
	}
	d.flushed = true
	d.mu.Unlock()
	for _, a := range d.live {
		if f, ok := a.r.(Flusher); ok {
			d.guard(a, 0, f.Flush)
		}
	}
	for _, a := range d.live {
		if er, ok := a.r.(interface{ Err() error }); ok {
			d.guard(a, 0, func() {
				if err := er.Err(); err != nil {
					d.report(a, 0, err.Error())
				}
			})
		}
	}
}

// Problems lists what went wrong with the recorders, in the order it
// happened: panics as they occurred, then errors collected by Flush.
func (d *Dispatcher) Problems() []Problem {
	if d == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]Problem(nil), d.problems...)
}

// deliver calls a.r.Record(*e); false when it panicked.
func (d *Dispatcher) deliver(a *attached, e *Event) (ok bool) {
	defer func() {
		if v := recover(); v != nil {
			d.report(*a, e.Kind, fmt.Sprintf("panic: %v", v))
			ok = false
		}
	}()
	if a.narrative != nil {
		a.narrative.record(e)
	} else {
		a.r.Record(*e)
	}
	return true
}

// guard runs f, reporting a panic instead of letting it out.
func (d *Dispatcher) guard(a attached, k Kind, f func()) {
	defer func() {
		if v := recover(); v != nil {
			d.report(a, k, fmt.Sprintf("panic: %v", v))
		}
	}()
	f()
}

func (d *Dispatcher) report(a attached, k Kind, msg string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.problems = append(d.problems, Problem{
		Index: a.index, Recorder: fmt.Sprintf("%T", a.r), Event: k, Message: msg,
	})
}

// compact drops the detached entries (r == nil), keeping order. It builds a
// new slice: the engine may hold none of the old one, but Flush must not see
// a recorder twice.
func compact(live []attached) []attached {
	out := make([]attached, 0, len(live))
	for _, a := range live {
		if a.r != nil {
			out = append(out, a)
		}
	}
	return out
}
