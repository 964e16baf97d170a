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
	if err := os.CopyFS(dir, os.DirFS("../testdata/mounting")); err != nil {
		t.Fatal(err)
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
