package runbook_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/openrunbook/runbook/runbook"
)

// execOnly stubs exec and plugin stages only: it predates read:.
type execOnly struct{}

func (execOnly) Exec(context.Context, runbook.ExecCall) (*runbook.ExecStub, error) {
	return nil, errors.New("no exec here")
}
func (execOnly) Plugin(context.Context, runbook.PluginCall) (*runbook.PluginStub, error) {
	return nil, errors.New("no plugin here")
}

// withReads adds read stubs: the file is "stubbed" and secret-bearing.
type withReads struct {
	execOnly
	calls []runbook.ReadCall
}

func (w *withReads) Read(_ context.Context, c runbook.ReadCall) (*runbook.ReadStub, error) {
	w.calls = append(w.calls, c)
	return &runbook.ReadStub{Files: []runbook.ReadFile{{Path: c.File, Exists: true, Content: []byte(`{"n": 7, "tok": "hunter2-secret"}`)}}}, nil
}

// ReadStubs is optional: Stubs without it leave read: stages reading the
// real file; with it, the stage files the stub's content through its parse
// mode, never opens the file, and a secret in the content is masked.
func TestLoop15ReadStubSeam(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := filepath.Join(dir, "chart.yaml")
	if err := os.WriteFile(filepath.Join(dir, "d.json"), []byte(`{"n": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(chart, []byte("version: 1\nrunbook: r\ninputs:\n  tok: {type: string, secret: true}\nstages:\n  - id: d\n    read: {path: '\"d.json\"', parse: json}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rb, err := runbook.Open(chart)
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]any{"tok": "hunter2-secret"}
	real, err := rb.Exec(context.Background(), in, runbook.WithStubs(execOnly{}))
	if err != nil {
		t.Fatal(err)
	}
	if got := real.Record.State["d"].(map[string]any)["content"].(map[string]any)["n"]; got != 1.0 && got != 1 && got != int64(1) {
		t.Errorf("without ReadStubs the real file is read: n = %v (%T)", got, got)
	}
	w := &withReads{}
	stubbed, err := rb.Exec(context.Background(), in, runbook.WithStubs(w))
	if err != nil {
		t.Fatal(err)
	}
	content := stubbed.Record.State["d"].(map[string]any)["content"].(map[string]any)
	if n := content["n"]; n != 7.0 && n != 7 && n != int64(7) {
		t.Errorf("stubbed: n = %v (%T), want 7 from the stub", n, n)
	}
	if tok := content["tok"]; tok == "hunter2-secret" {
		t.Errorf("the secret in a stubbed file's content is not masked")
	}
	if len(w.calls) != 1 || w.calls[0].Stage != "d" || w.calls[0].File != "d.json" {
		t.Errorf("calls %+v: want one, for stage d, file d.json as the chart gives it", w.calls)
	}
}
