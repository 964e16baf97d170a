package temporal_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/server/temporaltest"

	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/temporal"
)

// TestMainExecAndWorker drives the command as a person would: `worker` on a
// task queue of the embedded server, then `exec` of a chart there with an
// input and --record; the record it saves is the local run's and reads
// back as a run record (runbook explain reads it).
func TestMainExecAndWorker(t *testing.T) {
	ts := temporaltest.NewServer(temporaltest.WithT(t))
	common := []string{"--temporal", ts.GetFrontendHostPort(), "--namespace", ts.GetDefaultNamespace(), "--task-queue", "cli"}
	ctx, cancel := context.WithCancel(context.Background())
	workerDone := make(chan int, 1)
	var workerErr bytes.Buffer
	go func() {
		workerDone <- temporal.Main(ctx, append([]string{"worker"}, common...), &bytes.Buffer{}, &workerErr)
	}()
	defer func() {
		cancel()
		if code := <-workerDone; code != temporal.ExitCompleted {
			t.Errorf("worker exited %d: %s", code, workerErr.String())
		}
	}()

	saved := filepath.Join(t.TempDir(), "run.json")
	chart := "testdata/charts/foreach.yaml"
	var out, errb bytes.Buffer
	execCtx, stop := context.WithTimeout(context.Background(), time.Minute)
	defer stop()
	args := append(append([]string{"exec"}, common...), "--input", "limit=3", "--record", saved, chart)
	if code := temporal.Main(execCtx, args, &out, &errb); code != temporal.ExitCompleted {
		t.Fatalf("exec exited %d: %s", code, errb.String())
	}
	var res record.Record
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.Status != "completed" {
		t.Fatalf("exec printed no completed result record (%v): %s", err, out.String())
	}
	b, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := masked(b), masked(localRecord(t, chart, map[string]any{"limit": "3"})); got != want {
		t.Errorf("the saved record differs from the local one:\n%s", lineDiff(want, got))
	}
	if _, _, err := record.ReadRecord(saved); err != nil {
		t.Errorf("the saved record does not read back: %v", err)
	}
}

// TestMainRefusesBadUsage: a missing --temporal, an unknown command and a
// chart that does not load exit 2 with a line that says why, before any
// run starts.
func TestMainRefusesBadUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"exec", "chart.yaml"}, "--temporal ADDR is required"},
		{[]string{"launch"}, `unknown command "launch"`},
		{nil, "runbook-temporal exec --temporal ADDR"},
	} {
		var errb bytes.Buffer
		if code := temporal.Main(context.Background(), tc.args, &bytes.Buffer{}, &errb); code != temporal.ExitUsage || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", tc.args, code, errb.String(), tc.want)
		}
	}
}
