package host_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openrunbook/runbook/plugins/host"
)

// A child the plugin started in a session of its own (setsid) is out of
// reach of stopping the plugin's process group; Kill ends it by the
// plugin's mark, and it is reaped, not left a zombie. Before, it ran on
// after every run that used the plugin (`sleep 300` here).
func TestKillEndsAChildOutsideTheGroup(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the sweep needs a child subreaper (Linux)")
	}
	t.Parallel()
	tmp := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p, err := host.Start(ctx, host.Source{Name: "escapes", Path: bins["escapes"]}, host.WithEnv("TMPDIR="+tmp))
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	for deadline := time.Now().Add(5 * time.Second); pid == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(filepath.Join(tmp, "escapes.pid")); err == nil {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
	}
	if pid == 0 {
		p.Kill()
		t.Fatal("the plugin wrote no child pid")
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	if syscall.Kill(pid, 0) != nil {
		t.Fatalf("the child %d is not running before the plugin is stopped", pid)
	}
	p.Kill()
	// gone from the process table: neither running nor a zombie
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); os.IsNotExist(err) {
			return
		}
		if time.Now().After(deadline) {
			stat, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
			t.Fatalf("the plugin's setsid child %d is still in the process table 3 s after Kill: %s", pid, stat)
		}
	}
}
