package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openrunbook/runbook/record"
)

// The promise these tests hold: nothing recorded is lost, and what the CLI
// says about the run and its record file is true — when the record's path
// cannot be written, when stdout goes away or fills up.

// touchAskChart runs a command that leaves a mark (so a test can tell
// whether anything ran), then asks, then leaves a second mark.
const touchAskChart = `
version: 1
runbook: touchy
stages:
  - id: mark
    exec: {command: [touch, before], into: marked}
  - id: confirm
    ask: {question: '"Go on?"', expects: {go: string}}
  - id: after
    exec: {command: [touch, after], into: done}
`

// TestRecordPathRefusedBeforeRun: a --record path that plainly cannot be
// written (its directory is missing, is a file or is read-only; the path
// is a directory, a pipe or a device) is refused before anything runs,
// exit 2, as bad usage — by exec, and by resume (whose paused record stays
// as it was, still resumable). Before, exec ran the chart (its commands
// too), then said the record was not written — and a run that paused
// named that unwritten file as the place to resume it.
func TestRecordPathRefusedBeforeRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "a-fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	readonly, roCause := readOnlyDir(t)
	tests := []struct{ name, record, cause string }{
		{"missing directory", filepath.Join(dir, "nope", "run.json"), "no such file or directory"},
		{"parent is a file", filepath.Join(file, "run.json"), "not a directory"},
		{"a directory", dir, "is a directory"},
		{"read-only directory", filepath.Join(readonly, "run.json"), roCause},
		// Written beside and renamed over, a pipe or a device node would be
		// replaced by the record (as root, /dev/full itself).
		{"a named pipe", fifo, "not a regular file"},
		{"a device", charDevice(t), "not a regular file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if strings.HasPrefix(tc.record, "SKIP:") {
				t.Skip(strings.TrimPrefix(tc.record, "SKIP:"))
			}
			work := t.TempDir()
			chart := writeChart(t, work, "chart.yaml", touchAskChart)
			r := runCLI(t, work, "exec", chart, "-o", "json", "--record", tc.record)
			if r.code != 2 || r.stdout != "" {
				t.Errorf("exec: exit %d, stdout %q; want exit 2 and nothing on stdout (stderr %q)", r.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stderr, "--record "+tc.record) || !strings.Contains(r.stderr, tc.cause) || !strings.Contains(r.stderr, "nothing was run") {
				t.Errorf("exec: stderr %q does not name --record %s, the cause (%s) and that nothing ran", r.stderr, tc.record, tc.cause)
			}
			if _, err := os.Stat(filepath.Join(work, "before")); err == nil {
				t.Error("exec: the chart's first command ran before the record's path was refused")
			}

			// resume --record: the paused record is neither answered nor marked.
			paused := filepath.Join(work, "paused.json")
			if r := runCLI(t, work, "exec", chart, "--record", paused); r.code != 0 {
				t.Fatalf("pausing: exit %d: %s", r.code, r.stderr)
			}
			before, _ := os.ReadFile(paused)
			r = runCLI(t, work, "resume", paused, "--input", "go=yes", "--record", tc.record)
			if r.code != 2 || !strings.Contains(r.stderr, "--record "+tc.record) || !strings.Contains(r.stderr, tc.cause) {
				t.Errorf("resume: exit %d, stderr %q; want exit 2 naming --record %s (%s)", r.code, r.stderr, tc.record, tc.cause)
			}
			if _, err := os.Stat(filepath.Join(work, "after")); err == nil {
				t.Error("resume: the stage after the question ran before the record's path was refused")
			}
			if after, _ := os.ReadFile(paused); string(after) != string(before) {
				t.Error("resume: the paused record was changed by a resume that was refused")
			}
			if r := runCLI(t, work, "resume", paused, "--input", "go=yes", "-q"); r.code != 0 {
				t.Errorf("the paused record is no longer resumable after the refusal: exit %d: %s", r.code, r.stderr)
			}
			if st, err := os.Lstat(tc.record); err == nil && tc.name != "a directory" && st.Mode().IsRegular() {
				t.Errorf("%s was replaced by a regular file", tc.record)
			}
		})
	}
}

// TestRecordToStdoutRefused: --record /dev/stdout (here a link of the
// test's own to /proc/self/fd/1, so that a regression cannot replace the
// machine's /dev/stdout) and --record - are refused before the run, exit
// 2, saying that --format json prints the result on stdout. Before, with
// stdout a file (a CI job's log), the link passed the check as that
// regular file: the chart ran and the record was renamed over the link —
// as root over /dev/stdout itself, which became a plain file for every
// process on the machine — and "-" wrote a file named "-" in silence.
func TestRecordToStdoutRefused(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/self/fd is Linux's")
	}
	t.Parallel()
	work := t.TempDir()
	chart := writeChart(t, work, "chart.yaml", touchAskChart)
	link := filepath.Join(work, "stdout")
	if err := os.Symlink("/proc/self/fd/1", link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ record, cause string }{
		{link, "a process's open file"},
		{"-", "not to stdout"},
	} {
		log, err := os.Create(filepath.Join(work, "ci.log"))
		if err != nil {
			t.Fatal(err)
		}
		var errb strings.Builder
		cmd := exec.Command(binary, "exec", chart, "--record", tc.record)
		cmd.Dir, cmd.Stdout, cmd.Stderr = work, log, &errb
		err = cmd.Run()
		log.Close()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("--record %s: %v, want exit 2 (stderr %q)", tc.record, err, errb.String())
		}
		for _, want := range []string{tc.cause, "--format json prints the run's result on stdout", "nothing was run"} {
			if !strings.Contains(errb.String(), want) {
				t.Errorf("--record %s: stderr %q does not say %q", tc.record, errb.String(), want)
			}
		}
		if _, err := os.Stat(filepath.Join(work, "before")); err == nil {
			t.Errorf("--record %s: the chart ran", tc.record)
		}
		if b, _ := os.ReadFile(filepath.Join(work, "ci.log")); strings.Contains(string(b), "recordVersion") {
			t.Errorf("--record %s: the record replaced stdout's file: %.80q", tc.record, b)
		}
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Error("the link to /proc/self/fd/1 was replaced by a file")
	}
	if _, err := os.Lstat(filepath.Join(work, "-")); err == nil {
		t.Error(`a file named "-" was written`)
	}
}

// charDevice makes a character device node like /dev/full (1,7) in a
// temporary directory (root only), or returns "SKIP:why".
func charDevice(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "full")
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|7); err != nil {
		return "SKIP:cannot make a device node: " + err.Error()
	}
	return p
}

// TestPausedRecordNotWrittenNamesNoResume: a paused run whose record could
// not be written after all (its directory went away during the run: here a
// stage removes it; a disk that fills up is the same) exits 1 and names no
// file to resume: the JSON's pause has no resume command, a warning says
// the run cannot be resumed, and the text says so where it printed a
// resume command for a file that does not exist.
func TestPausedRecordNotWrittenNamesNoResume(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	dir := filepath.Join(t.TempDir(), "records")
	chart := writeChart(t, work, "chart.yaml", strings.Replace(touchAskChart, "stages:\n",
		"stages:\n  - {id: vanish, exec: {command: [rm, -rf, "+dir+"]}}\n", 1))
	record := filepath.Join(dir, "run.json")
	runOnce := func(format string) result {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return runCLI(t, work, "exec", chart, "-o", format, "--record", record)
	}

	r := runOnce("json")
	if r.code != 1 {
		t.Errorf("json: exit %d, want 1; stderr %q", r.code, r.stderr)
	}
	var res struct {
		Status string `json:"status"`
		Pause  *struct {
			Resume *string `json:"resume"`
		} `json:"pause"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || res.Status != "paused" || res.Pause == nil {
		t.Fatalf("json: not a paused result (%v): %s", err, r.stdout)
	}
	if res.Pause.Resume != nil {
		t.Errorf("json: pause.resume = %q names a record that was never written", *res.Pause.Resume)
	}
	if !strings.Contains(strings.Join(res.Warnings, "\n"), "cannot be resumed") {
		t.Errorf("json: no warning says the run cannot be resumed: %q", res.Warnings)
	}
	if !strings.Contains(r.stderr, "writing the run record") {
		t.Errorf("json: stderr does not say the record was not written: %q", r.stderr)
	}

	for _, format := range []string{"text", "markdown", "nagios"} {
		r = runOnce(format)
		if strings.Contains(r.stdout, "runbook resume") || strings.Contains(r.stderr, "runbook resume") {
			t.Errorf("%s: a resume command is printed for a record that was never written:\n%s\n%s", format, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stdout, "cannot be resumed") {
			t.Errorf("%s: stdout does not say the run cannot be resumed:\n%s", format, r.stdout)
		}
		want := 1
		if format == "nagios" {
			want = 3
		}
		if r.code != want {
			t.Errorf("%s: exit %d, want %d", format, r.code, want)
		}
	}
}

// chattyChart writes many events, waits until the file "closed" exists
// (the test makes it once it has closed its end of stdout), then writes
// many more, so that the run writes to stdout after its reader has gone.
const chattyChart = `
version: 1
runbook: chatty
stages:
  - {id: mk, set: {items: 'map(1..200, {#})'}}
  - id: each
    foreach:
      items: items
      maxBranches: 500
      stages:
        - {id: s, set: {y: 'item * 2'}}
  - id: wait
    exec: {command: [sh, -c, 'while [ ! -e closed ]; do sleep 0.05; done'], timeout: 60s}
  - id: again
    foreach:
      items: items
      maxBranches: 500
      stages:
        - {id: s, set: {y: 'item * 3'}}
  - id: last
    exec: {command: [touch, finished], into: done}
`

// TestBrokenStdoutKeepsTheRecord: stdout closed early (runbook exec … |
// head -1) while the run streams ndjson. Before, the next write killed
// runbook with SIGPIPE in the middle of the run: the stages after it never
// ran and the --record file was never written. Now the run goes on to its
// end, its record is written, and runbook exits 1 saying the result could
// not be written.
func TestBrokenStdoutKeepsTheRecord(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	chart := writeChart(t, work, "chart.yaml", chattyChart)
	record := filepath.Join(work, "run.json")
	cmd := exec.Command(binary, "exec", chart, "-o", "ndjson", "--record", record)
	cmd.Dir = work
	var errb strings.Builder
	cmd.Stderr = &errb
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
		t.Fatalf("no first line: %v", err)
	}
	out.Close() // head -1 exits
	if err := os.WriteFile(filepath.Join(work, "closed"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		t.Fatal("still running a minute after stdout closed")
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("exit: %v, want exit 1 (not killed by SIGPIPE); stderr %q", err, errb.String())
	}
	if !strings.Contains(errb.String(), "broken pipe") {
		t.Errorf("stderr %q does not say stdout broke", errb.String())
	}
	rec := readRunRecord(t, record)
	if rec.Result.Status != "completed" {
		t.Errorf("record status %q, want completed", rec.Result.Status)
	}
	if _, err := os.Stat(filepath.Join(work, "finished")); err != nil {
		t.Error("the run's last stage did not run")
	}
}

// TestFullStdoutSaysSo: stdout a full disk (> /dev/full). The record is
// written; exec exits 1 (the result was not delivered), and a Nagios
// check exits 3 UNKNOWN, not 1 (WARNING in the plugin API).
func TestFullStdoutSaysSo(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	chart := writeChart(t, work, "chart.yaml", okChart)
	for _, tc := range []struct {
		format string
		code   int
	}{{"text", 1}, {"json", 1}, {"ndjson", 1}, {"nagios", 3}} {
		t.Run(tc.format, func(t *testing.T) {
			full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
			if err != nil {
				t.Skip(err)
			}
			defer full.Close()
			record := filepath.Join(work, tc.format+".json")
			cmd := exec.Command(binary, "exec", chart, "-o", tc.format, "--record", record)
			cmd.Dir, cmd.Stdout = work, full
			var errb strings.Builder
			cmd.Stderr = &errb
			err = cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
				t.Errorf("exit: %v, want %d; stderr %q", err, tc.code, errb.String())
			}
			if !strings.Contains(errb.String(), "no space left on device") {
				t.Errorf("stderr %q does not say stdout is full", errb.String())
			}
			if rec := readRunRecord(t, record); rec.Result.Status != "completed" {
				t.Errorf("record status %q", rec.Result.Status)
			}
		})
	}
}

// runRecordFile is what these tests read of a saved record.
type runRecordFile struct {
	Result struct {
		Status string `json:"status"`
	} `json:"result"`
}

func readRunRecord(t *testing.T, path string) runRecordFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the record was not written: %v", err)
	}
	var rec runRecordFile
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rec
}

// TestPausedRecordNotOverwritten: a record file that holds a run paused
// at an ask: and not yet answered is that question's only home. Before, a
// second exec of the chart (the same --record; for the default
// ./NAME.paused.json see TestDefaultPausePathPassesOverWaiting), or any run
// or resume given it as --record, replaced it in
// silence: the first run's record — what it ran — was lost, and its
// question could never be answered. Now that is refused before anything
// runs, exit 2, naming the file, the question and how to answer it; once
// the question is answered (or the record resumed elsewhere) the file is
// an ordinary record again, and may be replaced.
func TestPausedRecordNotOverwritten(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	chart := writeChart(t, work, "chart.yaml", touchAskChart)
	other := writeChart(t, work, "other.yaml", okChart)
	pending := filepath.Join(work, "touchy.paused.json")
	if r := runCLI(t, work, "exec", chart, "-q"); r.code != 0 {
		t.Fatalf("first run: exit %d: %s", r.code, r.stderr)
	}
	first, err := os.ReadFile(pending)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(work, "before")); err != nil {
		t.Fatal(err)
	}
	refused := func(name string, args ...string) {
		t.Helper()
		r := runCLI(t, work, args...)
		if r.code != 2 || r.stdout != "" {
			t.Errorf("%s: exit %d, stdout %q; want exit 2, nothing on stdout (stderr %q)", name, r.code, r.stdout, r.stderr)
		}
		for _, want := range []string{"touchy.paused.json", `"Go on?"`, "not yet answered", "runbook resume", "nothing was run"} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("%s: stderr %q does not say %q", name, r.stderr, want)
			}
		}
		if _, err := os.Stat(filepath.Join(work, "before")); err == nil {
			t.Errorf("%s: the chart ran", name)
			os.Remove(filepath.Join(work, "before"))
		}
		if now, _ := os.ReadFile(pending); string(now) != string(first) {
			t.Fatalf("%s: the paused record was replaced", name)
		}
	}
	refused("exec again, --record", "exec", chart, "--record", pending)
	refused("another chart, --record", "exec", other, "--record", pending)

	// resume of another paused record, into the pending one.
	second := filepath.Join(work, "second.json")
	if r := runCLI(t, work, "exec", chart, "-q", "--record", second); r.code != 0 {
		t.Fatalf("second run: exit %d: %s", r.code, r.stderr)
	}
	os.Remove(filepath.Join(work, "before"))
	refused("resume into it", "resume", second, "--input", "go=yes", "--record", pending)
	// Its own file is the one it answers.
	if r := runCLI(t, work, "resume", second, "--input", "go=yes", "-q", "--record", second); r.code != 0 {
		t.Errorf("resume into its own file: exit %d: %s", r.code, r.stderr)
	}

	// Answered, the file is an ordinary record: it may be replaced.
	if r := runCLI(t, work, "resume", pending, "--input", "go=yes", "-q"); r.code != 0 {
		t.Fatalf("answering: exit %d: %s", r.code, r.stderr)
	}
	if r := runCLI(t, work, "exec", other, "-q", "--record", pending); r.code != 0 {
		t.Errorf("replacing an answered record: exit %d: %s", r.code, r.stderr)
	}
	// Resumed elsewhere (marked resumed), likewise.
	if r := runCLI(t, work, "exec", chart, "-q", "--record", second); r.code != 0 {
		t.Fatalf("third run: exit %d: %s", r.code, r.stderr)
	}
	if r := runCLI(t, work, "resume", second, "--input", "go=yes", "-q", "--record", filepath.Join(work, "continued.json")); r.code != 0 {
		t.Fatalf("resume elsewhere: exit %d: %s", r.code, r.stderr)
	}
	if r := runCLI(t, work, "exec", other, "-q", "--record", second); r.code != 0 {
		t.Errorf("replacing a record resumed elsewhere: exit %d: %s", r.code, r.stderr)
	}
	// A run waiting on Temporal waits there: the record saved of it is a
	// copy, and may be replaced (resume --executor temporal --record does).
	if r := runCLI(t, work, "exec", chart, "-q", "--record", second); r.code != 0 {
		t.Fatalf("fourth run: exit %d: %s", r.code, r.stderr)
	}
	b, err := os.ReadFile(second)
	if err != nil {
		t.Fatal(err)
	}
	onTemporal := strings.Replace(string(b), `"resume": "runbook resume `+second, `"resume": "runbook resume --executor temporal --temporal h:1 wf-1 `, 1)
	if onTemporal == string(b) {
		t.Fatalf("no resume command to replace in %s", b)
	}
	if err := os.WriteFile(second, []byte(onTemporal), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, work, "exec", other, "-q", "--record", second); r.code != 0 {
		t.Errorf("replacing the record of a run waiting on Temporal: exit %d: %s", r.code, r.stderr)
	}
}

// TestDefaultPausePathPassesOverWaiting: without --record, a run is not
// refused because ./NAME.paused.json holds an earlier run's question: it
// writes there only if it pauses, and then writes ./NAME.paused-2.json
// (-3, …), names that file to resume, and says the earlier question was
// left as it was. Before, every later run of the chart was refused, exit 2,
// pause or not: a CI job that runs a chart daily in one working directory
// stopped the day one run paused and went unanswered. The first question
// is still never written over.
func TestDefaultPausePathPassesOverWaiting(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	chart := writeChart(t, work, "chart.yaml", touchAskChart)
	noAsk := writeChart(t, work, "noask.yaml", "version: 1\nrunbook: touchy\nstages:\n  - id: mark\n    exec: {command: [touch, ran], into: marked}\n")
	pending := filepath.Join(work, "touchy.paused.json")
	if r := runCLI(t, work, "exec", chart, "-q"); r.code != 0 {
		t.Fatalf("first run: exit %d: %s", r.code, r.stderr)
	}
	first, err := os.ReadFile(pending)
	if err != nil {
		t.Fatal(err)
	}

	// A run that does not pause runs, and writes nothing there.
	if r := runCLI(t, work, "exec", noAsk, "-q"); r.code != 0 {
		t.Errorf("a run that does not pause: exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(work, "ran")); err != nil {
		t.Errorf("the run that does not pause did not run: %v", err)
	}

	// Two runs that pause take the next free names.
	for i, want := range []string{"touchy.paused-2.json", "touchy.paused-3.json"} {
		r := runCLI(t, work, "exec", chart)
		if r.code != 0 {
			t.Fatalf("run %d: exit %d: %s", i+2, r.code, r.stderr)
		}
		for _, say := range []string{"record written to ./" + want, "touchy.paused.json", "not yet answered: left as"} {
			if !strings.Contains(r.stderr, say) {
				t.Errorf("run %d: stderr %q does not say %q", i+2, r.stderr, say)
			}
		}
		if !strings.Contains(r.stdout, "runbook resume ./"+want) {
			t.Errorf("run %d: stdout %q names no resume of %s", i+2, r.stdout, want)
		}
		if rec := readRunRecord(t, filepath.Join(work, want)); rec.Result.Status != "paused" {
			t.Errorf("%s: status %q, want paused", want, rec.Result.Status)
		}
	}
	if now, _ := os.ReadFile(pending); string(now) != string(first) {
		t.Fatal("the first paused record was replaced")
	}
	// Each answers on its own; answered, the default name is free again.
	if r := runCLI(t, work, "resume", pending, "--input", "go=yes", "-q"); r.code != 0 {
		t.Fatalf("answering the first: exit %d: %s", r.code, r.stderr)
	}
	if r := runCLI(t, work, "exec", chart); r.code != 0 || !strings.Contains(r.stderr, "record written to ./touchy.paused.json") || strings.Contains(r.stderr, "left as") {
		t.Errorf("after the answer: exit %d, stderr %q; want the default path again", r.code, r.stderr)
	}
}

// TestExplainCutBeforeAnyCommit: a record cut short before its first
// commit was explained as "The state as of commit -1, key by key:" with
// nothing under it — a commit that does not exist. It now says the record
// holds no commit to explain, after naming where the record broke.
func TestExplainCutBeforeAnyCommit(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	chart := writeChart(t, work, "chart.yaml", okChart)
	record := filepath.Join(work, "run.json")
	if r := runCLI(t, work, "exec", chart, "-q", "--record", record); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	b, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(work, "cut.json")
	if err := os.WriteFile(cut, b[:300], 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, work, "explain", cut)
	if strings.Contains(r.stdout, "commit -1") {
		t.Errorf("explain names commit -1:\n%s", r.stdout)
	}
	for _, want := range []string{"the record is cut short", "at byte", "holds no commit"} {
		if !strings.Contains(r.stdout+r.stderr, want) {
			t.Errorf("explain does not say %q:\n%s%s", want, r.stdout, r.stderr)
		}
	}
}

// TestRecordOverItsOwnChartRefused: --record naming the chart file (or the
// --inputs file) wrote the record over it: the chart was gone, and a
// paused run could then never be resumed, its record naming a chart that
// is now a record. Refused before anything runs, exit 2, by exec and by
// resume.
func TestRecordOverItsOwnChartRefused(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	chart := writeChart(t, work, "chart.yaml", touchAskChart)
	inputs := filepath.Join(work, "inputs.json")
	if err := os.WriteFile(inputs, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	unchanged := func(name string, r result, files ...string) {
		t.Helper()
		if r.code != 2 || !strings.Contains(r.stderr, "nothing was run") {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 before the run", name, r.code, r.stderr)
		}
		if b, _ := os.ReadFile(chart); string(b) != strings.TrimLeft(touchAskChart, "\n") {
			t.Fatalf("%s: the chart was written over:\n%s", name, b)
		}
		if b, _ := os.ReadFile(inputs); string(b) != "{}" {
			t.Fatalf("%s: the inputs file was written over", name)
		}
		if _, err := os.Stat(filepath.Join(work, "before")); err == nil {
			t.Errorf("%s: the chart ran", name)
		}
	}
	unchanged("exec --record CHART", runCLI(t, work, "exec", chart, "--record", chart))
	unchanged("exec --record ./chart.yaml", runCLI(t, work, "exec", "chart.yaml", "--record", "./chart.yaml"))
	unchanged("exec --record INPUTS", runCLI(t, work, "exec", chart, "--inputs", inputs, "--record", inputs))

	paused := filepath.Join(t.TempDir(), "paused.json")
	if r := runCLI(t, work, "exec", chart, "-q", "--record", paused); r.code != 0 {
		t.Fatalf("pausing: exit %d: %s", r.code, r.stderr)
	}
	os.Remove(filepath.Join(work, "before"))
	unchanged("resume --record CHART", runCLI(t, work, "resume", paused, "--input", "go=yes", "--record", chart))
}

// TestResumeRefusesChangedSubflow: a paused run is resumed only with the
// chart it paused with — and the chart files it mounts are that chart
// too. Before, the chart hash was the outer file's alone: a subflow file
// changed between the pause and the answer ran its new commands under an
// approval given to the old ones (a stale plan applied). Now refused, exit
// 2, before anything runs; the unchanged files resume as before.
func TestResumeRefusesChangedSubflow(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	chart := writeChart(t, work, "main.yaml", `
version: 1
runbook: outer
stages:
  - id: confirm
    ask: {question: '"Go on?"', expects: {go: string}}
  - id: inner
    subflow: {chart: sub.yaml}
`)
	sub := func(file string) string {
		return writeChart(t, work, "sub.yaml", `
version: 1
runbook: inner
stages:
  - id: act
    exec: {command: [touch, `+file+`], into: said}
`)
	}
	sub("old")
	paused := filepath.Join(work, "paused.json")
	if r := runCLI(t, work, "exec", chart, "-q", "--record", paused); r.code != 0 {
		t.Fatalf("pausing: exit %d: %s", r.code, r.stderr)
	}
	sub("new")
	r := runCLI(t, work, "resume", paused, "--input", "go=yes")
	if r.code != 2 || !strings.Contains(r.stderr, "the chart has changed since the run paused") {
		t.Errorf("resume after the subflow changed: exit %d, stderr %q; want exit 2, the chart has changed", r.code, r.stderr)
	}
	// main.yaml is as it was: the refusal names the files that may not be.
	// Before, it said only "the chart has changed", and the chart named on
	// the command line had not.
	if !strings.Contains(r.stderr, "it or a chart it mounts (sub.yaml) is not as it was") {
		t.Errorf("resume after the subflow changed: stderr %q does not name sub.yaml", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(work, "new")); err == nil {
		t.Error("the changed subflow's command ran")
	}
	sub("old")
	if r := runCLI(t, work, "resume", paused, "--input", "go=yes", "-q"); r.code != 0 {
		t.Errorf("resume with the subflow as it was: exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(work, "old")); err != nil {
		t.Error("the subflow did not run on resume")
	}
}

// TestOverlappingRunsEachKeepTheirQuestion: a run whose default paused
// path was chosen before it ran, while another run of the chart paused
// there meanwhile, writes the next free name (and names it in its resume
// command), never over the other's question; with --record, it is not
// written over the other's question, exit 1. Before, CI jobs of one chart
// run at once in one workspace each said "record written to
// ./release.paused.json", and the file held one of their questions.
func TestOverlappingRunsEachKeepTheirQuestion(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	slow := writeChart(t, work, "slow.yaml", `
version: 1
runbook: release
stages:
  - id: wait
    exec: {shell: 'touch started; while [ ! -e go ]; do sleep 0.02; done'}
  - id: confirm
    ask: {question: '"Deploy the slow one?"', expects: {go: bool}}
`)
	fast := writeChart(t, work, "fast.yaml", `
version: 1
runbook: release
stages:
  - id: confirm
    ask: {question: '"Deploy the fast one?"', expects: {go: bool}}
`)
	slowRun := func(args ...string) (func() result, error) {
		for _, f := range []string{"started", "go"} {
			os.Remove(filepath.Join(work, f))
		}
		cmd := exec.Command(binary, append([]string{"exec", slow}, args...)...)
		cmd.Dir, cmd.Env = work, append(os.Environ(), "NO_COLOR=1")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		for i := 0; i < 500; i++ {
			if _, err := os.Stat(filepath.Join(work, "started")); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		return func() result {
			if err := os.WriteFile(filepath.Join(work, "go"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			}
			return result{stdout: out.String(), stderr: errb.String(), code: code}
		}, nil
	}
	question := func(path string) string {
		b, err := os.ReadFile(filepath.Join(work, path))
		if err != nil {
			t.Fatal(err)
		}
		var rec struct {
			Result struct {
				Pause *struct{ Question, Resume string } `json:"pause"`
			} `json:"result"`
		}
		if err := json.Unmarshal(b, &rec); err != nil || rec.Result.Pause == nil {
			t.Fatalf("%s: no pause (%v)", path, err)
		}
		return rec.Result.Pause.Question + " / " + rec.Result.Pause.Resume
	}

	finish, err := slowRun()
	if err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, work, "exec", fast, "-q"); r.code != 0 || !strings.Contains(r.stderr, "record written to ./release.paused.json") {
		t.Fatalf("fast run: exit %d: %s", r.code, r.stderr)
	}
	r := finish()
	if r.code != 0 || !strings.Contains(r.stderr, "record written to ./release.paused-2.json") || !strings.Contains(r.stdout, "runbook resume ./release.paused-2.json") {
		t.Errorf("slow run: exit %d, stdout %q, stderr %q; want it paused at ./release.paused-2.json", r.code, r.stdout, r.stderr)
	}
	if got, want := question("release.paused.json"), "Deploy the fast one? / runbook resume ./release.paused.json"; got != want {
		t.Errorf("release.paused.json holds %q, want %q", got, want)
	}
	if got, want := question("release.paused-2.json"), "Deploy the slow one? / runbook resume ./release.paused-2.json"; got != want {
		t.Errorf("release.paused-2.json holds %q, want %q", got, want)
	}

	// --record named by both: the later writer does not replace the
	// question the other left there.
	shared := filepath.Join(work, "run.json")
	if finish, err = slowRun("--record", shared); err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, work, "exec", fast, "-q", "--record", shared); r.code != 0 {
		t.Fatalf("fast run --record: exit %d: %s", r.code, r.stderr)
	}
	r = finish()
	if r.code != 1 || !strings.Contains(r.stderr, "another run paused there while this one ran") {
		t.Errorf("slow run --record: exit %d, stderr %q; want exit 1 saying the record was not written over the other's question", r.code, r.stderr)
	}
	if got := question("run.json"); !strings.HasPrefix(got, "Deploy the fast one?") {
		t.Errorf("run.json holds %q, want the fast run's question", got)
	}
}

// TestResumeIntoAnotherFileKeepsAQuestionLeftThereMeanwhile: runbook
// resume --record OTHER writes OTHER as exec writes its record, under
// the folder's lock, and not over a question another run paused there
// while the resumed run went on: exit 1, saying so. Before, the resumed
// run's record replaced the other run's question.
func TestResumeIntoAnotherFileKeepsAQuestionLeftThereMeanwhile(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	slow := writeChart(t, work, "slow.yaml", `
version: 1
runbook: release
stages:
  - id: confirm
    ask: {question: '"Deploy the slow one?"', expects: {go: bool}}
  - id: wait
    exec: {shell: 'touch started; while [ ! -e go ]; do sleep 0.02; done'}
`)
	fast := writeChart(t, work, "fast.yaml", `
version: 1
runbook: other
stages:
  - id: confirm
    ask: {question: '"Deploy the fast one?"', expects: {go: bool}}
`)
	first, shared := filepath.Join(work, "first.json"), filepath.Join(work, "shared.json")
	if r := runCLI(t, work, "exec", slow, "-q", "--record", first); r.code != 0 {
		t.Fatalf("slow run: exit %d: %s", r.code, r.stderr)
	}
	cmd := exec.Command(binary, "resume", first, "--input", "go=true", "-q", "--record", shared)
	cmd.Dir, cmd.Env = work, append(os.Environ(), "NO_COLOR=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 500; i++ {
		if _, err := os.Stat(filepath.Join(work, "started")); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if r := runCLI(t, work, "exec", fast, "-q", "--record", shared); r.code != 0 {
		t.Fatalf("fast run: exit %d: %s", r.code, r.stderr)
	}
	if err := os.WriteFile(filepath.Join(work, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(errb.String(), "another run paused there while this one ran") {
		t.Errorf("resume: %v, stderr %q; want exit 1 saying the record was not written over the other's question", err, errb.String())
	}
	if waiting, name, _ := record.Waiting(shared); !waiting || name != "other" {
		t.Errorf("shared.json: waiting %v, runbook %q; want the fast run's question still there", waiting, name)
	}
}
