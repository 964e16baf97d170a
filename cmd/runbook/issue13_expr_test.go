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

// validateGolden runs `runbook validate` on a chart of testdata/issue13 and
// compares its stderr with validate.golden beside it: a refused chart exits
// 1 and prints nothing on stdout.
func validateGolden(t *testing.T, dir string) string {
	t.Helper()
	root := issue13Root(t)
	code, stdout, stderr := runIn(t, root, "validate", filepath.Join("testdata/issue13", dir, "chart.yaml"))
	if code != 1 || stdout != "" {
		t.Fatalf("validate: exit %d, stdout %q; want exit 1 and nothing on stdout\n%s", code, stdout, stderr)
	}
	golden.Check(t, filepath.Join(root, "testdata/issue13", dir, "validate.golden"), []byte(stderr))
	return stderr
}

// TestIssue13TypoIsALoadError: a misspelt top-level name (volum.usedPct for
// volume.usedPct) is a load error at its line and column with "did you
// mean". Before, it read null at run time and the rule quietly did not
// match. A member name after a dot (volume.usedPtc) is not the loader's to
// judge and is not refused.
func TestIssue13TypoIsALoadError(t *testing.T) {
	t.Parallel()
	stderr := validateGolden(t, "typo-ident")
	for _, want := range []string{`chart.yaml:18:19: stage "headroom"`, `did you mean "volume"?`, `did you mean "threshold"?`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "usedPtc") {
		t.Errorf("a member name after a dot was judged:\n%s", stderr)
	}
}

// TestIssue13UnquotedVerdictIsALoadError: the disk example with one verdict
// written `verdict: ok` for `verdict: '"ok"'` does not load: validate exits
// 1 naming the spot and the quoting, and exec exits 2 running nothing.
// Before, the chart loaded and every ok row had a null verdict.
func TestIssue13UnquotedVerdictIsALoadError(t *testing.T) {
	t.Parallel()
	stderr := validateGolden(t, "unquoted-verdict")
	if !strings.Contains(stderr, `chart.yaml:56:59: stage "mark-ok"`) || !strings.Contains(stderr, `'"ok"'`) {
		t.Errorf("stderr does not point at the verdict and its quoting:\n%s", stderr)
	}
	code, stdout, execErr := runIn(t, issue13Root(t), "exec", "testdata/issue13/unquoted-verdict/chart.yaml")
	if code != 2 || stdout != "" || execErr != stderr {
		t.Errorf("exec: exit %d, stdout %q, stderr %q; want exit 2, nothing run, the same errors", code, stdout, execErr)
	}
}

// TestIssue13DashKeyIsALoadError: `per-volume` in an expression, where
// per-volume is a foreach's key, is per minus volume. Before, that read two
// missing names and subtracted them at run time; now it is a load error
// that says to read the key through $env — and the form it suggests runs
// and reads the key.
func TestIssue13DashKeyIsALoadError(t *testing.T) {
	t.Parallel()
	stderr := validateGolden(t, "dash-key")
	if !strings.Contains(stderr, `len($env["per-volume"])`) {
		t.Errorf("the refusal does not say how to read the key:\n%s", stderr)
	}
	code, stdout, errOut := runIn(t, issue13Root(t), "exec", "--format", "json", "testdata/issue13/dash-key/fixed.yaml")
	if code != 0 {
		t.Fatalf("the suggested form: exit %d\n%s", code, errOut)
	}
	var rec struct {
		State map[string]any `json:"state"`
	}
	if err := json.Unmarshal([]byte(stdout), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.State["branches"] != 3.0 || rec.State["last"] != 6.0 {
		t.Errorf(`len($env["per-volume"]) = %v, $env["per-volume"][2].twice = %v; want 3 and 6`, rec.State["branches"], rec.State["last"])
	}
}

// TestIssue13VarsAreConstantsNotInputs: vars are the chart's constants,
// evaluated before the first stage from the inputs and earlier vars.
// --input cannot set one (refused as not an input, saying it is a
// constant); the assessment never counts one as assumed; explain names it
// the chart's var, and the inputs it was computed from. Before, `vars:` was an unknown top-level key.
func TestIssue13VarsAreConstantsNotInputs(t *testing.T) {
	t.Parallel()
	root := issue13Root(t)
	chart := "testdata/issue13/vars/chart.yaml"

	code, stdout, stderr := runIn(t, root, "exec", chart, "--input", "warnAt=3")
	if code != 2 || stdout != "" || !strings.Contains(stderr, `input "warnAt": is not an input of vars: it is the chart's constant`) {
		t.Errorf("--input warnAt=3: exit %d, stdout %q, stderr %q; want exit 2, refused as the chart's constant", code, stdout, stderr)
	}

	rec := filepath.Join(t.TempDir(), "record.json")
	code, stdout, stderr = runIn(t, root, "exec", "--format", "json", "--record", rec, chart)
	if code != 0 {
		t.Fatalf("exec: exit %d\n%s", code, stderr)
	}
	var out struct {
		Inputs     map[string]map[string]any `json:"inputs"`
		State      map[string]any            `json:"state"`
		Assessment struct {
			Line string `json:"line"`
		} `json:"assessment"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if out.State["warnAt"] != 85.0 || out.State["margin"] != 5.0 {
		t.Errorf("state warnAt = %v, margin = %v; want 85 (threshold 90 - margin 5) and 5", out.State["warnAt"], out.State["margin"])
	}
	rows, _ := out.State["verdicts"].([]any)
	if len(rows) != 1 || rows[0].(map[string]any)["verdict"] != "filling" {
		t.Errorf("verdicts = %v, want one filling row (87 is at or above warnAt 85)", rows)
	}
	for _, v := range []string{"margin", "warnAt", "levels"} {
		if _, ok := out.Inputs["given"][v]; ok {
			t.Errorf("var %s is listed as given", v)
		}
		if _, ok := out.Inputs["assumed"][v]; ok {
			t.Errorf("var %s is listed as assumed", v)
		}
		if strings.Contains(out.Assessment.Line, v) {
			t.Errorf("the standing line names var %s: %s", v, out.Assessment.Line)
		}
	}
	if !strings.Contains(out.Assessment.Line, "threshold = 90 was assumed") {
		t.Errorf("the standing line does not say the input default was assumed: %s", out.Assessment.Line)
	}

	code, stdout, stderr = runIn(t, root, "explain", rec, "verdicts[0]")
	if code != 0 {
		t.Fatalf("explain: exit %d\n%s", code, stderr)
	}
	// computed from the input threshold, it rests on it (wave-trace:
	// TestExplainSaysWhatAVarWasComputedFrom)
	if !strings.Contains(stdout, "read warnAt = 85: the chart's var (vars:), computed before the first stage from\n      read threshold = 90: an input, assumed") {
		t.Errorf("explain does not show warnAt as the chart's var, computed from threshold:\n%s", stdout)
	}
}
