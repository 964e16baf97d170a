package host_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Issue #19: no process the host started — nor one those started — may
// outlive it, and no start may hang.

// TestHostKilledPluginChildrenExit SIGKILLs a host process while its
// plugin, with a child of its own (sleep 300), is in a call: the plugin and
// its child are gone within 2s (the SDK's parent watch takes the plugin's
// whole process group with it).
func TestHostKilledPluginChildrenExit(t *testing.T) {
	t.Parallel()
	pidfile := filepath.Join(t.TempDir(), "pids")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "HOST_HELPER=1", "HELPER_MODE=spawn", "HELPER_PLUGIN="+bins["behave"], "HELPER_PIDFILE="+pidfile)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pids := waitPids(t, pidfile, 2) // the plugin, its sleep
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	for _, pid := range pids {
		waitGone(t, pid, 2*time.Second)
	}
}
