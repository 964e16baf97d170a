package sdk

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	goplugin "github.com/hashicorp/go-plugin"

	"github.com/openrunbook/runbook/plugins/host"
	"github.com/openrunbook/runbook/plugins/internal/wire"
)

// TestStage calls a stage plugin the way the host does: through the
// protocol, one call a round trip.
type TestStage interface {
	Describe(ctx context.Context) (Description, error)
	Run(ctx context.Context, req Request) (Response, error)
}

// TestServe serves st in this process over a real gRPC connection (no
// process is started) and returns a client for it; both are stopped when
// the test ends. Use it to test a plugin's protocol behaviour quickly.
func TestServe(t testing.TB, st Stage) TestStage {
	t.Helper()
	client, _ := goplugin.TestPluginGRPCConn(t, false, wire.ServeSets(st, nil)[ProtocolVersion])
	t.Cleanup(func() { client.Close() })
	raw, err := client.Dispense(wire.KindStage)
	if err != nil {
		t.Fatalf("sdk.TestServe: %v", err)
	}
	return testStage{raw.(*wire.StageClient)}
}

type testStage struct{ c *wire.StageClient }

func (s testStage) Describe(ctx context.Context) (Description, error) { return s.c.Describe(ctx) }

func (s testStage) Run(ctx context.Context, req Request) (Response, error) {
	dl, _ := ctx.Deadline()
	res, err := s.c.RunBatch(ctx, []wire.Call{{ID: 1, Req: req, Deadline: dl}})
	if err != nil {
		return Response{}, err
	}
	if res[0].Err != "" {
		return Response{}, fmt.Errorf("%s", res[0].Err)
	}
	return res[0].Resp, nil
}

// TestProcess builds the plugin's main package pkg (a path or an import
// path, as `go build` takes it) and starts it as a real process, the way
// runbook does; it is stopped when the test ends. The build is made once
// per test binary and package, however many tests call TestProcess.
func TestProcess(t testing.TB, pkg string) *host.Stage {
	t.Helper()
	bin, err := Build(pkg)
	if err != nil {
		t.Fatalf("sdk.TestProcess: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := host.Start(ctx, host.Source{Name: filepath.Base(pkg), Path: bin})
	if err != nil {
		t.Fatalf("sdk.TestProcess: %v", err)
	}
	t.Cleanup(p.Kill)
	st, err := p.Stage(ctx)
	if err != nil {
		t.Fatalf("sdk.TestProcess: %v", err)
	}
	return st
}

var builds sync.Map // pkg → *build

type build struct {
	once sync.Once
	bin  string
	err  error
}

// Build builds the main package pkg into a temporary directory, once per
// process, and returns the binary's path.
func Build(pkg string) (string, error) {
	v, _ := builds.LoadOrStore(pkg, &build{})
	b := v.(*build)
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", "runbook-plugin-test-")
		if err != nil {
			b.err = err
			return
		}
		b.bin = filepath.Join(dir, "runbook-plugin-"+filepath.Base(pkg))
		out, err := exec.Command("go", "build", "-o", b.bin, pkg).CombinedOutput()
		if err != nil {
			b.err = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	})
	return b.bin, b.err
}
