package runbook_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"slices"
	"testing"
	"time"

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

// fanoutYAML is the fanout1000 workload as a YAML runbook: 1000 branches,
// each writing an object (which passes through the coverage stage), a
// decision of 3 rules and a default, and a verdict row.
const fanoutYAML = `
version: 1
runbook: fanout
result: {kind: verdict/posture, decider: Protection posture}
stages:
  - id: seed
    set:
      subjects: 'map(0..999, ({"name": "vol-" + string(#), "used": # * 37 % 100, "replicas": # % 4}))'
  - id: per-subject
    foreach:
      items: subjects
      as: item
      maxBranches: 1000
      stages:
        - id: load
          set: {vol: '{"subject": item.name, "used": item.used, "replicas": item.replicas}'}
        - id: posture
          name: Protection posture
          decide:
            rules:
              - {when: vol.replicas < 1, then: unprotected, label: No replica}
              - {when: vol.used > 90, then: at-risk, label: Nearly full}
              - {when: vol.replicas >= 2, then: protected, label: Two or more replicas}
            default: {branch: declined, label: No rule reached a verdict}
          branches:
            unprotected: [{id: u, verdict: {subject: vol.subject, verdict: '"unprotected"'}}]
            at-risk: [{id: r, verdict: {subject: vol.subject, verdict: '"at-risk"'}}]
            protected: [{id: p, verdict: {subject: vol.subject, verdict: '"protected"'}}]
            declined: [{id: d, verdict: {subject: vol.subject, verdict: '"declined"'}}]
`

func workloads(tb testing.TB) map[string]*runbook.Runbook {
	tb.Helper()
	goChart, err := runbook.New(bench.Fanout(1000))
	if err != nil {
		tb.Fatal(err)
	}
	spec, err := runbook.Parse("fanout.yaml", []byte(fanoutYAML))
	if err != nil {
		tb.Fatal(err)
	}
	yamlChart, err := runbook.FromSpec(spec)
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
			if in != shared || in != perRun {
				t.Fatalf("records differ:\nin-process %s\nshared     %s\nper run    %s", in, shared, perRun)
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
