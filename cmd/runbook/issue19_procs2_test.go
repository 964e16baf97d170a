package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue #19, through the real binary: a NaN or ±Inf an expression yields,
// and a loop that doubles a string, each fail their stage with words that
// name the stage, the expression and the bound; the record is written and
// reads back as JSON in both. And an exec grandchild that left its session
// ends with its stage.

func issue19Chart(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("../../testdata/issue19", name, "chart.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestIssue19NonFiniteFailsTheStageAndTheRecordIsWritten(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec.json")
	r := runCLI(t, dir, "exec", issue19Chart(t, "procs2-nan"), "--format", "json", "--record", rec)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1; stderr: %s", r.code, r.stderr)
	}
	var out struct {
		Status string
		Error  struct{ Stage, Message string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, r.stdout)
	}
	// The division by zero is named where it divides (rules
	// TestDivisionByZeroIsAnError); it said "it yields +Inf (a division by
	// zero?)" of the value it made.
	want := "set pct: used / total * 100: used / total:"
	if out.Status != "failed" || out.Error.Stage != "percent" || !strings.Contains(out.Error.Message, want) || !strings.Contains(out.Error.Message, "divides by zero") {
		t.Errorf("status %q, error %+v; want failed at percent with %q", out.Status, out.Error, want)
	}
	readRecord(t, rec)
}

func TestIssue19DoublingLoopEndsPromptly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec.json")
	began := time.Now()
	r := runCLI(t, dir, "exec", issue19Chart(t, "procs2-doubling"), "--format", "json", "--record", rec)
	if d := time.Since(began); d > 20*time.Second {
		t.Errorf("the run took %s", d)
	}
	if r.code != 1 {
		t.Fatalf("exit %d, want 1; stderr: %.500s", r.code, r.stderr)
	}
	var out struct {
		Status string
		Error  struct{ Stage, Message string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("stdout is not JSON: %v", err)
	}
	if out.Error.Stage != "double" || !strings.Contains(out.Error.Message, `join([s, s], "")`) ||
		!strings.Contains(out.Error.Message, "8 MiB") {
		t.Errorf("error %+v; want the double stage, its expression and the 8 MiB bound", out.Error)
	}
	readRecord(t, rec)
}

func TestIssue19SetsidGrandchildEndsWithItsStage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tag := uniqueSleep()
	t.Cleanup(func() { killSleeps(tag) })
	rec := filepath.Join(dir, "rec.json")
	r := runCLI(t, dir, "exec", issue19Chart(t, "procs2-setsid"), "--input", "tag="+tag, "--format", "json", "--record", rec)
	if r.code != 0 {
		t.Fatalf("exit %d; stderr: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, `"left\n"`) && !strings.Contains(r.stdout, `"left"`) {
		t.Errorf("the command's output is not in the result:\n%.800s", r.stdout)
	}
	if left := sleepPIDs(tag); len(left) > 0 {
		t.Errorf("sleep %s outlived its stage: %v", tag, left)
	}
	if _, err := os.Stat(rec); err != nil {
		t.Error(err)
	}
}
