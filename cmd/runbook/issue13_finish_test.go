package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/internal/golden"
)

// The last issue-13 regressions at the CLI: each runs a chart under
// testdata/issue13 through the real binary and compares what a person
// reads with a golden file beside the chart.

// finish13 runs `runbook exec chart.yaml` with args in the chart's folder
// and checks stdout against the golden file; it fails on a non-zero exit.
func finish13(t *testing.T, name, goldenName string, args ...string) string {
	t.Helper()
	dir := issue13Dir(t, name)
	r := runCLI(t, dir, append([]string{"exec", "chart.yaml"}, args...)...)
	if r.code != 0 {
		t.Fatalf("exec %s %v: exit %d\n%s", name, args, r.code, r.stderr)
	}
	golden.Check(t, filepath.Join(dir, goldenName), []byte(r.stdout))
	return r.stdout
}

// TestIssue13MarkdownListsErroredRules: --format markdown said Not sure
// because a rule errored, yet, unlike the text output, never named the
// rule. Now it has the same Rules part, in the same words.
func TestIssue13MarkdownListsErroredRules(t *testing.T) {
	t.Parallel()
	md := finish13(t, "rule-error", "markdown.golden", "--format", "markdown")
	want := "## Rules\n\n- Headroom rule 1 (\"Used at or above 90%\"): could not be evaluated in 2 decisions, counted as no match: volume.used >= 90: a number cannot be ordered with a text"
	if !strings.Contains(md, want) {
		t.Errorf("markdown does not list the errored rule as the text does:\n%s", md)
	}
	text := finish13(t, "rule-error", "text.golden")
	if !strings.Contains(text, "Rules\n  Headroom rule 1 (\"Used at or above 90%\"): could not be evaluated in 2 decisions") {
		t.Errorf("text output lost its Rules part:\n%s", text)
	}
}

// TestIssue13DeclaredAnswerSaidAnswered: a Nagios check exiting 2 under
// exitCodes: nagios was listed as "completed with failure, exit 2" in
// the Scripts part, as if it were broken. Now the text and markdown say
// it answered (`answered critical (exit 2)`), the standing stays Known
// (its one answer check passed), and the JSON row keeps its label.
func TestIssue13DeclaredAnswerSaidAnswered(t *testing.T) {
	t.Parallel()
	text := finish13(t, "answered", "text.golden")
	md := finish13(t, "answered", "markdown.golden", "--format", "markdown")
	for what, out := range map[string]string{"text": text, "markdown": md} {
		if strings.Contains(out, "completed with failure") {
			t.Errorf("%s calls a declared answer a failure:\n%s", what, out)
		}
		for _, want := range []string{"answered critical (exit 2)", "answered warning (exit 1)", "Known — "} {
			if !strings.Contains(out, want) {
				t.Errorf("%s does not say %q:\n%s", what, want, out)
			}
		}
	}
	out, r := runIssue13(t, issue13Dir(t, "answered"), nil)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if row := out.row(t, "load"); row.Label != "completed-with-failure" || row.Answer != "critical" {
		t.Errorf("load row: label %q answer %q; the label stays what the record says", row.Label, row.Answer)
	}
	var rec struct {
		Assessment struct {
			Standing string   `json:"standing"`
			Reasons  []string `json:"reasons"`
		} `json:"assessment"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Assessment.Standing != "known" || len(rec.Assessment.Reasons) != 0 {
		t.Errorf("standing %s %v, want known with no reason", rec.Assessment.Standing, rec.Assessment.Reasons)
	}
}

// TestIssue13LaterWriterIsRefused: a decider read a key that only the
// stage after it writes; validate said nothing and every run decided on
// null. Now validate refuses it, naming the stage that writes the key.
func TestIssue13LaterWriterIsRefused(t *testing.T) {
	t.Parallel()
	stderr := validateGolden(t, "later-writer")
	if !strings.Contains(stderr, `chart.yaml:12:17: stage "headroom"`) || !strings.Contains(stderr, `which only stage "usage" (line 21) writes, and it runs after this stage`) {
		t.Errorf("stderr does not name the read and the later writer:\n%s", stderr)
	}
}

// TestIssue13FilterKeysAreNameChecked: a filter-form rule ({volum.used:
// {gte: 90}}) escaped the name check expressions get, and quietly never
// matched. Now its key's root name is checked the same way: a name
// nothing defines gets "did you mean", one only a later stage writes is
// refused naming it.
func TestIssue13FilterKeysAreNameChecked(t *testing.T) {
	t.Parallel()
	stderr := validateGolden(t, "filter-root-typo")
	for _, want := range []string{
		`chart.yaml:21:17: stage "headroom": rule 1 when: filter key "volum.usedPct" reads volum, which no input, var, stage key, foreach as or index defines; did you mean "volume"?`,
		`chart.yaml:24:17: stage "headroom": rule 2 when: filter key "limits.warn" reads limits, which only stage "limits" (line 33) writes`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %s:\n%s", want, stderr)
		}
	}
}

// TestIssue13DeclinedRowsAttributedExactly: declined rows were paired
// with the decisions that chose "declined" by count, so a decline that
// wrote two rows and a row a stage declined itself came out wrong in the
// ledger and the line. Now each row is traced to the decision behind it.
func TestIssue13DeclinedRowsAttributedExactly(t *testing.T) {
	t.Parallel()
	_, rec := issue13(t, "declined-exact", "")
	vs, _ := rec["verdicts"].(map[string]any)
	by, _ := json.Marshal(vs["declinedBy"])
	if string(by) != `[{"rows":2,"rule":"df reported no size for it"},{"default":true,"rows":2},{"rows":1}]` {
		t.Errorf("declinedBy = %s", by)
	}
	if _, line, _ := standingOf(t, rec); !strings.Contains(line, `1 row declined without a decision of stage "Headroom" behind it`) {
		t.Errorf("line blames Headroom for a row it did not decline: %s", line)
	}
}
