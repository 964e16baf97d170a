package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/internal/golden"
)

// issue14ExecDir is a chart folder of testdata/issue14 (the repository root's).
func issue14ExecDir(t *testing.T, name string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "issue14", name))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestIssue14TemplatedArgvOnRecord: command items with ${EXPR} parts run
// as their rendered text (a string with spaces one argument, a number in
// plain decimal, $${ a literal ${), and the record's script row holds that
// argv, in the output and in the saved record alike. The scripts section
// is golden.
func TestIssue14TemplatedArgvOnRecord(t *testing.T) {
	t.Parallel()
	dir := issue14ExecDir(t, "argv")
	record := filepath.Join(t.TempDir(), "run.json")
	out, r := runIssue13(t, dir, nil, "--record", record)
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	want := []string{"printf", "%s|", "-f", "sshd: /usr/sbin", "-w", "13700000000", "--ratio=0.25", "${not-a-template}", "plain"}
	if got := out.row(t, "probe").Ran.Argv; strings.Join(got, "\x00") != strings.Join(want, "\x00") {
		t.Errorf("argv = %q, want %q", got, want)
	}
	saved, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(saved), `"13700000000"`) || strings.Contains(string(saved), "e+10") {
		t.Errorf("the saved record does not hold the plain-decimal argument")
	}
	golden.Check(t, filepath.Join(dir, "scripts.golden"), scrubDurations(scriptsSection(t, r.stdout)))
}

// scrubDurations drops the lines that vary from run to run.
func scrubDurations(b []byte) []byte {
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.Contains(l, `"durationMs"`) {
			keep = append(keep, l)
		}
	}
	return []byte(strings.Join(keep, "\n"))
}

// TestIssue14SecretInTemplateRefused: a command template that reads a
// secret input does not load: exec and validate exit 2 and say where, which
// input, and how to pass it instead (to curl, its options on stdin: it
// reads no $TOKEN, which the message said before); nothing runs. The
// message is golden.
func TestIssue14SecretInTemplateRefused(t *testing.T) {
	t.Parallel()
	dir := issue14ExecDir(t, "secret-argv")
	const secret = "tok-14-Hw9qZ"
	r := runCLI(t, dir, "exec", "chart.yaml", "--input", "token="+secret)
	if r.code != 2 || r.stdout != "" {
		t.Fatalf("exit %d stdout %q; want 2 and nothing run", r.code, r.stdout)
	}
	if strings.Contains(r.stderr, secret) {
		t.Errorf("the refusal holds the secret: %s", r.stderr)
	}
	for _, want := range []string{`chart.yaml:10:38: stage "call"`, `reads the secret input "token"`, "-K - (--config -)", `with stdin: 'user = "NAME:' + token + '"'`} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
		}
	}
	v := runCLI(t, dir, "validate", "chart.yaml")
	if v.code != 1 || v.stderr != r.stderr {
		t.Errorf("validate: exit %d stderr %q; want 1 and exec's message", v.code, v.stderr)
	}
	golden.Check(t, filepath.Join(dir, "stderr.golden"), []byte(r.stderr))
}

// TestIssue14OnErrorKeepsOtherRows: a foreach under onError: continue
// where one host's output breaks its branch keeps the other hosts' rows,
// into keeps every item's result in order (the failed one with its
// error), the ledger names the stage and the error, and the line says Not
// sure. The same chart without onError fails the run with exit 1 and no
// rows. The text output is golden.
func TestIssue14OnErrorKeepsOtherRows(t *testing.T) {
	t.Parallel()
	dir := issue14ExecDir(t, "foreach-continue")
	text := runCLI(t, dir, "exec", "chart.yaml")
	if text.code != 0 {
		t.Fatalf("exit %d, stderr %s", text.code, text.stderr)
	}
	golden.Check(t, filepath.Join(dir, "exec.txt.golden"), []byte(text.stdout))

	r := runCLI(t, dir, "exec", "chart.yaml", "--format", "json")
	var out struct {
		Status   string         `json:"status"`
		State    map[string]any `json:"state"`
		Coverage []struct {
			Path       string `json:"path"`
			NotChecked []struct {
				What, Why, Kind string
			} `json:"notChecked"`
		} `json:"coverage"`
		Assessment struct{ Standing, Line string } `json:"assessment"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	var subjects []string
	for _, row := range out.State["verdicts"].([]any) {
		subjects = append(subjects, row.(map[string]any)["subject"].(string))
	}
	if strings.Join(subjects, " ") != "web-1 web-3" {
		t.Errorf("rows for %v, want web-1 and web-3", subjects)
	}
	results := out.State["results"].([]any)
	if len(results) != 3 {
		t.Fatalf("into has %d results, want 3 (one per item)", len(results))
	}
	for i, res := range results {
		_, failed := res.(map[string]any)["error"]
		if failed != (i == 1) {
			t.Errorf("results[%d] error present %v; only odd-2 (1) failed", i, failed)
		}
	}
	// Two items: odd-2's output was not JSON (parse: json counted the line,
	// unparsed), and so its branch failed (onError: continue).
	if len(out.Coverage) != 2 || out.Coverage[1].Path != "per-host" || len(out.Coverage[1].NotChecked) != 1 ||
		out.Coverage[1].NotChecked[0].Kind != "failed" || !strings.Contains(out.Coverage[1].NotChecked[0].Why, "per-host~1/load") ||
		out.Coverage[0].Path != "per-host~1/probe" || len(out.Coverage[0].NotChecked) != 1 || out.Coverage[0].NotChecked[0].Kind != "unparsed" {
		t.Errorf("ledger %+v; want odd-2's unparsed line, then one failed item under per-host naming per-host~1/load", out.Coverage)
	}
	if out.Assessment.Standing != "not-sure" {
		t.Errorf("standing %q (%s); want not-sure", out.Assessment.Standing, out.Assessment.Line)
	}

	// The control: without onError the one odd host fails the run.
	data, err := os.ReadFile(filepath.Join(dir, "chart.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	strict := t.TempDir()
	writeChart(t, strict, "chart.yaml", strings.Replace(string(data), "    onError: continue\n", "", 1))
	f := runCLI(t, strict, "exec", "chart.yaml", "--format", "json")
	if f.code != 1 || !strings.Contains(f.stdout, `"status": "failed"`) {
		t.Errorf("without onError: exit %d; want 1, a failed run", f.code)
	}
}

// TestIssue14ReadRelativeToChart: read: paths are the chart folder's, not
// the working directory's: run from elsewhere, the files are still found;
// a glob is in path order and a missing file is exists: false.
func TestIssue14ReadRelativeToChart(t *testing.T) {
	t.Parallel()
	chart := filepath.Join(issue14ExecDir(t, "read"), "chart.yaml")
	r := runCLI(t, t.TempDir(), "exec", chart, "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	var out struct {
		State map[string]any `json:"state"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join(issue14ExecDir(t, "read"), "state.golden"), indentJSON(t, out.State))
}

func indentJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}
