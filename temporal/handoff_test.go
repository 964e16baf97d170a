package temporal_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"go.temporal.io/server/temporaltest"

	"github.com/openrunbook/runbook/record"
)

// TestRunbookHandsOff drives the core command as a person would, with
// runbook-temporal built beside it: `runbook worker` on a task queue of
// the embedded server, `runbook exec --executor temporal` of a chart
// there; the result record is printed, the saved record is the local
// run's, and the worker, asked to stop by a signal to runbook alone,
// stops runbook-temporal with it.
func TestRunbookHandsOff(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both commands")
	}
	bin := t.TempDir()
	for _, b := range []struct{ dir, pkg, out string }{
		{"..", "./cmd/runbook", "runbook"},
		{".", "./cmd/runbook-temporal", "runbook-temporal"},
	} {
		build := exec.Command("go", "build", "-o", filepath.Join(bin, b.out), b.pkg)
		build.Dir = b.dir
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", b.pkg, err, out)
		}
	}
	ts := temporaltest.NewServer(temporaltest.WithT(t))
	common := []string{"--temporal", ts.GetFrontendHostPort(), "--namespace", ts.GetDefaultNamespace(), "--task-queue", "handoff"}
	env := append(os.Environ(), "PATH=/usr/bin:/bin") // runbook-temporal is found beside runbook, not on PATH

	var workerErr bytes.Buffer
	worker := exec.Command(filepath.Join(bin, "runbook"), append([]string{"worker"}, common...)...)
	worker.Env, worker.Stderr = env, &workerErr
	if err := worker.Start(); err != nil {
		t.Fatal(err)
	}
	workerDone := make(chan error, 1)
	go func() { workerDone <- worker.Wait() }()

	saved := filepath.Join(t.TempDir(), "run.json")
	chart := "testdata/charts/foreach.yaml"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run := exec.CommandContext(ctx, filepath.Join(bin, "runbook"), append(append([]string{"exec", "--executor", "temporal"}, common...), "--input", "limit=3", "--record", saved, chart)...)
	var out, errb bytes.Buffer
	run.Env, run.Stdout, run.Stderr = env, &out, &errb
	if err := run.Run(); err != nil {
		t.Fatalf("runbook exec --executor temporal: %v\n%s", err, errb.String())
	}
	var res record.Record
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.Status != "completed" {
		t.Errorf("exec printed no completed result record (%v): %s", err, out.String())
	}
	b, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := masked(b), masked(localRecord(t, chart, map[string]any{"limit": "3"})); got != want {
		t.Errorf("the saved record differs from the local one:\n%s", lineDiff(want, got))
	}

	if err := worker.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-workerDone:
		if err != nil {
			t.Errorf("runbook worker, stopped: %v\n%s", err, workerErr.String())
		}
	case <-time.After(30 * time.Second):
		_ = worker.Process.Kill()
		t.Fatalf("runbook worker did not stop on SIGTERM:\n%s", workerErr.String())
	}
}
