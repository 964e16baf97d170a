package host_test

import (
	"context"
	"strings"
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
	st := start(t, "behave")
	if _, err := st.Run(context.Background(), plugins.Request{Args: map[string]any{"mode": "exit-after"}}); err != nil {
		t.Fatalf("first call: %v", err)
	}
	time.Sleep(600 * time.Millisecond) // the process exits 100 ms after it answers
	_, err := st.Run(context.Background(), plugins.Request{Args: map[string]any{"mode": "ok"}})
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
