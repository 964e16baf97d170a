package recorder

import (
	"io"
	"testing"
)

// BenchmarkDispatchEmpty is the zero-cost rule: a run with no recorder
// attached asks Active and builds nothing.
func BenchmarkDispatchEmpty(b *testing.B) {
	d := NewDispatcher()
	b.ReportAllocs()
	for b.Loop() {
		if d.Active() {
			d.Record(Event{Kind: Read, Path: "load#0", Key: "used", Value: 95})
		}
	}
}

// BenchmarkDispatchOne is the dispatch overhead per event with one recorder.
func BenchmarkDispatchOne(b *testing.B) {
	d := NewDispatcher(discard{})
	e := Event{Kind: Read, Path: "load#0", Key: "used", Value: 95}
	b.ReportAllocs()
	for b.Loop() {
		if d.Active() {
			d.Record(e)
		}
	}
}

type discard struct{}

func (discard) Record(Event) {}

// BenchmarkNarrative500 is the linear500-narrative workload's recorder
// share: the 500-stage chain's events recorded, then every sentence built.
func BenchmarkNarrative500(b *testing.B) {
	events := fixtureChain(500)
	b.ReportAllocs()
	for b.Loop() {
		n := NewNarrative()
		for _, e := range events {
			n.Record(e)
		}
		if len(n.Lines()) == 0 {
			b.Fatal("no lines")
		}
	}
	b.ReportMetric(float64(len(events)), "events/op")
}

// BenchmarkNarrative500Record is the part of it on the run's hot path.
func BenchmarkNarrative500Record(b *testing.B) {
	events := fixtureChain(500)
	b.ReportAllocs()
	for b.Loop() {
		n := NewNarrative()
		for _, e := range events {
			n.Record(e)
		}
	}
}

// BenchmarkNarrative500Keep is Record as the Dispatcher calls it, with the
// event by pointer: what keeping costs, without copying each Event in.
func BenchmarkNarrative500Keep(b *testing.B) {
	events := fixtureChain(500)
	b.ReportAllocs()
	for b.Loop() {
		n := NewNarrative()
		for i := range events {
			n.record(&events[i])
		}
	}
}

// BenchmarkNarrative500Lines is Lines alone, over the chain's events kept
// once.
func BenchmarkNarrative500Lines(b *testing.B) {
	n := NewNarrative()
	for _, e := range fixtureChain(500) {
		n.Record(e)
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(n.Lines()) == 0 {
			b.Fatal("no lines")
		}
	}
}

// BenchmarkNarrativeLoop10k: a 10,000-pass loop (the loop10k workload's
// event shape); folding keeps memory to the first and last passes.
func BenchmarkNarrativeLoop10k(b *testing.B) {
	events := fixtureLoop(10000)
	b.ReportAllocs()
	for b.Loop() {
		n := NewNarrative()
		for _, e := range events {
			n.Record(e)
		}
		n.Lines()
	}
}

func BenchmarkNDJSON500(b *testing.B) {
	events := fixtureChain(500)
	b.ReportAllocs()
	for b.Loop() {
		n := NewNDJSON(io.Discard)
		for _, e := range events {
			n.Record(e)
		}
		n.Flush()
	}
}

func BenchmarkMetrics500(b *testing.B) {
	events := fixtureChain(500)
	b.ReportAllocs()
	for b.Loop() {
		m := NewMetrics()
		for _, e := range events {
			m.Record(e)
		}
		m.Snapshot()
	}
}

func BenchmarkDeferred500(b *testing.B) {
	events := fixtureChain(500)
	b.ReportAllocs()
	for b.Loop() {
		d := Deferred(discard{}, 256)
		for _, e := range events {
			d.Record(e)
		}
		d.Flush()
	}
}
