package host_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/openrunbook/runbook/plugins"
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
