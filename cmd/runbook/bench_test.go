package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// BenchmarkExecFanout1000 is `runbook exec` of the fanout1000 workload
// (testdata/bench/fanout1000.yaml) from a cold process, as a person or an
// agent runs it: the process starting, loading the chart, the run, the
// honesty stages, the 1000-row answer written out, every process gone.
// honesty=plugin is the default (the stages in a plugin process the
// binary serves itself); honesty=inprocess runs them in the runbook
// process. The ratio of the two is the out-of-process cost issue 5 bounds
// at 1.25×. cpu-ms/op is the CPU of the whole process tree (the runbook
// process and every child it waited for).
func BenchmarkExecFanout1000(b *testing.B) {
	chart, err := filepath.Abs("../../testdata/bench/fanout1000.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []string{"inprocess", "plugin"} {
		b.Run("honesty="+mode, func(b *testing.B) {
			var cpu time.Duration
			for b.Loop() {
				cmd := exec.Command(binary, "exec", chart, "--honesty="+mode)
				cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
				if err := cmd.Run(); err != nil {
					b.Fatalf("runbook exec --honesty=%s: %v", mode, err)
				}
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// BenchmarkExplainWideForeach is `runbook explain RECORD` (the chain
// behind every verdict row) on the record of a foreach of width items
// (testdata/bench/wide-foreach.yaml), in a process of its own, as a person
// runs it. peak-MB is that process's peak resident memory. Both grow
// linearly in the width: explain worked out where a row came from by
// rescanning the whole foreach for every row, which made it quadratic
// (issue #18: 10k items took over a minute).
func BenchmarkExplainWideForeach(b *testing.B) {
	chart, err := filepath.Abs("../../testdata/bench/wide-foreach.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for _, width := range []int{1000, 10000, 100000} {
		b.Run("items="+strconv.Itoa(width), func(b *testing.B) {
			rec := filepath.Join(b.TempDir(), "wide.json")
			cmd := exec.Command(binary, "exec", chart, "--input", "width="+strconv.Itoa(width), "--record", rec, "-q")
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("runbook exec: %v\n%s", err, out)
			}
			var peak int64
			for b.Loop() {
				cmd := exec.Command(binary, "explain", rec)
				cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
				if err := cmd.Run(); err != nil {
					b.Fatalf("runbook explain: %v", err)
				}
				if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
					peak = max(peak, ru.Maxrss) // KiB on Linux
				}
			}
			b.ReportMetric(float64(peak)/1024, "peak-MB")
		})
	}
}

// BenchmarkExecWideForeach is `runbook exec` of a foreach of width items
// (testdata/bench/wide-foreach.yaml) with --record, end to end in a
// process of its own: the run, the answer, and the record file written.
// peak-MB is that process's peak resident memory and file-MB the record's
// size. Before issue #18 the record was built whole in memory as indented
// JSON before it was written; now it is streamed (record.WriteFile).
func BenchmarkExecWideForeach(b *testing.B) {
	chart, err := filepath.Abs("../../testdata/bench/wide-foreach.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for _, width := range []int{10000, 100000} {
		b.Run("items="+strconv.Itoa(width), func(b *testing.B) {
			rec := filepath.Join(b.TempDir(), "wide.json")
			var peak int64
			for b.Loop() {
				cmd := exec.Command(binary, "exec", chart, "--input", "width="+strconv.Itoa(width), "--record", rec, "-q")
				cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
				if err := cmd.Run(); err != nil {
					b.Fatalf("runbook exec: %v", err)
				}
				if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
					peak = max(peak, ru.Maxrss) // KiB on Linux
				}
			}
			b.ReportMetric(float64(peak)/1024, "peak-MB")
			if fi, err := os.Stat(rec); err == nil {
				b.ReportMetric(float64(fi.Size())/1e6, "file-MB")
			}
		})
	}
}
