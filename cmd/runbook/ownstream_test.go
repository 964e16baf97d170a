package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReadOfTheRunnersOwnStreamIsRefused: the official nginx image links
// /var/log/nginx/access.log to /dev/stdout, so that what nginx logs goes
// to `docker logs`. A 5xx check run with its stdout sent to a file (cron's
// `>> runbook.log`) read that path with read:, which led to the run's own
// output file, empty as the run began: 0 requests, no 5xx, OK, Consistent.
// A read: whose path is the runner's own stdout or stderr is refused,
// saying so; a file that is neither is read as before.
func TestReadOfTheRunnersOwnStreamIsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	link := filepath.Join(dir, "access.log")
	if err := os.Symlink("/dev/stdout", link); err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(dir, "real.log")
	if err := os.WriteFile(real, []byte("127.0.0.1 - - [07/Dec/2026:15:07:55 +0000] \"GET /bad/ HTTP/1.1\" 502 157 \"-\" \"curl/7.88.1\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	chart := writeChart(t, dir, "chart.yaml", `version: 1
runbook: nginx-5xx
inputs:
  log: {type: string}
result: {kind: verdict/5xx, nagios: {ok: ok, critical: failing}}
stages:
  - id: lines
    read: {path: log, parse: lines}
  - id: row
    verdict: {subject: log, verdict: 'len(filter(lines.content, # matches "\" 5[0-9][0-9] ")) > 0 ? "failing" : "ok"'}
`)
	run := func(log string) (string, int) {
		out, err := os.Create(filepath.Join(t.TempDir(), "runbook.log"))
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, binary, "exec", chart, "--input", "log="+log, "--format", "nagios")
		cmd.Dir, cmd.Stdout, cmd.Stderr = dir, out, out
		cmd.Env = append(os.Environ(), "NO_COLOR=1")
		code := 0
		if err := cmd.Run(); err != nil {
			ee, ok := err.(*exec.ExitError)
			if !ok {
				t.Fatal(err)
			}
			code = ee.ExitCode()
		}
		b, err := os.ReadFile(out.Name())
		if err != nil {
			t.Fatal(err)
		}
		return string(b), code
	}
	got, code := run(link)
	if code != 3 || !strings.Contains(got, "it is this run's own stdout (a link to /dev/stdout), not a file") {
		t.Errorf("a read of the run's own stdout: exit %d, want 3 and the refusal:\n%s", code, got)
	}
	got, code = run(real)
	if code != 2 || !strings.HasPrefix(got, "nginx-5xx CRITICAL") {
		t.Errorf("a real log: exit %d, want 2, CRITICAL:\n%s", code, got)
	}
}
