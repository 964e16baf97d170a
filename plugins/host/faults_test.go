package host_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/host"
)

// TestPluginEnvIsMinimal: a plugin process gets PATH HOME LANG LC_ALL TZ
// USER TMPDIR of the host's environment, what WithEnv passes and
// go-plugin's own variables — never the rest of the host's (a token here).
func TestPluginEnvIsMinimal(t *testing.T) {
	// Not parallel: t.Setenv.
	t.Setenv("RB_HOST_SECRET_TOKEN", "leak-me")
	t.Setenv("TZ", "UTC")
	st := start(t, "behave", host.WithEnv("RB_PASSED=yes"))
	resp, err := st.Run(context.Background(), plugins.Request{Args: map[string]any{"mode": "env"}})
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, kv := range strings.Split(resp.Result.(map[string]any)["env"].(string), "\n") {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	if _, ok := env["RB_HOST_SECRET_TOKEN"]; ok {
		t.Error("the host's environment reached the plugin: RB_HOST_SECRET_TOKEN")
	}
	if env["TZ"] != "UTC" || env["RB_PASSED"] != "yes" || env["PATH"] != os.Getenv("PATH") {
		t.Errorf("TZ %q RB_PASSED %q PATH %q", env["TZ"], env["RB_PASSED"], env["PATH"])
	}
	allowed := map[string]bool{"PATH": true, "HOME": true, "LANG": true, "LC_ALL": true, "TZ": true, "USER": true, "TMPDIR": true, "RB_PASSED": true}
	for k := range env {
		// go-plugin's handshake and transport variables, and the SDK's host pid.
		if allowed[k] || strings.HasPrefix(k, "PLUGIN_") || strings.HasPrefix(k, "RUNBOOK_") || k == "" {
			continue
		}
		t.Errorf("the plugin got %s, which is not in the minimal set", k)
	}
}

// TestPluginKilledMidBatch: the plugin process disappears (SIGKILL, from
// outside) while a batch of calls is in flight. Every caller gets an
// *Error naming the plugin, promptly; later calls fail the same way, never
// hang; Kill afterwards is quick and leaves no process (and, by TestMain,
// no goroutine).
func TestPluginKilledMidBatch(t *testing.T) {
	t.Parallel()
	st := start(t, "behave")
	pidfile := filepath.Join(t.TempDir(), "pids")
	const calls = 8
	errs := make(chan error, calls)
	var wg sync.WaitGroup
	for range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_, err := st.Run(ctx, plugins.Request{Args: map[string]any{"mode": "slow", "pidfile": pidfile}})
			errs <- err
		}()
	}
	pid := waitPids(t, pidfile, 1)[0]
	if pid != st.Plugin().Pid() {
		t.Fatalf("pid %d is not the plugin's %d", pid, st.Plugin().Pid())
	}
	time.Sleep(50 * time.Millisecond) // let the other calls reach the plugin
	began := time.Now()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(errs)
	if d := time.Since(began); d > 5*time.Second {
		t.Errorf("the callers learned of the death after %s", d)
	}
	for err := range errs {
		var he *host.Error
		if !errors.As(err, &he) || he.Plugin != "behave" {
			t.Errorf("err = %T %v; want a *host.Error naming the plugin", err, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := st.Run(ctx, plugins.Request{Args: map[string]any{}}); err == nil {
		t.Error("a call to a dead plugin succeeded")
	}
	began = time.Now()
	st.Plugin().Kill()
	if d := time.Since(began); d > 2*time.Second {
		t.Errorf("Kill of a dead plugin took %s", d)
	}
	waitGone(t, pid, 2*time.Second)
}
