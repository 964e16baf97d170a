package temporal_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"go.temporal.io/server/temporaltest"

	"github.com/openrunbook/runbook/temporal"
)

// BenchmarkForeach is a foreach of N exec stages (`true`, one process each)
// on the embedded server, one worker: the fan-out's cost on Temporal, per
// run, with the record's size. docs/SCALE.md quotes it:
//
//	go test -run '^$' -bench Foreach -benchtime 1x .
func BenchmarkForeach(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "fanout.yaml")
			chart := fmt.Sprintf(`version: 1
runbook: fanout
stages:
  - id: each
    foreach:
      items: 'map(1..%d, #)'
      as: i
      maxBranches: %d
      stages:
        - {id: probe, exec: {command: ["true"], into: p}}
`, n, n)
			if err := os.WriteFile(path, []byte(chart), 0o644); err != nil {
				b.Fatal(err)
			}
			_, c := benchServer(b, "bench")
			ex := &temporal.Executor{Client: c, TaskQueue: "bench"}
			var size int
			var last *temporal.Run
			b.ResetTimer()
			for range b.N {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
				run, err := ex.ExecFile(ctx, path, nil)
				cancel()
				if err != nil {
					b.Fatal(err)
				}
				size = len(run.Record)
				last = run
			}
			b.StopTimer()
			d, err := c.DescribeWorkflowExecution(context.Background(), last.WorkflowID, last.RunID)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(d.GetWorkflowExecutionInfo().GetHistoryLength()), "history-events")
			b.ReportMetric(float64(d.GetWorkflowExecutionInfo().GetHistorySizeBytes())/(1<<20), "history-MiB")
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(size), "record-bytes")
			b.ReportMetric(float64(ms.Sys)/(1<<20), "sys-MiB")
		})
	}
}

// benchServer is server for a benchmark: temporaltest logs through a
// *testing.T only, so its client logs nowhere.
func benchServer(b *testing.B, queue string) (*temporaltest.TestServer, client.Client) {
	b.Helper()
	quiet := log.NewStructuredLogger(slog.New(slog.DiscardHandler))
	ts := temporaltest.NewServer(temporaltest.WithBaseClientOptions(client.Options{Logger: quiet}))
	b.Cleanup(ts.Stop)
	c := ts.GetDefaultClient()
	w := temporal.NewWorker(c, queue) // its options, not temporaltest's
	if err := w.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(w.Stop)
	return ts, c
}

// BenchmarkSequential is a loop of N passes, each one exec stage (`true`,
// a process) and a set: N sequential activities, past what one workflow
// history holds (51,200 events, six for each sequential activity) when N
// is 10,000 or more, so the run continues as new (at the server's
// suggestion, 4096 events, by default). It reports the chain's length,
// the longest history of its runs, the record's size and the process's
// memory. docs/SCALE.md quotes it:
//
//	RUNBOOK_SEQUENTIAL=20000 go test -run '^$' -bench Sequential -benchtime 1x -timeout 2h .
//
// RUNBOOK_SEQUENTIAL sets N (default 1000).
func BenchmarkSequential(b *testing.B) {
	n := 1000
	if s := os.Getenv("RUNBOOK_SEQUENTIAL"); s != "" {
		if _, err := fmt.Sscan(s, &n); err != nil {
			b.Fatal(err)
		}
	}
	path := filepath.Join(b.TempDir(), "sequential.yaml")
	chart := fmt.Sprintf(`version: 1
runbook: sequential
stages:
  - id: seed
    set: {n: "0"}
  - id: probe
    exec: {command: ["true"], into: p}
  - id: count
    set: {n: n + 1}
  - id: again
    loop: {to: probe, while: n < %d, max: %d}
`, n, n)
	if err := os.WriteFile(path, []byte(chart), 0o644); err != nil {
		b.Fatal(err)
	}
	_, c := benchServer(b, "bench")
	ex := &temporal.Executor{Client: c, TaskQueue: "bench"}
	var last *temporal.Run
	b.ResetTimer()
	for range b.N {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Hour)
		run, err := ex.ExecFile(ctx, path, nil)
		cancel()
		if err != nil {
			b.Fatal(err)
		}
		last = run
	}
	b.StopTimer()
	rec, err := last.RunRecord()
	if err != nil {
		b.Fatal(err)
	}
	if rec.Result.Status != "completed" || rec.Result.Stats.Stages != 3*n+1 {
		b.Fatalf("the run %s with %d stage executions, want completed with %d", rec.Result.Status, rec.Result.Stats.Stages, 3*n+1)
	}
	runs, events, _ := runChain(b, c, last.WorkflowID, last.RunID)
	longest := slices.Max(events)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(len(runs)), "runs")
	b.ReportMetric(float64(longest), "longest-history-events")
	b.ReportMetric(float64(len(last.Record)), "record-bytes")
	b.ReportMetric(float64(ms.Sys)/(1<<20), "sys-MiB")
}
