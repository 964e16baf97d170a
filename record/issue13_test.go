package record_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/rules"
	"github.com/openrunbook/runbook/runbook"
)

func standing() record.Standing {
	return record.Standing{Runbook: "r", Flow: &flow.Result{Status: flow.StatusCompleted}, StageName: func(p string) string { return p }, Key: "verdicts"}
}

// TestIssue13SummaryCarriesAnswerAndCause: a script row's declared answer
// and an unknown outcome's cause reach the assessment through the one
// place a record becomes the summary, so a declared exit 2 fires no
// script-failed and an unknown outcome says why.
func TestIssue13SummaryCarriesAnswerAndCause(t *testing.T) {
	t.Parallel()
	two := 2
	answered := label.NewRow("check", label.Returned, &label.Facts{ExitCode: &two}, false)
	answered.Answer = "critical"
	failed := label.NewRow("other", label.Returned, &label.Facts{ExitCode: &two}, false)
	unknown := label.NewRow("slow", label.Threw, nil, false)
	unknown.Cause = "timed out after 2s"

	rec := &record.Record{Scripts: []label.Row{answered, failed, unknown}}
	a := assessment.Assess(record.Summary(rec, standing()))
	if !slices.Equal(a.Reasons, []assessment.Reason{assessment.ScriptFailed, assessment.ScriptUnknown}) {
		t.Errorf("reasons = %q", a.Reasons)
	}
	const want = `Not sure — script "other" completed with failure, exit 2; the run recorded no outcome for script "slow" (outcome unknown: timed out after 2s).`
	if a.Line != want {
		t.Errorf("line\n got %s\nwant %s", a.Line, want)
	}
}

// TestIssue13RuleErrorsAreGrouped: an errored rule is read off the
// record's decisions once per decider, rule and error, whatever scope
// the decider ran in and whatever order the decisions came in.
func TestIssue13RuleErrorsAreGrouped(t *testing.T) {
	t.Parallel()
	bad := func(i int, lbl, err string) decide.RuleEvidence {
		return decide.RuleEvidence{Index: i, Label: lbl, Then: "x", Outcome: rules.Outcome{Err: err}}
	}
	ok := decide.RuleEvidence{Index: 0, Then: "y", Outcome: rules.Outcome{Matched: true}}
	rec := &record.Record{Decisions: []record.Decision{
		{Path: "each~1/h", Decider: "each~1/Headroom", Rules: []decide.RuleEvidence{bad(1, "used", "invalid operation")}},
		{Path: "z", Decider: "Another", Rules: []decide.RuleEvidence{bad(0, "", "index out of range")}},
		{Path: "each~0/h", Decider: "each~0/Headroom", Rules: []decide.RuleEvidence{ok, bad(1, "used", "invalid operation")}},
	}}
	got := record.RuleErrors(rec)
	want := []assessment.ErroredRule{
		{Decider: "Another", Rule: 1, Err: "index out of range", Decisions: 1},
		{Decider: "Headroom", Rule: 2, Label: "used", Err: "invalid operation", Decisions: 2},
	}
	if !slices.Equal(got, want) {
		t.Errorf("RuleErrors = %+v\nwant %+v", got, want)
	}
	line := assessment.Assess(record.Summary(rec, standing())).Line
	if !strings.Contains(line, `decider "Headroom" could not evaluate rule 2 ("used") in 2 of its decisions`) {
		t.Errorf("line = %s", line)
	}
}

// TestIssue13ProjectionCountsAndAttributes: entries that are not rows are
// counted as dropped, and declined rows over all rows; a row the log
// cannot trace to a decision (here: no log) is attributed to no rule and
// no default, whatever decisions chose "declined": decisions are never
// paired with rows by count.
func TestIssue13ProjectionCountsAndAttributes(t *testing.T) {
	t.Parallel()
	p := &record.Projection{Key: "verdicts", MaxRows: 50, Decider: "Headroom"}
	row := func(v any) map[string]any { return map[string]any{"verdict": v} }
	state := map[string]any{"verdicts": []any{row("declined"), row("declined"), row("declined"), row("ok"), "text", row(3), nil}}
	byRule := &decide.Evidence{Kind: decide.KindDecide, Chosen: []string{"declined"},
		Rules: []decide.RuleEvidence{{Index: 0, Label: "no size", Then: "declined", Outcome: rules.Outcome{Matched: true}}}}
	decisions := []record.Harvested{{Path: "each~0/h#2", Decider: "each~0/Headroom", Name: "Headroom", Evidence: byRule}}
	vs := p.Project(state, decisions, nil, nil)
	if vs.RowsTotal != 4 || vs.RowsDropped != 3 || vs.Declined != 3 {
		t.Errorf("total %d dropped %d declined %d, want 4 3 3", vs.RowsTotal, vs.RowsDropped, vs.Declined)
	}
	if want := []record.DeclinedRows{{Rows: 3}}; !slices.Equal(vs.DeclinedBy, want) {
		t.Errorf("declinedBy = %+v, want %+v", vs.DeclinedBy, want)
	}
}

// TestIssue13DeclinedByIsExact: declinedBy paired the decisions that chose
// "declined" with declined rows by count, so a decline that wrote two
// rows, and a row a stage declined itself, were misattributed (the rule
// got 1, the default 1, and 3 were "no classification"). Now each row is
// traced through the log to the decision that routed the stage that
// appended it: the rule declined 2, the default 2, and the one row a
// stage declined by itself is said to have no decision of Headroom
// behind it.
func TestIssue13DeclinedByIsExact(t *testing.T) {
	t.Parallel()
	rb, err := runbook.Open("../testdata/issue13/declined-exact/chart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := rb.Exec(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	vs := res.Record.Verdicts
	want := []record.DeclinedRows{{Rows: 2, Rule: "df reported no size for it"}, {Rows: 2, Default: true}, {Rows: 1}}
	if vs == nil || vs.Declined != 5 || !slices.Equal(vs.DeclinedBy, want) {
		t.Fatalf("verdicts %+v\nwant 5 declined, by %+v", vs, want)
	}
	line := res.Record.Assessment.Line
	for _, w := range []string{
		`stage "Headroom" declined 2 rows by its rule "df reported no size for it"`,
		`stage "Headroom" reached no verdict for 2 rows (no rule could classify them`,
		`1 row declined without a decision of stage "Headroom" behind it`,
	} {
		if !strings.Contains(line, w) {
			t.Errorf("line does not say %s:\n%s", w, line)
		}
	}
}

// TestIssue12DeciderNameHoldingASlash: a stage name may hold '/'; the
// projection and the errored-rule reading took the decider's name as the
// last '/' part of its display path and so lost "Used/free" to "free".
func TestIssue12DeciderNameHoldingASlash(t *testing.T) {
	t.Parallel()
	rec := &record.Record{Decisions: []record.Decision{{Path: "each~0/h", Decider: "each~0/Used/free", Name: "Used/free",
		Rules: []decide.RuleEvidence{{Index: 0, Label: "full", Outcome: rules.Outcome{Err: "boom"}}}}}}
	errs := record.RuleErrors(rec)
	if len(errs) != 1 || errs[0].Decider != "Used/free" {
		t.Errorf("RuleErrors = %+v, want the decider named Used/free", errs)
	}
	old := record.Decision{Decider: "each~0/Headroom"}
	if got := old.DeciderName(); got != "Headroom" {
		t.Errorf("a record without name: DeciderName = %q, want Headroom", got)
	}
}
