package wire

import (
	"context"
	"encoding/json"
	"fmt"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/internal/pb"
	"github.com/openrunbook/runbook/plugins/label"
)

// HonestyPlugin is the go-plugin face of an honesty plugin: Impl on the
// plugin side, a *HonestyClient on the host side.
type HonestyPlugin struct {
	goplugin.NetRPCUnsupportedPlugin
	Impl plugins.Honesty
}

// GRPCServer registers the honesty service.
func (p *HonestyPlugin) GRPCServer(_ *goplugin.GRPCBroker, s *grpc.Server) error {
	pb.RegisterHonestyServer(s, &honestyServer{impl: p.Impl})
	return nil
}

// GRPCClient returns a *HonestyClient.
func (p *HonestyPlugin) GRPCClient(_ context.Context, _ *goplugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return &HonestyClient{c: pb.NewHonestyClient(c)}, nil
}

// HonestyClient calls an honesty plugin: one round trip per method call.
// It implements plugins.Honesty.
type HonestyClient struct{ c pb.HonestyClient }

var _ plugins.Honesty = (*HonestyClient)(nil)

// Label implements plugins.Honesty.
func (c *HonestyClient) Label(ctx context.Context, req label.Request) (label.Response, error) {
	var resp label.Response
	return resp, call(ctx, c.c.Label, "", req, &resp)
}

// Coverage implements plugins.Honesty.
func (c *HonestyClient) Coverage(ctx context.Context, run string, req coverage.Request) (coverage.Response, error) {
	var resp coverage.Response
	return resp, call(ctx, c.c.Coverage, run, req, &resp)
}

// Assess implements plugins.Honesty.
func (c *HonestyClient) Assess(ctx context.Context, req assessment.Request) (assessment.Response, error) {
	var resp assessment.Response
	return resp, call(ctx, c.c.Assess, "", req, &resp)
}

// EndRun implements plugins.Honesty.
func (c *HonestyClient) EndRun(ctx context.Context, run string) error {
	_, err := c.c.EndRun(ctx, &pb.JSONMessage{Run: run})
	return err
}

type rpc func(context.Context, *pb.JSONMessage, ...grpc.CallOption) (*pb.JSONMessage, error)

func call(ctx context.Context, f rpc, run string, req, resp any) error {
	b, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("encode request: %w", err)
	}
	m, err := f(ctx, &pb.JSONMessage{Run: run, Json: b})
	if err != nil {
		return err
	}
	if err := json.Unmarshal(m.Json, resp); err != nil {
		return fmt.Errorf("answer is not a response: %w", err)
	}
	return nil
}

type honestyServer struct {
	pb.UnimplementedHonestyServer
	impl plugins.Honesty
}

func (s *honestyServer) Label(ctx context.Context, m *pb.JSONMessage) (*pb.JSONMessage, error) {
	return serve(ctx, m, func(ctx context.Context, req label.Request) (label.Response, error) {
		return s.impl.Label(ctx, req)
	})
}

func (s *honestyServer) Coverage(ctx context.Context, m *pb.JSONMessage) (*pb.JSONMessage, error) {
	return serve(ctx, m, func(ctx context.Context, req coverage.Request) (coverage.Response, error) {
		return s.impl.Coverage(ctx, m.Run, req)
	})
}

func (s *honestyServer) Assess(ctx context.Context, m *pb.JSONMessage) (*pb.JSONMessage, error) {
	return serve(ctx, m, func(ctx context.Context, req assessment.Request) (assessment.Response, error) {
		return s.impl.Assess(ctx, req)
	})
}

func (s *honestyServer) EndRun(ctx context.Context, m *pb.JSONMessage) (*pb.JSONMessage, error) {
	return &pb.JSONMessage{}, s.impl.EndRun(ctx, m.Run)
}

func serve[Req, Resp any](ctx context.Context, m *pb.JSONMessage, f func(context.Context, Req) (Resp, error)) (*pb.JSONMessage, error) {
	var req Req
	if err := json.Unmarshal(m.Json, &req); err != nil {
		return nil, fmt.Errorf("request: %w", err)
	}
	resp, err := f(ctx, req)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(resp)
	if err != nil {
		return nil, fmt.Errorf("encode response: %w", err)
	}
	return &pb.JSONMessage{Run: m.Run, Json: b}, nil
}
