// Command proto2 serves a stage plugin under plugin protocol 2 only.
package main

import (
	"context"

	goplugin "github.com/hashicorp/go-plugin"

	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/internal/wire"
)

type stage struct{}

func (stage) Describe() plugins.Description { return plugins.Description{Name: "proto2"} }

func (stage) Run(context.Context, plugins.Request) (plugins.Response, error) {
	return plugins.Response{}, nil
}

func main() {
	hs := wire.Handshake
	hs.ProtocolVersion = 2
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig:  hs,
		VersionedPlugins: map[int]goplugin.PluginSet{2: {wire.KindStage: &wire.StagePlugin{Impl: stage{}}}},
		GRPCServer:       goplugin.DefaultGRPCServer,
	})
}
