package temporal_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"go.temporal.io/server/temporaltest"
)

// BenchmarkFanoutShapes is the measurement behind docs/SCALE.md's choice of
// how a foreach runs past one history: a synthetic foreach of N items,
// each one short command (`true`), in three shapes, without runbook's
// engine so that only the shape is measured:
//
//   - one: one workflow, one activity per item (the shape before batches), at most 1000
//     scheduled at once;
//   - child/K: the parent starts one child workflow per chunk of K items,
//     each child one activity per item of its chunk;
//   - batch/K: one workflow, one activity per chunk of K items, which runs
//     its K commands at once on the worker and returns K results.
//
// Each case in its own process, so the peak RSS is that case's (a
// pattern's levels are matched each on its own, so anchor them):
//
//	go test -c -o /tmp/t.test .
//	/tmp/t.test -test.run '^$' -test.bench 'FanoutShapes/one/1000$' -test.benchtime 1x
//	/tmp/t.test -test.run '^$' -test.bench 'FanoutShapes/^batch$/^100$/^10000$' -test.benchtime 1x
func BenchmarkFanoutShapes(b *testing.B) {
	for _, shape := range []string{"one", "child/100", "child/1000", "batch/100", "batch/1000"} {
		for _, n := range []int{1000, 10000} {
			b.Run(fmt.Sprintf("%s/%d", shape, n), func(b *testing.B) {
				kind, k := shape, 0
				if i := strings.IndexByte(shape, '/'); i >= 0 {
					kind = shape[:i]
					k, _ = strconv.Atoi(shape[i+1:])
				}
				c := shapeServer(b)
				var id, runID string
				b.ResetTimer()
				for range b.N {
					ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
					r, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: "shapes"}, "shape.parent", kind, n, k)
					if err != nil {
						cancel()
						b.Fatal(err)
					}
					var got int
					err = r.Get(ctx, &got)
					cancel()
					if err != nil {
						b.Fatal(err)
					}
					if got != n {
						b.Fatalf("%d items ran, want %d", got, n)
					}
					id, runID = r.GetID(), r.GetRunID()
				}
				b.StopTimer()
				d, err := c.DescribeWorkflowExecution(context.Background(), id, runID)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(d.GetWorkflowExecutionInfo().GetHistoryLength()), "parent-events")
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				b.ReportMetric(float64(ms.Sys)/(1<<20), "sys-MiB")
				b.ReportMetric(peakRSS()/(1<<20), "peak-RSS-MiB")
			})
		}
	}
}

// peakRSS is the process's peak resident set (VmHWM), in bytes.
func peakRSS() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return float64(kb) * 1024
		}
	}
	return 0
}

func shapeServer(b *testing.B) client.Client {
	b.Helper()
	quiet := log.NewStructuredLogger(slog.New(slog.DiscardHandler))
	ts := temporaltest.NewServer(temporaltest.WithBaseClientOptions(client.Options{Logger: quiet}))
	b.Cleanup(ts.Stop)
	c := ts.GetDefaultClient()
	w := worker.New(c, "shapes", worker.Options{DeadlockDetectionTimeout: 10 * time.Second})
	w.RegisterWorkflowWithOptions(shapeParent, workflow.RegisterOptions{Name: "shape.parent"})
	w.RegisterWorkflowWithOptions(shapeChild, workflow.RegisterOptions{Name: "shape.child"})
	w.RegisterActivityWithOptions(shapeOne, activity.RegisterOptions{Name: "shape.one"})
	w.RegisterActivityWithOptions(shapeBatch, activity.RegisterOptions{Name: "shape.batch"})
	if err := w.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(w.Stop)
	return c
}

func shapeOptions(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 10 * time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
}

// shapeParent runs n items in the shape kind ("one", "child", "batch"),
// k a chunk; it returns how many ran.
func shapeParent(ctx workflow.Context, kind string, n, k int) (int, error) {
	ctx = shapeOptions(ctx)
	switch kind {
	case "one":
		return shapeItems(ctx, 0, n)
	case "child":
		var fs []workflow.ChildWorkflowFuture
		for from := 0; from < n; from += k {
			fs = append(fs, workflow.ExecuteChildWorkflow(ctx, "shape.child", from, min(from+k, n)))
		}
		total := 0
		for _, f := range fs {
			var got int
			if err := f.Get(ctx, &got); err != nil {
				return 0, err
			}
			total += got
		}
		return total, nil
	case "batch":
		// At most 1000 items' commands in flight, as today's cap.
		inFlight, total := 0, 0
		wg := workflow.NewWaitGroup(ctx)
		var ferr error
		for from := 0; from < n; from += k {
			m := min(k, n-from)
			_ = workflow.Await(ctx, func() bool { return inFlight+m <= max(1000, k) })
			inFlight += m
			wg.Add(1)
			f := workflow.ExecuteActivity(ctx, "shape.batch", m)
			workflow.Go(ctx, func(ctx workflow.Context) {
				defer wg.Done()
				var got []int
				if err := f.Get(ctx, &got); err != nil {
					ferr = err
				}
				total += len(got)
				inFlight -= m
			})
		}
		wg.Wait(ctx)
		return total, ferr
	}
	return 0, fmt.Errorf("no shape %q", kind)
}

// shapeChild runs items [from, to) one activity each.
func shapeChild(ctx workflow.Context, from, to int) (int, error) {
	return shapeItems(shapeOptions(ctx), from, to)
}

// shapeItems is one activity per item, each item a coroutine, at most 1000
// scheduled at once (today's maxInFlight).
func shapeItems(ctx workflow.Context, from, to int) (int, error) {
	inFlight, total := 0, 0
	var ferr error
	wg := workflow.NewWaitGroup(ctx)
	for range to - from {
		wg.Add(1)
		workflow.Go(ctx, func(ctx workflow.Context) {
			defer wg.Done()
			_ = workflow.Await(ctx, func() bool { return inFlight < 1000 })
			inFlight++
			var code int
			if err := workflow.ExecuteActivity(ctx, "shape.one").Get(ctx, &code); err != nil {
				ferr = err
			}
			inFlight--
			total++
		})
	}
	wg.Wait(ctx)
	return total, ferr
}

// shapeOne runs one short command.
func shapeOne(ctx context.Context) (int, error) {
	return shapeRun(ctx), nil
}

// shapeBatch runs m short commands at once and returns each one's exit code.
func shapeBatch(ctx context.Context, m int) ([]int, error) {
	codes := make([]int, m)
	var wg sync.WaitGroup
	for i := range m {
		wg.Go(func() { codes[i] = shapeRun(ctx) })
	}
	wg.Wait()
	return codes, nil
}

func shapeRun(ctx context.Context) int {
	if err := exec.CommandContext(ctx, "true").Run(); err != nil {
		return 1
	}
	return 0
}
