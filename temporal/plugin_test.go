package temporal_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openrunbook/runbook/temporal"
)

// buildFileAge builds the example file-age plugin into dir, as the chart's
// plugins: map names it (./runbook-plugin-file-age). It is built in the
// root module, whose dependency set it is shipped with.
func buildFileAge(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "runbook-plugin-file-age"), "./examples/plugins/file-age")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the file-age plugin: %v\n%s", err, out)
	}
}

// pluginCharts are plugin stages as both executors run them: the shipped
// example (an argument filled by its default, an absence, a decision on the
// result), a foreach of calls that the plugin's Run fails, and a plugin
// that is nowhere to be found.
var pluginCharts = map[string]string{
	"failing.yaml": `version: 1
runbook: file-age-failing
plugins:
  file-age: {command: ./runbook-plugin-file-age}
stages:
  - id: each
    onError: continue
    foreach:
      items: '["", ""]'
      as: p
      maxBranches: 5
      stages:
        - id: age
          plugin: {name: file-age, args: {path: p, maxAge: '"1h"'}}
`,
	"missing.yaml": `version: 1
runbook: no-such-plugin
stages:
  - id: age
    plugin: {name: no-such-plugin, args: {path: '"/etc/hostname"'}}
`,
}

// TestConformancePlugins: a plugin stage on Temporal is an activity that
// starts the real plugin on the worker, found as a local run finds it, and
// its answer is filed as a local run files it: the run record is the
// local one, byte for byte, whether the call answers, fails in the
// plugin's Run, or finds no plugin.
func TestConformancePlugins(t *testing.T) {
	dir := t.TempDir()
	buildFileAge(t, dir)
	example, err := os.ReadFile("../examples/plugins/file-age/chart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	charts := map[string]string{"example.yaml": string(example)}
	for name, src := range pluginCharts {
		charts[name] = src
	}
	for name, src := range charts {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, c := server(t, "plugins")
	ex := &temporal.Executor{Client: c, TaskQueue: "plugins"}
	for _, tc := range []struct {
		chart  string
		inputs map[string]any
		want   string // in the record: the case is what it says
	}{
		{"example.yaml", map[string]any{"path": filepath.Join(dir, "absent.log")}, `"missing"`},
		{"failing.yaml", nil, `path: want a non-empty string`},
		{"missing.yaml", nil, `plugin \"no-such-plugin\" not found`},
	} {
		t.Run(strings.TrimSuffix(tc.chart, ".yaml"), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			path := filepath.Join(dir, tc.chart)
			run, err := ex.ExecFile(ctx, path, tc.inputs)
			if err != nil {
				t.Fatal(err)
			}
			local := masked(localRecord(t, path, tc.inputs))
			if got := masked(run.Record); got != local {
				t.Errorf("the record on Temporal differs from the local one:\n%s", lineDiff(local, got))
			}
			if !strings.Contains(local, tc.want) {
				t.Errorf("the local record does not hold %s:\n%s", tc.want, local)
			}
		})
	}
}

// TestRetryWaitsOnTheWorkflowTimer: the engine waits out a plugin stage's
// backoff (an exec stage waits its own), and on Temporal it waits on the
// workflow's timer: one timer of the backoff in the history. It waited on
// the worker's clock — the workflow's goroutine blocked for the backoff,
// on every replay again, with nothing in the history to say so.
func TestRetryWaitsOnTheWorkflowTimer(t *testing.T) {
	dir := t.TempDir()
	chart := filepath.Join(dir, "retried.yaml")
	src := "version: 1\nrunbook: retried-plugin\nstages:\n  - id: age\n    retry: {attempts: 2, backoff: 2s}\n    onError: continue\n" +
		"    plugin: {name: no-such-plugin, args: {path: '\"/etc/hostname\"'}}\n"
	if err := os.WriteFile(chart, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, c := server(t, "retried")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	run := conformingRun(t, ctx, c, "retried", chart)
	if !strings.Contains(string(run.Record), `"stages": 2`) {
		t.Errorf("the record does not hold the stage's two attempts:\n%s", run.Record)
	}
	var timers []time.Duration
	for _, e := range historyOf(t, ctx, c, run) {
		if a := e.GetTimerStartedEventAttributes(); a != nil {
			timers = append(timers, a.GetStartToFireTimeout().AsDuration())
		}
	}
	if len(timers) != 1 || timers[0] != 2*time.Second {
		t.Errorf("timers in the history: %v; want the retry's one backoff of 2s", timers)
	}
}
