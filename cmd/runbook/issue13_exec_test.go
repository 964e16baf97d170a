package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/internal/golden"
)

// issue13Dir is a chart folder of testdata/issue13 (the repository root's).
func issue13Dir(t *testing.T, name string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "issue13", name))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// issue13Out is one run's --format json output, decoded.
type issue13Out struct {
	Status string `json:"status"`
	Error  *struct {
		Stage, Message string
	} `json:"error"`
	State   map[string]any `json:"state"`
	Scripts []issue13Row   `json:"scripts"`
}

type issue13Row struct {
	Path     string `json:"path"`
	Label    string `json:"label"`
	ExitCode *int   `json:"exitCode"`
	Answer   string `json:"answer"`
	Cause    string `json:"cause"`
	Ran      *struct {
		Argv       []string `json:"argv"`
		Shell      string   `json:"shell"`
		Dir        string   `json:"dir"`
		StdoutTail string   `json:"stdoutTail"`
		StderrTail string   `json:"stderrTail"`
	} `json:"ran"`
}

// runIssue13 runs `runbook exec chart.yaml --format json` in dir and
// decodes the output; raw is the output as printed.
func runIssue13(t *testing.T, dir string, env []string, args ...string) (issue13Out, result) {
	t.Helper()
	r := runCLIEnv(t, dir, env, append([]string{"exec", "chart.yaml", "--format", "json"}, args...)...)
	var out issue13Out
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("output is not JSON: %v\nstdout %s\nstderr %s", err, r.stdout, r.stderr)
	}
	return out, r
}

func (o issue13Out) row(t *testing.T, path string) issue13Row {
	t.Helper()
	for _, r := range o.Scripts {
		if r.Path == path {
			return r
		}
	}
	t.Fatalf("no script row %q in %+v", path, o.Scripts)
	return issue13Row{}
}

func showExit13(code *int) string {
	if code == nil {
		return "no exit code"
	}
	return fmt.Sprintf("exit %d", *code)
}

// scriptsSection is the scripts part of --format json, in the CLI's key
// order, for a golden file.
func scriptsSection(t *testing.T, stdout string) []byte {
	t.Helper()
	var whole map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stdout), &whole); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := json.Indent(&b, whole["scripts"], "", "  "); err != nil {
		t.Fatal(err)
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// TestIssue13PipelineFailureIsNotExit0: `false | cat` under shell: exits 1
// on the record, labelled completed-with-failure (under /bin/sh it was exit
// 0, completed), while a pipeline that succeeds is still exit 0.
func TestIssue13PipelineFailureIsNotExit0(t *testing.T) {
	t.Parallel()
	out, r := runIssue13(t, issue13Dir(t, "pipeline"), nil)
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	piped := out.row(t, "piped")
	if piped.ExitCode == nil || *piped.ExitCode != 1 || piped.Label != "completed-with-failure" {
		t.Errorf("piped: %s label %q, want exit 1, completed-with-failure", showExit13(piped.ExitCode), piped.Label)
	}
	if fine := out.row(t, "fine"); fine.ExitCode == nil || *fine.ExitCode != 0 || fine.Label != "completed" {
		t.Errorf("fine: %s label %q, want exit 0, completed", showExit13(fine.ExitCode), fine.Label)
	}
}

// TestIssue13ShellWithoutBashFails: with no bash on PATH a shell: stage
// fails, saying bash is needed, where shell: was written and how to do
// without; it never runs the script under sh.
func TestIssue13ShellWithoutBashFails(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	out, r := runIssue13(t, issue13Dir(t, "pipeline"), []string{"PATH=" + empty})
	if r.code == 0 || out.Status != "failed" || out.Error == nil || out.Error.Stage != "piped" {
		t.Fatalf("exit %d status %q error %+v; want a run failed at piped", r.code, out.Status, out.Error)
	}
	for _, want := range []string{`chart.yaml:7:7: stage "piped"`, "shell: needs bash", "pipefail", empty, "command: [program, args…]"} {
		if !strings.Contains(out.Error.Message, want) {
			t.Errorf("error %q does not say %q", out.Error.Message, want)
		}
	}
	row := out.row(t, "piped")
	if row.Label != "outcome-unknown" || row.Cause != "could not be started: bash not found" {
		t.Errorf("piped: label %q cause %q, want outcome-unknown, could not be started: bash not found", row.Label, row.Cause)
	}
	if _, ran := out.State["fine"]; ran {
		t.Errorf("the stage after the failed one ran: %v", out.State["fine"])
	}
}

// TestIssue13NagiosExitCodesAreAnswers: with exitCodes: nagios a check
// exiting 2 gives into.status "critical" and the row's answer "critical"
// (its label still completed-with-failure); an undeclared 127 has neither;
// a chart's own map gives its own word. The scripts section is golden.
func TestIssue13NagiosExitCodesAreAnswers(t *testing.T) {
	t.Parallel()
	dir := issue13Dir(t, "nagios-exit")
	out, r := runIssue13(t, dir, nil)
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	tests := []struct {
		stage, status, label string
		exit                 int
	}{
		{"load", "critical", "completed-with-failure", 2},
		{"gone", "", "completed-with-failure", 127},
		{"own", "degraded", "completed-with-failure", 4},
	}
	for _, tc := range tests {
		into, _ := out.State[tc.stage].(map[string]any)
		status, hasStatus := into["status"]
		if tc.status == "" && hasStatus || tc.status != "" && status != tc.status {
			t.Errorf("%s.status = %v (present %v), want %q", tc.stage, status, hasStatus, tc.status)
		}
		row := out.row(t, tc.stage)
		if row.Answer != tc.status || row.Label != tc.label || row.ExitCode == nil || *row.ExitCode != tc.exit {
			t.Errorf("%s row: answer %q label %q %s; want %q %q exit %d", tc.stage, row.Answer, row.Label, showExit13(row.ExitCode), tc.status, tc.label, tc.exit)
		}
	}
	golden.Check(t, filepath.Join(dir, "scripts.golden"), scriptsSection(t, r.stdout))
}

// TestIssue13ScriptRowHoldsWhatRan: the record's script rows hold the argv
// or shell text, the dir and the tails of what was printed; a secret input
// passed through envFrom and printed by the command is masked in the
// tails, in the saved record as in the output.
func TestIssue13ScriptRowHoldsWhatRan(t *testing.T) {
	t.Parallel()
	const secret = "tok-13-Zq8wPl2"
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	writeChart(t, dir, "chart.yaml", `
version: 1
runbook: what-ran
inputs:
  token: {type: string, secret: true, required: true}
stages:
  - id: talk
    exec:
      shell: 'echo "token is $TOKEN"; echo "stderr has $TOKEN too" >&2'
      envFrom: {TOKEN: token}
      dir: `+work+`
  - id: argv
    exec:
      command: [printf, "%s|", a, "b c"]
`)
	record := filepath.Join(dir, "record.json")
	out, r := runIssue13(t, dir, nil, "--input", "token="+secret, "--record", record)
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	talk := out.row(t, "talk")
	if talk.Ran == nil {
		t.Fatalf("talk has no ran: %+v", talk)
	}
	if want := `echo "token is $TOKEN"; echo "stderr has $TOKEN too" >&2`; talk.Ran.Shell != want || talk.Ran.Argv != nil {
		t.Errorf("talk ran shell %q argv %q, want shell %q and no argv", talk.Ran.Shell, talk.Ran.Argv, want)
	}
	if talk.Ran.Dir != work {
		t.Errorf("talk ran dir %q, want %q", talk.Ran.Dir, work)
	}
	if talk.Ran.StdoutTail != "token is ***\n" || talk.Ran.StderrTail != "stderr has *** too\n" {
		t.Errorf("talk tails %q / %q, want the secret masked", talk.Ran.StdoutTail, talk.Ran.StderrTail)
	}
	argv := out.row(t, "argv")
	if argv.Ran == nil || strings.Join(argv.Ran.Argv, " ") != "printf %s| a b c" || argv.Ran.StdoutTail != "a|b c|" || argv.Ran.Shell != "" {
		t.Errorf("argv ran %+v, want argv [printf %%s| a b c] and stdout tail a|b c|", argv.Ran)
	}
	saved, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	for what, text := range map[string]string{"output": r.stdout + r.stderr, "record": string(saved)} {
		if strings.Contains(text, secret) {
			t.Errorf("the secret is in the %s", what)
		}
	}
	if !strings.Contains(string(saved), `"stdoutTail": "token is ***\n"`) {
		t.Errorf("the saved record holds no masked stdout tail:\n%s", saved)
	}
}

// TestIssue13UnknownOutcomeCause: outcome-unknown rows say why, each in
// its own words: a timeout, a command not found, one not executable. The
// scripts section is golden.
func TestIssue13UnknownOutcomeCause(t *testing.T) {
	t.Parallel()
	dir := issue13Dir(t, "unknown-cause")
	out, r := runIssue13(t, dir, nil)
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	for stage, cause := range map[string]string{
		"slow":    "timed out after 300ms",
		"missing": "could not be started: runbook-issue13-no-such-command not found",
		"denied":  "could not be started: permission denied",
	} {
		if row := out.row(t, stage); row.Label != "outcome-unknown" || row.Cause != cause {
			t.Errorf("%s: label %q cause %q, want outcome-unknown, %q", stage, row.Label, row.Cause, cause)
		}
	}
	golden.Check(t, filepath.Join(dir, "scripts.golden"), scriptsSection(t, r.stdout))
}

// TestIssue13ScriptsSayDeclaredAnswers: the text and markdown Scripts
// parts said a Nagios check's exit 2 only "completed with failure", as if
// the check were broken; they now say it answered, in the chart's word,
// for nagios's codes and a chart's own. A code the chart did not declare
// (127) is still a failure.
func TestIssue13ScriptsSayDeclaredAnswers(t *testing.T) {
	t.Parallel()
	dir := issue13Dir(t, "nagios-exit")
	for _, format := range []string{"text", "markdown"} {
		r := runCLI(t, dir, "exec", "chart.yaml", "--format", format)
		for _, want := range []string{"answered critical (exit 2)", "answered degraded (exit 4)", "completed with failure, exit 127"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%s output does not say %s:\n%s", format, want, r.stdout)
			}
		}
	}
}

// TestIssue13NagiosUnknownIsNotKnown: check_disk -p /nonexistent answers
// "DISK UNKNOWN" with exit 3, which exitCodes: nagios declares the answer
// "unknown". The run said Known over a check that never ran; it is now
// Not sure, naming the script.
func TestIssue13NagiosUnknownIsNotKnown(t *testing.T) {
	t.Parallel()
	r := runCLI(t, issue13Dir(t, "nagios-unknown"), "exec", "chart.yaml")
	if !strings.Contains(r.stdout, `Not sure — script "disk" answered unknown (completed with failure, exit 3): it could not determine what it checks.`) {
		t.Errorf("exit %d, want Not sure naming the unknown answer:\n%s", r.code, r.stdout)
	}
}

// TestIssue13FilterKeyNeverPresentIsNotKnown: examples/disk with one typo
// in a filter-form rule (volume.usedPtc) printed / as ok under Known; the
// record's own evidence said "key not present" for every volume. A
// condition whose key its object lacks is a rule-error (in every decision
// here): Not sure, the rule listed, the member it meant named.
func TestIssue13FilterKeyNeverPresentIsNotKnown(t *testing.T) {
	t.Parallel()
	dir := issue13Dir(t, "filter-typo")
	r := runCLIEnv(t, dir, []string{"PATH=" + filepath.Join(dir, "bin") + ":" + os.Getenv("PATH")}, "exec", "chart.yaml")
	for _, want := range []string{
		"\nNot sure — ",
		`could not evaluate rule 3 ("Three quarters or more used") in 2 of its decisions and counted it as no match each time: its condition on volume.usedPtc (gte) read no value: volume has no member "usedPtc"; did you mean "usedPct"?`,
		"Rules\n  Headroom rule",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output does not say %q:\n%s", want, r.stdout)
		}
	}
}
