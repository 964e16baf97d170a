package recorder

import (
	"errors"
	"strings"
	"testing"
)

// collect keeps every event it is given.
type collect struct{ events []Event }

func (c *collect) Record(e Event) { c.events = append(c.events, e) }

// panicky panics on the n-th event it sees (1-based).
type panicky struct {
	at, seen int
}

func (p *panicky) Record(Event) {
	p.seen++
	if p.seen == p.at {
		panic("boom")
	}
}

// failing reports an error at the end and counts flushes.
type failing struct {
	collect
	flushes int
}

func (f *failing) Flush()     { f.flushes++ }
func (f *failing) Err() error { return errors.New("disk full") }

type flushPanic struct{ collect }

func (flushPanic) Flush() { panic("flush boom") }

func TestDispatcherDetachesPanickingRecorder(t *testing.T) {
	t.Parallel()
	before, after := &collect{}, &collect{}
	bad := &panicky{at: 3}
	d := NewDispatcher(before, nil, bad, after)
	events := fixtureDecideFilter()
	for _, e := range events {
		d.Record(e)
	}
	d.Flush()
	if len(before.events) != len(events) || len(after.events) != len(events) {
		t.Fatalf("healthy recorders got %d and %d events, want %d", len(before.events), len(after.events), len(events))
	}
	if bad.seen != 3 {
		t.Errorf("panicking recorder called %d times, want 3 (detached after its panic)", bad.seen)
	}
	ps := d.Problems()
	if len(ps) != 1 {
		t.Fatalf("problems = %v, want one", ps)
	}
	p := ps[0]
	if p.Index != 2 || p.Recorder != "*recorder.panicky" || p.Event != events[2].Kind || !strings.Contains(p.Message, "panic: boom") {
		t.Errorf("problem = %+v", p)
	}
	if !strings.HasPrefix(p.String(), "recorder 2 (*recorder.panicky): panic: boom") {
		t.Errorf("String() = %q", p.String())
	}
	if !d.Active() {
		t.Error("dispatcher inactive with two healthy recorders")
	}
}

func TestDispatcherAllDetachedIsInactive(t *testing.T) {
	t.Parallel()
	d := NewDispatcher(&panicky{at: 1})
	if !d.Active() {
		t.Fatal("inactive before any event")
	}
	d.Record(Event{Kind: RunStart})
	if d.Active() {
		t.Error("still active after its only recorder was detached")
	}
}

func TestDispatcherFlushAndErrors(t *testing.T) {
	t.Parallel()
	f := &failing{}
	d := NewDispatcher(f, &flushPanic{}, &collect{})
	d.Record(Event{Kind: RunStart})
	d.Flush()
	d.Flush() // idempotent
	if f.flushes != 1 {
		t.Errorf("flushed %d times, want 1", f.flushes)
	}
	ps := d.Problems()
	if len(ps) != 2 {
		t.Fatalf("problems = %v", ps)
	}
	if ps[0].Index != 1 || !strings.Contains(ps[0].Message, "flush boom") {
		t.Errorf("flush panic not reported: %+v", ps[0])
	}
	if ps[1].Index != 0 || ps[1].Message != "disk full" || ps[1].Event != 0 {
		t.Errorf("Err not reported: %+v", ps[1])
	}
}

func TestDispatcherNilAndEmpty(t *testing.T) {
	t.Parallel()
	var nilD *Dispatcher
	for _, d := range []*Dispatcher{nilD, NewDispatcher(), NewDispatcher(nil, nil)} {
		if d.Active() {
			t.Error("empty dispatcher is active")
		}
		d.Record(Event{Kind: RunStart})
		d.Flush()
		if len(d.Problems()) != 0 {
			t.Error("problems on an empty dispatcher")
		}
	}
}

// The zero-cost rule: nothing attached, nothing allocated, whether the engine
// asks Active first or calls Record anyway.
func TestDispatcherEmptyAllocatesNothing(t *testing.T) {
	var nilD *Dispatcher
	empty := NewDispatcher()
	ev := &decideEvidenceForAlloc
	value := any(95)
	for name, d := range map[string]*Dispatcher{"nil": nilD, "empty": empty} {
		allocs := testing.AllocsPerRun(1000, func() {
			if d.Active() {
				d.Record(Event{Kind: Read, Path: "load#0", StageID: "load", Key: "used", Value: value})
			}
			d.Record(Event{Kind: Decision, Path: "classify#1", Decision: ev, Branches: ev.Chosen})
		})
		if allocs != 0 {
			t.Errorf("%s dispatcher: %v allocations per event, want 0", name, allocs)
		}
	}
}

// TestDispatcherOfOneRecorderIsOneAllocation: a run attaches one recorder
// more often than any other number (its narrative, or the record's
// harvest), and the dispatcher holds it in place: attaching it costs the
// dispatcher alone. Several recorders share one slice; a panicking one is
// still detached from them alone.
func TestDispatcherOfOneRecorderIsOneAllocation(t *testing.T) {
	n := NewNarrative()
	if allocs := testing.AllocsPerRun(100, func() { NewDispatcher(n) }); allocs != 1 {
		t.Fatalf("a dispatcher of one recorder took %v allocations, want 1", allocs)
	}
	c := &collect{}
	d := NewDispatcher(nil, &panicky{at: 1}, c)
	d.Record(Event{Kind: Read})
	d.Record(Event{Kind: Write})
	if len(c.events) != 2 || len(d.Problems()) != 1 || d.Problems()[0].Index != 1 || !d.Active() {
		t.Fatalf("delivered %d, problems %+v", len(c.events), d.Problems())
	}
}

// quiet wants decisions and reads no compact one.
type quiet struct{}

func (quiet) Wants(k Kind) bool { return k == Decision }
func (quiet) Record(Event)      {}

// everything is a recorder that is not Selective.
type everything struct{}

func (everything) Record(Event) {}

// TestEvidenceMaskAsksForEvidenceOnlyWhereARecorderNeedsIt: the engine
// keeps a decision compact, and sends it so, only when every recorder
// wanting decisions reads compact ones; a narrative does when it keeps
// the reads they are told from.
func TestEvidenceMaskAsksForEvidenceOnlyWhereARecorderNeedsIt(t *testing.T) {
	for _, tc := range []struct {
		name string
		rs   []Recorder
		want bool
	}{
		{"a narrative", []Recorder{NewNarrative()}, false},
		{"a narrative without steps", []Recorder{NewNarrative(WithoutSteps())}, true},
		{"a narrative and a recorder of decisions", []Recorder{NewNarrative(), quiet{}}, true},
		{"a recorder of everything", []Recorder{everything{}}, true},
		{"no recorder", nil, false},
	} {
		if got := NewDispatcher(tc.rs...).Mask()&EvidenceMask != 0; got != tc.want {
			t.Errorf("%s: evidence wanted %v, want %v", tc.name, got, tc.want)
		}
	}
}
