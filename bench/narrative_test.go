package bench

import (
	"testing"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/recorder"
)

// The narrative's share of linear500-narrative, split in three steps that
// each add one part to the last:
//
//	Linear500Events      the engine builds and delivers the events the
//	                     narrative wants to a recorder that drops them (a
//	                     copy each, where a Narrative gets a pointer)
//	Linear500Kept        … and the narrative keeps them (Record)
//	Linear500Narrative   … and Lines builds every sentence
//
// Each difference includes the garbage collection its allocations cause.

// wantsLikeNarrative wants what a Narrative wants and keeps nothing.
type wantsLikeNarrative struct{ n *recorder.Narrative }

func (w wantsLikeNarrative) Wants(k recorder.Kind) bool { return w.n.Wants(k) }
func (wantsLikeNarrative) Record(recorder.Event)        {}

func BenchmarkLinear500Events(b *testing.B) {
	c := Linear(500)
	r := wantsLikeNarrative{recorder.NewNarrative()}
	b.ReportAllocs()
	for b.Loop() {
		runOnce(b, c, flow.WithRecorders(r))
	}
}

func BenchmarkLinear500Kept(b *testing.B) {
	c := Linear(500)
	b.ReportAllocs()
	for b.Loop() {
		runOnce(b, c, flow.WithRecorders(recorder.NewNarrative()))
	}
}
