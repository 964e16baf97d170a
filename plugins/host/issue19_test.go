package host_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openrunbook/runbook/plugins/host"
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

// noHandshake copies the nohandshake plugin into a directory of the test's
// own, so the pids it writes beside itself are this test's.
func noHandshake(t *testing.T) (src host.Source, pidfile string) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), host.Prefix+"nohandshake")
	copyFile(t, bins["nohandshake"], bin, 0o755)
	return host.Source{Name: "nohandshake", Path: bin}, bin + ".pids"
}

// TestStartTimeoutChildHoldsStdout: a plugin whose child holds its stdout
// and which never handshakes fails its start at the start timeout, with an
// error saying so, promptly — and leaves neither process. The timeout is
// long enough for the plugin to start its child and say so under a loaded
// machine (at 300ms, a race suite's load could end the plugin before it
// wrote its pids or its stderr line, and the test failed for that).
func TestStartTimeoutChildHoldsStdout(t *testing.T) {
	t.Parallel()
	src, pidfile := noHandshake(t)
	began := time.Now()
	errc := make(chan error, 1)
	go func() {
		p, err := host.Start(context.Background(), src, host.WithStartTimeout(2*time.Second))
		if err == nil {
			p.Kill()
		}
		errc <- err
	}()
	pids := waitPids(t, pidfile, 2)
	var err error
	select {
	case err = <-errc:
	case <-time.After(10 * time.Second):
		t.Fatalf("Start still running %s after a 2s start timeout", time.Since(began))
	}
	var he *host.Error
	if !errors.As(err, &he) || !strings.Contains(err.Error(), `plugin "nohandshake"`) || !strings.Contains(err.Error(), "did not handshake within 2s") {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(err.Error(), "never handshaking") {
		t.Errorf("error %q lacks the tail of its stderr", err)
	}
	for _, pid := range pids {
		waitGone(t, pid, time.Second)
	}
}

// TestStartCancelledChildHoldsStdout: the caller gives up on such a start
// (Ctrl-C): Start returns at once, well before the start timeout, and the
// plugin and its child are gone when it has returned.
func TestStartCancelledChildHoldsStdout(t *testing.T) {
	t.Parallel()
	src, pidfile := noHandshake(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		p, err := host.Start(ctx, src) // the default start timeout, 10s
		if err == nil {
			p.Kill()
		}
		errc <- err
	}()
	pids := waitPids(t, pidfile, 2)
	cancel()
	began := time.Now()
	var err error
	select {
	case err = <-errc:
	case <-time.After(3 * time.Second):
		t.Fatal("Start still running 3s after its context was cancelled")
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	t.Logf("returned %s after the cancel", time.Since(began))
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("process %d still alive when Start returned", pid)
		}
	}
}

// TestManagerCloseEndsAStart: a plugin stage gives up on a start that does
// not handshake (its timeout), with an error saying so; Close then ends the
// start promptly instead of waiting out the start timeout, and no process
// is left.
func TestManagerCloseEndsAStart(t *testing.T) {
	t.Parallel()
	src, pidfile := noHandshake(t)
	m := host.NewManager(map[string]host.Source{"nohandshake": src}, "")
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	_, err := m.Stage(ctx, "nohandshake")
	if err == nil || !strings.Contains(err.Error(), `plugin "nohandshake"`) || !strings.Contains(err.Error(), "did not handshake within 500ms") {
		t.Fatalf("err = %v", err)
	}
	pids := waitPids(t, pidfile, 2)
	began := time.Now()
	done := make(chan struct{})
	go func() { m.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		t.Fatal("Close still waiting 3s later")
	}
	t.Logf("Close took %s", time.Since(began))
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("process %d still alive after Close", pid)
		}
	}
}

// TestStartTimeoutEscapedChildHoldsStdout: the child holding the plugin's
// stdout has left its process group (setsid), so no kill of the group ends
// it. The start still fails at its timeout and Start returns in bounded
// time (the host closes its ends of the pipes); the plugin itself is gone.
// The escaped child is this test's to kill: no host can reach it.
func TestStartTimeoutEscapedChildHoldsStdout(t *testing.T) {
	t.Parallel()
	src, pidfile := noHandshake(t)
	errc := make(chan error, 1)
	go func() {
		// 2s: time to write its pids under load (see TestStartTimeoutChildHoldsStdout)
		p, err := host.Start(context.Background(), src, host.WithStartTimeout(2*time.Second), host.WithEnv("NOHANDSHAKE_SETSID=1"))
		if err == nil {
			p.Kill()
		}
		errc <- err
	}()
	pids := waitPids(t, pidfile, 2)
	t.Cleanup(func() { _ = syscall.Kill(pids[1], syscall.SIGKILL) })
	began := time.Now()
	var err error
	select {
	case err = <-errc:
	case <-time.After(10 * time.Second):
		t.Fatal("Start still running 10s after a 2s start timeout")
	}
	t.Logf("returned %s after the plugin started", time.Since(began))
	if err == nil || !strings.Contains(err.Error(), "did not handshake within 2s") {
		t.Fatalf("err = %v", err)
	}
	waitGone(t, pids[0], time.Second)
}

// lateCtx is a context whose deadline passed well before its Done says
// so, as a loaded machine's scheduler can make it.
type lateCtx struct {
	context.Context
	deadline time.Time
	done     chan struct{}
}

func (c *lateCtx) Deadline() (time.Time, bool) { return c.deadline, true }
func (c *lateCtx) Done() <-chan struct{}       { return c.done }
func (c *lateCtx) Err() error {
	select {
	case <-c.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// TestStartTimeoutSaysTheTimeItWasGiven: a start that outlived its
// caller's deadline said "did not handshake within" the time the caller's
// goroutine took to notice, so on a loaded machine a 500ms bound was said
// as 600ms (and TestManagerCloseEndsAStart failed under a race run). It
// says the deadline's time now, however late the wait ended.
func TestStartTimeoutSaysTheTimeItWasGiven(t *testing.T) {
	t.Parallel()
	src, _ := noHandshake(t)
	m := host.NewManager(map[string]host.Source{"nohandshake": src}, "")
	defer m.Close()
	ctx := &lateCtx{Context: context.Background(), deadline: time.Now().Add(500 * time.Millisecond), done: make(chan struct{})}
	time.AfterFunc(900*time.Millisecond, func() { close(ctx.done) })
	_, err := m.Stage(ctx, "nohandshake")
	if err == nil || !strings.Contains(err.Error(), "did not handshake within 500ms, the time it was given") {
		t.Fatalf("err = %v; want the 500ms it was given", err)
	}
}
