package temporal_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.temporal.io/server/temporaltest"

	"github.com/openrunbook/runbook/record"
)

// TestRunbookHandsOff drives the core command as a person would, with
// runbook-temporal built beside it: `runbook worker` on a task queue of
// the embedded server, `runbook exec --executor temporal` of a chart
// there; the result record is printed (--format json), the saved record
// is the local run's, the renderers and gates say what they say of a
// local run, a run that asks is answered by runbook resume, and the worker, asked to stop by a signal to runbook alone,
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
	run := exec.CommandContext(ctx, filepath.Join(bin, "runbook"), append(append([]string{"exec", "--executor", "temporal"}, common...), "--input", "limit=3", "--record", saved, "--format", "json", chart)...)
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

	// exec's renderers and gates, on the same record a local run leaves:
	// the Nagios line and state, --fail-on's exit 3, and the text.
	runbook := func(args ...string) (int, string, string) {
		t.Helper()
		c := exec.CommandContext(ctx, filepath.Join(bin, "runbook"), args...)
		var out, errb bytes.Buffer
		c.Env, c.Stdout, c.Stderr = env, &out, &errb
		err := c.Run()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatalf("runbook %q: %v", args, err)
		}
		return c.ProcessState.ExitCode(), out.String(), errb.String()
	}
	onTemporal := append([]string{"exec", "--executor", "temporal"}, common...)
	disks := "../testdata/issue14/disks/chart.yaml"
	for _, flags := range [][]string{
		{"--format", "nagios"},
		{"--fail-on", "verdict=at-risk", "--quiet"},
		{"--verbose", "--format", "markdown"},
		{"--format", "json", "--max-rows", "2", "--input", "listing=/ 10\n/var 99\n/srv 80"},
	} {
		code, out, errs := runbook(append(append(onTemporal, flags...), disks)...)
		wantCode, wantOut, _ := runbook(append(append([]string{"exec", "--honesty", "inprocess"}, flags...), disks)...)
		if code != wantCode || timeless(out) != timeless(wantOut) {
			t.Errorf("%q on Temporal: exit %d, stderr %q\n%s\nlocal: exit %d\n%s", flags, code, errs, out, wantCode, wantOut)
		}
	}

	// A run that asks: the text names the runbook command that answers it,
	// with its workflow id; that command answers it, printed as a local
	// resume prints it.
	ask := "../testdata/issue14/ask/chart.yaml"
	code, text, errs := runbook(append(onTemporal, ask)...)
	m := regexp.MustCompile(`runbook resume --executor temporal --temporal \S+ --namespace \S+ (runbook-chart-[0-9a-f]{16}) --input approve=…`).FindStringSubmatch(text)
	if code != 0 || m == nil || !strings.Contains(errs, "run paused; it waits on Temporal") {
		t.Fatalf("exec of a chart that asks: exit %d, stderr %q\n%s\nwant exit 0 and the resume command", code, errs, text)
	}
	code, text, errs = runbook("resume", "--executor", "temporal", "--temporal", common[1], "--namespace", common[3], m[1], "--input", "approve=true", "--format", "nagios")
	if code != 1 || !strings.HasPrefix(text, "approve WARNING - 1 remove") {
		t.Errorf("resume on Temporal: exit %d, stderr %q\n%s\nwant WARNING (1) and the row", code, errs, text)
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

// timeless is out without the lines that say how long something took,
// which no two runs share (the narrative cuts such a line after them).
func timeless(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if !strings.Contains(l, `"durationMs"`) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
