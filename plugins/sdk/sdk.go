// Package sdk is what a third party needs to ship a stage plugin: implement
// Stage (Describe and Run), call Serve from main, and test it with
// TestServe (in-process) and TestProcess (a real process).
//
//	func main() { sdk.Serve(myStage{}) }
//
// It owns one rule, what a plugin process does around its stage:
//
//	serving            plain goplugin.Serve: the real stdout carries only its
//	                   handshake line; from the first call on, os.Stdout and
//	                   os.Stderr write to the real stderr, which the host
//	                   reads (so a crash's last words reach its error)
//	while serving      calls of one batch run concurrently, each under its
//	                   own deadline; a panic fails that call, not the process
//	parent gone        the process exits by itself (Linux: the parent-death
//	                   signal; everywhere: the parent pid is polled), and
//	                   takes its children with it: it SIGKILLs its own
//	                   process group, which the host started it leading
//	SIGTERM            the same: the whole group goes
//	run by hand        it says it is a runbook plugin and exits 1
//
// The wire types stay inside plugins/internal; a plugin sees only the
// Go-native types of package plugins, re-exported here.
package sdk

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/internal/wire"
)

// ProtocolVersion is the plugin protocol this SDK serves.
const ProtocolVersion = plugins.ProtocolVersion

// Serve serves st as a stage plugin until the host stops it. Call it from
// main; it does not return normally.
func Serve(st Stage) { serve(st, nil) }

// ServeHonesty serves h as an honesty plugin (the runbook binary serves its
// built-in label, coverage and assessment stages this way).
func ServeHonesty(h Honesty) { serve(nil, h) }

func serve(st Stage, h Honesty) {
	if os.Getenv(wire.Handshake.MagicCookieKey) != wire.Handshake.MagicCookieValue {
		fmt.Fprintf(os.Stderr, "This program is a runbook plugin (protocol %d): runbook starts it.\n"+
			"Point a chart at it (plugins: {NAME: {command: PATH}}) or put it in a plugin\n"+
			"directory as runbook-plugin-NAME, then run `runbook plugins --dir DIR`.\n", plugins.ProtocolVersion)
		os.Exit(1)
	}
	host := os.Getppid()
	if pid, err := strconv.Atoi(os.Getenv(wire.EnvHostPID)); err == nil && pid > 0 {
		host = pid // the parent may already have died and been replaced
	}
	watchParent(host, 500*time.Millisecond)
	// Plain go-plugin: it negotiates the protocol and prints the handshake
	// line on the real stdout. The logger is made first, so it writes to the
	// real stderr (fd 2), which the host reads directly.
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig:  wire.Handshake,
		VersionedPlugins: wire.ServeSets(guard(st), h),
		GRPCServer:       realStdio(os.Stderr),
		Logger: hclog.New(&hclog.LoggerOptions{
			Level:      hclog.Warn,
			Output:     os.Stderr,
			JSONFormat: true,
		}),
	})
	os.Exit(0)
}

// realStdio is go-plugin's DefaultGRPCServer with one addition. Serve points
// os.Stdout and os.Stderr at pipes it streams to the host over gRPC, and a
// line a plugin writes just before it exits (fmt.Fprintln(os.Stderr, why);
// os.Exit(3)) dies in that pipe unsent, so the host's error would not say
// why. Before the first call reaches the stage, both are pointed back at
// stderr, the pipe the host reads itself: the last words of a crashing
// plugin reach the host's error message (host TestCrashMidCall), and a
// stray print to stdout cannot reach the result.
func realStdio(stderr *os.File) func([]grpc.ServerOption) *grpc.Server {
	var once sync.Once
	restore := func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		once.Do(func() { os.Stdout, os.Stderr = stderr, stderr })
		return next(ctx, req)
	}
	return func(opts []grpc.ServerOption) *grpc.Server {
		return goplugin.DefaultGRPCServer(append(opts, grpc.ChainUnaryInterceptor(restore)))
	}
}

// watchParent ends the process, and every process of its group, when its
// parent is gone — the parent-death signal (SIGTERM) where the OS has one,
// and a poll of the parent pid everywhere — or when it is sent SIGTERM.
// The children matter: a plugin's child (a command it ran, a helper) would
// otherwise outlive a host that was SIGKILLed.
func watchParent(ppid int, every time.Duration) {
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM) // before the parent-death signal is armed
	setParentDeathSignal()
	if os.Getppid() != ppid {
		exitWithGroup("the host process is gone")
	}
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-term:
				why := "terminated"
				if os.Getppid() != ppid {
					why = "the host process is gone"
				}
				exitWithGroup(why)
			case <-t.C:
				if os.Getppid() != ppid {
					exitWithGroup("the host process is gone")
				}
			}
		}
	}()
}

// exitWithGroup says why on stderr, stops this process's group (when it
// leads one: killOwnGroup), and exits.
func exitWithGroup(why string) {
	// The host gone, nobody reads stderr: the write must not end this
	// process (SIGPIPE) before its group is stopped.
	signal.Ignore(syscall.SIGPIPE)
	fmt.Fprintf(os.Stderr, "runbook plugin: %s; exiting with every process it started\n", why)
	killOwnGroup()
	os.Exit(1)
}

// Launched reports whether this process was started by a runbook host as a
// plugin (the handshake cookie is set). A test binary that re-executes
// itself as a plugin asks it in TestMain.
func Launched() bool {
	return os.Getenv(wire.Handshake.MagicCookieKey) == wire.Handshake.MagicCookieValue
}
