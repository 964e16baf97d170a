package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fakeTemporal puts a runbook-temporal on PATH (and only it) that prints
// its arguments one a line on stdout, a line on stderr, and exits code.
func fakeTemporal(t *testing.T, code string) {
	t.Helper()
	dir := t.TempDir()
	script := "#!/bin/sh\nfor a in \"$@\"; do echo \"arg:$a\"; done\necho 'from the fake' >&2\nexit " + code + "\n"
	if err := writeExec(filepath.Join(dir, temporalCommand), []byte(script), 0o755); err != nil {
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

// fakeRecorder puts on PATH a runbook-temporal that logs its arguments
// (and the inputs file it is given) to a file, saves the record it is
// pointed at as the run's record (and the chart as the run's chart, for
// resume), says a line on stderr, runs the shell command in
// $RUNBOOK_FAKE_THEN when set (what happens while the run runs) and exits
// code: runbook's side of a Temporal run, without Temporal. It returns the log's path.
func fakeRecorder(t *testing.T, code, record, chart string) string {
	t.Helper()
	dir := t.TempDir()
	logFile := filepath.Join(dir, "args.log")
	script := `#!/bin/sh
prev=""
for a in "$@"; do
  echo "arg:$a" >> "` + logFile + `"
  case "$prev" in
    --record) [ -n "` + record + `" ] && cp "` + record + `" "$a" ;;
    --save-chart) [ -n "` + chart + `" ] && cp "` + chart + `" "$a" ;;
    --inputs|--answers) cat "$a" >> "` + logFile + `"; echo >> "` + logFile + `" ;;
  esac
  prev="$a"
done
echo 'from the fake' >&2
if [ -n "$RUNBOOK_FAKE_THEN" ]; then sh -c "$RUNBOOK_FAKE_THEN"; fi
exit ` + code + "\n"
	if err := writeExec(filepath.Join(dir, temporalCommand), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+"/bin"+string(os.PathListSeparator)+"/usr/bin")
	return logFile
}

func readLog(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestTemporalHandOff: exec --executor temporal checks the chart and the
// inputs here, hands runbook-temporal the chart, the Temporal flags, the
// inputs as --inputs (never in argv), the record file, the row cap and the
// narrative, and a resume command naming runbook; a refusal of
// runbook-temporal's own (exit 2) is passed back; worker passes its flags.
func TestTemporalHandOff(t *testing.T) {
	log := fakeRecorder(t, "2", "", "")
	chart := "../../testdata/issue14/disks/chart.yaml"
	r := handOffRun("exec", "--executor", "temporal", "--temporal", "tmp.example:7233", "--task-queue", "db",
		"--namespace", "ops", "--input", "listing=/ 10", "--record", "run.json", "--max-rows", "2", "-v", "--timeout", "90s", chart)
	got := readLog(t, log)
	for _, want := range []string{
		argLines("exec", "--temporal", "tmp.example:7233", "--task-queue", "db", "--namespace", "ops", "--inputs"),
		"{\"listing\":\"/ 10\"}\n" + argLines("--record"),
		argLines("--quiet", "--resume-command",
			"runbook resume --executor temporal --temporal tmp.example:7233 --namespace ops", "--max-rows", "2", "--narrative", "--timeout", "1m30s", "--", chart),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("exec handed off:\n%s\nwant it to hold:\n%s", got, want)
		}
	}
	if strings.Contains(got, argLines("--record", "run.json")) {
		t.Errorf("exec handed runbook-temporal the user's --record (runbook writes it):\n%s", got)
	}
	if r.code != 2 || r.stderr != "from the fake\n" || r.stdout != "" {
		t.Errorf("exec: exit %d, stdout %q, stderr %q; want runbook-temporal's exit 2 and its words", r.code, r.stdout, r.stderr)
	}

	log = fakeRecorder(t, "0", "", "")
	r = handOffRun("worker", "--temporal", "h:1", "--task-queue", "db")
	if want := argLines("worker", "--temporal", "h:1", "--task-queue", "db"); r.code != 0 || readLog(t, log) != want {
		t.Errorf("worker: exit %d\nhanded:\n%s\nwant:\n%s", r.code, readLog(t, log), want)
	}
}

// TestTemporalSecretNotInArgv: a secret input given to a Temporal run
// reaches runbook-temporal as its --inputs (a pipe on Linux,
// TestTemporalInputsNeverOnDisk), never on its command line, which ps
// shows.
func TestTemporalSecretNotInArgv(t *testing.T) {
	log := fakeRecorder(t, "2", "", "")
	execSecretOnTemporal(t)
	var argv []string
	for _, l := range strings.Split(readLog(t, log), "\n") {
		if strings.HasPrefix(l, "arg:") {
			argv = append(argv, l)
		}
	}
	if strings.Contains(strings.Join(argv, " "), "hunter2") {
		t.Errorf("the secret is on runbook-temporal's command line: %q", argv)
	}
	if !strings.Contains(readLog(t, log), `"token":"hunter2-s3cret"`) {
		t.Errorf("the secret did not reach runbook-temporal's inputs file:\n%s", readLog(t, log))
	}
}

// TestTemporalInputsNeverOnDisk: exec --executor temporal wrote the
// inputs, a secret's value too, to inputs.json in a temporary folder it
// removed when it returned; a runbook killed with SIGKILL never returned,
// and 300 such folders had piled up in /tmp, each readable by the user
// for as long as it lasted. On Linux the inputs go through a pipe the
// child reads as /dev/fd/3: while the run runs, no file under TMPDIR
// holds the secret, and the child reads it whole.
func TestTemporalInputsNeverOnDisk(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("off Linux the inputs are a file in the run's temporary folder (handoff_other.go)")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	bin := t.TempDir()
	seen := filepath.Join(bin, "seen")
	// The fake runbook-temporal reads its --inputs, then looks for the
	// secret in every file under TMPDIR while it still runs.
	script := `#!/bin/sh
prev=""
for a in "$@"; do
  [ "$prev" = --inputs ] && { echo "inputs at $a"; cat "$a"; echo; } >> "` + seen + `"
  prev="$a"
done
if grep -rl hunter2 "$TMPDIR" >> "` + seen + `" 2>/dev/null; then echo "ON DISK" >> "` + seen + `"; fi
exit 2
`
	if err := writeExec(filepath.Join(bin, temporalCommand), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+"/bin"+string(os.PathListSeparator)+"/usr/bin")
	execSecretOnTemporal(t)
	got := readLog(t, seen)
	if strings.Contains(got, "ON DISK") || !strings.Contains(got, "inputs at /dev/fd/3\n{\"token\":\"hunter2-s3cret\"}") {
		t.Errorf("runbook-temporal saw:\n%s\nwant the inputs read from /dev/fd/3 and no file under TMPDIR holding the secret", got)
	}
}

// TestTemporalRendersAsLocal: a Temporal run's record is printed and judged
// by the code a local run's goes through: the same Nagios line and exit
// state, the same --fail-on exit 3 and words, the same text, for the same
// record (runbook-temporal saved it; here, a fake hands back the local
// run's own).
func TestTemporalRendersAsLocal(t *testing.T) {
	chart := "../../testdata/issue14/disks/chart.yaml"
	local := filepath.Join(t.TempDir(), "local.json")
	for _, tc := range []struct {
		name  string
		flags []string
		code  int
	}{
		{"nagios", []string{"--format", "nagios"}, 2},
		{"fail-on", []string{"--fail-on", "verdict=at-risk"}, exitFailOn},
		{"json", []string{"--format", "json", "--fail-on", "ask"}, exitOK},
		{"markdown", []string{"--format", "markdown"}, exitOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Honesty in-process, as a Temporal run's workflow runs it.
			want := handOffRun(append(append([]string{"exec", "--honesty", "inprocess", "--record", local}, tc.flags...), chart)...)
			if want.code != tc.code {
				t.Fatalf("the local run exited %d; want %d\n%s", want.code, tc.code, want.stderr)
			}
			fakeRecorder(t, "0", local, "")
			got := handOffRun(append(append([]string{"exec", "--executor", "temporal", "--temporal", "h:1"}, tc.flags...), chart)...)
			if got.code != want.code || got.stdout != want.stdout || got.stderr != "from the fake\n"+want.stderr {
				t.Errorf("on Temporal: exit %d, stderr %q\n%s\nlocal: exit %d, stderr %q\n%s", got.code, got.stderr, got.stdout, want.code, want.stderr, want.stdout)
			}
		})
	}
	// A run that failed on Temporal (runbook-temporal exits 1 with its
	// record saved) is printed and exits 1, as a local failed run.
	failed := filepath.Join(t.TempDir(), "failed.json")
	want := handOffRun("exec", "--honesty", "inprocess", "--record", failed, "--input", "listing=/ x", chart)
	if want.code != exitFailed {
		t.Fatalf("the local run of a bad listing exited %d; want 1\n%s", want.code, want.stderr)
	}
	fakeRecorder(t, "1", failed, "")
	got := handOffRun("exec", "--executor", "temporal", "--temporal", "h:1", "--input", "listing=/ x", chart)
	if got.code != exitFailed || got.stdout != want.stdout {
		t.Errorf("failed on Temporal: exit %d\n%s\nlocal: exit %d\n%s", got.code, got.stdout, want.code, want.stdout)
	}
	// runbook-temporal that saved no record: the run's end is not known.
	fakeRecorder(t, "0", "", "")
	got = handOffRun("exec", "--executor", "temporal", "--temporal", "h:1", chart)
	if got.code != exitFailed || !strings.Contains(got.stderr, "reading the run's record") {
		t.Errorf("no record: exit %d, stderr %q; want 1 and the record not read", got.code, got.stderr)
	}
}

// TestTemporalNotFound: with no runbook-temporal the refusal names what to
// build and exits 2.
func TestTemporalNotFound(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for _, args := range [][]string{
		{"exec", "--executor", "temporal", "--temporal", "h:1", "../../testdata/issue14/disks/chart.yaml"},
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
		{[]string{"exec", "--executor", "temporal", "--temporal", "h:1", "--honesty", "inprocess", "--plugin-dir", "p", "disk.yaml"}, "Error: --honesty, --plugin-dir: not with --executor temporal yet"},
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
// --record passed on, and the continued record printed and judged with
// the chart the run started with; a flag it does not take is a usage
// error, and Temporal's flags need --executor temporal.
func TestTemporalResumeHandsOff(t *testing.T) {
	chart := "../../testdata/issue14/ask/chart.yaml"
	dir := t.TempDir()
	paused, done := filepath.Join(dir, "paused.json"), filepath.Join(dir, "done.json")
	if r := handOffRun("exec", "--honesty", "inprocess", "--record", paused, chart); r.code != exitOK {
		t.Fatalf("the local run: exit %d\n%s", r.code, r.stderr)
	}
	want := handOffRun("resume", "--honesty", "inprocess", "--record", done, "--input", "approve=true", "--format", "nagios", paused)
	if want.code != 1 {
		t.Fatalf("the local resume: exit %d; want WARNING (1)\n%s", want.code, want.stderr)
	}
	runChart := savedChart(t, chart, dir)
	log := fakeRecorder(t, "0", done, runChart)
	continued := filepath.Join(dir, "continued.json")
	r := handOffRun("resume", "--executor", "temporal", "--temporal", "h:1", "--namespace", "ops",
		"--input", "approve=true", "--answered-by", "ann", "--record", continued, "--format", "nagios", "wf-1")
	if got, want := readLog(t, log), argLines("resume", "--temporal", "h:1", "--namespace", "ops", "--answers"); !strings.HasPrefix(got, want) ||
		!strings.Contains(got, "\n{\"approve\":\"true\"}\n"+argLines("--answered-by", "ann", "--record")) || strings.Contains(got, continued) || !strings.HasSuffix(got, argLines("--quiet", "--", "wf-1")) {
		t.Errorf("resume handed off:\n%s\nwant it to start:\n%s", got, want)
	}
	if r.code != want.code || r.stdout != want.stdout {
		t.Errorf("resume on Temporal: exit %d\n%s\nlocal: exit %d\n%s", r.code, r.stdout, want.code, want.stdout)
	}
	if got, err := os.ReadFile(continued); err != nil || !bytes.Equal(got, mustRead(t, done)) {
		t.Errorf("--record: %v; want the continued record runbook-temporal saved", err)
	}
	log = fakeRecorder(t, "2", "", "")
	r = handOffRun("resume", "--executor=temporal", "--temporal", "h:1", "--reject", "not now", "wf-2")
	if got := readLog(t, log); r.code != 2 || !strings.HasPrefix(got, argLines("resume", "--temporal", "h:1", "--reject", "not now", "--record")) {
		t.Errorf("resume --reject: exit %d\nhanded:\n%s", r.code, got)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"resume", "--executor", "temporal", "--temporal", "h:1", "--chart", "c.yaml", "wf-1"}, "--chart: not with --executor temporal yet"},
		{[]string{"resume", "--executor", "temporal", "--temporal", "h:1", "--timeout", "1s", "wf-1"}, "--timeout: not with --executor temporal yet"},
		{[]string{"resume", "--executor", "temporal", "--temporal", "h:1", "--format", "ndjson", "wf-1"}, "--format ndjson streams a run's events"},
		{[]string{"resume", "--temporal", "h:1", "run.json"}, "--temporal: only with --executor temporal"},
		{[]string{"resume", "--executor", "temporal", "wf-1"}, "give --temporal host:port"},
		{[]string{"exec", "--executor", "temporal", "--temporal", "h:1", "-"}, "give the chart as a file"},
	} {
		r := handOffRun(c.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, c.want) || r.stdout != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want usage naming %q", c.args, r.code, r.stdout, r.stderr, c.want)
		}
	}
}

// TestTemporalResumeSecretNotInArgv: a resume on Temporal is given a
// secret input again, as a resume asks, in an --inputs file only its
// owner reads; runbook put each answer on runbook-temporal's command
// line, --answer token=…, where ps showed it to every user of the
// machine for as long as the run ran on. The answers go as exec's inputs
// go (a pipe read as /dev/fd/3 on Linux), never in argv.
func TestTemporalResumeSecretNotInArgv(t *testing.T) {
	log := fakeRecorder(t, "2", "", "")
	secrets := filepath.Join(t.TempDir(), "secrets.json")
	if err := os.WriteFile(secrets, []byte(`{"token": "hunter2-s3cret"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	handOffRun("resume", "--executor", "temporal", "--temporal", "h:1", "--inputs", secrets, "--input", "approve=true", "wf-1")
	var argv []string
	for _, l := range strings.Split(readLog(t, log), "\n") {
		if strings.HasPrefix(l, "arg:") {
			argv = append(argv, l)
		}
	}
	if strings.Contains(strings.Join(argv, " "), "hunter2") {
		t.Errorf("the secret is on runbook-temporal's command line: %q", argv)
	}
	if !strings.Contains(readLog(t, log), `{"approve":"true","token":"hunter2-s3cret"}`) {
		t.Errorf("the answers did not reach runbook-temporal's --answers file:\n%s", readLog(t, log))
	}
}

// TestTemporalPausedResumeNamesSecretsFile: the command a paused run on
// Temporal prints to answer it named the answers alone, and a resume
// on Temporal must be given the run's secret inputs again, as a local
// one: the printed command was refused (input "token": is secret). It
// names the --inputs file they go in, as a local pause's does.
func TestTemporalPausedResumeNamesSecretsFile(t *testing.T) {
	log := fakeRecorder(t, "2", "", "")
	execSecretOnTemporal(t)
	if want := argLines("--resume-command", "runbook resume --executor temporal --temporal h:1 --inputs SECRETS.json"); !strings.Contains(readLog(t, log), want) {
		t.Errorf("the resume command handed:\n%s\nwant it to hold:\n%s", readLog(t, log), want)
	}
}

// TestTemporalCodecKeyHandedOff: --codec-key reaches runbook-temporal on
// exec, worker and resume alike (a chart with secret inputs runs on
// Temporal only with it), and on a local run it is a usage error.
func TestTemporalCodecKeyHandedOff(t *testing.T) {
	chart := "../../testdata/issue14/disks/chart.yaml"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"exec", "--executor", "temporal", "--temporal", "h:1", "--codec-key", "k.key", chart},
			argLines("exec", "--temporal", "h:1", "--codec-key", "k.key", "--inputs")},
		{[]string{"worker", "--temporal", "h:1", "--codec-key", "k.key"},
			argLines("worker", "--temporal", "h:1", "--codec-key", "k.key")},
		{[]string{"resume", "--executor", "temporal", "--temporal", "h:1", "--codec-key", "k.key", "--input", "ok=true", "wf-1"},
			argLines("resume", "--temporal", "h:1", "--codec-key", "k.key", "--answers")},
	} {
		log := fakeRecorder(t, "2", "", "")
		if r := handOffRun(c.args...); r.code != 2 || !strings.HasPrefix(readLog(t, log), c.want) {
			t.Errorf("%q: exit %d\nhanded:\n%s\nwant it to start:\n%s\nstderr: %q", c.args, r.code, readLog(t, log), c.want, r.stderr)
		}
	}
	// The paused record's resume command names the key file too.
	log := fakeRecorder(t, "2", "", "")
	handOffRun("exec", "--executor", "temporal", "--temporal", "h:1", "--codec-key", "k.key", chart)
	if want := argLines("--resume-command", "runbook resume --executor temporal --temporal h:1 --codec-key k.key"); !strings.Contains(readLog(t, log), want) {
		t.Errorf("the resume command handed:\n%s\nwant it to hold:\n%s", readLog(t, log), want)
	}
	r := handOffRun("exec", "--codec-key", "k.key", "c.yaml")
	if r.code != exitUsage || !strings.HasPrefix(r.stderr, "Error: --codec-key: only with --executor temporal") {
		t.Errorf("a local run with --codec-key: exit %d, stderr %q", r.code, r.stderr)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// savedChart writes chart into dir as runbook-temporal resume --save-chart
// writes the chart a run started with (its name and bytes, as JSON), and
// returns the file's path.
func savedChart(t *testing.T, chart, dir string) string {
	t.Helper()
	src, err := os.ReadFile(chart)
	if err != nil {
		t.Fatal(err)
	}
	saved, err := json.Marshal(map[string]any{"File": chart, "Chart": src})
	if err != nil {
		t.Fatal(err)
	}
	runChart := filepath.Join(dir, "chart.json")
	if err := os.WriteFile(runChart, saved, 0o600); err != nil {
		t.Fatal(err)
	}
	return runChart
}

// execSecretOnTemporal runs exec --executor temporal of a chart whose
// secret input token is given as hunter2-s3cret, for the fake
// runbook-temporal on PATH to report what it was handed.
func execSecretOnTemporal(t *testing.T) {
	t.Helper()
	chart := filepath.Join(t.TempDir(), "chart.yaml")
	if err := os.WriteFile(chart, []byte(`version: 1
runbook: secret-to-temporal
inputs:
  token: {type: string, secret: true, required: true}
stages:
  - id: call
    exec: {command: ["true"], envFrom: {TOKEN: token}}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	handOffRun("exec", "--executor", "temporal", "--temporal", "h:1", "--input", "token=hunter2-s3cret", chart)
}
