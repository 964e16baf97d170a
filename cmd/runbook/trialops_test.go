package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// trialOpsDir is testdata/trialops (the repository root's), absolute: the
// charts an operator's trial of exec wrote, each holding one finding.
func trialOpsDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "trialops"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestBrokenCollectorIsNotOk: a check whose collector gave no answer — not
// installed (exit 127 from bash), timed out, killed by a signal, a failed
// pipeline — is UNKNOWN under --format nagios, whatever the rows built on
// its empty output say, and the output names the script. Before, each was
// "scripts OK - 1 ok", exit 0: the rows' default branch rested on a
// command that never answered. A collector that answered is judged by its
// rows as before, and a retry that recovered is judged by the attempt the
// answer rests on.
func TestBrokenCollectorIsNotOk(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(trialOpsDir(t), "nagios-scripts")
	marker := filepath.Join(t.TempDir(), "tried")
	cases := []struct {
		name, collector string
		code            int
		first, says     string
	}{
		{"not installed", "systemctll --failed", 3, "scripts UNKNOWN - ", "script units completed with failure, exit 127"},
		{"timed out", "sleep 5", 3, "scripts UNKNOWN - ", "script units outcome unknown: timed out after 300ms"},
		{"killed", "kill -9 $$", 3, "scripts UNKNOWN - ", "script units reported failure"},
		{"failed pipeline", "false | cat", 3, "scripts UNKNOWN - ", "script units completed with failure, exit 1:"},
		{"answered ok", "true", 0, "scripts OK - 1 ok |", ""},
		{"answered critical", "echo nginx.service", 2, "scripts CRITICAL - 1 critical (systemd) |", ""},
		{"recovered on retry", "if [ -e " + marker + " ]; then true; else touch " + marker + "; false; fi", 0, "scripts OK - 1 ok |", ""},
	}
	for _, tc := range cases {
		r := runCLI(t, dir, "exec", "chart.yaml", "--format", "nagios", "--input", "collector="+tc.collector, "--input", "timeout=300ms")
		if r.code != tc.code || !strings.HasPrefix(r.stdout, tc.first) {
			t.Errorf("%s: exit %d, want %d; stdout:\n%s\nwant it to start %q; stderr: %s", tc.name, r.code, tc.code, r.stdout, tc.first, r.stderr)
		}
		if tc.says != "" && !strings.Contains(r.stdout, tc.says) {
			t.Errorf("%s: the output does not name the script as %q:\n%s", tc.name, tc.says, r.stdout)
		}
		if tc.code == 3 && strings.Contains(strings.SplitN(r.stdout, "\n", 2)[0], "|") {
			t.Errorf("%s: an UNKNOWN check printed perfdata of rows that rest on nothing:\n%s", tc.name, r.stdout)
		}
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("the retry case never ran its first attempt: %v", err)
	}
}

// TestRetriedScriptSaysItsRuns: a stage retried after a failure lists each
// run, the last one too when it completed, and the standing line says the
// failure once, with how many runs had it and how the last ended. Before,
// the text said "units: completed with failure, exit 1" alone, for a stage
// whose value came from a second attempt that completed, and a collector
// that failed twice was one clause said twice.
func TestRetriedScriptSaysItsRuns(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(trialOpsDir(t), "nagios-scripts")
	marker := filepath.Join(t.TempDir(), "tried")
	recovered := "if [ -e " + marker + " ]; then true; else touch " + marker + "; false; fi"
	r := runCLI(t, dir, "exec", "chart.yaml", "--input", "collector="+recovered, "--input", "timeout=10s")
	for _, want := range []string{
		"  units: run 1 of 2: completed with failure, exit 1\n  units: run 2 of 2: completed\n",
		`Not sure — script "units" completed with failure, exit 1 (1 of its 2 runs; the last completed).`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("recovered: the output does not say %q:\n%s", want, r.stdout)
		}
	}
	r = runCLI(t, dir, "exec", "chart.yaml", "--input", "collector=exit 4", "--input", "timeout=10s")
	if want := `Not sure — script "units" completed with failure, exit 4 (each of its 2 runs).`; !strings.Contains(r.stdout, want) {
		t.Errorf("failed twice: the output does not say %q:\n%s", want, r.stdout)
	}
}

// TestKilledScriptNamesTheSignal: a collector killed by a signal (the OOM
// killer's SIGKILL, here its own kill -9) is said as killed by that signal,
// in the Scripts list, the standing line and the Nagios check. Before, it
// was "reported failure" alone, though the record held terminatedBy: an
// operator could not tell a killed collector from one that said it failed.
func TestKilledScriptNamesTheSignal(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(trialOpsDir(t), "nagios-scripts")
	r := runCLI(t, dir, "exec", "chart.yaml", "--input", "collector=kill -9 $$", "--input", "timeout=10s")
	for _, want := range []string{
		"  units: run 2 of 2: reported failure, killed by SIGKILL\n",
		`Not sure — script "units" reported failure, killed by SIGKILL (each of its 2 runs).`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("text: the output does not say %q:\n%s", want, r.stdout)
		}
	}
	r = runCLI(t, dir, "exec", "chart.yaml", "--format", "nagios", "--input", "collector=kill -TERM $$", "--input", "timeout=10s")
	if want := "UNKNOWN: script units reported failure, killed by SIGTERM: the rows rest on no answer of it"; r.code != 3 || !strings.Contains(r.stdout, want) {
		t.Errorf("nagios: exit %d, want 3, saying %q:\n%s", r.code, want, r.stdout)
	}
}

// TestMisspelledFailOnWordIsRefused: --fail-on verdict=WORD for a word no
// row of the chart can have (every verdict stage writes a constant word) is
// bad usage, exit 2, before anything runs, with "did you mean"; before, the
// gate ran, never held, and exited 0 over the very rows it was meant to
// catch. A word the chart has still gates, and a chart whose verdict words
// come from the run (an expression) refuses no word.
func TestMisspelledFailOnWordIsRefused(t *testing.T) {
	t.Parallel()
	dir := issue14Dir(t)
	r := runCLI(t, dir, "exec", "disks/chart.yaml", "--fail-on", "verdict=at-rsik")
	want := `--fail-on verdict=at-rsik: no row of this chart can have the verdict "at-rsik", so the condition would never hold; did you mean "at-risk"? (its verdict stages write the verdict words at-risk, filling, ok)`
	if r.code != 2 || !strings.Contains(r.stderr, want) || r.stdout != "" {
		t.Errorf("misspelled: exit %d, want 2; stderr %q, want it to hold %q; stdout %q", r.code, r.stderr, want, r.stdout)
	}
	if r := runCLI(t, dir, "exec", "disks/chart.yaml", "--fail-on", "verdict=filling|at-risk"); r.code != 3 || !strings.Contains(r.stderr, "verdict=filling|at-risk (3 rows)") {
		t.Errorf("spelled right: exit %d, want 3; stderr %s", r.code, r.stderr)
	}
	if r := runCLI(t, dir, "exec", "states/chart.yaml", "--input", "rows=a=ok", "--fail-on", "verdict=whatever"); r.code != 0 {
		t.Errorf("words from the run: exit %d, want 0; stderr %s", r.code, r.stderr)
	}
}

// TestGlobMatchingNothingIsNotConsistent: a read: glob that matches no file
// (a misspelled /sys/class/nett) declares that it looked and found none, so
// the standing is Not sure (declared-absent) and --fail-on not-sure holds.
// Before, the empty list ran the foreach over nothing and the run stood
// "Consistent with the run's record" over a table of no links. A glob that
// matches stays as it was.
func TestGlobMatchingNothingIsNotConsistent(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(trialOpsDir(t), "glob")
	r := runCLI(t, dir, "exec", "chart.yaml", "--input", "pattern=linkz/*/operstate", "--fail-on", "not-sure")
	want := `Not sure — stage "states" looked for files matching "linkz/*/operstate" and declared it found none.`
	if r.code != 3 || !strings.Contains(r.stdout, want) {
		t.Errorf("no match: exit %d, want 3; stdout:\n%s\nwant it to say %q", r.code, r.stdout, want)
	}
	r = runCLI(t, dir, "exec", "chart.yaml", "--input", "pattern=links/*/operstate", "--fail-on", "not-sure")
	if r.code != 0 || !strings.Contains(r.stdout, "| eth0 | ok |") || !strings.Contains(r.stdout, "Consistent with the run's record") {
		t.Errorf("a match: exit %d, want 0:\n%s", r.code, r.stdout)
	}
}

// TestFailedRunNamesItsStageOnStdout: the standing line of a run that
// failed, timed out or was cancelled names the stage it stopped at, so
// stdout alone (a cron mail, a CI log that drops stderr) says where.
// Before, it said "the run failed at a stage before it finished" and only
// stderr named the stage.
func TestFailedRunNamesItsStageOnStdout(t *testing.T) {
	t.Parallel()
	r := runCLI(t, filepath.Join(trialOpsDir(t), "failed"), "exec", "chart.yaml")
	if want := `the run failed at stage "facts" before it finished.`; r.code != 1 || !strings.Contains(r.stdout, want) {
		t.Errorf("failed: exit %d, want 1; stdout:\n%s\nwant it to say %q", r.code, r.stdout, want)
	}
	r = runCLI(t, filepath.Join(trialOpsDir(t), "nagios-scripts"), "exec", "chart.yaml", "--input", "collector=sleep 5", "--input", "timeout=10s", "--timeout", "300ms")
	if want := `the run timed out at stage "units" before it finished.`; r.code != 1 || !strings.Contains(r.stdout, want) {
		t.Errorf("timed out: exit %d, want 1; stdout:\n%s\nwant it to say %q", r.code, r.stdout, want)
	}
}

// TestUnjudgedSubjectIsNotOk: under --format nagios, a subject the run
// never judged — its foreach branch failed and onError: continue went on,
// it was past maxBranches, or the items were null — leaves the check no
// better than UNKNOWN, naming the stage and why. Before, "hosts OK - 2 ok"
// exit 0 over three hosts, one of which was never looked at.
func TestUnjudgedSubjectIsNotOk(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(trialOpsDir(t), "unchecked")
	cases := []struct {
		name, hosts string
		code        int
		first, says string
	}{
		{"branch failed", `["a", "bad", "c"]`, 3, "hosts UNKNOWN - 1 stage did not check everything (per), 2 ok\n",
			`UNKNOWN: per did not check its result: it failed at per~1/calc, and onError: continue let the run go on`},
		{"past maxBranches", `["a", "b", "c", "d", "e"]`, 3, "hosts UNKNOWN - 1 stage did not check everything (per), 3 ok\n",
			"UNKNOWN: per did not check 2 of its 5 items: they did not run: maxBranches is 3"},
		{"all judged", `["a", "b"]`, 0, "hosts OK - 2 ok | ok=2;;;0\n", ""},
	}
	for _, tc := range cases {
		r := runCLI(t, dir, "exec", "chart.yaml", "--format", "nagios", "--input", "hosts="+tc.hosts)
		if r.code != tc.code || !strings.HasPrefix(r.stdout, tc.first) || !strings.Contains(r.stdout, tc.says) {
			t.Errorf("%s: exit %d, want %d; stdout:\n%s\nwant it to start %q and say %q", tc.name, r.code, tc.code, r.stdout, tc.first, tc.says)
		}
	}
}

// TestWithheldOutputIsNotConsistent: a command whose output passed the
// output cap (withheld from the scope, stdout null) leaves the ledger a
// not-checked item, so the standing is Not sure and a Nagios check is
// UNKNOWN. Before, a chart's nil-safe "procs.stdout ?? []" counted no
// zombie in 200,000 zombie lines: "OK", exit 0, "Consistent with the run's
// record".
func TestWithheldOutputIsNotConsistent(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(trialOpsDir(t), "withheld")
	r := runCLI(t, dir, "exec", "chart.yaml", "--input", "lines=200000")
	want := `Not sure — stage "procs" did not check its output (it passed the 1048576-byte cap and was withheld from the scope, so no value holds what it said; raise the cap with the stage's maxOutput: (up to 1GiB), or have it give less).`
	if !strings.Contains(r.stdout, want) {
		t.Errorf("text: stdout\n%s\nwant it to say %q", r.stdout, want)
	}
	r = runCLI(t, dir, "exec", "chart.yaml", "--input", "lines=200000", "--format", "nagios")
	if r.code != 3 || !strings.HasPrefix(r.stdout, "zombies UNKNOWN - 1 stage did not check everything (procs)") {
		t.Errorf("nagios: exit %d, want 3:\n%s", r.code, r.stdout)
	}
	if r := runCLI(t, dir, "exec", "chart.yaml", "--input", "lines=2", "--format", "nagios"); r.code != 2 {
		t.Errorf("under the cap: exit %d, want 2 (CRITICAL):\n%s", r.code, r.stdout)
	}
}

// TestWhyNotTypoSaysDidYouMean: --why-not with a misspelled branch or
// stage is an error with "did you mean" and the branches the chart has.
// Before, it said only `no stage or branch "critcal" in chart scripts`.
func TestWhyNotTypoSaysDidYouMean(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(trialOpsDir(t), "nagios-scripts")
	rec := filepath.Join(t.TempDir(), "run.json")
	if r := runCLI(t, dir, "exec", "chart.yaml", "--input", "collector=true", "--record", rec); r.code != 0 {
		t.Fatalf("exec: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := runCLI(t, dir, "explain", rec, "--why-not", "critcal")
	want := `explain: no stage or branch "critcal" in chart scripts; did you mean "critical"? (its decide branches: critical, ok)`
	if r.code == 0 || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d; stderr %q, want it to hold %q", r.code, r.stderr, want)
	}
}

// TestStoppedRunTableSaysItStopped: the text of a run that failed or was
// cancelled says its table is what the run wrote before it stopped, and a
// run that stopped before any row says that, not "The projected set is
// empty: the run produced no verdict rows" — which reads as nothing found
// — followed by the meanings of words no row has.
func TestStoppedRunTableSaysItStopped(t *testing.T) {
	t.Parallel()
	r := runCLI(t, filepath.Join(trialOpsDir(t), "failed"), "exec", "chart.yaml")
	if want := "No verdict rows: the run failed before it wrote any.\n"; !strings.HasPrefix(r.stdout, want) || strings.Contains(r.stdout, "projected set is empty") {
		t.Errorf("failed before a row:\n%s\nwant it to start %q", r.stdout, want)
	}
	r = runCLI(t, filepath.Join(trialOpsDir(t), "unchecked"), "exec", "chart.yaml", "--input", `hosts=["a"]`, "--timeout", "1ns")
	if want := "No verdict rows: the run timed out before it wrote any.\n"; !strings.HasPrefix(r.stdout, want) || !strings.Contains(r.stderr, "run timed out at per: the run timed out before this stage started") {
		t.Errorf("timed out before a row:\n%s\nwant it to start %q", r.stdout, want)
	}
	r = runCLI(t, issue14Dir(t), "exec", "failed/chart.yaml")
	if want := "| disk-0 | critical |\nthe run failed before it finished: these rows are what it wrote before it stopped\n"; !strings.Contains(r.stdout, want) {
		t.Errorf("failed after a row:\n%s\nwant it to hold %q", r.stdout, want)
	}
}

// TestExplainKeyTypoSaysDidYouMean: explain of a key path with a misspelled
// member names the nearest member the value has, and one past a list's end
// says how long the list is; a misspelled root key names the nearest key.
// Before, "units.stdot" said only "units (written by units#0) has no
// .stdot".
func TestExplainKeyTypoSaysDidYouMean(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(trialOpsDir(t), "nagios-scripts")
	rec := filepath.Join(t.TempDir(), "run.json")
	if r := runCLI(t, dir, "exec", "chart.yaml", "--input", "collector=true", "--record", rec); r.code != 0 {
		t.Fatalf("exec: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for key, want := range map[string]string{
		"units.stdot":  `has no .stdot; did you mean "stdout"?`,
		"verdicts[3]":  "has no [3]; verdicts has 1 item",
		"unit.stdout":  `"unit" was never written and is not an input (as of commit`,
		"unitz.stdout": `did you mean "units"?`,
	} {
		r := runCLI(t, dir, "explain", rec, key)
		if r.code == 0 || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: exit %d; stderr %q, want it to hold %q", key, r.code, r.stderr, want)
		}
	}
}

// TestNoMatchPatternMasksItsSecret: the absence a glob that matched
// nothing declares names its pattern with every secret masked, in the
// text, the JSON and the saved record (the absence is this branch's own;
// its first form wrote a secret read into the pattern as it was); so does
// the not-checked item of a file whose path holds a secret and whose lines
// the parse could not read, which before wrote "1 line of the file
// d-hunter2-sekrit/f" to stdout and the record.
func TestNoMatchPatternMasksItsSecret(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(trialOpsDir(t), "secret-glob")
	tmp := t.TempDir()
	inputs, rec := filepath.Join(tmp, "in.json"), filepath.Join(tmp, "run.json")
	if err := os.WriteFile(inputs, []byte(`{"token": "hunter2-sekrit"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "json"} {
		r := runCLI(t, dir, "exec", "chart.yaml", "--inputs", inputs, "--format", format, "--record", rec)
		saved, err := os.ReadFile(rec)
		if err != nil {
			t.Fatal(err)
		}
		for where, text := range map[string]string{"stdout": r.stdout, "stderr": r.stderr, "record": string(saved)} {
			if strings.Contains(text, "hunter2") {
				t.Errorf("%s: the secret is in %s:\n%s", format, where, text)
			}
		}
		if !strings.Contains(r.stdout, `nothing-***/*`) || !strings.Contains(r.stdout, `1 line of the file d-***/f`) {
			t.Errorf("%s: the absence and the unread line do not name the masked paths:\n%s", format, r.stdout)
		}
	}
}

// TestUnreadLineIsNotOk: a line of a collector's output that parse:
// columns could not read is a subject with no row (disk sdb here); the
// Nagios check is UNKNOWN, naming the stage, not OK over the disks it did
// read.
func TestUnreadLineIsNotOk(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(trialOpsDir(t), "unparsed")
	r := runCLI(t, dir, "exec", "chart.yaml", "--format", "nagios")
	if r.code != 3 || !strings.HasPrefix(r.stdout, "disks UNKNOWN - 1 stage did not check everything (list), 2 ok") || !strings.Contains(r.stdout, `"sdb"`) {
		t.Errorf("exit %d, want 3 and UNKNOWN naming the stage and the line:\n%s", r.code, r.stdout)
	}
}

// TestNagiosWithoutLabelIsNotOk: with the label honesty stage off
// (honesty: []), a collector that is not installed is on no record, so a
// check over a chart that runs scripts is UNKNOWN, saying why, with no
// perfdata; before, `units OK - 1 ok`, exit 0. A chart that runs no
// script is judged by its rows as before.
func TestNagiosWithoutLabelIsNotOk(t *testing.T) {
	t.Parallel()
	r := runCLI(t, filepath.Join(trialOpsDir(t), "unlabelled"), "exec", "chart.yaml", "--format", "nagios")
	want := "units UNKNOWN - no script's outcome is on the record (the label honesty stage is off), 1 ok\n"
	if r.code != 3 || !strings.HasPrefix(r.stdout, want) || strings.Contains(r.stdout, "|") {
		t.Errorf("exit %d, want 3 and %q with no perfdata:\n%s", r.code, want, r.stdout)
	}
	r = runCLI(t, filepath.Join(trialOpsDir(t), "unlabelled-set"), "exec", "chart.yaml", "--format", "nagios")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "sums OK - 1 ok | ok=1;;;0") {
		t.Errorf("no script: exit %d, want 0:\n%s", r.code, r.stdout)
	}
}
