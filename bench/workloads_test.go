package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"syscall"
	"testing"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/recorder"
)

// runOnce runs c as runbook runs a chart: its verdict rows gathered.
func runOnce(b *testing.B, c *flow.Chart, opts ...flow.RunOption) *flow.Result {
	res, err := c.Run(context.Background(), append(opts, flow.WithGather(Verdicts))...)
	if err != nil {
		b.Fatal(err)
	}
	return res
}

// reportCPU reports the process's CPU time per op (user and system, every
// thread: the garbage collector's work on the other core included) beside
// the wall time; call its result when the loop is done.
func reportCPU(b *testing.B) func() {
	start := cpuNow()
	return func() { b.ReportMetric(float64(cpuNow()-start)/float64(b.N), "cpu-ns/op") }
}

func cpuNow() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func benchNarrative(b *testing.B, c *flow.Chart) {
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		n := recorder.NewNarrative()
		runOnce(b, c, flow.WithRecorders(n))
		if len(n.Lines()) == 0 {
			b.Fatal("no narrative")
		}
	}
}

func BenchmarkLinear500(b *testing.B) {
	c := Linear(500)
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		runOnce(b, c)
	}
}

func BenchmarkLinear500Narrative(b *testing.B) { benchNarrative(b, Linear(500)) }

func BenchmarkDecide10(b *testing.B) {
	c := Decide10()
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		runOnce(b, c)
	}
}

func BenchmarkDecide10Narrative(b *testing.B) { benchNarrative(b, Decide10()) }

func BenchmarkFanout1000(b *testing.B) {
	c := Fanout(1000)
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		runOnce(b, c)
	}
}

func BenchmarkLoop10k(b *testing.B) {
	c := Loop(10000)
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		runOnce(b, c)
	}
}

// BenchmarkLoop10kSpelled is loop10k with its log spelled out as Commits
// after the run, what a reader of every commit pays (runbook exec's record,
// explain): the run keeps its log packed, and the workloads above, like the
// reference's, only run.
func BenchmarkLoop10kSpelled(b *testing.B) {
	c := Loop(10000)
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		if res := runOnce(b, c); len(res.Log.Commits()) != res.Stages {
			b.Fatal("the spelled log lost commits")
		}
	}
}

// BenchmarkFloorLinear500 is the plain-Go floor for linear500: the same 500
// map reads and writes with no engine.
func BenchmarkFloorLinear500(b *testing.B) {
	keys := make([]string, 500)
	for i := range keys {
		keys[i] = fmt.Sprintf("v%d", i)
	}
	b.ReportAllocs()
	for b.Loop() {
		m := map[string]any{keys[0]: 0}
		for i := 1; i < len(keys); i++ {
			m[keys[i]] = m[keys[i-1]].(int) + 1
		}
		if m[keys[499]].(int) != 499 {
			b.Fatal("floor miscounted")
		}
	}
}

// Growth: per-stage cost of a chain, per-branch cost of a fan-out.
func BenchmarkLinearGrowth(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		c := Linear(n)
		b.Run(fmt.Sprintf("stages=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				runOnce(b, c)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/stage")
		})
	}
}

// BenchmarkFloorLinearGrowth is the plain-Go floor of LinearGrowth: the
// same map reads and writes, no engine. What grows here with n (a larger
// map, more cache misses) bounds how flat the engine's per-stage cost can
// be.
func BenchmarkFloorLinearGrowth(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		keys := make([]string, n)
		for i := range keys {
			keys[i] = fmt.Sprintf("v%d", i)
		}
		b.Run(fmt.Sprintf("stages=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m := map[string]any{keys[0]: 0}
				for i := 1; i < len(keys); i++ {
					m[keys[i]] = m[keys[i-1]].(int) + 1
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/stage")
		})
	}
}

func BenchmarkFanoutGrowth(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		c := Fanout(n)
		b.Run(fmt.Sprintf("branches=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				runOnce(b, c)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/branch")
		})
	}
}

// The workloads must do the reference's work: these tests pin it.
func TestWorkloadsDoTheWork(t *testing.T) {
	ctx := context.Background()
	res, err := Linear(500).Run(ctx)
	if err != nil || res.State()["v499"] != 499 || len(res.Log.Commits()) != 500 {
		t.Fatalf("linear500: %v %v commits %d", err, res.State()["v499"], len(res.Log.Commits()))
	}
	res, err = Decide10().Run(ctx)
	if err != nil || res.State()["verdict"] != "warning" || len(res.Log.Commits()[1].Evidence().Rules) != 10 {
		t.Fatalf("decide10: %v %v", err, res.State()["verdict"])
	}
	res, err = Fanout(1000).Run(ctx, flow.WithGather(Verdicts))
	if err != nil {
		t.Fatal(err)
	}
	rows := res.State()[Verdicts].([]any)
	if len(rows) != 1000 || rows[999].(map[string]any)["subject"] != "vol-999" || len(res.State()["results"].([]any)) != 1000 {
		t.Fatalf("fanout1000: %d rows", len(rows))
	}
	res, err = Loop(10000).Run(ctx)
	if err != nil || res.State()["n"] != 10000 || res.State()["finished"] != true {
		t.Fatalf("loop10k: %v %v", err, res.State())
	}
}

// BenchmarkLogMarshalFanout1000 is the cost of a run's log as the record's
// indented JSON (what a record file holds of it): fanout1000's 5,001
// commits, with its 1,000 decisions kept compact by the run (rebuilt as
// they are written) or materialized before.
func BenchmarkLogMarshalFanout1000(b *testing.B) {
	for _, materialized := range []bool{false, true} {
		b.Run(fmt.Sprintf("materialized=%v", materialized), func(b *testing.B) {
			res := runOnce(b, Fanout(1000))
			if materialized {
				res.Log.Materialize()
			}
			b.ReportAllocs()
			for b.Loop() {
				out, err := json.MarshalIndent(res.Log, "", "  ")
				if err != nil || len(out) == 0 {
					b.Fatal(err)
				}
				b.ReportMetric(float64(len(out)), "bytes")
			}
		})
	}
}
