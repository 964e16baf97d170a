package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin/runner"
)

// group runs one plugin process for go-plugin (ClientConfig.RunnerFunc): a
// plain pass-through to exec.Cmd, as go-plugin's own runner is, with the one
// rule this host needs around a plugin process:
//
//	start   the plugin leads a process group of its own (Setpgid), so one
//	        signal reaches it and every child it started
//	kill    SIGKILL to that whole group, never to the plugin alone: go-plugin
//	        kills through it on a failed start (the start timeout) and on a
//	        plugin that did not exit gracefully
//	pipes   the host may close its ends of the plugin's stdout and stderr
//	        (closePipes): go-plugin waits for its readers of both before it
//	        reaps the plugin, and a process that escaped the group could
//	        hold them open for ever
//
// A kill before the process started (a cancelled start) is remembered: the
// process is killed as soon as it exists.
type group struct {
	cmd            *exec.Cmd
	stdout, stderr io.ReadCloser
	sockDir        string // go-plugin's socket directory, removed by Plugin.Kill

	mu     sync.Mutex
	pid    int
	killed bool
}

var _ runner.Runner = (*group)(nil)

// runner is the RunnerFunc: spec is go-plugin's description of the command
// (its handshake environment, its stdin); cmd is ours, laid under it.
func (g *group) runner(_ hclog.Logger, spec *exec.Cmd, sockDir string) (runner.Runner, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.cmd.Env = append(g.cmd.Env, spec.Env...)
	g.cmd.Stdin = spec.Stdin
	g.sockDir = sockDir
	var err error
	if g.stdout, err = g.cmd.StdoutPipe(); err != nil {
		return nil, err
	}
	if g.stderr, err = g.cmd.StderrPipe(); err != nil {
		return nil, err
	}
	return g, nil
}

func (g *group) Start(context.Context) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.killed {
		return errors.New("stopped before it started")
	}
	if err := g.cmd.Start(); err != nil {
		return err
	}
	g.pid = g.cmd.Process.Pid
	return nil
}

// Pid is the plugin's pid, which is its process group's id; 0 before it
// started.
func (g *group) Pid() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.pid
}

// kill sends SIGKILL to the plugin's whole process group.
func (g *group) kill() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.killed = true
	if g.pid > 1 {
		_ = syscall.Kill(-g.pid, syscall.SIGKILL)
	}
}

// wasKilled reports whether kill was called: the whole group had SIGKILL.
func (g *group) wasKilled() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.killed
}

// closePipes closes the host's ends of the plugin's stdout and stderr, so
// go-plugin's readers of them end whoever still holds the other end.
func (g *group) closePipes() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stdout != nil {
		_ = g.stdout.Close()
	}
	if g.stderr != nil {
		_ = g.stderr.Close()
	}
}

func (g *group) Wait(context.Context) error { return g.cmd.Wait() }

func (g *group) Kill(context.Context) error {
	g.kill()
	return nil
}

func (g *group) Stdout() io.ReadCloser {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stdout
}

func (g *group) Stderr() io.ReadCloser {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stderr
}

func (g *group) Name() string { return g.cmd.Path }

func (g *group) ID() string {
	if pid := g.Pid(); pid > 0 {
		return fmt.Sprint(pid)
	}
	return ""
}

func (g *group) Diagnose(context.Context) string { return "" }

func (g *group) PluginToHost(network, addr string) (string, string, error) {
	return network, addr, nil
}

func (g *group) HostToPlugin(network, addr string) (string, string, error) {
	return network, addr, nil
}

// removeSocketDir removes go-plugin's socket directory, which its Kill
// leaves behind when the process never started.
func (g *group) removeSocketDir() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.sockDir != "" {
		_ = os.RemoveAll(g.sockDir)
	}
}
