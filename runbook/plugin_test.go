package runbook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openrunbook/runbook/record"

	"github.com/openrunbook/runbook/chart"

	"go.uber.org/goleak"

	"github.com/openrunbook/runbook/bench"
	"github.com/openrunbook/runbook/plugins/host"
	"github.com/openrunbook/runbook/plugins/sdk"
	"github.com/openrunbook/runbook/runbook"
)

// TestMain lets this test binary serve the honesty stages (or, started
// with the argument serve-stage, the test stage plugin of faults_test.go)
// when a test starts it as a plugin (no separate build). Run as tests, it
// fails the package when a goroutine outlives them (goleak; none ignored).
func TestMain(m *testing.M) {
	if sdk.Launched() {
		if slices.Contains(os.Args, "serve-stage") {
			sdk.Serve(testStage{})
			return
		}
		sdk.ServeHonesty(runbook.InProcess())
		return
	}
	goleak.VerifyTestMain(m)
}

func workloads(tb testing.TB) map[string]*runbook.Runbook {
	tb.Helper()
	goChart, err := runbook.New(bench.Fanout(1000))
	if err != nil {
		tb.Fatal(err)
	}
	spec, err := chart.Load("../testdata/bench/fanout1000.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	yamlChart, err := runbook.Build(spec)
	if err != nil {
		tb.Fatal(err)
	}
	return map[string]*runbook.Runbook{"go": goChart, "yaml": yamlChart}
}

var volatile = regexp.MustCompile(`"durationMs":[0-9.e+-]+`)

// TestHonestyPluginSameRecord runs the fan-out workloads with the honesty
// stages in-process and as a plugin process: the same record bytes.
func TestHonestyPluginSameRecord(t *testing.T) {
	t.Parallel()
	h := host.StartHonesty(host.Source{Name: "honesty", Path: os.Args[0]})
	defer h.Close()
	if err := h.Wait(); err != nil {
		t.Fatal(err)
	}
	for name, rb := range workloads(t) {
		t.Run(name, func(t *testing.T) {
			rec := func(opts ...runbook.ExecOption) string {
				res, err := rb.Exec(context.Background(), nil, opts...)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := json.Marshal(res.Record)
				return volatile.ReplaceAllString(string(b), `"durationMs":0`)
			}
			in := rec()
			shared := rec(runbook.WithHonestyPlugin(h))
			perRun := rec(runbook.WithHonestyProcess(os.Args[0]))
			ahead := rec(runbook.WithHonestyStarted(runbook.StartHonestyProcess(nil, os.Args[0])))
			if in != shared || in != perRun || in != ahead {
				t.Fatalf("records differ:\nin-process %s\nshared     %s\nper run    %s\nahead      %s", in, shared, perRun, ahead)
			}
		})
	}
}

// BenchmarkFanout1000Honesty measures the honesty stages out of process
// against in-process on the fanout1000 workloads:
//
//	inprocess   the honesty stages in this process
//	plugin               one honesty plugin process kept for the host's life
//	plugin-every-result  the same, without WithSameCoverageRules: every stage
//	                     result crosses the process boundary
//	per-run              a process started (and stopped) for every run, as `runbook exec` does
//
// ns/op includes waiting until the run's processes are gone (Result.Close,
// as the CLI does before exiting); ms-to-record is until Exec returned the
// complete record.
func BenchmarkFanout1000Honesty(b *testing.B) {
	h := host.StartHonesty(host.Source{Name: "honesty", Path: os.Args[0]}, host.WithSameCoverageRules())
	defer h.Close()
	raw := host.StartHonesty(host.Source{Name: "honesty", Path: os.Args[0]})
	defer raw.Close()
	if err := errors.Join(h.Wait(), raw.Wait()); err != nil {
		b.Fatal(err)
	}
	modes := []struct {
		name string
		opts []runbook.ExecOption
	}{
		{"inprocess", nil},
		{"plugin", []runbook.ExecOption{runbook.WithHonestyPlugin(h)}},
		{"plugin-every-result", []runbook.ExecOption{runbook.WithHonestyPlugin(raw)}},
		{"per-run", []runbook.ExecOption{runbook.WithHonestyProcess(os.Args[0])}},
	}
	wl := workloads(b)
	for _, w := range []string{"go", "yaml"} {
		for _, m := range modes {
			b.Run(w+"/"+m.name, func(b *testing.B) {
				b.ReportAllocs()
				var toRecord time.Duration
				for b.Loop() {
					t0 := time.Now()
					res, err := wl[w].Exec(context.Background(), nil, m.opts...)
					toRecord += time.Since(t0)
					if err != nil || res.Record.Status != "completed" {
						b.Fatal(err, res.Record.Error)
					}
					res.Close() // as the CLI does: every process gone
				}
				b.ReportMetric(float64(toRecord.Microseconds())/1000/float64(b.N), "ms-to-record/op")
			})
		}
	}
}

// TestHonestyStartedIsStopped: a process started ahead of its run is the
// run's to stop on every path — the run used it, the chart turned the
// honesty stages off, the inputs were refused, the record could not be
// resumed — and once the Result is closed (or Exec returned an error) no
// child process of ours is left. Not parallel: it counts this process's
// children.
func TestHonestyStartedIsStopped(t *testing.T) {
	parse := func(src string) *runbook.Runbook {
		t.Helper()
		spec, err := chart.Parse("c.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		rb, err := runbook.Build(spec)
		if err != nil {
			t.Fatal(err)
		}
		return rb
	}
	const chart = `
version: 1
runbook: started
inputs:
  n: {type: number, required: true}
stages:
  - id: s
    set: {x: n + 1}
`
	on, off := parse(chart), parse(chart+"honesty: []\n")
	cases := []struct {
		name  string
		rb    *runbook.Runbook
		given map[string]any
		fails bool
	}{
		{"used", on, map[string]any{"n": 1}, false},
		{"honesty off", off, map[string]any{"n": 1}, false},
		{"inputs refused", on, map[string]any{"n": "x"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hp := runbook.StartHonestyProcess(nil, os.Args[0])
			if err := hp.Wait(); err != nil {
				t.Fatal(err)
			}
			res, err := c.rb.Exec(context.Background(), c.given, runbook.WithHonestyStarted(hp))
			if (err != nil) != c.fails {
				t.Fatalf("Exec: err = %v, want failure %v", err, c.fails)
			}
			if err == nil {
				if res.Record.Status != "completed" || len(res.Record.Warnings) > 0 {
					t.Fatalf("status %s, warnings %q", res.Record.Status, res.Record.Warnings)
				}
				res.Close()
			}
			if kids := childPIDs(t); len(kids) > 0 {
				t.Fatalf("child processes left: %v", kids)
			}
		})
	}
	t.Run("resume refused", func(t *testing.T) {
		hp := runbook.StartHonestyProcess(nil, os.Args[0])
		if err := hp.Wait(); err != nil {
			t.Fatal(err)
		}
		if _, err := on.Resume(context.Background(), &record.RunRecord{}, nil, runbook.ResumeExec(runbook.WithHonestyStarted(hp))); err == nil {
			t.Fatal("a record that is not paused was resumed")
		}
		if kids := childPIDs(t); len(kids) > 0 {
			t.Fatalf("child processes left: %v", kids)
		}
	})
}

// childPIDs lists the live (not zombie) processes whose parent is this one.
func childPIDs(t *testing.T) []int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc:", err)
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces, so read after ")".
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 1 && f[0] != "Z" && f[1] == strconv.Itoa(os.Getpid()) {
			out = append(out, pid)
		}
	}
	return out
}

// BenchmarkHonestyProcessStart is what one per-run honesty process costs
// before it answers anything: from StartHonestyProcess until the handshake
// is done (ms-ready, wall), and the CPU the process used from its start to
// its end (child-cpu-ms, user+sys: fork/exec, the Go runtime, package init,
// go-plugin's serve and handshake, the stop). On a run that keeps every
// core busy, child-cpu-ms is what the process adds.
func BenchmarkHonestyProcessStart(b *testing.B) {
	cpu0 := childCPU()
	var ready time.Duration
	for b.Loop() {
		t0 := time.Now()
		hp := runbook.StartHonestyProcess(nil, os.Args[0])
		if err := hp.Wait(); err != nil {
			b.Fatal(err)
		}
		ready += time.Since(t0)
		hp.Close()
	}
	b.ReportMetric(float64(ready.Microseconds())/1000/float64(b.N), "ms-ready")
	b.ReportMetric(float64((childCPU()-cpu0).Microseconds())/1000/float64(b.N), "child-cpu-ms")
}

// childCPU is the CPU of this process's children that have been waited for.
func childCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
