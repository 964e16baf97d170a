package runbook_test

import (
	"context"
	"encoding/json"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/openrunbook/runbook/runbook"
)

// remote runs every exec stage's process by RunExec and hands the run its
// facts after a trip through JSON, as a worker on another machine would;
// it counts the retry delays it was asked to wait out (Sleeper).
type remote struct {
	mu     sync.Mutex
	sleeps []time.Duration
}

func (r *remote) Exec(ctx context.Context, call runbook.ExecCall) (*runbook.ExecStub, error) {
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

func (r *remote) Sleep(_ context.Context, d time.Duration) {
	r.mu.Lock()
	r.sleeps = append(r.sleeps, d)
	r.mu.Unlock()
}

// durations are the only facts of a process that differ from run to run.
var durations = regexp.MustCompile(`"durationMs":[0-9.e+-]+`)

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
        - {id: echo, exec: {command: [echo, '{{ x }}'], into: e}}
`

// TestRunExecFilesAsALocalRun is the seam a worker elsewhere rests on: a
// run whose exec stages' processes ran by RunExec, their facts carried as
// JSON (ExecStub.Ran), leaves the record a local run leaves — every
// outcome (exit code, not found, timeout, signal, output past the cap,
// stdin), every retry attempt, a foreach's branches — inline or not, its
// branches run by a host's fan-out in reverse or not; and
// the retry delays are waited out by the stubs' Sleep, not this clock.
func TestRunExecFilesAsALocalRun(t *testing.T) {
	for name, src := range map[string]string{"outcomes": execYAML, "retry-foreach": remoteRetryYAML} {
		t.Run(name, func(t *testing.T) {
			rb := parse(t, src)
			recordOf := func(opts ...runbook.ExecOption) string {
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
			local := recordOf()
			r := &remote{}
			if got := recordOf(runbook.WithStubs(r)); got != local {
				t.Errorf("records differ:\nlocal  %s\nremote %s", local, got)
			}
			if got := recordOf(runbook.WithStubs(&remote{}), runbook.WithInline()); got != local {
				t.Errorf("records differ:\nlocal  %s\ninline %s", local, got)
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
