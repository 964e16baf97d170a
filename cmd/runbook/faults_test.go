package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// recordChart completes (okChart) or fails (failingChart) with something to
// record.
const (
	okChart = `
version: 1
runbook: saved
stages:
  - {id: one, set: {a: '1'}}
`
	failingChart = `
version: 1
runbook: saved
stages:
  - {id: one, set: {a: '1'}}
  - {id: boom, fail: '"it broke"'}
`
)

// TestRecordCannotBeWritten: a --record path that passed the check before
// the run (TestRecordPathRefusedBeforeRun has the paths refused there) but
// could not be written after it: the disk filled up, or the directory went
// away during the run (here a stage of the run removes it). The run's result
// is still printed on stdout; stderr says the record was not saved, naming
// the path and the cause; no temporary file is left behind. Exit code: a
// run that completed exits 1 (the record asked for is missing: a script
// must not take it for saved); a run that failed keeps its own code (1).
func TestRecordCannotBeWritten(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, cause string
		// dir is where the record goes: made for the run, or "SKIP:why".
		dir func(t *testing.T) string
		// vanish: the run's first stage removes dir.
		vanish bool
	}{
		{"directory removed during the run", "no such file or directory", func(t *testing.T) string { return t.TempDir() }, true},
		{"disk full", "no space left on device", fullDisk, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, run := range []struct {
				chart, status string
				code          int
			}{{okChart, "completed", 1}, {failingChart, "failed", 1}} {
				dir := tc.dir(t)
				if strings.HasPrefix(dir, "SKIP:") {
					t.Skip(strings.TrimPrefix(dir, "SKIP:"))
				}
				record := filepath.Join(dir, "run.json")
				text := run.chart
				if tc.vanish {
					text = strings.Replace(text, "stages:\n", "stages:\n  - {id: vanish, exec: {command: [rm, -rf, "+dir+"]}}\n", 1)
				}
				chart := writeChart(t, t.TempDir(), "chart.yaml", text)
				r := runCLI(t, t.TempDir(), "exec", chart, "--format", "json", "--record", record)
				if r.code != run.code {
					t.Errorf("%s run: exit %d, want %d; stderr %q", run.status, r.code, run.code, r.stderr)
				}
				var rec map[string]any
				if err := json.Unmarshal([]byte(r.stdout), &rec); err != nil || rec["status"] != run.status {
					t.Errorf("%s run: the result is not on stdout (%v): %q", run.status, err, r.stdout)
				}
				if !strings.Contains(r.stderr, "writing the run record") || !strings.Contains(r.stderr, record) || !strings.Contains(r.stderr, tc.cause) {
					t.Errorf("%s run: stderr %q does not say the record at %s was not written (%s)", run.status, r.stderr, record, tc.cause)
				}
				if left, _ := filepath.Glob(filepath.Join(dir, ".runbook-record-*")); len(left) > 0 {
					t.Errorf("temporary files left behind: %v", left)
				}
			}
		})
	}
}

// readOnlyDir is a directory no record can be written in, and the cause
// the error names: a mode 0555 directory, or — as root, whom permissions do
// not bind — a read-only tmpfs ("SKIP:why" when it cannot be mounted).
func readOnlyDir(t *testing.T) (dir, cause string) {
	t.Helper()
	dir = t.TempDir()
	if os.Geteuid() != 0 {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
		return dir, "permission denied"
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "ro,size=4k", "tmpfs", dir).CombinedOutput(); err != nil {
		return "SKIP:cannot mount a read-only tmpfs: " + strings.TrimSpace(string(out)), ""
	}
	t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	return dir, "read-only file system"
}

// fullDisk mounts a one-page tmpfs (when the tests may mount: root with
// CAP_SYS_ADMIN) and returns its directory, or "SKIP:why". /dev/full is
// not used: the record is written to a temporary file beside the path and
// renamed over it, which as root would replace the device node.
func fullDisk(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		return "SKIP:not root: cannot mount a small tmpfs to fill"
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=4k", "tmpfs", dir).CombinedOutput(); err != nil {
		return "SKIP:cannot mount a tmpfs: " + strings.TrimSpace(string(out))
	}
	t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	// Fill its one page, so that the record's first write finds no space.
	if err := os.WriteFile(filepath.Join(dir, "filler"), make([]byte, 4096), 0o644); err != nil {
		return "SKIP:cannot fill the tmpfs: " + err.Error()
	}
	return dir
}

// secretChart meets a secret input everywhere it can go: a command's
// environment (envFrom) and stdin, its stdout and stderr, a derived value,
// a decision's evidence, the narrative, and a failing stage's message.
const secretChart = `
version: 1
runbook: secrets
inputs:
  token: {type: string, secret: true, required: true}
stages:
  - id: use
    exec:
      command: [sh, -c, 'echo "stdout $TOKEN"; echo "stderr $TOKEN" >&2']
      envFrom: {TOKEN: token}
      into: used
  - id: piped
    exec: {command: [cat], stdin: token, into: piped}
  - id: argv
    exec: {command: [echo, token, '$TOKEN', '$${token}'], into: argv}
  - {id: derive, set: {header: '"Bearer " + token', same: token}}
  - id: check
    decide:
      rules: [{when: 'token == "guess"', then: denied, label: The token is a guess}]
      default: {branch: allowed, label: Not a guess}
    branches: {denied: [], allowed: []}
  - {id: boom, fail: '"the token " + token + " was refused"'}
`

// TestSecretNeverInAnyOutput runs the CLI with a secret input and searches
// every output — stdout in each format, stderr, the -v narrative, the
// --record file, the ndjson stream — for the secret's value.
func TestSecretNeverInAnyOutput(t *testing.T) {
	t.Parallel()
	const secret = "tok-9f3Kq7Zr2pXw"
	dir := t.TempDir()
	chart := writeChart(t, dir, "secrets.yaml", secretChart)
	for _, format := range []string{"text", "json", "ndjson", "markdown"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			record := filepath.Join(t.TempDir(), "run.json")
			r := runCLI(t, dir, "exec", chart, "--input", "token="+secret, "--format", format, "-v", "--record", record)
			if r.code != 1 {
				t.Fatalf("exit %d, want 1 (the failing stage): %s", r.code, r.stderr)
			}
			saved, err := os.ReadFile(record)
			if err != nil {
				t.Fatal(err)
			}
			for name, out := range map[string]string{"stdout": r.stdout, "stderr": r.stderr, "record": string(saved)} {
				if strings.Contains(out, secret) {
					t.Errorf("%s holds the secret:\n%s", name, out)
				}
			}
			// A message derived from the secret is masked whole (issue
			// #19, internal/secret): its words around the secret went too.
			if !strings.Contains(r.stderr, "run failed at boom: ***") {
				t.Errorf("stderr does not carry the masked failure: %q", r.stderr)
			}
			if format == "json" {
				var rec struct {
					State     map[string]any `json:"state"`
					Narrative []string       `json:"narrative"`
				}
				if err := json.Unmarshal([]byte(r.stdout), &rec); err != nil {
					t.Fatal(err)
				}
				used := rec.State["used"].(map[string]any)
				if used["stdout"] != "stdout ***\n" || used["stderr"] != "stderr ***\n" {
					t.Errorf("the command's output: %v", used)
				}
				if rec.State["piped"].(map[string]any)["stdout"] != "***" {
					t.Errorf("stdin: the command did not get the secret (masked): %v", rec.State["piped"])
				}
				// argv items are literal text but for ${…} templates; $${ is
				// a literal ${ (a template reading the secret does not load:
				// TestIssue14SecretInTemplateRefused; nor does another
				// tool's {{token}}: chart TestForeignTemplateOfAChartNameIsRefused).
				if got := rec.State["argv"].(map[string]any)["stdout"]; got != "token $TOKEN ${token}\n" {
					t.Errorf("argv = %q; argv items are literal text", got)
				}
				if rec.State["header"] != "***" || rec.State["same"] != "***" || rec.State["token"] != "***" {
					t.Errorf("derived values: header %v same %v token %v", rec.State["header"], rec.State["same"], rec.State["token"])
				}
				if len(rec.Narrative) == 0 {
					t.Error("no narrative with -v")
				}
			}
		})
	}
}

// TestFailedRecordWriteLeavesNoEarlierRecord: a run whose record could not
// be written (the disk filled up) left the earlier run's record at the
// path, and `runbook explain run.json`, or a CI job archiving it, read
// yesterday's answer as this run's. It is removed, and stderr says so.
func TestFailedRecordWriteLeavesNoEarlierRecord(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("not root: cannot mount a small tmpfs to fill")
	}
	earlier := filepath.Join(t.TempDir(), "earlier.json")
	chart := writeChart(t, t.TempDir(), "chart.yaml", okChart)
	if r := runCLI(t, t.TempDir(), "exec", chart, "--record", earlier); r.code != 0 {
		t.Fatalf("the earlier run: exit %d: %s", r.code, r.stderr)
	}
	b, err := os.ReadFile(earlier)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skip("cannot mount a tmpfs: " + strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	record := filepath.Join(dir, "run.json")
	if err := os.WriteFile(record, b, 0o600); err != nil {
		t.Fatal(err)
	}
	// Fill what is left, so that this run's record finds no space.
	_ = os.WriteFile(filepath.Join(dir, "filler"), make([]byte, 64<<10), 0o644)

	r := runCLI(t, t.TempDir(), "exec", chart, "--record", record)
	if r.code != 1 || !strings.Contains(r.stderr, "no space left on device") {
		t.Fatalf("exit %d, want 1 saying no space; stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(record); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the earlier run's record is still at %s (%v): it is read as this run's", record, err)
	}
	// Nothing recorded is lost: the earlier record is beside it, whole.
	if kept, err := os.ReadFile(record + ".earlier"); err != nil || !bytes.Equal(kept, b) {
		t.Errorf("the earlier record is not kept whole at %s.earlier: %v", record, err)
	}
	if !strings.Contains(r.stderr, "the earlier run's record at "+record+" was moved to "+record+".earlier") {
		t.Errorf("stderr does not say where the earlier record went: %q", r.stderr)
	}
}
