// Package sdk is what a third party needs to ship a stage plugin: implement
// Stage (Describe and Run), call Serve from main, and test it with
// TestServe (in-process) and TestProcess (a real process).
//
//	func main() { sdk.Serve(myStage{}) }
//
// It owns one rule, what a plugin process does around its stage:
//
//	before serving     stray writes to stdout go to stderr; the real stdout
//	                   carries only go-plugin's handshake line
//	while serving      calls of one batch run concurrently, each under its
//	                   own deadline; a panic fails that call, not the process
//	parent gone        the process exits by itself (Linux: the parent-death
//	                   signal; everywhere: the parent pid is polled)
//	run by hand        it says it is a runbook plugin and exits 1
//
// The wire types stay inside plugins/internal; a plugin sees only the
// Go-native types of package plugins, re-exported here.
package sdk

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"

	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/internal/wire"
)

// The plugin author's types (see package plugins).
type (
	Stage       = plugins.Stage
	Description = plugins.Description
	Arg         = plugins.Arg
	Request     = plugins.Request
	Response    = plugins.Response
	Honesty     = plugins.Honesty
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
	handshake := protectStdout()
	host := os.Getppid()
	if pid, err := strconv.Atoi(os.Getenv(wire.EnvHostPID)); err == nil && pid > 0 {
		host = pid // the parent may already have died and been replaced
	}
	watchParent(host, 500*time.Millisecond)
	// go-plugin's test mode leaves os.Stdout and os.Stderr alone (its
	// normal mode swaps them for pipes streamed over gRPC, which a crash can
	// cut short): this process's stderr stays the pipe the host reads, so
	// the last words of a crashing plugin reach the host's error message.
	// The handshake line, which test mode does not print, is printed here
	// in go-plugin's format.
	rc := make(chan *goplugin.ReattachConfig, 1)
	closed := make(chan struct{})
	go func() {
		select {
		case c := <-rc:
			fmt.Fprintf(handshake, "%d|%d|%s|%s|%s|\n", goplugin.CoreProtocolVersion, c.ProtocolVersion, c.Addr.Network(), c.Addr.String(), c.Protocol)
		case <-closed:
		}
	}()
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig:  wire.Handshake,
		VersionedPlugins: wire.ServeSets(st, h),
		GRPCServer:       goplugin.DefaultGRPCServer,
		Logger: hclog.New(&hclog.LoggerOptions{
			Level:      hclog.Warn,
			Output:     os.Stderr,
			JSONFormat: true,
		}),
		Test: &goplugin.ServeTestConfig{ReattachConfigCh: rc, CloseCh: closed},
	})
	os.Exit(0)
}

// protectStdout keeps the real stdout for the handshake line and points
// fd 1 (and os.Stdout) at stderr, so a stray print — from this process, a
// library, or a child it starts — cannot corrupt the handshake.
func protectStdout() *os.File {
	real, err := syscall.Dup(1)
	if err != nil {
		return os.Stdout
	}
	syscall.CloseOnExec(real) // a child must not hold the host's pipe open
	if err := dup2(2, 1); err != nil {
		syscall.Close(real)
		return os.Stdout
	}
	os.Stdout = os.NewFile(1, "/dev/stdout") // now stderr
	return os.NewFile(uintptr(real), "handshake")
}

// watchParent exits the process when its parent is gone: the parent-death
// signal where the OS has one, and a poll of the parent pid everywhere.
func watchParent(ppid int, every time.Duration) {
	setParentDeathSignal()
	if os.Getppid() != ppid {
		os.Exit(1)
	}
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for range t.C {
			if os.Getppid() != ppid {
				fmt.Fprintln(os.Stderr, "runbook plugin: the host process is gone; exiting")
				os.Exit(1)
			}
		}
	}()
}

// Launched reports whether this process was started by a runbook host as a
// plugin (the handshake cookie is set). A test binary that re-executes
// itself as a plugin asks it in TestMain.
func Launched() bool {
	return os.Getenv(wire.Handshake.MagicCookieKey) == wire.Handshake.MagicCookieValue
}
