package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeTemporal puts a runbook-temporal on PATH (and only it) that prints
// its arguments one a line on stdout, a line on stderr, and exits code.
func fakeTemporal(t *testing.T, code string) {
	t.Helper()
	dir := t.TempDir()
	script := "#!/bin/sh\nfor a in \"$@\"; do echo \"arg:$a\"; done\necho 'from the fake' >&2\nexit " + code + "\n"
	if err := os.WriteFile(filepath.Join(dir, temporalCommand), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+"/bin"+string(os.PathListSeparator)+"/usr/bin")
}

func handOffRun(args ...string) result {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

func argLines(args ...string) string {
	var b strings.Builder
	for _, a := range args {
		b.WriteString("arg:" + a + "\n")
	}
	return b.String()
}

// TestTemporalHandOff: exec --executor temporal and worker run
// runbook-temporal with the chart, inputs, record file and Temporal flags,
// its output ours and its exit code ours.
func TestTemporalHandOff(t *testing.T) {
	fakeTemporal(t, "7")
	r := handOffRun("exec", "--executor", "temporal", "--temporal", "tmp.example:7233", "--task-queue", "db",
		"--namespace", "ops", "--input", "host=db-1", "--input", "mode=a b", "--record", "run.json", "disk.yaml")
	want := argLines("exec", "--temporal", "tmp.example:7233", "--task-queue", "db", "--namespace", "ops",
		"--input", "host=db-1", "--input", "mode=a b", "--record", "run.json", "--", "disk.yaml")
	if r.code != 7 || r.stdout != want || r.stderr != "from the fake\n" {
		t.Errorf("exec: exit %d\nstdout:\n%s\nwant:\n%s\nstderr: %q", r.code, r.stdout, want, r.stderr)
	}

	fakeTemporal(t, "0")
	r = handOffRun("exec", "--executor=temporal", "--temporal", "h:1", "-")
	if want := argLines("exec", "--temporal", "h:1", "--", "-"); r.code != 0 || r.stdout != want {
		t.Errorf("exec, only --temporal: exit %d\nstdout:\n%s\nwant:\n%s", r.code, r.stdout, want)
	}
	r = handOffRun("worker", "--temporal", "h:1", "--task-queue", "db")
	if want := argLines("worker", "--temporal", "h:1", "--task-queue", "db"); r.code != 0 || r.stdout != want {
		t.Errorf("worker: exit %d\nstdout:\n%s\nwant:\n%s", r.code, r.stdout, want)
	}
}

// TestTemporalNotFound: with no runbook-temporal the refusal names what to
// build and exits 2.
func TestTemporalNotFound(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for _, args := range [][]string{
		{"exec", "--executor", "temporal", "--temporal", "h:1", "disk.yaml"},
		{"worker", "--temporal", "h:1"},
	} {
		r := handOffRun(args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, "runbook-temporal, found neither in") ||
			!strings.Contains(r.stderr, "(cd temporal && go build -o ") || !strings.Contains(r.stderr, "./cmd/runbook-temporal)") {
			t.Errorf("%q: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
}

// TestTemporalUsage: an unknown executor names the choices; Temporal's
// flags on a local run, a Temporal run without an address, and a flag
// runbook-temporal does not take are usage errors, before anything runs.
func TestTemporalUsage(t *testing.T) {
	fakeTemporal(t, "0")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"exec", "--executor", "nomad", "disk.yaml"}, `Error: --executor "nomad": want one of local, temporal`},
		{[]string{"exec", "--temporal", "h:1", "disk.yaml"}, "Error: --temporal: only with --executor temporal"},
		{[]string{"exec", "--executor", "temporal", "disk.yaml"}, "Error: --executor temporal: give --temporal host:port"},
		{[]string{"exec", "--executor", "temporal", "--temporal", "h:1", "-o", "text", "--fail-on", "ask", "disk.yaml"}, "Error: --fail-on, --format: not with --executor temporal yet"},
		{[]string{"worker"}, "Error: --temporal host:port is required"},
		{[]string{"worker", "--temporal", "h:1", "extra"}, "Error: unknown command \"extra\" for \"runbook worker\""},
	} {
		r := handOffRun(c.args...)
		if r.code != exitUsage || !strings.HasPrefix(r.stderr, c.want) || !strings.Contains(r.stderr, "--help' for usage.") || r.stdout != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want it to start %q", c.args, r.code, r.stdout, r.stderr, c.want)
		}
	}
}

// TestTemporalResumeHandsOff: resume --executor temporal answers a run
// waiting on Temporal through runbook-temporal resume: the workflow id in
// place of the record, each --input an answer, --reject, --answered-by and
// --record passed on, the exit code passed back; a flag it does not take
// is a usage error, and Temporal's flags need --executor temporal.
func TestTemporalResumeHandsOff(t *testing.T) {
	fakeTemporal(t, "3")
	r := handOffRun("resume", "--executor", "temporal", "--temporal", "h:1", "--namespace", "ops",
		"--input", "approve=true", "--answered-by", "ann", "--record", "done.json", "wf-1")
	want := argLines("resume", "--temporal", "h:1", "--namespace", "ops", "--answer", "approve=true",
		"--answered-by", "ann", "--record", "done.json", "--", "wf-1")
	if r.code != 3 || r.stdout != want {
		t.Errorf("resume: exit %d\nstdout:\n%s\nwant:\n%s\nstderr: %q", r.code, r.stdout, want, r.stderr)
	}
	fakeTemporal(t, "0")
	r = handOffRun("resume", "--executor=temporal", "--temporal", "h:1", "--reject", "not now", "wf-2")
	if want := argLines("resume", "--temporal", "h:1", "--reject", "not now", "--", "wf-2"); r.code != 0 || r.stdout != want {
		t.Errorf("resume --reject: exit %d\nstdout:\n%s\nwant:\n%s", r.code, r.stdout, want)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"resume", "--executor", "temporal", "--temporal", "h:1", "--chart", "c.yaml", "wf-1"}, "--chart: not with --executor temporal yet"},
		{[]string{"resume", "--temporal", "h:1", "run.json"}, "--temporal: only with --executor temporal"},
		{[]string{"resume", "--executor", "temporal", "wf-1"}, "give --temporal host:port"},
	} {
		r := handOffRun(c.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, c.want) || r.stdout != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want usage naming %q", c.args, r.code, r.stdout, r.stderr, c.want)
		}
	}
}

// TestTemporalCodecKeyHandedOff: --codec-key reaches runbook-temporal on
// exec, worker and resume alike (a chart with secret inputs runs on
// Temporal only with it), and on a local run it is a usage error.
func TestTemporalCodecKeyHandedOff(t *testing.T) {
	fakeTemporal(t, "0")
	for _, c := range []struct{ args, want []string }{
		{[]string{"exec", "--executor", "temporal", "--temporal", "h:1", "--codec-key", "k.key", "c.yaml"},
			[]string{"exec", "--temporal", "h:1", "--codec-key", "k.key", "--", "c.yaml"}},
		{[]string{"worker", "--temporal", "h:1", "--codec-key", "k.key"},
			[]string{"worker", "--temporal", "h:1", "--codec-key", "k.key"}},
		{[]string{"resume", "--executor", "temporal", "--temporal", "h:1", "--codec-key", "k.key", "--input", "ok=true", "wf-1"},
			[]string{"resume", "--temporal", "h:1", "--codec-key", "k.key", "--answer", "ok=true", "--", "wf-1"}},
	} {
		if r := handOffRun(c.args...); r.code != 0 || r.stdout != argLines(c.want...) {
			t.Errorf("%q: exit %d\nstdout:\n%s\nwant:\n%s\nstderr: %q", c.args, r.code, r.stdout, argLines(c.want...), r.stderr)
		}
	}
	r := handOffRun("exec", "--codec-key", "k.key", "c.yaml")
	if r.code != exitUsage || !strings.HasPrefix(r.stderr, "Error: --codec-key: only with --executor temporal") {
		t.Errorf("a local run with --codec-key: exit %d, stderr %q", r.code, r.stderr)
	}
}
