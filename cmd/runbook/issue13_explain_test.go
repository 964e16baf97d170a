package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/golden"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
)

// Issue 13: explain gave wrong answers confidently. Each test runs one
// chart of testdata/issue13/explain-*/, records the run, and holds what
// explain says of it to a golden file beside the chart.

// issue13Dir is the folder of one issue-13 chart.
func explainCaseDir(name string) string {
	return filepath.Join("..", "..", "testdata", "issue13", "explain-"+name)
}

// issue13Record runs the chart of testdata/issue13/explain-<name> with
// --record and returns the folder holding the record, run.json.
func issue13Record(t *testing.T, name string, args ...string) string {
	t.Helper()
	dir := t.TempDir()
	chart, err := filepath.Abs(filepath.Join(explainCaseDir(name), "chart.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, dir, append([]string{"exec", chart, "--record", "run.json"}, args...)...)
	if r.code != 0 && r.code != 3 {
		t.Fatalf("exec %s: exit %d: %s", name, r.code, r.stderr)
	}
	// A process's duration is the one fact of a record that differs from
	// run to run; zeroed in the record before explain reads it, a value
	// cut at 80 characters is cut at the same place every run (stable
	// masked it after the cut, whose place moved with the duration's
	// digits: explain-loop-pass's golden failed so under load).
	rec := filepath.Join(dir, "run.json")
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	b = sealInRecord.ReplaceAll(b, nil) // edited: its seal goes
	if err := os.WriteFile(rec, durationInRecord.ReplaceAll(b, []byte(`"durationMs": 0`)), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// durationInRecord is a process's duration as a saved record spells it.
var durationInRecord = regexp.MustCompile(`"durationMs": [0-9.e+-]+`)

// explainGolden runs explain over the record in dir and checks its stdout
// (or, when it fails, its stderr) with the golden file golden of chart
// name; want is the exit code it must end with.
func explainGolden(t *testing.T, dir, name, file string, want int, args ...string) string {
	t.Helper()
	r := runCLI(t, dir, append([]string{"explain", "run.json"}, args...)...)
	if r.code != want {
		t.Fatalf("explain %v: exit %d, want %d: %s%s", args, r.code, want, r.stdout, r.stderr)
	}
	out := r.stdout
	if want != 0 {
		out = r.stderr
	}
	out = stable(out)
	golden.Check(t, filepath.Join(explainCaseDir(name), file), []byte(out))
	return out
}

// TestIssue13WhyNotHonoursPathPrefix: `--why-not area-disk/critical` is
// answered for the decider inside area-disk, not for the first decider of
// the chart with a critical branch (which chose it: "Nothing kept it from
// running" was an answer about another place).
func TestIssue13WhyNotHonoursPathPrefix(t *testing.T) {
	t.Parallel()
	dir := issue13Record(t, "why-not-prefix")
	for _, tc := range []struct{ file, target string }{
		{"why-not-area-disk.golden", "area-disk/critical"},
		{"why-not-decider.golden", "disk-level/critical"},
		{"why-not-area-cpu.golden", "area-cpu/critical"},
		{"why-not-unprefixed.golden", "critical"},
	} {
		t.Run(tc.target, func(t *testing.T) {
			t.Parallel()
			out := explainGolden(t, dir, "why-not-prefix", tc.file, 0, "--why-not", tc.target)
			if strings.HasPrefix(tc.target, "area-disk/") || strings.HasPrefix(tc.target, "disk-level/") {
				if !strings.Contains(out, "disk-level chose fine, not critical") || strings.Contains(out, "cpu-level") {
					t.Errorf("not answered for area-disk's decider:\n%s", out)
				}
			}
		})
	}
}

// TestIssue13WhyNotUnknownPrefixIsAnError: a prefix that leads to no place
// of the chart is an error listing the deciders that have the branch, with
// the nearest one when the prefix is a near miss; never an answer about
// another decider.
func TestIssue13WhyNotUnknownPrefixIsAnError(t *testing.T) {
	t.Parallel()
	dir := issue13Record(t, "why-not-prefix")
	for _, tc := range []struct{ file, target, want string }{
		{"why-not-nonsense.golden", "nonsense/critical", "area-cpu/cpu-level, area-disk/disk-level"},
		{"why-not-near-miss.golden", "area-dsk/critical", "did you mean area-disk/critical?"},
		{"why-not-wrong-area.golden", "area-cpu/disk-crit", `stage "disk-crit" is at area-disk/disk-crit`},
	} {
		t.Run(tc.target, func(t *testing.T) {
			t.Parallel()
			out := explainGolden(t, dir, "why-not-prefix", tc.file, exitFailed, "--why-not", tc.target)
			if !strings.Contains(out, tc.want) {
				t.Errorf("error does not say %q:\n%s", tc.want, out)
			}
		})
	}
}

// TestIssue13ExplainNamesTheRealWriter: the first line of a row's
// explanation names the branch instance that appended the row
// (per-vol~0/mark-full), and says the foreach only gathered it; it named
// the foreach commit as the writer.
func TestIssue13ExplainNamesTheRealWriter(t *testing.T) {
	t.Parallel()
	dir := issue13Record(t, "foreach-writer")
	for _, tc := range []struct{ file, key, writer string }{
		{"row-0.golden", "verdicts[0]", "per-vol~0/mark-full#"},
		{"row-1-cell.golden", "verdicts[1].verdict", "per-vol~1/mark-room#"},
	} {
		t.Run(tc.key, func(t *testing.T) {
			t.Parallel()
			out := explainGolden(t, dir, "foreach-writer", tc.file, 0, tc.key)
			lines := strings.Split(out, "\n")
			if len(lines) < 2 || !strings.HasPrefix(lines[1], "  written by "+tc.writer) {
				t.Errorf("first line does not name %s as the writer:\n%s", tc.writer, out)
			}
		})
	}
}

// TestIssue13ExplainedAboveComesAfter: "(explained above)" is printed only
// after the explanation it points to. both reads x, then y; y's writer
// also read x, and is printed first (newest cause first): the full
// explanation of x's writer goes there, and the later mention says above.
func TestIssue13ExplainedAboveComesAfter(t *testing.T) {
	t.Parallel()
	dir := issue13Record(t, "explained-above")
	for _, tc := range []struct{ file, query string }{
		{"z.golden", "z"},
		{"state.golden", ""},
		{"stage.golden", "both"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			args := []string{}
			if tc.query != "" {
				args = append(args, tc.query)
			}
			out := explainGolden(t, dir, "explained-above", tc.file, 0, args...)
			explained := map[string]bool{}
			for _, l := range strings.Split(out, "\n") {
				i := strings.Index(l, "[commit ")
				if i < 0 {
					continue
				}
				ref := l[i : i+strings.IndexByte(l[i:], ']')+1]
				if strings.HasSuffix(l, "(explained above)") {
					if !explained[ref] {
						t.Errorf("%q says explained above before %s is explained:\n%s", l, ref, out)
					}
					continue
				}
				explained[ref] = true
			}
		})
	}
}

// TestIssue13StageWithInstancesIsNotGuessed: a stage id inside a foreach
// ran once per item; asking for it by id (or by a path that leaves the
// item out) lists the instances as paths to ask for, instead of explaining
// the last one as if it were the only one. A path that names one instance
// is answered.
func TestIssue13StageWithInstancesIsNotGuessed(t *testing.T) {
	t.Parallel()
	dir := issue13Record(t, "instances")
	for _, tc := range []struct {
		file, query string
		code        int
	}{
		{"by-id.golden", "square", exitFailed},
		{"item-left-out.golden", "each/square", exitFailed},
		{"one-instance.golden", "each~1/square", 0},
	} {
		t.Run(tc.query, func(t *testing.T) {
			t.Parallel()
			out := explainGolden(t, dir, "instances", tc.file, tc.code, tc.query)
			if tc.code != 0 {
				for _, p := range []string{"each~0/square", "each~1/square", "each~2/square"} {
					if !strings.Contains(out, p) {
						t.Errorf("the instance %s is not listed:\n%s", p, out)
					}
				}
			}
		})
	}
}

// fillScripts edits the saved record in dir as the exec stages of a later
// runbook file it: each script row at a path gets what ran (the exec
// engineer fills these from real runs; here they are written by hand).
func fillScripts(t *testing.T, dir string, fill map[string]map[string]any) {
	t.Helper()
	p := filepath.Join(dir, "run.json")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	rows, _ := rec["result"].(map[string]any)["scripts"].([]any)
	filled := 0
	for _, r := range rows {
		row := r.(map[string]any)
		for k, v := range fill[row["path"].(string)] {
			row[k] = v
			filled++
		}
	}
	if filled == 0 {
		t.Fatalf("no script row of %v in the record", fill)
	}
	out, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(stable(string(out))), 0o644); err != nil {
		t.Fatal(err)
	}
}

// whatRan is what the record's rows of testdata/issue13/explain-ran say
// ran: check printed seven lines (more than explain shows by default) and
// answered critical; slow timed out.
var whatRan = map[string]map[string]any{
	"check": {
		"ran": map[string]any{
			"argv":       []any{"sh", "-c", `echo "DISK CRITICAL - free space: / 812 MB (4%)"; echo "checked 2 filesystems" >&2; exit 2`},
			"dir":        "/srv/checks",
			"stdoutTail": "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nDISK CRITICAL - free space: / 812 MB (4%)\n",
			"stderrTail": "checked 2 filesystems\n",
		},
		"answer": "critical",
	},
	"slow": {
		"ran":   map[string]any{"argv": []any{"sleep", "5"}},
		"cause": "timed out after 200ms",
	},
}

// TestIssue13ExplainShowsWhatRan: explaining a value written by a stage
// that ran a command shows the command, how it ended (the label's words,
// the chart's answer), the cause of an unknown outcome, and the last lines
// it printed; explain showed none of it.
func TestIssue13ExplainShowsWhatRan(t *testing.T) {
	t.Parallel()
	dir := issue13Record(t, "ran")
	fillScripts(t, dir, whatRan)
	out := explainGolden(t, dir, "ran", "line.golden", 0, "line")
	for _, want := range []string{
		`ran sh -c 'echo "DISK CRITICAL`, "in /srv/checks", `how it ended: completed with failure, exit 2: the chart's answer "critical"`,
		"stdout ended with (its last 5 lines of the 7 kept):", "| DISK CRITICAL - free space: / 812 MB (4%)", "| checked 2 filesystems",
		"ran sleep 5", "how it ended: outcome unknown: timed out after 200ms",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explain does not say %q:\n%s", want, out)
		}
	}
	explainGolden(t, dir, "ran", "stage.golden", 0, "check")
	js := explainGolden(t, dir, "ran", "line.json.golden", 0, "line", "--format", "json")
	var v explainOutput
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Scripts) != 2 || v.Scripts[0].Row.Ran == nil || v.Scripts[1].Row.Cause != "timed out after 200ms" {
		t.Errorf("JSON scripts = %+v", v.Scripts)
	}
}

// TestIssue13ExplainFullPrintsWhole: values are cut at 80 characters by
// default, and the answer says so and that --full prints them whole;
// --full prints every value, and every line a command printed, whole.
func TestIssue13ExplainFullPrintsWhole(t *testing.T) {
	t.Parallel()
	dir := issue13Record(t, "full")
	status := "DISK CRITICAL - free space: / 812 MB (4% inode=91%); /var 2101 MB (11% inode=97%); /home 40 MB (1%)"
	cut := explainGolden(t, dir, "full", "cut.golden", 0, "line")
	if strings.Contains(cut, status) || !strings.Contains(cut, "--full prints them whole") {
		t.Errorf("the default is not cut, or does not say so:\n%s", cut)
	}
	full := explainGolden(t, dir, "full", "full.golden", 0, "line", "--full")
	if strings.Count(full, status) != 2 || strings.Contains(full, "…") || strings.Contains(full, "--full") {
		t.Errorf("--full does not print the value whole:\n%s", full)
	}
	// A command's output too: all seven lines.
	ran := issue13Record(t, "ran")
	fillScripts(t, ran, whatRan)
	out := explainGolden(t, ran, "full", "ran-full.golden", 0, "line", "--full")
	if !strings.Contains(out, "| line 1") || strings.Contains(out, "its last 5 lines") {
		t.Errorf("--full does not print every line the command printed:\n%s", out)
	}
}

// TestExplainShowsEachAttemptOfARetriedExec: an exec stage with retry:
// makes its attempts inside one execution — one commit, a script row an
// attempt — and explain paired rows with commits by count, so it showed
// no row at all under the stage: neither the command nor how it ended.
// Each row now carries its attempt, and explain shows every attempt
// before the last, then how the last ended (the outcome the stage wrote).
func TestExplainShowsEachAttemptOfARetriedExec(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", `
version: 1
runbook: flaky
stages:
  - id: flaky
    exec:
      shell: 'n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count; echo "try $n"; [ $n -ge 3 ]'
    retry: {attempts: 5}
`)
	if r := runCLI(t, dir, "exec", "chart.yaml", "--record", "run.json"); r.code != 0 {
		t.Fatalf("exec: exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	r := runCLI(t, dir, "explain", "run.json", "flaky")
	if r.code != 0 {
		t.Fatalf("explain: exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		"attempt 1 ended: completed with failure, exit 1",
		"attempt 2 ended: completed with failure, exit 1",
		"how it ended, at attempt 3: completed",
		"| try 3",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("explain does not say %q:\n%s", want, r.stdout)
		}
	}
	v := explainJSON(t, dir, "flaky")
	if len(v.Scripts) != 1 || v.Scripts[0].Row.Attempt != 3 || len(v.Scripts[0].Attempts) != 2 || v.Scripts[0].Attempts[0].Attempt != 1 {
		t.Fatalf("JSON scripts = %+v; want the third attempt's row with the two before it", v.Scripts)
	}
}

// TestExplainShowsEachCommandOfAGoStage: a Go stage that ran two
// commands of its own (runbook.RunCommand) filed two rows at one path;
// explain paired them with the stage's commit as one execution and shows
// each command, what it ran and how it ended, in the order it ran them
// (before, a path's rows not pairing one to one with its executions gave
// none).
func TestExplainShowsEachCommandOfAGoStage(t *testing.T) {
	t.Parallel()
	fc, err := flow.New("probe").Stage("probe", func(ctx context.Context, s *flow.Scope) error {
		for _, sh := range []string{"echo ready", "echo late >&2; exit 4"} {
			if _, err := runbook.RunCommand(ctx, s, runbook.Command{Shell: sh}); err != nil {
				return err
			}
		}
		s.Set("probed", true)
		return nil
	}).Build()
	if err != nil {
		t.Fatal(err)
	}
	rb, err := runbook.New(fc)
	if err != nil {
		t.Fatal(err)
	}
	res, err := rb.Exec(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.RunRecord())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "run.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, dir, "explain", "run.json", "probed")
	if r.code != 0 {
		t.Fatalf("explain: exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		"command 1 of the stage's own:",
		`ran the shell script "echo ready"`,
		"how it ended: completed",
		"command 2 of the stage's own:",
		"how it ended: completed with failure, exit 4",
		"| late",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("explain does not say %q:\n%s", want, r.stdout)
		}
	}
	v := explainJSON(t, dir, "probed")
	if len(v.Scripts) != 1 || v.Scripts[0].Row.Call != 2 || len(v.Scripts[0].Calls) != 1 || v.Scripts[0].Calls[0].Call != 1 || len(v.Scripts[0].Attempts) != 0 {
		t.Fatalf("JSON scripts = %+v; want the second command's row with the first before it", v.Scripts)
	}
}

// TestExplainSaysWhatTheLedgerSaysOfAStage: explain traced a value to the
// command that printed it, and showed its bytes, but not what the run's
// ledger said of that output: a name whose bytes were not UTF-8 read as
// "/srv/caf�" with nothing to say the record holds another text than the
// command printed; an empty list said nothing of the absence the script
// declared (what it looked for, what it did not check). Each commit in
// the chain now carries the ledger's lines for its place, as exec's
// Coverage section words them; where several executions share the place
// (a loop's passes) it says the entries may be of any of them.
func TestExplainSaysWhatTheLedgerSaysOfAStage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", `
version: 1
runbook: names
stages:
  - id: list
    exec: {shell: 'printf "a\n/srv/caf\351\n"', parse: lines, into: list}
  - id: count
    set: {n: len(list.stdout)}
  - id: poll
    exec: {shell: 'printf "x\377\n"', into: polled}
  - id: tick
    set: {i: 'i ?? 0'}
  - id: bump
    set: {i: i + 1}
  - id: again
    loop: {to: poll, while: i < 3, max: 5}
`)
	if r := runCLI(t, dir, "exec", "chart.yaml", "--record", "run.json"); r.code != 0 {
		t.Fatalf("exec: exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	r := runCLI(t, dir, "explain", "run.json", "n")
	for _, want := range []string{
		"the ledger says of it:\n        not checked: its stdout (1 byte of it is not UTF-8",
		`on line 2: "/srv/caf\xe9"; to read it, have it converted to UTF-8`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("explain n does not say %q:\n%s", want, r.stdout)
		}
	}
	r = runCLI(t, dir, "explain", "run.json", "polled")
	if !strings.Contains(r.stdout, "the ledger says of its place, poll (one or more of its 3 executions):") {
		t.Errorf("explain polled does not say the ledger's entries may be of any pass:\n%s", r.stdout)
	}
	v := explainJSON(t, dir, "n")
	if len(v.Ledger) != 1 || v.Ledger[0].Path != "list#0" || v.Ledger[0].Shared != 0 || len(v.Ledger[0].Entries) != 1 || v.Ledger[0].Entries[0].NotChecked[0].Kind != record.ItemNotUTF8 {
		t.Errorf("JSON ledger = %+v; want list's not-utf8 entry", v.Ledger)
	}
}

// explainJSON is `runbook explain run.json QUERY --format json` in dir,
// read back.
func explainJSON(t *testing.T, dir, query string) explainOutput {
	t.Helper()
	r := runCLI(t, dir, "explain", "run.json", query, "--format", "json")
	var v explainOutput
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
		t.Fatalf("explain %s --format json: exit %d, not JSON: %v\n%s", query, r.code, err, r.stderr)
	}
	return v
}
