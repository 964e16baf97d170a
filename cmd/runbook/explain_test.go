package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/openrunbook/runbook/internal/golden"
	"github.com/openrunbook/runbook/record"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/runbook"
)

// volatile are the parts of explain's output that differ between runs of
// the same chart: a process's duration, the time an answer was given.
var volatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`"durationMs": ?[0-9.e+-]+`), `"durationMs":0`},
	{regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`), "TIME"},
	{regexp.MustCompile(`at byte \d+`), "at byte N"}, // the record's size follows the durations' digits
	// a record made stable is edited: its seal goes (record/seal.go), or
	// explain would rightly say the record is not the run's
	{sealInRecord, ""},
}

// sealInRecord is a record file's seal, its last member (record/seal.go):
// a test that edits a record (its durations zeroed) takes it out, as one
// written before the seal, which is not checked.
var sealInRecord = regexp.MustCompile(`,\n  "recordDigest": "sha256:[0-9a-f]{64}"`)

func stable(s string) string {
	for _, v := range volatile {
		s = v.re.ReplaceAllString(s, v.with)
	}
	return s
}

// fleetChart copies testdata/explain's fleet chart (deterministic: printf
// stands in for a collector) into dir.
func fleetChart(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile("../../runbook/testdata/explain/fleet.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "fleet.yaml")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestExplainGolden: explain's text and JSON over a recorded run, paused
// and then resumed by a separate process.
func TestExplainGolden(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fleetChart(t, dir)
	if r := runCLI(t, dir, "exec", "fleet.yaml", "--input", "host=h1", "--record", "paused.json"); r.code != 0 {
		t.Fatalf("exec: exit %d: %s", r.code, r.stderr)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "paused.json"))
	if err := os.WriteFile(filepath.Join(dir, "done.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, dir, "resume", "done.json", "--input", "proceed=true", "--input", "note=at night", "--answered-by", "ann"); r.code != 0 {
		t.Fatalf("resume: exit %d: %s", r.code, r.stderr)
	}
	// Durations vary between runs, and explain shortens long values: mask
	// them in the records themselves, or a cut would fall at another byte.
	for _, name := range []string{"paused.json", "done.json"} {
		p := filepath.Join(dir, name)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(stable(string(data))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name string
		args []string
	}{
		{"table", []string{"paused.json"}},
		{"row", []string{"paused.json", "verdicts[2]"}},
		{"row-cell", []string{"paused.json", "verdicts[0].verdict"}},
		{"joined", []string{"paused.json", "sel"}},
		{"stage", []string{"paused.json", "per-vol~1/posture"}},
		{"why-not-stage", []string{"paused.json", "--why-not", "mark-r"}},
		{"why-not-branch", []string{"paused.json", "--why-not", "at-risk"}},
		{"why-not-select", []string{"paused.json", "--why-not", "s2a"}},
		{"why-not-paused", []string{"paused.json", "--why-not", "done"}},
		{"at", []string{"paused.json", "--at", "4"}},
		{"at-key", []string{"paused.json", "--at", "3", "threshold"}},
		{"answer", []string{"done.json", "outcome"}},
		{"answer-stage", []string{"done.json", "approve"}},
		{"why-not-after-answer", []string{"done.json", "--why-not", "halt"}},
	}
	for _, tc := range cases {
		for _, format := range []string{"text", "json"} {
			t.Run(tc.name+"/"+format, func(t *testing.T) {
				t.Parallel()
				r := runCLI(t, dir, append([]string{"explain", "--format", format}, tc.args...)...)
				if r.code != 0 {
					t.Fatalf("exit %d: %s", r.code, r.stderr)
				}
				ext := ".txt"
				if format == "json" {
					ext = ".json"
					var v explainOutput
					if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
						t.Fatalf("not JSON: %v", err)
					}
				}
				golden.Check(t, filepath.Join("testdata", "explain", tc.name+ext), []byte(stable(r.stdout)))
			})
		}
	}
}

// TestExplainDamagedRecord: a record cut short is explained as far as it
// is sound, says what it could not read, and exits 4, unsound
// (TestExplainOfAnEditedRecordExitsUnsound).
func TestExplainDamagedRecord(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fleetChart(t, dir)
	if r := runCLI(t, dir, "exec", "fleet.yaml", "--input", "host=h1", "--record", "run.json"); r.code != 0 {
		t.Fatalf("exec: exit %d: %s", r.code, r.stderr)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "run.json"))
	cut := strings.Index(string(data), `"path": "per-vol#7"`)
	if cut < 0 {
		t.Fatal("no foreach commit in the record")
	}
	if err := os.WriteFile(filepath.Join(dir, "cut.json"), data[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, dir, "explain", "cut.json", "sel")
	if r.code != exitUnsound || !strings.Contains(r.stderr, "the record is not sound") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden.Check(t, filepath.Join("testdata", "explain", "damaged.txt"), []byte(stable(r.stdout)))
	// The foreach's commit is lost: its rows cannot be explained, and the
	// message says the record is damaged.
	r = runCLI(t, dir, "explain", "cut.json", "verdicts[0]")
	if r.code != 1 || !strings.Contains(r.stderr, "damaged") {
		t.Errorf("exit %d: %s", r.code, r.stderr)
	}
	// A record of another version is refused with the reason.
	if err := os.WriteFile(filepath.Join(dir, "v9.json"), []byte(`{"recordVersion": 9}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, dir, "explain", "v9.json")
	if r.code != 2 || !strings.Contains(r.stderr, "version 9") {
		t.Errorf("exit %d: %s", r.code, r.stderr)
	}
}

// comparable is what a resumed run must agree on, wherever it resumed:
// the final state, decisions and verdicts, and the log (volatile fields
// aside).
func comparable(t *testing.T, rec *record.RunRecord) map[string]any {
	t.Helper()
	var commits []flow.Commit
	for _, c := range rec.Log.Commits() {
		if c.Answer != nil {
			a := *c.Answer
			a.At = ""
			c.Answer = &a
		}
		commits = append(commits, c)
	}
	v := map[string]any{
		"status": rec.Result.Status, "state": rec.Result.State, "decisions": rec.Result.Decisions,
		"verdicts": rec.Result.Verdicts, "log": commits, "assessment": rec.Result.Assessment,
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(stable(string(b))), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestResumeInSeparateProcess: a run paused at an ask: and resumed by the
// built binary (a fresh process) ends as the same run resumed in this
// process from the same record.
func TestResumeInSeparateProcess(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := fleetChart(t, dir)
	r := runCLI(t, dir, "exec", "fleet.yaml", "--input", "host=h1")
	if r.code != 0 || !strings.Contains(r.stdout, "runbook resume ./fleet-check.paused.json") {
		t.Fatalf("exec: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	paused := filepath.Join(dir, "fleet-check.paused.json")
	rec, problems, err := record.ReadRecord(paused)
	if err != nil || len(problems) > 0 {
		t.Fatalf("%v %q", err, problems)
	}
	rb, err := runbook.Open(chart)
	if err != nil {
		t.Fatal(err)
	}
	in, err := rb.Resume(context.Background(), rec, map[string]any{"proceed": "true", "note": "now"}, runbook.AnsweredBy("ann"))
	if err != nil {
		t.Fatal(err)
	}

	r = runCLI(t, dir, "resume", "fleet-check.paused.json", "--input", "proceed=true", "--input", "note=now",
		"--answered-by", "ann", "--record", "continued.json")
	if r.code != 0 {
		t.Fatalf("resume: exit %d: %s", r.code, r.stderr)
	}
	out, problems, err := record.ReadRecord(filepath.Join(dir, "continued.json"))
	if err != nil || len(problems) > 0 {
		t.Fatalf("%v %q", err, problems)
	}
	if out.Result.Status != "completed" || out.Answers[0].By != "ann" {
		t.Fatalf("continued: %s, answers %+v", out.Result.Status, out.Answers)
	}
	if got, want := comparable(t, out), comparable(t, in.RunRecord()); !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		w, _ := json.MarshalIndent(want, "", " ")
		t.Errorf("separate process:\n%s\nin process:\n%s", g, w)
	}
	// The paused record is marked resumed, and refused the second time.
	r = runCLI(t, dir, "resume", "fleet-check.paused.json", "--input", "proceed=true", "--input", "note=now")
	if r.code != 2 || !strings.Contains(r.stderr, "already resumed by ann") || !strings.Contains(r.stderr, "continued.json") {
		t.Errorf("second resume: exit %d: %s", r.code, r.stderr)
	}
	// The continued record explains through the answer.
	r = runCLI(t, dir, "explain", "continued.json", "outcome")
	if r.code != 0 || !strings.Contains(r.stdout, "the answer of ann") || !strings.Contains(r.stdout, "the question was asked by approve#10") {
		t.Errorf("explain: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestResumeRace: of several resumes of one record at once, exactly one
// wins; the others are refused (the lock, or the record already resumed).
func TestResumeRace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fleetChart(t, dir)
	if r := runCLI(t, dir, "exec", "fleet.yaml", "--input", "host=h1", "--record", "run.json"); r.code != 0 {
		t.Fatalf("exec: exit %d: %s", r.code, r.stderr)
	}
	const n = 4
	results := make([]result, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = runCLI(t, dir, "resume", "run.json", "--input", "proceed=false", "--input", "note=no", "--format", "json")
		}()
	}
	wg.Wait()
	wins := 0
	for _, r := range results {
		switch {
		case r.code == 1 && strings.Contains(r.stderr, "not approved: no"):
			wins++ // the run itself fails: the gate's stop branch
		case r.code == 2 && (strings.Contains(r.stderr, "being resumed by another process") || strings.Contains(r.stderr, "only a run paused")):
		default:
			t.Errorf("exit %d: %s", r.code, r.stderr)
		}
	}
	if wins != 1 {
		t.Errorf("%d resumes won, want 1", wins)
	}
	if _, err := os.Stat(filepath.Join(dir, "run.json.lock")); !os.IsNotExist(err) {
		t.Error("the lock file was left behind")
	}
}

// TestResumeReject: --reject ends the run failed with the reason.
func TestResumeRejectCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fleetChart(t, dir)
	if r := runCLI(t, dir, "exec", "fleet.yaml", "--input", "host=h1", "--record", "run.json"); r.code != 0 {
		t.Fatalf("exec: exit %d: %s", r.code, r.stderr)
	}
	r := runCLI(t, dir, "resume", "run.json", "--reject", "change freeze", "--answered-by", "ann")
	if r.code != 1 || !strings.Contains(r.stderr, "rejected by ann: change freeze") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	r = runCLI(t, dir, "explain", "run.json", "--why-not", "done")
	if r.code != 0 || !strings.Contains(r.stdout, "rejected by ann: change freeze") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestSchemaRecord(t *testing.T) {
	t.Parallel()
	r := runCLI(t, t.TempDir(), "schema", "--record")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !reflect.DeepEqual([]byte(r.stdout), append(record.RecordSchema(), '\n')) && r.stdout != string(record.RecordSchema()) {
		t.Error("schema --record is not record.RecordSchema()")
	}
}

// TestExplainRealExamples: the disk and ports examples on this machine
// (their rows are the machine's): every verdict row's chain names its own
// foreach branch, the branch's decision with the verdict it chose, and
// stops at the branch's item.
func TestExplainRealExamples(t *testing.T) {
	t.Parallel()
	root, _ := filepath.Abs("../..")
	for _, ex := range []struct{ name, chart, foreach, decider string }{
		{"disk", "examples/disk/chart.yaml", "per-volume", "headroom"},
		{"ports", "examples/ports/chart.yaml", "per-socket", "exposure"},
	} {
		t.Run(ex.name, func(t *testing.T) {
			t.Parallel()
			rec := filepath.Join(t.TempDir(), "rec.json")
			if r := runCLI(t, root, "exec", ex.chart, "--record", rec); r.code != 0 {
				t.Fatalf("exec: exit %d: %s", r.code, r.stderr)
			}
			saved, problems, err := record.ReadRecord(rec)
			if err != nil || len(problems) > 0 {
				t.Fatalf("%v %q", err, problems)
			}
			rows, _ := saved.Result.State[runbook.VerdictsKey].([]any)
			if len(rows) == 0 {
				t.Skip("no rows on this machine")
			}
			for i := range min(len(rows), 5) {
				key := "verdicts[" + itoa(i) + "]"
				r := runCLI(t, root, "explain", rec, key, "--format", "json")
				if r.code != 0 {
					t.Fatalf("explain %s: exit %d: %s", key, r.code, r.stderr)
				}
				var out explainOutput
				if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
					t.Fatal(err)
				}
				branch := ex.foreach + "~" + itoa(i)
				e := out.Explanation
				if g := e.Root.GatheredBy; len(g) != 1 || g[0].Branch != branch {
					t.Fatalf("%s: root %+v", key, e.Root)
				}
				app := e.Root
				verdict := rows[i].(map[string]any)["verdict"]
				var routed *flow.CauseNode
				for _, c := range app.Causes {
					if c.Rel == flow.RelRouted {
						routed = c
					}
				}
				if routed == nil || !strings.HasPrefix(routed.Path, branch+"/"+ex.decider+"#") || routed.Route.Branch != verdict {
					t.Fatalf("%s (%v): routed %+v", key, verdict, routed)
				}
				items := 0
				var check func(n *flow.CauseNode)
				check = func(n *flow.CauseNode) {
					if n.Kind == flow.NodeItem {
						items++
						if n.ItemIndex != i {
							t.Errorf("%s: item of branch %d", key, n.ItemIndex)
						}
					}
					for _, c := range n.Causes {
						check(c)
					}
				}
				check(app)
				if items == 0 {
					t.Errorf("%s: the chain does not reach the branch's item", key)
				}
			}
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestWhyNotHintIsTheCLIs: flow says a stage never ran, in library words;
// the CLI adds its own flag.
func TestWhyNotHintIsTheCLIs(t *testing.T) {
	t.Parallel()
	err := fmt.Errorf("wrapped: %w", &flow.NotRanError{Path: "posture"})
	if got := whyNotHint(err, explainFlags{}); got != " (try --why-not posture)" {
		t.Errorf("hint %q", got)
	}
	// the MCP explain tool has no flags: its argument is named
	if got := whyNotHint(err, explainFlags{tool: true}); got != " (try whyNot: posture)" {
		t.Errorf("the explain tool's hint %q", got)
	}
	if strings.Contains((&flow.NotRanError{Path: "x"}).Error(), "--") {
		t.Error("flow's error names a CLI flag")
	}
}

// TestExplainOfAnEditedRecordExitsUnsound: a record whose verdict was
// edited after the run wrote it was explained with the damage said in
// the text (and JSON's problems) and exit 0, so a CI step or an archive
// script that ran explain under set -e passed it as the run's. An answer
// from a record that is not sound exits 4, its output printed as before;
// a sound record exits 0.
func TestExplainOfAnEditedRecordExitsUnsound(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fleetChart(t, dir)
	if r := runCLI(t, dir, "exec", "fleet.yaml", "--input", "host=h1", "--record", "run.json"); r.code != 0 {
		t.Fatalf("exec: exit %d: %s", r.code, r.stderr)
	}
	for _, format := range []string{"text", "json"} {
		if r := runCLI(t, dir, "explain", "run.json", "-o", format); r.code != 0 {
			t.Fatalf("%s: a sound record: exit %d: %s", format, r.code, r.stderr)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "run.json"))
	edited := strings.Replace(string(data), `"verdict": "at-risk"`, `"verdict": "ok"`, 1)
	if edited == string(data) {
		t.Fatal("no at-risk verdict in the record to edit")
	}
	if err := os.WriteFile(filepath.Join(dir, "edited.json"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "json"} {
		r := runCLI(t, dir, "explain", "edited.json", "-o", format)
		if r.code != exitUnsound || !strings.Contains(r.stderr, "the record is not sound") || r.stdout == "" {
			t.Errorf("%s: exit %d, stdout %d bytes: %s", format, r.code, len(r.stdout), r.stderr)
		}
	}
}
