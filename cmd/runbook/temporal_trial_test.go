package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The regressions of a new user's first Temporal run: the runbook side of
// the hand-off, each with a fake runbook-temporal.

// TestTemporalRecordUnwritable: a --record runbook-temporal could not write
// lost a run that had happened (exit 1, nothing printed). runbook now
// hands runbook-temporal a record in its own folder, prints the run, and
// writes --record itself: a path that went bad during the run (here the
// fake runbook-temporal removes its directory) is said after the result,
// exit 1, as a local run says it; a good one gets the workflow's bytes.
// Resume alike. A path that is plainly bad before the run is refused
// before anything is handed off, exit 2, as a local run refuses it.
func TestTemporalRecordUnwritable(t *testing.T) {
	chart := "../../testdata/issue14/disks/chart.yaml"
	dir := t.TempDir()
	done := filepath.Join(dir, "done.json")
	vanishing := filepath.Join(dir, "vanishing")
	bad := filepath.Join(vanishing, "run.json")
	local := handOffRun("exec", "--honesty", "inprocess", "--record", done, chart)
	if local.code != exitOK {
		t.Fatalf("the local run: exit %d\n%s", local.code, local.stderr)
	}
	for _, executor := range [][]string{{"--honesty", "inprocess"}, {"--executor", "temporal", "--temporal", "h:1"}} {
		r := handOffRun(append(append([]string{"exec"}, executor...), "--record", bad, chart)...)
		if r.code != exitUsage || r.stdout != "" || !strings.Contains(r.stderr, "--record "+bad) {
			t.Errorf("%v: a --record in a missing directory: exit %d, stderr %q; want exit 2 before the run", executor, r.code, r.stderr)
		}
	}
	t.Setenv("RUNBOOK_FAKE_THEN", "rm -rf "+vanishing)
	mkdir := func() {
		if err := os.MkdirAll(vanishing, 0o755); err != nil {
			t.Fatal(err)
		}
	}

	log := fakeRecorder(t, "0", done, "")
	mkdir()
	r := handOffRun("exec", "--executor", "temporal", "--temporal", "h:1", "--record", bad, chart)
	if r.code != exitFailed || r.stdout != local.stdout || !strings.Contains(r.stderr, "runbook: writing the run record: ") || !strings.Contains(r.stderr, bad) {
		t.Errorf("on Temporal to a bad --record: exit %d, stderr %q\n%s\nwant exit 1, the local run's result, and the write failure said", r.code, r.stderr, r.stdout)
	}
	if strings.Contains(readLog(t, log), bad) {
		t.Errorf("runbook-temporal was handed the user's --record:\n%s", readLog(t, log))
	}

	good := filepath.Join(dir, "good.json")
	fakeRecorder(t, "0", done, "")
	if r := handOffRun("exec", "--executor", "temporal", "--temporal", "h:1", "-q", "--record", good, chart); r.code != exitOK {
		t.Errorf("on Temporal to a good --record: exit %d, stderr %q", r.code, r.stderr)
	}
	want, _ := os.ReadFile(done)
	if got, err := os.ReadFile(good); err != nil || !bytes.Equal(got, want) {
		t.Errorf("--record holds %d bytes (%v); want the %d runbook-temporal saved", len(got), err, len(want))
	}

	// Resume: the continued record, with the chart the run started with.
	runChart := savedChart(t, chart, dir)
	fakeRecorder(t, "0", done, runChart)
	mkdir()
	r = handOffRun("resume", "--executor", "temporal", "--temporal", "h:1", "--input", "ok=true", "--record", bad, "wf-1")
	if r.code != exitFailed || r.stdout != local.stdout || !strings.Contains(r.stderr, "runbook: writing the continued record: ") {
		t.Errorf("resume on Temporal to a bad --record: exit %d, stderr %q\n%s", r.code, r.stderr, r.stdout)
	}
}

// pausedOnTemporal is the record of the ask chart paused on Temporal, as
// runbook exec --executor temporal makes it: the local paused record with
// its pause's resume command the one the workflow is handed.
func pausedOnTemporal(t *testing.T, dir string) (path, answer string) {
	t.Helper()
	chart := "../../testdata/issue14/ask/chart.yaml"
	path = filepath.Join(dir, "paused.json")
	if r := handOffRun("exec", "--honesty", "inprocess", "--record", path, chart); r.code != exitOK {
		t.Fatalf("the local run: exit %d\n%s", r.code, r.stderr)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	local := `"resume": "runbook resume ` + path + `"`
	if !bytes.Contains(b, []byte(local)) {
		t.Fatalf("the paused record holds no %s", local)
	}
	cmd := "runbook resume --executor temporal --temporal h:1 --namespace ops runbook-chart-0123abcd"
	b = bytes.Replace(b, []byte(local), []byte(`"resume": "`+cmd+`"`), 1)
	b = sealInRecord.ReplaceAll(b, nil) // edited: its seal goes
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, cmd + " --input approve=…"
}

// TestTemporalQuietPausedSaysHowToAnswer: with --quiet the text shows no
// pause, and stderr said only that the run waits on Temporal: the workflow
// id was lost. A paused Temporal run now always says the command that
// answers it.
func TestTemporalQuietPausedSaysHowToAnswer(t *testing.T) {
	dir := t.TempDir()
	paused, answer := pausedOnTemporal(t, dir)
	for _, flags := range [][]string{{"-q"}, {}, {"--format", "json"}} {
		fakeRecorder(t, "0", paused, "")
		r := handOffRun(append(append([]string{"exec", "--executor", "temporal", "--temporal", "h:1", "--namespace", "ops"}, flags...), "../../testdata/issue14/ask/chart.yaml")...)
		want := "run paused; it waits on Temporal; answer it with: " + answer + "\n"
		if r.code != exitOK || !strings.HasSuffix(r.stderr, want) {
			t.Errorf("%q: exit %d, stderr %q; want it to end %q", flags, r.code, r.stderr, want)
		}
	}
}

// TestLocalResumeRefusesTemporalRecord: a record saved while its run waits
// on Temporal was resumed locally, the workflow still waiting to be
// answered: one question answered twice. It is refused, exit 2, with the
// command that answers it, and the record is left as it was.
func TestLocalResumeRefusesTemporalRecord(t *testing.T) {
	dir := t.TempDir()
	paused, answer := pausedOnTemporal(t, dir)
	before, _ := os.ReadFile(paused)
	r := handOffRun("resume", "--honesty", "inprocess", "--input", "approve=true", paused)
	want := paused + ": the run waits on Temporal, not in this record; answer it there with: " + answer
	if r.code != exitUsage || !strings.Contains(r.stderr, want) || r.stdout != "" {
		t.Errorf("a local resume of a run waiting on Temporal: exit %d, stdout %q, stderr %q; want exit 2 and %q", r.code, r.stdout, r.stderr, want)
	}
	if after, _ := os.ReadFile(paused); !bytes.Equal(after, before) {
		t.Errorf("the refused resume changed the record")
	}
	// runbook-temporal's own command says the same.
	b := bytes.Replace(before, []byte(`"resume": "runbook resume --executor temporal --temporal`), []byte(`"resume": "runbook-temporal resume --temporal`), 1)
	if err := os.WriteFile(paused, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := handOffRun("resume", "--honesty", "inprocess", "--input", "approve=true", paused); r.code != exitUsage || !strings.Contains(r.stderr, "answer it there with: runbook-temporal resume --temporal h:1") {
		t.Errorf("a record naming runbook-temporal resume: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestHandOffChildEndsWithRunbook: runbook killed with SIGKILL (nothing to
// pass on) left runbook-temporal running, an orphan worker polling for
// ever. On Linux the kernel now ends it with SIGTERM.
func TestHandOffChildEndsWithRunbook(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux signals a child when its parent dies (handoff_other.go)")
	}
	for _, args := range [][]string{
		{"worker", "--temporal", "h:1"},
		{"exec", "--executor", "temporal", "--temporal", "h:1", "../../testdata/issue14/disks/chart.yaml"},
	} {
		t.Run(args[0], func(t *testing.T) {
			dir := t.TempDir()
			pidFile := filepath.Join(dir, "pid")
			script := "#!/bin/sh\necho $$ > " + pidFile + ".tmp && mv " + pidFile + ".tmp " + pidFile + "\nexec sleep 60\n"
			if err := writeExec(filepath.Join(dir, temporalCommand), []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(binary, args...)
			// Its temporary folder, which a SIGKILL leaves behind, is the test's.
			cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+"/bin"+string(os.PathListSeparator)+"/usr/bin", "TMPDIR="+dir)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill() //nolint:errcheck // ended below unless the test failed early
			var pid int
			for deadline := time.Now().Add(20 * time.Second); pid == 0; {
				if b, err := os.ReadFile(pidFile); err == nil {
					pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
				} else if time.Now().After(deadline) {
					t.Fatal("the fake runbook-temporal did not start in 20 s")
				} else {
					time.Sleep(20 * time.Millisecond)
				}
			}
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			for deadline := time.Now().Add(5 * time.Second); alive(pid); {
				if time.Now().After(deadline) {
					_ = syscall.Kill(pid, syscall.SIGKILL)
					t.Fatalf("runbook-temporal (pid %d) still runs 5 s after runbook was killed", pid)
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}

// TestTemporalHelpSaysWhatIsRefused: exec's help said --timeout was refused
// with --executor temporal when it was taken. Each command's help now
// names the flags it refuses there, each of them is refused, --timeout is
// taken, and exec's help says the run waits for a worker.
func TestTemporalHelpSaysWhatIsRefused(t *testing.T) {
	chart := "../../testdata/issue14/disks/chart.yaml"
	for _, c := range []struct {
		cmd, says string
		refused   [][]string
		taken     []string
	}{
		{"exec", "Refused with --executor temporal, exit 2, before anything runs: --honesty, --plugin-dir, --allow-chart-path, --format ndjson and a chart from stdin (-).",
			[][]string{{"--honesty", "inprocess"}, {"--plugin-dir", "p"}, {"--allow-chart-path", "p"}, {"--format", "ndjson"}}, []string{"--timeout", "1m"}},
		{"resume", "Refused with --executor temporal, exit 2: --chart, --timeout, --max-rows, --verbose, --honesty, --plugin-dir, --allow-chart-path and --format ndjson.",
			[][]string{{"--chart", "c.yaml"}, {"--timeout", "1m"}, {"--max-rows", "2"}, {"--verbose"}, {"--honesty", "inprocess"}, {"--plugin-dir", "p"}, {"--allow-chart-path", "p"}, {"--format", "ndjson"}}, nil},
	} {
		help := strings.Join(strings.Fields(handOffRun(c.cmd, "--help").stdout), " ")
		if !strings.Contains(help, c.says) {
			t.Errorf("%s --help does not say %q:\n%s", c.cmd, c.says, help)
		}
		target := chart
		if c.cmd == "resume" {
			target = "wf-1"
		}
		for _, flags := range append(c.refused, c.taken) {
			if flags == nil {
				continue
			}
			fakeRecorder(t, "2", "", "")
			r := handOffRun(append(append([]string{c.cmd, "--executor", "temporal", "--temporal", "h:1"}, flags...), target)...)
			refused := strings.Contains(r.stderr, "not with --executor temporal") || strings.Contains(r.stderr, "--format ndjson streams")
			if want := !slices.Equal(flags, c.taken); refused != want || (want && r.code != exitUsage) {
				t.Errorf("%s %q: exit %d, stderr %q; refused %v, want %v", c.cmd, flags, r.code, r.stderr, refused, want)
			}
		}
	}
	if help := strings.Join(strings.Fields(handOffRun("exec", "--help").stdout), " "); !strings.Contains(help, "The run waits for a worker on that task queue") {
		t.Errorf("exec --help does not say the run waits for a worker:\n%s", help)
	}
}
