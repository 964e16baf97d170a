package temporal_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/openrunbook/runbook/runbook"
	"github.com/openrunbook/runbook/temporal"
)

// TestSubflowChartsTravelWithTheRun: the charts a chart mounts go with
// the run (RunInput.Sources), so a worker that has none of them — here,
// they are deleted before the run starts — runs the chart it was started
// with, and the record is the local run's. The Executor gathers them
// itself when not given (the local record below is taken the same way).
func TestSubflowChartsTravelWithTheRun(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"root.yaml": "version: 1\nrunbook: root\nstages:\n  - {id: a, subflow: {chart: sub/child.yaml}}\n  - {id: b, subflow: {chart: sub/child.yaml}}\n",
		"sub/child.yaml": "version: 1\nrunbook: child\nstages:\n  - {id: echo, exec: {command: [echo, child], into: said}}\n" +
			"  - {id: deeper, subflow: {chart: grand.yaml}}\n",
		"sub/grand.yaml": "version: 1\nrunbook: grand\nstages:\n  - {id: mark, set: {grand: '\"yes\"'}}\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root := filepath.Join(dir, "root.yaml")
	local := masked(localRecord(t, root, nil))
	rb, err := runbook.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	sources, err := rb.SubflowFiles()
	if err != nil {
		t.Fatal(err)
	}
	rootBytes, err := os.ReadFile(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}

	_, c := server(t, "sources")
	ex := &temporal.Executor{Client: c, TaskQueue: "sources"}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := ex.Exec(ctx, temporal.RunInput{File: root, Chart: rootBytes, Sources: sources})
	if err != nil {
		t.Fatal(err)
	}
	if got := masked(run.Record); got != local {
		t.Errorf("the record on Temporal differs from the local one:\n%s", lineDiff(local, got))
	}
}
