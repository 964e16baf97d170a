package temporal_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.temporal.io/server/temporaltest"

	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/temporal"
	"github.com/openrunbook/runbook/temporal/codec"
)

// TestMainExecAndWorker drives the command as a person would: `worker` on a
// task queue of the embedded server, then `exec` of a chart there with an
// input and --record; the record it saves is the local run's, sealed as
// a local run's file is, and reads back as a run record (runbook explain
// reads it).
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
	// Sealed as a local run's record file is.
	if got, want := savedRecord(t, saved), masked(localRecord(t, chart, map[string]any{"limit": "3"})); got != want {
		t.Errorf("the saved record differs from the local one:\n%s", lineDiff(want, got))
	}
	if _, problems, err := record.ReadRecord(saved); err != nil || len(problems) > 0 {
		t.Errorf("the saved record does not read back: %v %q", err, problems)
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
		{[]string{"exec", "--temporal", "h:1", "--inputs", "testdata/no-such.json", "chart.yaml"}, "--inputs: open testdata/no-such.json"},
		{[]string{"exec", "--temporal", "h:1", "--inputs", "testdata/charts/ask.yaml", "chart.yaml"}, "want a JSON object of inputs"},
		{[]string{"exec", "--temporal", "h:1", "--max-rows", "-1", "chart.yaml"}, "--max-rows -1: want a whole number"},
	} {
		var errb bytes.Buffer
		if code := temporal.Main(context.Background(), tc.args, &bytes.Buffer{}, &errb); code != temporal.ExitUsage || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", tc.args, code, errb.String(), tc.want)
		}
	}
}

// mainWith runs the command in this process, common after its first
// argument: its exit code, stdout and stderr.
func mainWith(ctx context.Context, common []string) func(args ...string) (int, string, string) {
	return func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := temporal.Main(ctx, append(append([]string{args[0]}, common...), args[1:]...), &out, &errb)
		return code, out.String(), errb.String()
	}
}

// TestMainAskAndResume: `exec` of a chart that asks says the run waits,
// with its workflow id and the command that answers it; `resume` with
// that id refuses an answer a local resume refuses (exit 2), and with
// good answers continues the run until it ends, saving its record.
func TestMainAskAndResume(t *testing.T) {
	ts := temporaltest.NewServer(temporaltest.WithT(t))
	common := []string{"--temporal", ts.GetFrontendHostPort(), "--namespace", ts.GetDefaultNamespace(), "--task-queue", "cli-ask"}
	ctx, cancel := context.WithCancel(context.Background())
	workerDone := make(chan int, 1)
	go func() {
		workerDone <- temporal.Main(ctx, append([]string{"worker"}, common...), &bytes.Buffer{}, &bytes.Buffer{})
	}()
	defer func() { cancel(); <-workerDone }()
	runCtx, stop := context.WithTimeout(context.Background(), time.Minute)
	defer stop()
	run := mainWith(runCtx, common)

	code, out, errs := run("exec", "testdata/charts/ask.yaml")
	m := regexp.MustCompile(`the run waits for an answer to "Remove the 4 files in /var/tmp\?" \(stage approve\) in workflow (\S+); answer it with:\n  runbook-temporal resume --temporal \S+ --namespace \S+ --answer approve=… (\S+)\n`).FindStringSubmatch(errs)
	if code != temporal.ExitCompleted || m == nil || m[1] != m[2] || !strings.Contains(out, `"status": "paused"`) {
		t.Fatalf("exec exited %d, stderr %q, stdout %q; want exit 0, the paused result and the workflow to answer", code, errs, out)
	}
	id := m[1]

	code, _, errs = run("resume", id, "--answer", "approve=maybe")
	if code != temporal.ExitUsage || !strings.Contains(errs, `input "approve": the answer is not a bool`) {
		t.Errorf("a wrong answer: exit %d, stderr %q; want exit 2 and the answer refused", code, errs)
	}
	code, _, errs = run("resume", id, "--answer", "approve=true", "--answered-by", "ann")
	if code != temporal.ExitCompleted || !strings.Contains(errs, `the run waits for an answer to "How many of the 4 files?" (stage how-many)`) {
		t.Errorf("approve: exit %d, stderr %q; want exit 0 and the second question", code, errs)
	}
	// The last answer from a file (--answers), as runbook hands a secret
	// input given again, out of argv.
	saved := filepath.Join(t.TempDir(), "run.json")
	answers := filepath.Join(t.TempDir(), "answers.json")
	if err := os.WriteFile(answers, []byte(`{"count": "3"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs = run("resume", "--record", saved, id, "--answers", answers)
	if code != temporal.ExitCompleted || !strings.Contains(out, `"status": "completed"`) || strings.Contains(errs, "waits") {
		t.Fatalf("count: exit %d, stdout %q, stderr %q; want the run completed", code, out, errs)
	}
	// Answered and ended: a further answer is refused in plain words.
	if code, _, errs := run("resume", id, "--answer", "count=4"); code != temporal.ExitUsage || !strings.Contains(errs, "is not waiting for an answer (it was answered, or ended)") {
		t.Errorf("an answer to an ended run: exit %d, stderr %q; want exit 2 and that it is not waiting", code, errs)
	}
	rec, _, err := record.ReadRecord(saved)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Answers) != 2 || rec.Answers[0].By != "ann" {
		t.Errorf("answers %+v; want both, the first by ann", rec.Answers)
	}
}

// TestMainCodecKey: a chart with a secret input is refused by `exec`
// without a key, as by the Executor; a key file of the wrong length is
// refused naming the file; with a key, `exec --codec-key FILE` runs it on
// a `worker` given the same file by RUNBOOK_TEMPORAL_CODEC_KEY alone, and
// the saved record is the local run's, the secret nowhere in the output.
func TestMainCodecKey(t *testing.T) {
	ts := temporaltest.NewServer(temporaltest.WithT(t))
	common := []string{"--temporal", ts.GetFrontendHostPort(), "--namespace", ts.GetDefaultNamespace(), "--task-queue", "cli-codec"}
	dir := t.TempDir()
	keyFile, short := filepath.Join(dir, "runbook.key"), filepath.Join(dir, "short.key")
	if err := os.WriteFile(keyFile, []byte(base64.StdEncoding.EncodeToString(codec.NewKey())+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(short, []byte(base64.StdEncoding.EncodeToString(make([]byte, 24))+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const chart = "testdata/charts/secret.yaml"
	runCtx, stop := context.WithTimeout(context.Background(), time.Minute)
	defer stop()
	run := mainWith(runCtx, common)
	code, _, errs := run("exec", "--input", "token="+secretValue, chart)
	if code != temporal.ExitUsage || !strings.Contains(errs, `input "token" is secret`) || !strings.Contains(errs, "--codec-key") {
		t.Errorf("without a key: exit %d, stderr %q; want exit 2, the secret input refused and --codec-key named", code, errs)
	}
	code, _, errs = run("exec", "--codec-key", short, "--input", "token="+secretValue, chart)
	if code != temporal.ExitUsage || !strings.Contains(errs, "codec key file "+short+": line 1 is a key of 24 bytes, want 32") {
		t.Errorf("a short key: exit %d, stderr %q; want exit 2 naming the file and the length", code, errs)
	}

	t.Setenv(temporal.CodecKeyEnv, keyFile) // the worker's only way to its key
	ctx, cancel := context.WithCancel(context.Background())
	workerDone := make(chan int, 1)
	var workerErr bytes.Buffer
	go func() {
		workerDone <- temporal.Main(ctx, append([]string{"worker"}, common...), &bytes.Buffer{}, &workerErr)
	}()
	defer func() { cancel(); <-workerDone }()
	saved := filepath.Join(dir, "run.json")
	code, out, errs := run("exec", "--codec-key", keyFile, "--record", saved, "--input", "token="+secretValue, chart)
	if code != temporal.ExitCompleted {
		t.Fatalf("exec exited %d: %s", code, errs)
	}
	if got, want := savedRecord(t, saved), masked(localRecord(t, chart, map[string]any{"token": secretValue})); got != want {
		t.Errorf("the saved record differs from the local one:\n%s", lineDiff(want, got))
	}
	if strings.Contains(out+errs+workerErr.String(), secretValue) {
		t.Error("the secret is in the commands' output")
	}
}

// TestMainWarnsOfNoWorker: a run started where no worker polls its task
// queue (a mistyped --task-queue, no worker started) is said to wait for
// one, with the command that starts one, rather than waiting in silence.
func TestMainWarnsOfNoWorker(t *testing.T) {
	ts := temporaltest.NewServer(temporaltest.WithT(t))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	var errb bytes.Buffer
	temporal.Main(ctx, []string{"exec", "--temporal", ts.GetFrontendHostPort(), "--namespace", ts.GetDefaultNamespace(),
		"--task-queue", "nobody-polls", "--quiet", "testdata/charts/foreach.yaml"}, &bytes.Buffer{}, &errb)
	if want := `no worker polls task queue "nobody-polls": the run waits until one does (runbook worker --temporal `; !strings.Contains(errb.String(), want) {
		t.Errorf("stderr %q; want it to say %q", errb.String(), want)
	}
}
