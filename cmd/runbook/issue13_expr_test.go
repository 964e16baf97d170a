package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/internal/golden"
)

// Issue 13: expressions. Each test runs a chart of testdata/issue13 through
// the real binary, from the repository root, as a user would.

// issue13Root is the repository root, where the charts' paths start.
func issue13Root(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

var issue13Durations = regexp.MustCompile(`"durationMs": [0-9.e+-]+`)

// TestIssue13FromPairsSurvivesJSONAndRecord: fromPairs and groupBy make maps
// whose keys are not strings. Before, --format json, ndjson and --record
// failed with `json: unsupported type: map[interface {}]interface {}` and no
// record was written; every value an expression yields is now JSON.
func TestIssue13FromPairsSurvivesJSONAndRecord(t *testing.T) {
	t.Parallel()
	root := issue13Root(t)
	chart := "testdata/issue13/frompairs/chart.yaml"
	rec := filepath.Join(t.TempDir(), "record.json")
	code, stdout, stderr := runIn(t, root, "exec", "--format", "json", "--record", rec, chart)
	if code != 0 {
		t.Fatalf("exec --format json --record: exit %d\n%s", code, stderr)
	}
	golden.Check(t, filepath.Join(root, "testdata/issue13/frompairs/exec.json.golden"),
		issue13Durations.ReplaceAll([]byte(stdout), []byte(`"durationMs": 0`)))
	raw, err := os.ReadFile(rec)
	if err != nil {
		t.Fatalf("no record written: %v", err)
	}
	var saved struct {
		Result struct {
			State map[string]any `json:"state"`
		} `json:"result"`
	}
	if err := json.Unmarshal(raw, &saved); err != nil {
		t.Fatalf("the record is not JSON: %v", err)
	}
	if got := saved.Result.State["missing"]; got != "missing" {
		t.Errorf("record state missing = %v, want \"missing\" (byCode[\"404\"] read back)", got)
	}

	code, stdout, stderr = runIn(t, root, "exec", "--format", "ndjson", chart)
	if code != 0 || strings.Contains(stderr, "unsupported type") {
		t.Fatalf("exec --format ndjson: exit %d\n%s", code, stderr)
	}
	for i, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if !json.Valid([]byte(line)) {
			t.Errorf("ndjson line %d is not JSON: %s", i+1, line)
		}
	}
}

// TestIssue13ChecksReadVerdictRows: answer checks see verdict rows as plain
// objects. Before, the record's ordered rows replaced them in the run's
// final state and the check failed with `cannot fetch verdict from
// record.Row`, so the standing line said "Not sure".
func TestIssue13ChecksReadVerdictRows(t *testing.T) {
	t.Parallel()
	root := issue13Root(t)
	code, stdout, stderr := runIn(t, root, "exec", "--format", "json", "testdata/issue13/checks-over-rows/chart.yaml")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var rec struct {
		State      map[string]any `json:"state"`
		Assessment struct {
			Standing string `json:"standing"`
			Line     string `json:"line"`
		} `json:"assessment"`
	}
	if err := json.Unmarshal([]byte(stdout), &rec); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stdout, "cannot fetch") {
		t.Errorf("a check could not read a verdict row:\n%s", stdout)
	}
	if rec.Assessment.Standing != "known" {
		t.Errorf("standing = %q (%s), want known: both checks hold", rec.Assessment.Standing, rec.Assessment.Line)
	}
	if rec.State["firstVerdict"] != "ok" {
		t.Errorf("firstVerdict = %v, want \"ok\"", rec.State["firstVerdict"])
	}
}

// TestIssue13VerdictStageNonStringFails: a verdict column that gives a
// number fails its stage with the expression and what it gave. Before, the
// row was appended, the projection dropped it (only text verdicts are
// rows), and the run completed with an empty table and no word of why.
func TestIssue13VerdictStageNonStringFails(t *testing.T) {
	t.Parallel()
	root := issue13Root(t)
	code, stdout, stderr := runIn(t, root, "exec", "--format", "json", "testdata/issue13/verdict-not-text/chart.yaml")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (the run failed)\n%s\n%s", code, stdout, stderr)
	}
	var rec struct {
		Status string `json:"status"`
		Error  struct {
			Stage   string `json:"stage"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(stdout), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Status != "failed" || rec.Error.Stage != "mark" {
		t.Errorf("status %q at %q, want failed at mark", rec.Status, rec.Error.Stage)
	}
	for _, want := range []string{"used > 90 ? 1 : 0", "a number 1", "not text"} {
		if !strings.Contains(rec.Error.Message, want) {
			t.Errorf("error %q does not say %q", rec.Error.Message, want)
		}
	}
}
