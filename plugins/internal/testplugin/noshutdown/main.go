// Command noshutdown is a stage plugin written as a plugin in another
// language would be, from plugin.proto and go-plugin's handshake alone: it
// checks the cookie, serves the Stage service and the health service on a
// unix socket, prints the handshake line, and does NOT serve
// plugin.GRPCController (so it never exits when asked to shut down). It
// answers every call with {"ok": true}.
package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/internal/wire"
)

type stage struct{}

func (stage) Describe() plugins.Description {
	return plugins.Description{Name: "noshutdown", Version: "0.1.0", Description: "serves no GRPCController"}
}

func (stage) Run(context.Context, plugins.Request) (plugins.Response, error) {
	return plugins.Response{Result: map[string]any{"ok": true}}, nil
}

func main() {
	if os.Getenv(wire.Handshake.MagicCookieKey) != wire.Handshake.MagicCookieValue {
		fmt.Fprintln(os.Stderr, "noshutdown: a runbook plugin; runbook starts it")
		os.Exit(1)
	}
	dir, err := os.MkdirTemp("", "noshutdown-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "plugin.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	s := grpc.NewServer()
	hs := health.NewServer()
	hs.SetServingStatus("plugin", healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(s, hs)
	_ = (&wire.StagePlugin{Impl: stage{}}).GRPCServer(nil, s)
	// core protocol 1 | app protocol | network | address | protocol
	fmt.Printf("1|%d|unix|%s|grpc\n", plugins.ProtocolVersion, sock)
	_ = s.Serve(l)
}
