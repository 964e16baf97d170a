package host_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/host"
)

// copyBin copies a built test plugin to dir/name.
func copyBin(t *testing.T, from, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestIssue17RelativeSourceRunsTheFileNotADecoyOnPath: a Source whose Path
// is relative (`runbook-plugin-behave`, a plugin directory `.` joined to a
// bare name by any caller) was handed to exec.Command as is, which looked
// it up on $PATH and ran a same-named decoy from there. Start makes every
// path absolute before it checks or starts the file.
func TestIssue17RelativeSourceRunsTheFileNotADecoyOnPath(t *testing.T) {
	here := t.TempDir()
	decoys := t.TempDir()
	copyBin(t, bins["behave"], here, host.Prefix+"behave")
	// The decoy is a real plugin too (protocol 2), so running it fails the
	// start rather than passing unnoticed.
	copyBin(t, bins["proto2"], decoys, host.Prefix+"behave")
	t.Setenv("PATH", decoys+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Chdir(here)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p, err := host.Start(ctx, host.Source{Name: "behave", Path: host.Prefix + "behave"})
	if err != nil {
		t.Fatalf("start: %v (the decoy on $PATH ran?)", err)
	}
	defer p.Kill()
	st, err := p.Stage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := st.Description(); d.Name != "behave" {
		t.Fatalf("described as %+v; want the behave in the working directory", d)
	}
	if got, want := p.Path(), filepath.Join(here, host.Prefix+"behave"); got != want {
		t.Errorf("Path() = %q, want %q", got, want)
	}
	if strings.Contains(p.Path(), decoys) {
		t.Errorf("ran the decoy %s", p.Path())
	}
}

// TestIssue17GoroutinePanicErrorKeepsThePanicLine: a plugin that dies of a
// panic on its own goroutine (no recover can catch it) fails the call with
// an error that says what panicked. Only the last 5 stderr lines were kept,
// all stack frames, so the `panic:` line was lost.
func TestIssue17GoroutinePanicErrorKeepsThePanicLine(t *testing.T) {
	t.Parallel()
	st := start(t, "behave")
	_, err := st.Run(context.Background(), plugins.Request{Args: map[string]any{"mode": "gopanic"}})
	var he *host.Error
	if !errors.As(err, &he) {
		t.Fatalf("err = %T %v; want a *host.Error", err, err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "panic: behave: boom on a goroutine") || !strings.Contains(msg, "goroutine ") {
		t.Errorf("error %q: want the panic line and the start of its stack", msg)
	}
	if strings.Contains(msg, "some noise before the panic") {
		t.Errorf("error %q: the lines before the panic crowd it out", msg)
	}
}

// TestIssue17KillDoesNotWaitOutAPluginWithoutShutdown: a plugin that does
// not serve GRPCController.Shutdown (any plugin written from plugin.proto
// alone) never exits when asked, and go-plugin waited 2 s for it before its
// own kill — every run of such a plugin ended ~2 s late. The host asks
// first and, answered Unimplemented, stops the group at once: go-plugin's
// "failed to exit gracefully" (logged only after its 2 s wait) is never
// logged, and the process is gone when Kill returns.
func TestIssue17KillDoesNotWaitOutAPluginWithoutShutdown(t *testing.T) {
	t.Parallel()
	log := &syncBuffer{}
	logger := slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p, err := host.Start(ctx, host.Source{Name: "noshutdown", Path: bins["noshutdown"]}, host.WithLogger(logger))
	if err != nil {
		t.Fatal(err)
	}
	st, err := p.Stage(ctx)
	if err != nil {
		p.Kill()
		t.Fatal(err)
	}
	if resp, err := st.Run(ctx, plugins.Request{}); err != nil || resp.Result.(map[string]any)["ok"] != true {
		p.Kill()
		t.Fatalf("run: %v %v", resp, err)
	}
	pid := p.Pid()
	p.Kill()
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("pid %d still exists after Kill", pid)
	}
	if strings.Contains(log.String(), "failed to exit gracefully") {
		t.Errorf("go-plugin waited out its 2 s grace for a plugin that cannot be asked:\n%s", log.String())
	}
}

// BenchmarkKillWithoutShutdown is the cost of stopping a plugin that does
// not serve Shutdown: ~2 s before issue #17's fix, the start and a SIGTERM
// after it.
func BenchmarkKillWithoutShutdown(b *testing.B) {
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		p, err := host.Start(ctx, host.Source{Name: "noshutdown", Path: bins["noshutdown"]})
		if err != nil {
			cancel()
			b.Fatal(err)
		}
		if _, err := p.Stage(ctx); err != nil {
			b.Fatal(err)
		}
		p.Kill()
		cancel()
	}
}

// TestIssue17DeclarationsCheckedAtDescribe: a declared type outside the
// vocabulary silently turned the argument's checking off, and a declared
// default was never checked against its type. Both now refuse the plugin
// when it describes itself, naming the plugin and the argument.
func TestIssue17DeclarationsCheckedAtDescribe(t *testing.T) {
	t.Parallel()
	for declare, want := range map[string]string{
		"bad-type":    `plugin "behave": describe: plugin "behave" argument "count": declares type "int", which is not a type runbook checks`,
		"bad-default": `plugin "behave": describe: plugin "behave" argument "count": declares a default that is a number, not an integer`,
	} {
		t.Run(declare, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			p, err := host.Start(ctx, host.Source{Name: "behave", Path: bins["behave"]}, host.WithEnv("BEHAVE_DECLARE="+declare))
			if err != nil {
				t.Fatal(err)
			}
			defer p.Kill()
			_, err = p.Stage(ctx)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("Stage: %v\nwant an error saying %q", err, want)
			}
		})
	}
}
