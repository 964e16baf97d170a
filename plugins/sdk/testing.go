package sdk

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/host"
	"github.com/openrunbook/runbook/plugins/internal/wire"
)

// Plugin is a stage plugin under test, called the way the host calls it:
// its Describe asked once, and every Run given the arguments the host would
// send — the host's own argument rules (plugins.ApplyArgs, the function the
// host calls) refuse an unknown, missing or wrongly typed argument before
// the call, and fill each declared default, reported in Call.Assumed.
//
// Make one with TestServe (in this process, over a real gRPC connection:
// fast, no build) or TestProcess (the plugin built and started as the real
// process runbook starts). Either is stopped, and whatever it made removed,
// when the test ends; neither writes to the test's output.
type Plugin struct {
	desc Description
	path string // the binary, for TestProcess
	run  func(context.Context, Request) (Response, error)
}

// Call is one Run's answer: the plugin's Response and the arguments the
// host filled from their declared defaults (sorted), each an ASSUMED value
// in a real run's assessment.
type Call struct {
	Response
	Assumed []string
}

// Description is what the plugin declared (asked once, at start).
func (p *Plugin) Description() Description { return p.desc }

// Path is the plugin binary's path (TestProcess), "" in-process. It is
// removed when the last test using it ends.
func (p *Plugin) Path() string { return p.path }

// Run makes one call as the host would: req.Args go through the host's
// argument rules first (a refused argument is the error, *plugins.ArgError,
// and the plugin is not called), then the call carries ctx's deadline. A
// failure the plugin's Run returned is its message as the error (a
// *host.RunError for TestProcess).
func (p *Plugin) Run(ctx context.Context, req Request) (Call, error) {
	args, assumed, err := plugins.ApplyArgs(p.desc, req.Args)
	if err != nil {
		return Call{}, err
	}
	req.Args = args
	resp, err := p.run(ctx, req)
	if err != nil {
		return Call{}, err
	}
	return Call{Response: resp, Assumed: assumed}, nil
}

// TestServe serves st in this process over a real gRPC connection (the
// plugin protocol's own service, through the same panic guard Serve uses;
// no process, no go-plugin logging) and returns it as a *Plugin, stopped
// when the test ends. A description the host refuses
// (plugins.CheckDescription: an argument type it does not check, a
// default that does not fit, …) fails the test, as it fails every run.
func TestServe(t testing.TB, st Stage) *Plugin {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer()
	if err := (&wire.StagePlugin{Impl: guard(st)}).GRPCServer(nil, srv); err != nil {
		t.Fatalf("sdk.TestServe: %v", err)
	}
	go func() { _ = srv.Serve(lis) }()
	conn, err := grpc.Dial("passthrough:///sdk-test",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		srv.Stop()
		t.Fatalf("sdk.TestServe: %v", err)
	}
	t.Cleanup(func() {
		conn.Close()
		srv.Stop()
	})
	raw, err := (&wire.StagePlugin{}).GRPCClient(context.Background(), nil, conn)
	if err != nil {
		t.Fatalf("sdk.TestServe: %v", err)
	}
	c := raw.(*wire.StageClient)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d, err := c.Describe(ctx)
	if err != nil {
		t.Fatalf("sdk.TestServe: describe: %v", err)
	}
	if err := plugins.CheckDescription(d); err != nil {
		// As the host refuses it (host.Plugin.Stage): a plugin whose own
		// tests passed was refused by every run.
		t.Fatalf("sdk.TestServe: describe: %v", err)
	}
	var next uint64
	var mu sync.Mutex
	return &Plugin{desc: d, run: func(ctx context.Context, req Request) (Response, error) {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, host.DefaultCallTimeout)
			defer cancel()
		}
		dl, _ := ctx.Deadline()
		mu.Lock()
		next++
		id := next
		mu.Unlock()
		res, err := c.RunBatch(ctx, []wire.Call{{ID: id, Req: req, Deadline: dl}})
		if err != nil {
			return Response{}, err
		}
		if res[0].Err != "" {
			return Response{}, errors.New(res[0].Err)
		}
		if err := plugins.CheckResultSize(res[0].Size); err != nil {
			return Response{}, err // as the host refuses it
		}
		if err := plugins.CheckResponse(d, res[0].Resp); err != nil {
			return Response{}, err // as the host refuses it
		}
		return res[0].Resp, nil
	}}
}

// TestProcess builds the plugin's main package pkg (a path or an import
// path, as `go build` takes it) and starts it as a real process, the way
// runbook does (plugins/host); it is stopped when the test ends, its whole
// process group with it. The build is shared by the tests of one binary
// that use pkg at the same time, and removed when the last of them ends.
func TestProcess(t testing.TB, pkg string) *Plugin {
	t.Helper()
	bin, release, err := acquire(pkg)
	if err != nil {
		t.Fatalf("sdk.TestProcess: %v", err)
	}
	t.Cleanup(release)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := host.Start(ctx, host.Source{Name: filepath.Base(pkg), Path: bin})
	if err != nil {
		t.Fatalf("sdk.TestProcess: %v", err)
	}
	t.Cleanup(p.Kill) // before release: cleanups run last-added first
	st, err := p.Stage(ctx)
	if err != nil {
		t.Fatalf("sdk.TestProcess: %v", err)
	}
	return &Plugin{desc: st.Description(), path: bin, run: st.Run}
}

// builds are the binaries TestProcess made, by package, each counted by
// the tests using it: the last to end removes it.
var (
	buildsMu sync.Mutex
	builds   = map[string]*build{}
)

type build struct {
	dir, bin string
	users    int
}

// acquire builds pkg (or shares the build in use) and returns its path
// and the func that gives it back.
func acquire(pkg string) (bin string, release func(), err error) {
	buildsMu.Lock()
	defer buildsMu.Unlock()
	b := builds[pkg]
	if b == nil {
		dir, err := os.MkdirTemp("", "runbook-plugin-test-")
		if err != nil {
			return "", nil, err
		}
		b = &build{dir: dir, bin: filepath.Join(dir, host.Prefix+filepath.Base(pkg))}
		if out, err := exec.Command("go", "build", "-o", b.bin, pkg).CombinedOutput(); err != nil {
			os.RemoveAll(dir)
			return "", nil, fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
		builds[pkg] = b
	}
	b.users++
	var once sync.Once
	return b.bin, func() {
		once.Do(func() {
			buildsMu.Lock()
			defer buildsMu.Unlock()
			if b.users--; b.users == 0 {
				delete(builds, pkg)
				os.RemoveAll(b.dir)
			}
		})
	}, nil
}
