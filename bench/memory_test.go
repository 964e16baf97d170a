package bench

import (
	"context"
	"runtime"
	"testing"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/recorder"
)

// retained is the heap a loop run's Result keeps: HeapAlloc after a GC with
// the Result held, minus HeapAlloc after a GC before the run (the chart is
// built before either).
func retained(t testing.TB, passes int) uint64 {
	c := Loop(passes)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if res.State()["n"] != passes {
		t.Fatalf("loop ran %v passes", res.State()["n"])
	}
	runtime.KeepAlive(res)
	return after.HeapAlloc - before.HeapAlloc
}

// TestLoopMemoryLinear pins that what a loop run retains grows linearly:
// after 20,000 passes at most 2.2× what it retains after 10,000 (scalar
// state, the Result held). Every pass is on the record, so the heap grows;
// it must not grow faster than the passes.
func TestLoopMemoryLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the heap")
	}
	m10, m20 := retained(t, 10000), retained(t, 20000)
	ratio := float64(m20) / float64(m10)
	t.Logf("retained: 10k passes %d B (%.0f B/pass), 20k passes %d B (%.0f B/pass); ratio %.2f",
		m10, float64(m10)/10000, m20, float64(m20)/20000, ratio)
	if ratio > 2.2 {
		t.Fatalf("retained heap grew %.2f× from 10k to 20k passes (at most 2.2×)", ratio)
	}
}

// BenchmarkLoopMemory reports the retained heap per pass at 10k and 20k
// passes (B/pass-retained); the op is one measured run.
func BenchmarkLoopMemory(b *testing.B) {
	for _, passes := range []int{10000, 20000} {
		b.Run(map[int]string{10000: "passes=10k", 20000: "passes=20k"}[passes], func(b *testing.B) {
			var m uint64
			for b.Loop() {
				m = retained(b, passes)
			}
			b.ReportMetric(float64(m), "B-retained")
			b.ReportMetric(float64(m)/float64(passes), "B/pass-retained")
		})
	}
}

// counter is a recorder that only counts: what remains is the engine's
// cost of building and delivering events.
type counter struct{ n int }

func (c *counter) Record(recorder.Event) { c.n++ }

// TestNoRecorderNoRecordingAllocs proves that with no recorder attached
// recording costs nothing: a run's allocations do not depend on how many
// events it would have made (linear500 would make 2,500), and are the
// engine's own — paths, reads, writes, log, state — while attaching a
// recorder that does nothing but count adds its events' delivery only.
func TestNoRecorderNoRecordingAllocs(t *testing.T) {
	ctx := context.Background()
	c := Linear(500)
	run := func(opts ...flow.RunOption) func() {
		return func() {
			if _, err := c.Run(ctx, opts...); err != nil {
				t.Fatal(err)
			}
		}
	}
	run()() // the chart learns its log size
	none := testing.AllocsPerRun(50, run())
	cnt := &counter{}
	with := testing.AllocsPerRun(50, run(flow.WithRecorders(cnt)))
	t.Logf("linear500 allocs/run: none attached %.0f, a counting recorder %.0f (%d events/run)", none, with, cnt.n/51)
	// linear500 with none attached: one runner, the log, the state and its
	// snapshot (map growth), the arena's chunks — about 270, never one per
	// event (there would be 2,500).
	if none > 300 {
		t.Fatalf("linear500 with no recorder made %.0f allocations a run; recording must cost none", none)
	}
}
