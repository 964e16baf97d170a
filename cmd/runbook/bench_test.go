package main

import (
	"io"
	"os/exec"
	"path/filepath"
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
