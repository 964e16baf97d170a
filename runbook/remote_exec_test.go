package runbook_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/runbook"
)

// remote runs every exec stage's process by RunExec and hands the run its
// facts after a trip through JSON, as a worker on another machine would;
// it counts the retry delays it was asked to wait out (Sleeper).
type remote struct {
	mu     sync.Mutex
	sleeps []time.Duration
	on     map[string]bool // the goroutines the calls came from
}

// goroutine is the calling goroutine's number, from its stack's header.
func goroutine() string {
	buf := make([]byte, 64)
	f := strings.Fields(string(buf[:runtime.Stack(buf, false)]))
	if len(f) < 2 {
		return "?"
	}
	return f[1]
}

func (r *remote) Exec(ctx context.Context, call runbook.ExecCall) (*runbook.ExecStub, error) {
	r.mu.Lock()
	if r.on == nil {
		r.on = map[string]bool{}
	}
	r.on[goroutine()] = true
	r.mu.Unlock()
	b, err := json.Marshal(runbook.RunExec(ctx, call))
	if err != nil {
		return nil, err
	}
	var f runbook.ProcFacts
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, err
	}
	return &runbook.ExecStub{Ran: &f}, nil
}

func (*remote) Plugin(context.Context, runbook.PluginCall) (*runbook.PluginStub, error) {
	return nil, nil
}

func (*remote) Read(ctx context.Context, call runbook.ReadCall) (*runbook.ReadStub, error) {
	stub, err := runbook.RunRead(ctx, call)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(stub)
	if err != nil {
		return nil, err
	}
	var back runbook.ReadStub
	return &back, json.Unmarshal(b, &back)
}

func (r *remote) Sleep(_ context.Context, d time.Duration) {
	r.mu.Lock()
	r.sleeps = append(r.sleeps, d)
	r.mu.Unlock()
}

// durations are the only facts of a process that differ from run to run.
var durations = regexp.MustCompile(`"durationMs":[0-9.e+-]+|"finishedAt":"[^"]*"`)

const remoteRetryYAML = `version: 1
runbook: remote-retry
stages:
  - id: flaky
    retry: {attempts: 3, backoff: 1ms}
    exec: {shell: 'exit 3', into: f}
  - id: each
    foreach:
      items: '["a", "b", "c"]'
      as: x
      maxBranches: 10
      stages:
        - {id: echo, exec: {command: [echo, '${x}'], into: e}}
`

const remoteReadYAML = `version: 1
runbook: remote-reads
stages:
  - {id: one, read: {path: '"a.json"', parse: json, into: one}}
  - {id: missing, read: {path: '"none.json"', into: missing}}
  - {id: all, read: {glob: '"*.json"', parse: json, into: all}}
  - {id: text, read: {path: '"c.txt"', into: text}}
`

const remoteReadFolderYAML = `version: 1
runbook: remote-read-folder
stages:
  - {id: folder, read: {path: '"folder"', into: f}}
`

// TestRunExecFilesAsALocalRun is the seam a worker elsewhere rests on: a
// run whose exec stages' processes ran by RunExec, their facts carried as
// JSON (ExecStub.Ran), leaves the record a local run leaves — every
// outcome (exit code, not found, timeout, signal, output past the cap,
// stdin), every retry attempt, a foreach's branches — inline or not, its
// branches run by a host's fan-out in reverse or not; and
// the retry delays are waited out by the stubs' Sleep, not this clock.
// read: stages read by RunRead, their files carried as JSON, leave the
// local record too: a file, a missing one, a glob's matches in order, and
// a folder's refusal in the same words.
func TestRunExecFilesAsALocalRun(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"a.json": `{"n": 1}`, "b.json": `{"n": 2}`, "c.txt": "plain"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{"outcomes": execYAML, "retry-foreach": remoteRetryYAML, "reads": remoteReadYAML, "read-folder": remoteReadFolderYAML} {
		t.Run(name, func(t *testing.T) {
			spec, err := chart.Parse(filepath.Join(dir, "chart.yaml"), []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			rb, err := runbook.Build(spec)
			if err != nil {
				t.Fatal(err)
			}
			recordOf := func(opts ...runbook.ExecOption) string { return maskedRecord(t, rb, opts...) }
			local := recordOf()
			if want := map[string]string{"reads": `"n":2`, "read-folder": "it is a folder"}[name]; !strings.Contains(local, want) {
				t.Fatalf("the local record has no %s: %s", want, local)
			}
			r := &remote{}
			if got := recordOf(runbook.WithStubs(r)); got != local {
				t.Errorf("records differ:\nlocal  %s\nremote %s", local, got)
			}
			in := &remote{}
			if got := recordOf(runbook.WithStubs(in), runbook.WithInline()); got != local {
				t.Errorf("records differ:\nlocal  %s\ninline %s", local, got)
			}
			// Inline, every call comes from the goroutine that called Exec:
			// the run started none (a Temporal workflow may not).
			for g := range in.on {
				if g != goroutine() {
					t.Errorf("an inline run's exec stage called its stubs from goroutine %s, not the caller's %s", g, goroutine())
				}
			}
			reverse := func(ctx context.Context, n int, work func(context.Context, int)) {
				for i := n - 1; i >= 0; i-- {
					work(ctx, i)
				}
			}
			if got := recordOf(runbook.WithStubs(&remote{}), runbook.WithInline(), runbook.WithFanout(reverse)); got != local {
				t.Errorf("records differ:\nlocal  %s\nhosted fan-out %s", local, got)
			}
			if name == "retry-foreach" && len(r.sleeps) != 2 {
				t.Errorf("the stubs waited out %d retry delays (%v), want 2", len(r.sleeps), r.sleeps)
			}
		})
	}
}

// maskedRecord runs rb and returns its result record as JSON, each
// process's duration masked: what a local run and a run whose stages ran
// elsewhere must agree on.
func maskedRecord(t *testing.T, rb *runbook.Runbook, opts ...runbook.ExecOption) string {
	t.Helper()
	res, err := rb.Exec(context.Background(), nil, opts...)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	return durations.ReplaceAllString(string(b), `"durationMs":0`)
}

// lostFirst answers an exec stage's first attempt as a worker lost while
// its process ran (LostFacts, through JSON as it travels) and runs the
// others for real.
type lostFirst struct{ calls int }

func (l *lostFirst) Exec(ctx context.Context, call runbook.ExecCall) (*runbook.ExecStub, error) {
	l.calls++
	f := runbook.RunExec(ctx, call)
	if l.calls == 1 {
		f = runbook.LostFacts("no heartbeat from worker w-1 for 20s")
	}
	b, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	var back runbook.ProcFacts
	return &runbook.ExecStub{Ran: &back}, json.Unmarshal(b, &back)
}

func (*lostFirst) Plugin(context.Context, runbook.PluginCall) (*runbook.PluginStub, error) {
	return nil, nil
}

// TestLostWorkerIsOutcomeUnknown: a process whose worker was lost while
// it ran is filed as outcome-unknown with the cause that says so (never
// completed: nothing is known of its end), its into.error says how the
// loss was seen, and the stage's retry: tries again as after any other
// failed attempt, each attempt a row.
func TestLostWorkerIsOutcomeUnknown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		retry  string
		labels string
	}{
		{"once", "", "outcome-unknown"},
		{"retried", "retry: {attempts: 2, backoff: 1ms}", "outcome-unknown completed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rb := parse(t, `version: 1
runbook: lost
stages:
  - id: work
    `+tc.retry+`
    exec: {command: ["true"], into: w}
  - {id: after, set: {e: 'w.error'}}
`)
			res, err := rb.Exec(context.Background(), nil, runbook.WithStubs(&lostFirst{}))
			if err != nil {
				t.Fatal(err)
			}
			rec := res.Record
			var labels []string
			for _, r := range rec.Scripts {
				labels = append(labels, string(r.Label))
			}
			if strings.Join(labels, " ") != tc.labels {
				t.Fatalf("rows %q, want %q", labels, tc.labels)
			}
			if r := rec.Scripts[0]; r.Cause != "its worker was lost" {
				t.Errorf("the lost attempt's cause is %q, want its worker was lost", r.Cause)
			}
			b, _ := json.Marshal(res.RunRecord())
			if tc.retry == "" && !strings.Contains(string(b), "the worker running the process was lost: no heartbeat from worker w-1 for 20s") {
				t.Errorf("the record does not say how the loss was seen: %s", b)
			}
		})
	}
}
