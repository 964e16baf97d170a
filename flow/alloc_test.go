package flow

import (
	"context"
	"testing"
	"unsafe"

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

// TestShortRunStartsInItsRunner: a run of a few stages over a few keys
// keeps its log and root state in the runner's first room, so the run's
// allocation is the runner and what its stages make — not a log and a
// state of their own, and no state map no caller asked for (Result.State
// builds it when asked).
func TestShortRunStartsInItsRunner(t *testing.T) {
	c, err := New("short").
		Stage("a", func(ctx context.Context, s *Scope) error { s.Set("x", true); return nil }).
		Stage("b", func(ctx context.Context, s *Scope) error { s.Set("y", s.Value("x")); return nil }).
		Stage("c", func(ctx context.Context, s *Scope) error {
			// a seed's handful of facts: the runner's first write room holds them
			for _, k := range []string{"host", "usedPct", "errors", "state"} {
				s.Set(k, s.Value("y"))
			}
			return nil
		}).
		Build()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.Run(ctx); err != nil { // the second run knows the first's size
		t.Fatal(err)
	}
	// A run that gathers one key, as every runbook run does, takes the
	// key as it was given: the option made no copy of its keys.
	gather := WithGather("verdicts")
	for _, opts := range [][]RunOption{nil, {gather}} {
		allocs := testing.AllocsPerRun(100, func() {
			if _, err := c.Run(ctx, opts...); err != nil {
				t.Fatal(err)
			}
		})
		if allocs > 1 {
			t.Fatalf("a three-stage run with %d options made %.1f allocations; want the runner alone (1)", len(opts), allocs)
		}
	}
}

// TestShortRunnerIsOneSmallAllocation pins the runner's size under 4 KB:
// every run allocates it whole and the collector scans it whole, so its
// first rooms are sized for a short run (a few stages, a handful of keys)
// and no more. At 4,216 bytes it took a 4,864-byte allocation a run, and
// decide10 ran 7-10 % slower than at 3,288 bytes in a 3,456-byte one.
//
// The runtime puts an 8-byte header before an object over 512 bytes that
// holds pointers, so the runner's own size must stay 8 under the class:
// at exactly 3,456 bytes it took a 4,096-byte allocation (the test asked
// for no more than 3,456 and passed over it).
func TestShortRunnerIsOneSmallAllocation(t *testing.T) {
	const class, header = 3456, 8
	if size := unsafe.Sizeof(runner{}); size+header > class {
		t.Fatalf("a runner is %d bytes, %d with its allocation header; its first rooms should keep it within %d (the allocation size below 4 KB)", size, size+header, class)
	}
}

// TestNextChunkIsAPowerOfTwo: the chunk after the runner's odd-sized first
// rooms is the next power of two, so a long run's chunks are the ones it
// had when the first rooms were eight. After a first room of six writes
// the chunks went 12, 24, … 768, and linear500 allocated 303 KB a run
// where it had allocated 280 KB.
func TestNextChunkIsAPowerOfTwo(t *testing.T) {
	for c, want := range map[int]int{0: 8, 3: 8, 4: 8, 6: 8, 8: 16, 12: 16, 600: 1024, 1024: 1024, 5000: 1024} {
		if got := nextCap(c); got != want {
			t.Errorf("nextCap(%d) = %d, want %d", c, got, want)
		}
	}
}

// TestGatherKeysGivenTwice: the first WithGather's keys are kept as given,
// so a second must add to a copy, never write into the first's array.
func TestGatherKeysGivenTwice(t *testing.T) {
	first := make([]string, 1, 4) // room a careless append would write into
	first[0] = "verdicts"
	var o runOptions
	WithGather(first...)(&o)
	WithGather("findings")(&o)
	if len(o.gather) != 2 || o.gather[0] != "verdicts" || o.gather[1] != "findings" {
		t.Fatalf("gathered %v; want [verdicts findings]", o.gather)
	}
	if spare := first[:2]; spare[1] != "" {
		t.Fatalf("the second WithGather wrote %q into the first's keys", spare[1])
	}
}
