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
	// The worker works in a folder of its own, as one on another machine
	// does: nothing it reads may depend on sharing the caller's.
	worker.Env, worker.Stderr, worker.Dir = env, &workerErr, t.TempDir()
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
	if got, want := savedRecord(t, saved), masked(localRecord(t, chart, map[string]any{"limit": "3"})); got != want {
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

	// A read: stage's relative path is read from the chart's folder, not
	// the worker's working folder, though the chart was named relatively
	// (a new user's chart read nothing, every file "missing", before).
	reads := filepath.Join(t.TempDir(), "reads.json")
	// (Its last stage reads a folder: the run fails there, as locally.)
	if code, _, errs := runbook(append(onTemporal, "--record", reads, "testdata/charts/reads.yaml")...); code != 1 {
		t.Errorf("exec of reads.yaml: exit %d, stderr %q; want 1, its failing stage", code, errs)
	} else if got, want := savedRecord(t, reads), masked(localRecord(t, "testdata/charts/reads.yaml", nil)); got != want {
		t.Errorf("reads.yaml on a worker in another folder differs from the local run:\n%s", lineDiff(want, got))
	}

	// Ctrl-C stops a Temporal run as it stops a local one: the workflow is
	// cancelled, the run ends cancelled at the stage that ran, its record
	// is saved and printed, exit 130.
	slowRecord := filepath.Join(t.TempDir(), "slow.json")
	slow := exec.CommandContext(ctx, filepath.Join(bin, "runbook"), append(onTemporal, "--record", slowRecord, "testdata/charts/slow.yaml")...)
	var slowOut, slowErr bytes.Buffer
	slow.Env, slow.Stdout, slow.Stderr = env, &slowOut, &slowErr
	if err := slow.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(4 * time.Second) // its sleeps are running on the worker
	if err := slow.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	_ = slow.Wait()
	if code := slow.ProcessState.ExitCode(); code != 130 || !strings.Contains(slowErr.String(), "interrupted: cancelling the run (workflow runbook-slow-") ||
		!strings.Contains(slowErr.String(), "run interrupted at per-host~0/wait: the run was cancelled while this stage ran: context canceled") {
		t.Errorf("runbook exec interrupted: exit %d, stderr %q; want 130, the workflow cancelled and where the run ended", code, slowErr.String())
	}
	if rec, _, err := record.ReadRecord(slowRecord); err != nil || rec.Result.Status != "cancelled" {
		t.Errorf("the interrupted run's record: %v; want it saved, cancelled", err)
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

// timeless is out without the lines that say how long something took or
// when the run stopped, which no two runs share (the narrative cuts such
// a line after them).
func timeless(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if !strings.Contains(l, `"durationMs"`) && !strings.Contains(l, `"finishedAt"`) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
