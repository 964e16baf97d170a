package flow

import (
	"context"
	"fmt"
	"runtime"
	"testing"
)

// TestABuiltChartKeepsNoValidationGraph: the forward graph validation
// builds is dropped once the chart is checked. A 500-stage chart kept it
// — 1.06 of its 1.29 MB — and every collection of every run marked it
// (the narrative benchmarks spent 43 % of their instructions collecting).
// Not parallel: it reads the heap.
func TestABuiltChartKeepsNoValidationGraph(t *testing.T) {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	before := m.HeapAlloc
	b := New("chain")
	for i := range 500 {
		b.Stage(fmt.Sprintf("s%d", i), func(ctx context.Context, s *Scope) error { return nil })
	}
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&m)
	kept := int64(m.HeapAlloc) - int64(before)
	runtime.KeepAlive(c)
	// about 190 KB: 500 nodes, their ids and names, the id index
	if kept > 512<<10 {
		t.Fatalf("a built 500-stage chart keeps %d KB; want under 512 KB", kept>>10)
	}
}
