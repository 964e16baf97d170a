package wire

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/internal/pb"
	"github.com/openrunbook/runbook/plugins/label"
)

// StagePlugin is the go-plugin face of a stage plugin: Impl on the plugin
// side, a *StageClient on the host side.
type StagePlugin struct {
	goplugin.NetRPCUnsupportedPlugin
	Impl plugins.Stage
}

// GRPCServer registers the stage service.
func (p *StagePlugin) GRPCServer(_ *goplugin.GRPCBroker, s *grpc.Server) error {
	pb.RegisterStageServer(s, &stageServer{impl: p.Impl})
	return nil
}

// GRPCClient returns a *StageClient.
func (p *StagePlugin) GRPCClient(_ context.Context, _ *goplugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return &StageClient{c: pb.NewStageClient(c)}, nil
}

// Call is one stage execution on the wire, Go side.
type Call struct {
	ID       uint64
	Req      plugins.Request
	Deadline time.Time // zero: none
}

// Result is one call's answer, Go side. Err is the plugin's own failure of
// the call (its Run returned an error).
type Result struct {
	ID   uint64
	Resp plugins.Response
	Err  string
	// Size is the bytes of the result's JSON text; one past
	// plugins.MaxResultBytes is not decoded (Resp is empty).
	Size int
}

// StageClient calls a stage plugin.
type StageClient struct{ c pb.StageClient }

// Describe asks the plugin what it is.
func (c *StageClient) Describe(ctx context.Context) (plugins.Description, error) {
	d, err := c.c.Describe(ctx, &pb.DescribeRequest{})
	if err != nil {
		return plugins.Description{}, err
	}
	out := plugins.Description{Name: d.Name, Version: d.Version, Description: d.Description, RunsCode: d.RunsCode, Reads: d.Reads}
	for _, a := range d.Args {
		arg := plugins.Arg{Name: a.Name, Type: a.Type, Description: a.Description, Required: a.Required, HasDefault: a.HasDefault,
			Min: a.Min, Max: a.Max, Sensitive: a.Sensitive}
		if a.HasDefault {
			v, err := Decode(a.DefaultJson)
			if err != nil {
				return plugins.Description{}, fmt.Errorf("argument %q: default: %w", a.Name, err)
			}
			arg.Default = v
		}
		for i, e := range a.EnumJson {
			v, err := Decode(e)
			if err != nil {
				return plugins.Description{}, fmt.Errorf("argument %q: enum value %d: %w", a.Name, i+1, err)
			}
			arg.Enum = append(arg.Enum, v)
		}
		out.Args = append(out.Args, arg)
	}
	return out, nil
}

// RunBatch sends calls in one round trip and returns one result per call,
// in the order of calls. An answer that does not fit (a result that is
// not JSON, a missing or unknown id) is an error for the whole batch.
func (c *StageClient) RunBatch(ctx context.Context, calls []Call) ([]Result, error) {
	req := &pb.RunBatchRequest{Calls: make([]*pb.Call, len(calls))}
	for i, call := range calls {
		args, err := Encode(call.Req.Args)
		if err != nil {
			return nil, fmt.Errorf("arguments: %w", err)
		}
		scope, err := Encode(call.Req.Scope)
		if err != nil {
			return nil, fmt.Errorf("scope values: %w", err)
		}
		pc := &pb.Call{Id: call.ID, Path: call.Req.Path, ArgsJson: args, ScopeJson: scope}
		if !call.Deadline.IsZero() {
			pc.DeadlineUnixNano = call.Deadline.UnixNano()
		}
		req.Calls[i] = pc
	}
	resp, err := c.c.RunBatch(ctx, req)
	if err != nil {
		return nil, err
	}
	at := make(map[uint64]int, len(calls))
	for i, call := range calls {
		at[call.ID] = i
	}
	out := make([]Result, len(calls))
	seen := make([]bool, len(calls))
	for _, r := range resp.Results {
		i, ok := at[r.Id]
		if !ok || seen[i] {
			return nil, fmt.Errorf("answer for call %d, which was not asked or was answered twice", r.Id)
		}
		seen[i] = true
		res := Result{ID: r.Id, Err: plugins.CutMessage(r.Error), Size: len(r.ResultJson)}
		if r.Error == "" && plugins.CheckResultSize(res.Size) == nil {
			v, err := Decode(r.ResultJson)
			if err != nil {
				return nil, fmt.Errorf("result of call %d is not JSON: %w", r.Id, err)
			}
			res.Resp.Result = v
			res.Resp.Facts = factsFromPB(r.Facts)
		}
		out[i] = res
	}
	for i, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("no answer for call %d", calls[i].ID)
		}
	}
	return out, nil
}

type stageServer struct {
	pb.UnimplementedStageServer
	impl plugins.Stage
}

func (s *stageServer) Describe(context.Context, *pb.DescribeRequest) (*pb.Description, error) {
	d := s.impl.Describe()
	if field, bad := notUTF8(d); bad {
		// protobuf would refuse to encode it, and the host would hear
		// only "grpc: error while marshaling".
		return nil, fmt.Errorf("its description: %s is not UTF-8, which the protocol cannot carry", field)
	}
	out := &pb.Description{Name: d.Name, Version: d.Version, Description: d.Description, RunsCode: d.RunsCode, Reads: d.Reads}
	for _, a := range d.Args {
		pa := &pb.Arg{Name: a.Name, Type: a.Type, Description: a.Description, Required: a.Required, HasDefault: a.HasDefault,
			Min: a.Min, Max: a.Max, Sensitive: a.Sensitive}
		if a.HasDefault {
			b, err := Encode(a.Default)
			if err != nil {
				return nil, fmt.Errorf("argument %q: default: %w", a.Name, err)
			}
			pa.DefaultJson = b
		}
		for i, e := range a.Enum {
			b, err := Encode(e)
			if err != nil {
				return nil, fmt.Errorf("argument %q: enum value %d: %w", a.Name, i+1, err)
			}
			pa.EnumJson = append(pa.EnumJson, b)
		}
		out.Args = append(out.Args, pa)
	}
	return out, nil
}

// RunBatch runs every call of the batch concurrently, each under its own
// deadline, and answers when all have returned.
func (s *stageServer) RunBatch(ctx context.Context, req *pb.RunBatchRequest) (*pb.RunBatchResponse, error) {
	out := &pb.RunBatchResponse{Results: make([]*pb.CallResult, len(req.Calls))}
	var wg sync.WaitGroup
	for i, c := range req.Calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out.Results[i] = s.run(ctx, c)
		}()
	}
	wg.Wait()
	return out, nil
}

func (s *stageServer) run(ctx context.Context, c *pb.Call) (res *pb.CallResult) {
	res = &pb.CallResult{Id: c.Id}
	// Runs last, after a panic is recovered: protobuf refuses to encode a
	// string that is not UTF-8, and one such error (`errors.New("bad
	// \xff")`) failed the whole batch's answer as a transport fault
	// (outcome-unknown, "grpc: error while marshaling"), its batch-mates'
	// answers with it. A person reads these words: U+FFFD stands for
	// each bad byte.
	defer func() {
		res.Error = strings.ToValidUTF8(res.Error, "\uFFFD")
		if res.Facts != nil {
			res.Facts.TerminatedBy = strings.ToValidUTF8(res.Facts.TerminatedBy, "\uFFFD")
		}
	}()
	defer func() {
		if r := recover(); r != nil {
			res = &pb.CallResult{Id: c.Id, Error: fmt.Sprintf("plugin panicked: %v", r)}
		}
	}()
	if c.DeadlineUnixNano != 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, time.Unix(0, c.DeadlineUnixNano))
		defer cancel()
	}
	args, err := DecodeObject(c.ArgsJson)
	if err != nil {
		res.Error = "arguments: " + err.Error()
		return res
	}
	scope, err := DecodeObject(c.ScopeJson)
	if err != nil {
		res.Error = "scope values: " + err.Error()
		return res
	}
	resp, err := s.impl.Run(ctx, plugins.Request{Path: c.Path, Args: args, Scope: scope})
	if err != nil {
		res.Error = err.Error()
		if res.Error == "" {
			res.Error = "failed"
		}
		return res
	}
	if at, bad := jsonv.InvalidUTF8(resp.Result); bad {
		// json.Marshal would send U+FFFD for each bad byte: the host
		// would record a value the plugin never produced.
		res.Error = fmt.Sprintf("result: the string at result%s is not UTF-8, which JSON cannot carry (send bytes as base64 or hex)", at)
		return res
	}
	if at, bad := jsonv.NotFinite(resp.Result); bad {
		// json.Marshal's own words ("unsupported value: NaN") name
		// neither where it is nor what JSON can carry instead.
		res.Error = fmt.Sprintf("result: the number at result%s is NaN or infinite, which JSON cannot carry (send null for no value, or the number as text)", at)
		return res
	}
	b, err := Encode(resp.Result)
	if err != nil {
		res.Error = "result: " + err.Error()
		return res
	}
	res.ResultJson = b
	res.Facts = factsToPB(resp.Facts)
	return res
}

// notUTF8 names the first text of d that is not UTF-8.
func notUTF8(d plugins.Description) (string, bool) {
	texts := []struct{ field, s string }{{"Name", d.Name}, {"Version", d.Version}, {"Description", d.Description}}
	for i, r := range d.Reads {
		texts = append(texts, struct{ field, s string }{fmt.Sprintf("Reads[%d]", i), r})
	}
	for i, a := range d.Args {
		texts = append(texts,
			struct{ field, s string }{fmt.Sprintf("Args[%d].Name", i), a.Name},
			struct{ field, s string }{fmt.Sprintf("Args[%d].Type", i), a.Type},
			struct{ field, s string }{fmt.Sprintf("Args[%d].Description", i), a.Description})
	}
	for _, t := range texts {
		if !utf8.ValidString(t.s) {
			return fmt.Sprintf("%s %q", t.field, t.s), true
		}
	}
	return "", false
}

func factsToPB(f *label.Facts) *pb.Facts {
	if f == nil {
		return nil
	}
	out := &pb.Facts{Ok: f.OK, ServiceError: f.ServiceError, TerminatedBy: f.TerminatedBy}
	if f.ExitCode != nil {
		c := int64(*f.ExitCode)
		out.ExitCode = &c
	}
	return out
}

func factsFromPB(f *pb.Facts) *label.Facts {
	if f == nil {
		return nil
	}
	out := &label.Facts{OK: f.Ok, ServiceError: f.ServiceError, TerminatedBy: plugins.CutMessage(f.TerminatedBy)}
	if f.ExitCode != nil {
		c := int(*f.ExitCode)
		out.ExitCode = &c
	}
	return out
}
