package flow

import (
	"testing"

	"github.com/openrunbook/runbook/recorder"
)

// TestNoRecorderBuildsNoEvents: with no recorder attached, every place the
// engine would record — scope reads and writes, stage start and end, flow
// events — costs no allocation (the events are never built).
func TestNoRecorderBuildsNoEvents(t *testing.T) {
	r := &runner{chart: &Chart{name: "t", byID: map[string]*node{}}}
	f := r.rootFrame()
	n := &node{id: "s", name: "S", kind: KindStage}
	s := f.newScope(n)
	s.Set("k", 1)
	s.Get("k")
	allocs := testing.AllocsPerRun(1000, func() {
		t0 := f.stageStart(n, s.path)
		s.emit(recorder.Read, "k", 1, false)
		s.emit(recorder.Write, "k", 2, false)
		f.event(f.nodeEvent(recorder.Next, n, s.path))
		f.stageEnd(n, s.path, t0)
	})
	if allocs != 0 {
		t.Fatalf("recording with no recorder attached made %.1f allocations; want 0", allocs)
	}
}
