package host_test

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/host"
)

// A plugin that exited after answering one call is said to have exited
// BEFORE the next call, which never reached it, not "during the call": the
// words must not claim the plugin took the call up.
func TestCallAfterThePluginExitedSaysBefore(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p, err := host.Start(ctx, host.Source{Name: "behave", Path: bins["behave"]})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(p.Kill)
	st, err := p.Stage(ctx)
	if err != nil {
		t.Fatalf("stage: %v", err)
	}
	if _, err := st.Run(context.Background(), plugins.Request{Args: map[string]any{"mode": "exit-after"}}); err != nil {
		t.Fatalf("first call: %v", err)
	}
	// The process exits 100 ms after it answers: wait until it is gone
	// and reaped (a fixed sleep flaked on a loaded machine, the call
	// reaching a process still exiting), then a moment for the host to
	// be told.
	for pid := p.Pid(); syscall.Kill(pid, 0) == nil; time.Sleep(10 * time.Millisecond) {
		if ctx.Err() != nil {
			t.Fatal("the plugin did not exit after its exit-after call")
		}
	}
	time.Sleep(100 * time.Millisecond)
	_, err = st.Run(context.Background(), plugins.Request{Args: map[string]any{"mode": "ok"}})
	if err == nil {
		t.Fatal("second call: no error from a plugin that has exited")
	}
	for _, w := range []string{`plugin "behave"`, "exited (exit status 0) before this call", "exiting between calls on purpose"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
	if strings.Contains(err.Error(), "during the call") {
		t.Errorf("error %q says the call reached a process that had exited", err)
	}
}

// A plugin that never handshakes before the caller's deadline (a stage's
// timeout shorter than the start timeout; `runbook plugins check`, whose
// deadline is its start timeout) is said to have not handshaken, not
// just "context deadline exceeded".
func TestStartPastTheCallersDeadlineSaysNoHandshake(t *testing.T) {
	t.Parallel()
	src, _ := noHandshake(t)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	p, err := host.Start(ctx, src, host.WithStartTimeout(10*time.Second))
	if err == nil {
		p.Kill()
		t.Fatal("a plugin that never handshakes started")
	}
	if !strings.Contains(err.Error(), `plugin "nohandshake": start: did not handshake before the deadline`) {
		t.Errorf("err = %v: want it to say the plugin did not handshake", err)
	}
}

// TestDescribeThatHangsSaysItHandshook: a plugin that handshook and then
// hung in Describe (slow setup there) failed its stage saying it "did not
// handshake within 1s", sending its author to the wrong place; and
// `validate`, which has no stage timeout, waited the 60 s call timeout to
// say "no answer before the deadline". Each now says Describe is what did
// not answer, in the time it was given, and what to do.
func TestDescribeThatHangsSaysItHandshook(t *testing.T) {
	t.Parallel()
	m := host.NewManager(map[string]host.Source{"behave": {Name: "behave", Path: bins["behave"]}}, "", host.WithEnv("BEHAVE_DECLARE=hang"))
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, err := m.Stage(ctx, "behave")
	if err == nil || !strings.Contains(err.Error(), `plugin "behave": start: handshook, then did not describe itself within 3s, the time it was given (Describe must answer at once`) {
		t.Errorf("manager: err = %v; want it to say the plugin handshook and Describe did not answer", err)
	}

	p, err := host.Start(context.Background(), host.Source{Name: "behave", Path: bins["behave"]}, host.WithEnv("BEHAVE_DECLARE=hang"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	dctx, dcancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
	defer dcancel()
	_, err = p.Stage(dctx)
	if err == nil || !strings.Contains(err.Error(), `plugin "behave": describe: no answer within 700ms, the time the call was given (Describe must answer at once: do slow setup in Run, or when serving starts)`) {
		t.Errorf("describe: err = %v; want the 700ms it was given and what to do", err)
	}

	// With no deadline of its own (runbook validate's), Describe has the
	// start's bound, not a call's minute.
	p2, err := host.Start(context.Background(), host.Source{Name: "behave", Path: bins["behave"]}, host.WithEnv("BEHAVE_DECLARE=hang"), host.WithStartTimeout(800*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Kill()
	_, err = p2.Stage(context.Background())
	if err == nil || !strings.Contains(err.Error(), `describe: no answer within 800ms, the time the call was given`) {
		t.Errorf("describe with no deadline: err = %v; want the start's 800ms, not a call's minute", err)
	}
}
