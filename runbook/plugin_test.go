package runbook_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openrunbook/runbook/chart"

	"go.uber.org/goleak"

	"github.com/openrunbook/runbook/bench"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/host"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/plugins/sdk"
	"github.com/openrunbook/runbook/record"
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

var volatile = regexp.MustCompile(`"durationMs":[0-9.e+-]+|"finishedAt":"[^"]*"`)

// TestHonestyPluginSameRecord runs the fan-out workloads with the honesty
// stages in-process and as a plugin process: the same record bytes.
func TestHonestyPluginSameRecord(t *testing.T) {
	t.Parallel()
	raw := host.StartHonesty(honestySource)
	defer raw.Close()
	same := host.StartHonesty(honestySource, host.WithSameCoverageRules())
	defer same.Close()
	if err := errors.Join(raw.Wait(), same.Wait()); err != nil {
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
			inVia := rec(runbook.WithHonestyVia(runbook.InProcess()))
			// Each process serves both workloads, one run after the other:
			// a run's end leaves the process serving and forgets its memory.
			shared := rec(runbook.WithHonestyVia(raw))
			sameRules := rec(runbook.WithHonestyVia(same))
			if in != inVia || in != shared || in != sameRules {
				t.Fatalf("records differ:\nin-process %s\nvia it     %s\nplugin     %s\nsame rules %s", in, inVia, shared, sameRules)
			}
		})
	}
}

// honestySource is this test binary serving the honesty stages (TestMain).
var honestySource = host.Source{Name: "honesty", Path: os.Args[0]}

// BenchmarkFanout1000Honesty measures the honesty stages out of process
// against in-process on the fanout1000 workloads, all through
// runbook.WithHonestyVia:
//
//	inprocess            the honesty stages in this process
//	plugin               one honesty plugin process kept for the host's life
//	plugin-every-result  the same, without WithSameCoverageRules: every stage
//	                     result crosses the process boundary
//	per-run              a process started before, and stopped after, every run
//
// ns/op includes the per-run process's stop; ms-to-record is until Exec
// returned the complete record.
func BenchmarkFanout1000Honesty(b *testing.B) {
	h := host.StartHonesty(honestySource, host.WithSameCoverageRules())
	defer h.Close()
	raw := host.StartHonesty(honestySource)
	defer raw.Close()
	if err := errors.Join(h.Wait(), raw.Wait()); err != nil {
		b.Fatal(err)
	}
	modes := []struct {
		name string
		via  func() (runbook.Honesty, func())
	}{
		{"inprocess", func() (runbook.Honesty, func()) { return runbook.InProcess(), func() {} }},
		{"plugin", func() (runbook.Honesty, func()) { return h, func() {} }},
		{"plugin-every-result", func() (runbook.Honesty, func()) { return raw, func() {} }},
		{"per-run", func() (runbook.Honesty, func()) {
			p := host.StartHonesty(honestySource, host.WithSameCoverageRules())
			return p, p.Close
		}},
	}
	wl := workloads(b)
	for _, w := range []string{"go", "yaml"} {
		for _, m := range modes {
			b.Run(w+"/"+m.name, func(b *testing.B) {
				b.ReportAllocs()
				var toRecord time.Duration
				for b.Loop() {
					t0 := time.Now()
					via, stop := m.via()
					res, err := wl[w].Exec(context.Background(), nil, runbook.WithHonestyVia(via))
					toRecord += time.Since(t0)
					if err != nil || res.Record.Status != "completed" {
						b.Fatal(err, res.Record.Error)
					}
					stop() // as the CLI does: every process gone
				}
				b.ReportMetric(float64(toRecord.Microseconds())/1000/float64(b.N), "ms-to-record/op")
			})
		}
	}
}

// BenchmarkHonestyProcessStart is what one honesty process costs before it
// answers anything: from host.StartHonesty until the handshake is done
// (ms-ready, wall), and the CPU the process used from its start to its end
// (child-cpu-ms, user+sys: fork/exec, the Go runtime, package init,
// go-plugin's serve and handshake, the stop). On a run that keeps every
// core busy, child-cpu-ms is what the process adds.
func BenchmarkHonestyProcessStart(b *testing.B) {
	cpu0 := childCPU()
	var ready time.Duration
	for b.Loop() {
		t0 := time.Now()
		p := host.StartHonesty(honestySource)
		if err := p.Wait(); err != nil {
			b.Fatal(err)
		}
		ready += time.Since(t0)
		p.Close()
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

// failing is honesty stages that always fail, as a plugin process that died.
type failing struct{}

var errGone = errors.New("the honesty process is gone")

func (failing) Label(context.Context, label.Request) (label.Response, error) {
	return label.Response{}, errGone
}
func (failing) Coverage(context.Context, string, coverage.Request) (coverage.Response, error) {
	return coverage.Response{}, errGone
}
func (failing) Assess(context.Context, assessment.Request) (assessment.Response, error) {
	return assessment.Response{}, errGone
}
func (failing) EndRun(context.Context, string) error { return errGone }

// TestHonestyViaFallsBack: honesty stages that fail are replaced by the
// in-process ones for the rest of the run, with one warning; the record is
// otherwise the in-process one.
func TestHonestyViaFallsBack(t *testing.T) {
	t.Parallel()
	rb := workloads(t)["yaml"]
	rec := func(opts ...runbook.ExecOption) *record.Record {
		res, err := rb.Exec(context.Background(), nil, opts...)
		if err != nil {
			t.Fatal(err)
		}
		return res.Record
	}
	in, broken := rec(), rec(runbook.WithHonestyVia(failing{}))
	if len(broken.Warnings) != len(in.Warnings)+1 || !strings.Contains(strings.Join(broken.Warnings, "\n"), errGone.Error()) {
		t.Fatalf("warnings %q, want the in-process ones and one saying %q", broken.Warnings, errGone)
	}
	broken.Warnings = in.Warnings
	b1, _ := json.Marshal(in)
	b2, _ := json.Marshal(broken)
	if a, b := volatile.ReplaceAllString(string(b1), ""), volatile.ReplaceAllString(string(b2), ""); a != b {
		t.Fatalf("records differ beyond the warning:\n%s\n%s", a, b)
	}
}
