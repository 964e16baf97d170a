package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runbook init writes the starter; runbook test passes on it through the
// code the CLI runs (run), and runbook exec runs it on this machine for
// real (nproc, /proc/loadavg): one row, busy or calm, exit 0.
func TestLoop15InitThenTest(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "mycheck")
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"init", dir}, &out, &errb); code != 0 {
		t.Fatalf("init: exit %d\n%s", code, errb.String())
	}
	for _, name := range starterFiles {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("init did not write %s: %v", name, err)
		}
	}
	readme, _ := os.ReadFile(filepath.Join(dir, "README.md"))
	if n := strings.Count(strings.TrimSpace(string(readme)), "\n") + 1; n != 3 {
		t.Errorf("the README has %d lines, want 3", n)
	}
	out.Reset()
	errb.Reset()
	if code := run(context.Background(), []string{"test", dir, "--coverage", "--coverage-min", "100"}, &out, &errb); code != 0 {
		t.Fatalf("runbook test on the starter: exit %d\n%s%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "2 passed, 0 failed") {
		t.Errorf("test output:\n%s", out.String())
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "exec", filepath.Join(dir, "chart.yaml"), "--format", "json")
	var jout, jerr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &jout, &jerr
	if err := cmd.Run(); err != nil {
		t.Fatalf("runbook exec on the starter: %v\n%s", err, jerr.String())
	}
	var rec struct {
		Status   string `json:"status"`
		Verdicts struct {
			Rows []map[string]any `json:"rows"`
		} `json:"verdicts"`
	}
	if err := json.Unmarshal(jout.Bytes(), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Status != "completed" || len(rec.Verdicts.Rows) != 1 {
		t.Fatalf("exec: status %s, rows %v\n%s", rec.Status, rec.Verdicts.Rows, jout.String())
	}
	if v := rec.Verdicts.Rows[0]["verdict"]; v != "busy" && v != "calm" {
		t.Errorf("verdict %v, want busy or calm", v)
	}
}

// init writes only new files: one already there and it writes none,
// naming it, exit 2.
func TestLoop15InitRefusesToOverwrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mine := filepath.Join(dir, "README.md")
	if err := os.WriteFile(mine, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"init", dir}, &out, &errb)
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if want := mine + " already exists: init writes only new files and wrote none"; !strings.Contains(errb.String(), want) {
		t.Errorf("stderr %q: want %q", errb.String(), want)
	}
	if _, err := os.Stat(filepath.Join(dir, "chart.yaml")); err == nil {
		t.Error("init wrote chart.yaml beside a file it refused to overwrite")
	}
	if b, _ := os.ReadFile(mine); string(b) != "mine\n" {
		t.Errorf("README.md is now %q", b)
	}
}
