package assessment

import (
	"slices"
	"testing"
)

// assessCase is one row of the fold's golden table; every row is also
// round-tripped through FromRecord (record_test.go).
type assessCase struct {
	name     string
	summary  Summary
	standing Standing
	reasons  []Reason
	line     string
}

var assessCases = []assessCase{
	{
		name:     "seed example, byte for byte",
		summary:  Summary{Runbook: "search_logs", Assumed: []Assumed{{Name: "window", Value: "2h", By: "search_logs"}}},
		standing: NotSure,
		reasons:  []Reason{ArgumentAssumed},
		line:     `Not sure — window = "2h" was assumed by search_logs's rule, not given by you.`,
	},
	{
		name:     "assumed by a plugin's declared default",
		summary:  Summary{Runbook: "disk-triage", Assumed: []Assumed{{Name: "depth", Value: 3, By: "du-plugin"}}},
		standing: NotSure,
		reasons:  []Reason{ArgumentAssumed},
		line:     `Not sure — depth = 3 was assumed by du-plugin's rule, not given by you.`,
	},
	{
		name:     "assumed with no owner falls back to the runbook",
		summary:  Summary{Runbook: "disk-triage", Assumed: []Assumed{{Name: "window", Value: "2h"}}},
		standing: NotSure,
		reasons:  []Reason{ArgumentAssumed},
		line:     `Not sure — window = "2h" was assumed by disk-triage's rule, not given by you.`,
	},
	{
		name:     "assumed with no owner and no runbook name",
		summary:  Summary{Assumed: []Assumed{{Name: "window", Value: "2h"}}},
		standing: NotSure,
		reasons:  []Reason{ArgumentAssumed},
		line:     `Not sure — window = "2h" was assumed by a declared default, not given by you.`,
	},
	{
		name:     "HTML characters in a value are not escaped",
		summary:  Summary{Runbook: "r", Assumed: []Assumed{{Name: "filter", Value: "<a & b>", By: "r"}}},
		standing: NotSure,
		reasons:  []Reason{ArgumentAssumed},
		line:     `Not sure — filter = "<a & b>" was assumed by r's rule, not given by you.`,
	},
	{
		name:     "structured value is JSON-encoded",
		summary:  Summary{Runbook: "r", Assumed: []Assumed{{Name: "hosts", Value: []any{"a", "b"}, By: "r"}}},
		standing: NotSure,
		reasons:  []Reason{ArgumentAssumed},
		line:     `Not sure — hosts = ["a","b"] was assumed by r's rule, not given by you.`,
	},
	{
		name:     "secret value is said to be hidden",
		summary:  Summary{Runbook: "r", Assumed: []Assumed{{Name: "password", Value: "hunter2", Secret: true, By: "r"}}},
		standing: NotSure,
		reasons:  []Reason{ArgumentAssumed},
		line:     `Not sure — password (value hidden) was assumed by r's rule, not given by you.`,
	},
	{
		name:     "declared absence with what it looked for",
		summary:  Summary{Absences: []Absence{{Stage: "lookup", LookedFor: "error lines"}}, HonestyRan: []string{"coverage"}},
		standing: NotSure,
		reasons:  []Reason{DeclaredAbsent},
		line:     `Not sure — stage "lookup" looked for error lines and declared it found none.`,
	},
	{
		name:     "declared absence without what it looked for",
		summary:  Summary{Absences: []Absence{{Stage: "lookup"}}},
		standing: NotSure,
		reasons:  []Reason{DeclaredAbsent},
		line:     `Not sure — stage "lookup" declared it found nothing.`,
	},
	{
		name: "coverage gaps of every kind",
		summary: Summary{Gaps: []Gap{
			{Stage: "lookup", What: "archived logs", Why: "no read access", Kind: GapNotChecked},
			{Stage: "lookup", What: "deleted files", Why: "gone from disk", Kind: GapCannotCover},
			{Stage: "classify", What: "3 rows", Why: "no rule decided them", Kind: GapDeclined},
			{Stage: "odd", What: "the rest", Kind: "something-new"},
			{Stage: "", What: "", Kind: GapNotChecked},
		}},
		standing: NotSure,
		reasons:  []Reason{CoverageGap},
		line: `Not sure — stage "lookup" did not check archived logs (no read access); ` +
			`stage "lookup" could not cover deleted files (gone from disk); ` +
			`stage "classify" reached no verdict for 3 rows (no rule decided them); ` +
			`stage "odd" left the rest uncovered; ` +
			`an unnamed stage did not check something it did not name.`,
	},
	{
		name: "period verdicts; covered is no reason, an unknown verdict is unknown",
		summary: Summary{Periods: []Period{
			{Stage: "a", Verdict: VerdictUnknown},
			{Stage: "b", Verdict: VerdictPartlyHeld},
			{Stage: "c", Verdict: VerdictNotHeld},
			{Stage: "d", Verdict: VerdictCovered},
			{Stage: "e", Verdict: "sideways"},
		}},
		standing: NotSure,
		reasons:  []Reason{PeriodNotHeld, PeriodPartlyHeld, PeriodUnknown},
		line: `Not sure — stage "c" was asked for a period its source did not hold; ` +
			`stage "b" was asked for a period its source held only in part; ` +
			`stage "a" could not say which period its source held; ` +
			`stage "e" could not say which period its source held.`,
	},
	{
		name: "script rows: failures and unknowns use the label's words; good labels are no reason, returned is no good label",
		summary: Summary{Scripts: []Script{
			{Stage: "ok", Label: "completed", Words: "completed"},
			{Stage: "deploy", Label: "submitted", Words: "submitted"},
			{Stage: "collect", Label: "completed-with-failure", Words: "completed with failure, exit 7"},
			{Stage: "remote", Label: "outcome-unknown", Words: "outcome unknown"},
			{Stage: "probe", Label: "reported-failure", Words: "reported failure"},
			{Stage: "fine", Label: "reported-success", Words: "reported success"},
			{Stage: "ret", Label: "returned", Words: "returned"},
		}, HonestyRan: []string{"label"}},
		standing: NotSure,
		reasons:  []Reason{ScriptFailed, ScriptUnknown},
		line: `Not sure — script "collect" completed with failure, exit 7; ` +
			`script "probe" reported failure; ` +
			`the run recorded no outcome for script "deploy" (submitted); ` +
			`the run recorded no outcome for script "remote" (outcome unknown); ` +
			// returned was a good label: a code-running plugin that gave
			// no Facts let a run stand Known
			// (sdktest TestPluginThatRunsCodeWithoutFactsIsNotKnown).
			`the run recorded no outcome for script "ret" (returned).`,
	},
	{
		name: "script rows without words, and a label outside the vocabulary",
		summary: Summary{Scripts: []Script{
			{Stage: "collect", Label: "completed-with-failure"},
			{Stage: "x", Label: "exploded"},
		}},
		standing: NotSure,
		reasons:  []Reason{ScriptFailed, ScriptUnknown},
		line: `Not sure — script "collect" was labelled "completed-with-failure"; ` +
			`the run recorded no outcome for script "x" (labelled "exploded").`,
	},
	{
		name:     "cancelled",
		summary:  Summary{Stopped: StoppedCancelled, HonestyRan: []string{"label"}},
		standing: NotSure,
		reasons:  []Reason{StoppedEarly},
		line:     `Not sure — the run was cancelled before it finished.`,
	},
	{
		name:     "timed out",
		summary:  Summary{Stopped: StoppedTimedOut},
		standing: NotSure,
		reasons:  []Reason{StoppedEarly},
		line:     `Not sure — the run timed out before it finished.`,
	},
	{
		name:     "failed at a stage",
		summary:  Summary{Stopped: StoppedFailed, HonestyRan: []string{"label"}},
		standing: NotSure,
		reasons:  []Reason{StoppedEarly},
		line:     `Not sure — the run failed at a stage before it finished.`,
	},
	{
		name:     "stopped for a reason outside the vocabulary",
		summary:  Summary{Stopped: "vanished"},
		standing: NotSure,
		reasons:  []Reason{StoppedEarly},
		line:     `Not sure — the run stopped before it finished.`,
	},
	{
		name: "failed and unevaluated answer checks",
		summary: Summary{Checks: []Check{
			{Expr: "disk.used < 90", Passed: true},
			{Expr: "disk.used < 90", Passed: false},
			{Expr: "missing.key > 1", Err: "no such key\nat line 1"},
			{Expr: "odd", Passed: true, Err: "an error still fails"},
		}},
		standing: NotSure,
		reasons:  []Reason{CheckFailed},
		line: `Not sure — answer check "disk.used < 90" did not pass; ` +
			`answer check "missing.key > 1" could not be evaluated (no such key at line 1); ` +
			`answer check "odd" could not be evaluated (an error still fails).`,
	},
	{
		name:     "known: one declared check passed",
		summary:  Summary{Checks: []Check{{Expr: "ok", Passed: true}}},
		standing: Known,
		reasons:  []Reason{},
		line:     `Known — the 1 declared answer check passed.`,
	},
	{
		name:     "known beats consistent",
		summary:  Summary{Checks: []Check{{Expr: "a", Passed: true}, {Expr: "b", Passed: true}}, HonestyRan: []string{"label", "coverage"}},
		standing: Known,
		reasons:  []Reason{},
		line:     `Known — all 2 declared answer checks passed.`,
	},
	{
		name:     "consistent: one honesty check",
		summary:  Summary{HonestyRan: []string{"label"}},
		standing: Consistent,
		reasons:  []Reason{},
		line:     `Consistent with the run's record — 1 honesty check ran (label) and found no reason for doubt; this is not a verification.`,
	},
	{
		name:     "consistent: names deduplicated, reserved and empty names passed over",
		summary:  Summary{HonestyRan: []string{"label", "", "coverage", "label", AnswerChecks}},
		standing: Consistent,
		reasons:  []Reason{},
		line:     `Consistent with the run's record — 2 honesty checks ran (label, coverage) and none found a reason for doubt; this is not a verification.`,
	},
	{
		name:     "not assessed: nothing ran",
		summary:  Summary{Runbook: "r"},
		standing: NotAssessed,
		reasons:  []Reason{},
		line:     `Not assessed — nothing could be checked: the honesty stages were off and no answer checks were declared.`,
	},
	{
		name:     "not assessed: only reserved or empty honesty names",
		summary:  Summary{HonestyRan: []string{"", AnswerChecks}},
		standing: NotAssessed,
		reasons:  []Reason{},
		line:     `Not assessed — nothing could be checked: the honesty stages were off and no answer checks were declared.`,
	},
	{
		name:     "ask carries the question",
		summary:  Summary{Paused: true, Question: "Which host?", HonestyRan: []string{"label"}},
		standing: Ask,
		reasons:  []Reason{},
		line:     `Ask — the run paused to ask "Which host?".`,
	},
	{
		name:     "ask without a question",
		summary:  Summary{Paused: true},
		standing: Ask,
		reasons:  []Reason{},
		line:     `Ask — the run paused to ask for input.`,
	},
	{
		name: "ask beats not-sure; its reasons are still listed and said",
		summary: Summary{Paused: true, Question: "Which host?", Runbook: "r",
			Assumed: []Assumed{{Name: "window", Value: "2h"}}, Stopped: StoppedTimedOut},
		standing: Ask,
		reasons:  []Reason{ArgumentAssumed, StoppedEarly},
		line:     `Ask — the run paused to ask "Which host?"; window = "2h" was assumed by r's rule, not given by you; the run timed out before it finished.`,
	},
	{
		name:     "ask beats known",
		summary:  Summary{Paused: true, Question: "Go on?", Checks: []Check{{Expr: "a", Passed: true}}},
		standing: Ask,
		reasons:  []Reason{},
		line:     `Ask — the run paused to ask "Go on?".`,
	},
	{
		name:     "not-sure beats known: a passed check and a reason",
		summary:  Summary{Checks: []Check{{Expr: "a", Passed: true}}, Stopped: StoppedCancelled},
		standing: NotSure,
		reasons:  []Reason{StoppedEarly},
		line:     `Not sure — the run was cancelled before it finished.`,
	},
	{
		name:     "not-sure beats consistent",
		summary:  Summary{HonestyRan: []string{"label"}, Absences: []Absence{{Stage: "s"}}},
		standing: NotSure,
		reasons:  []Reason{DeclaredAbsent},
		line:     `Not sure — stage "s" declared it found nothing.`,
	},
	{
		name: "every reason at once, in reason order",
		summary: Summary{
			Runbook:    "r",
			Checks:     []Check{{Expr: "x", Passed: false}},
			Stopped:    StoppedCancelled,
			Scripts:    []Script{{Stage: "u", Label: "outcome-unknown", Words: "outcome unknown"}, {Stage: "f", Label: "reported-failure", Words: "reported failure"}},
			RuleErrors: []ErroredRule{{Decider: "d", Rule: 1, Err: "e"}},
			Periods:    []Period{{Stage: "p3", Verdict: VerdictUnknown}, {Stage: "p2", Verdict: VerdictPartlyHeld}, {Stage: "p1", Verdict: VerdictNotHeld}},
			Gaps:       []Gap{{Stage: "g", What: "w", Kind: GapCannotCover}},
			Absences:   []Absence{{Stage: "a"}},
			Assumed:    []Assumed{{Name: "n", Value: true}},
		},
		standing: NotSure,
		reasons:  Reasons(),
		line: `Not sure — n = true was assumed by r's rule, not given by you; ` +
			`stage "a" declared it found nothing; stage "g" could not cover w; ` +
			`stage "p1" was asked for a period its source did not hold; ` +
			`stage "p2" was asked for a period its source held only in part; ` +
			`stage "p3" could not say which period its source held; ` +
			`script "f" reported failure; the run recorded no outcome for script "u" (outcome unknown); ` +
			`decider "d" could not evaluate rule 1 and counted it as no match: e; ` +
			`the run was cancelled before it finished; answer check "x" did not pass.`,
	},
	{
		name: "assumed values of one owner share one clause",
		summary: Summary{Runbook: "disk-triage", Assumed: []Assumed{
			{Name: "threshold", Value: 90}, {Name: "depth", Value: 3, By: "du-plugin"}, {Name: "window", Value: "2h", By: "disk-triage"}}},
		standing: NotSure,
		reasons:  []Reason{ArgumentAssumed},
		line: `Not sure — threshold = 90 and window = "2h" were assumed by disk-triage's rule, not given by you; ` +
			`depth = 3 was assumed by du-plugin's rule, not given by you.`,
	},
	{
		name: "three assumed values and a secret share one clause",
		summary: Summary{Runbook: "r", Assumed: []Assumed{
			{Name: "a", Value: 1}, {Name: "b", Value: "x"}, {Name: "token", Value: "s3cr3t", Secret: true}}},
		standing: NotSure,
		reasons:  []Reason{ArgumentAssumed},
		line:     `Not sure — a = 1, b = "x" and token (value hidden) were assumed by r's rule, not given by you.`,
	},
	{
		name: "a rule that errored is a reason, and names the decider, rule and error",
		summary: Summary{Checks: []Check{{Expr: "len(verdicts) == 2", Passed: true}},
			RuleErrors: []ErroredRule{{Decider: "Headroom", Rule: 1, Label: "Used at or above 90%", Err: "invalid operation: string >= int (1:13)", Decisions: 2}}},
		standing: NotSure,
		reasons:  []Reason{RuleError},
		line:     `Not sure — decider "Headroom" could not evaluate rule 1 ("Used at or above 90%") in 2 of its decisions and counted it as no match each time: invalid operation: string >= int (1:13).`,
	},
	{
		name:     "a rule that errored once, without a label",
		summary:  Summary{RuleErrors: []ErroredRule{{Decider: "Headroom", Rule: 3, Err: "index out of range"}}},
		standing: NotSure,
		reasons:  []Reason{RuleError},
		line:     `Not sure — decider "Headroom" could not evaluate rule 3 and counted it as no match: index out of range.`,
	},
	{
		name: "rows a rule declined say whose decision; rows that reached the default say none could",
		summary: Summary{Gaps: []Gap{
			{Stage: "Headroom", What: "1 row", Why: "df reported no size for it", Rule: "df reported no size for it", Kind: GapDeclined},
			{Stage: "Headroom", What: "2 rows", Why: "no rule could classify them, and nothing was guessed", Kind: GapDeclined}}},
		standing: NotSure,
		reasons:  []Reason{CoverageGap},
		line: `Not sure — stage "Headroom" declined 1 row by its rule "df reported no size for it"; ` +
			`stage "Headroom" reached no verdict for 2 rows (no rule could classify them, and nothing was guessed).`,
	},
	{
		name:     "dropped verdict rows are a gap",
		summary:  Summary{Gaps: []Gap{{What: "2 verdict rows", Why: "each was not an object with a string verdict", Kind: GapDropped}}},
		standing: NotSure,
		reasons:  []Reason{CoverageGap},
		line:     `Not sure — the verdict projection dropped 2 verdict rows (each was not an object with a string verdict).`,
	},
	{
		name: "names and free text stay on one line",
		summary: Summary{
			Absences: []Absence{{Stage: "a\nb", LookedFor: "x\ty"}},
			Assumed:  []Assumed{{Name: "na\nme", Value: "v\nw", By: "b\ry"}},
		},
		standing: NotSure,
		reasons:  []Reason{ArgumentAssumed, DeclaredAbsent},
		line:     `Not sure — na me = "v\nw" was assumed by b y's rule, not given by you; stage "a\nb" looked for x y and declared it found none.`,
	},
}

func TestAssess(t *testing.T) {
	t.Parallel()
	for _, tc := range assessCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := Assess(tc.summary)
			if a.Standing != tc.standing {
				t.Errorf("standing = %q, want %q", a.Standing, tc.standing)
			}
			if !slices.Equal(a.Reasons, tc.reasons) {
				t.Errorf("reasons = %q, want %q", a.Reasons, tc.reasons)
			}
			if a.Line != tc.line {
				t.Errorf("line:\n got %s\nwant %s", a.Line, tc.line)
			}
			if a.Version != LineVersion {
				t.Errorf("version = %d, want %d", a.Version, LineVersion)
			}
			if a.Reasons == nil || a.Checked == nil {
				t.Errorf("nil slice in %+v", a)
			}
			if got := LineOf(a, tc.summary); got != a.Line {
				t.Errorf("LineOf(Assess(s), s) = %q, want the same line", got)
			}
		})
	}
}

func TestAssessChecked(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		summary Summary
		want    []CheckRun
	}{
		{"nothing", Summary{}, []CheckRun{}},
		{"honesty only", Summary{HonestyRan: []string{"label", "coverage", "label"}},
			[]CheckRun{{"label", 1, 1}, {"coverage", 1, 1}}},
		{"answer checks last, unevaluated ones not counted as ran",
			Summary{HonestyRan: []string{"label"}, Checks: []Check{{Expr: "a", Passed: true}, {Expr: "b", Err: "boom"}, {Expr: "c"}}},
			[]CheckRun{{"label", 1, 1}, {AnswerChecks, 2, 3}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Assess(tc.summary).Checked; !slices.Equal(got, tc.want) {
				t.Errorf("checked = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestOpenings(t *testing.T) {
	t.Parallel()
	want := map[Standing]string{
		Ask:         "Ask \u2014 ",
		NotSure:     "Not sure \u2014 ",
		Known:       "Known \u2014 ",
		Consistent:  "Consistent with the run's record \u2014 ",
		NotAssessed: "Not assessed \u2014 ",
	}
	for _, s := range Standings() {
		if s.Opening() != want[s] || !s.Valid() {
			t.Errorf("%q: opening %q, want %q", s, s.Opening(), want[s])
		}
	}
	if len(want) != len(Standings()) {
		t.Errorf("Standings() has %d, want %d", len(Standings()), len(want))
	}
	for _, bad := range []Standing{"", "Known", "verified", "unknown"} {
		if bad.Valid() || bad.Opening() != "" {
			t.Errorf("%q should not be a standing", bad)
		}
	}
}

func TestReasonOrderIndependentOfInputOrder(t *testing.T) {
	t.Parallel()
	// The same items, the lists reversed: the reasons and the reason order
	// of the clauses do not change; only items of one reason keep their
	// record order.
	fwd := Summary{
		Runbook:  "r",
		Scripts:  []Script{{Stage: "s1", Label: "outcome-unknown", Words: "outcome unknown"}, {Stage: "s2", Label: "completed-with-failure", Words: "completed with failure, exit 1"}},
		Periods:  []Period{{Stage: "p1", Verdict: VerdictUnknown}, {Stage: "p2", Verdict: VerdictNotHeld}},
		Checks:   []Check{{Expr: "c"}},
		Assumed:  []Assumed{{Name: "n", Value: 1}},
		Absences: []Absence{{Stage: "a"}},
	}
	rev := fwd
	rev.Scripts = []Script{fwd.Scripts[1], fwd.Scripts[0]}
	rev.Periods = []Period{fwd.Periods[1], fwd.Periods[0]}
	a, b := Assess(fwd), Assess(rev)
	want := []Reason{ArgumentAssumed, DeclaredAbsent, PeriodNotHeld, PeriodUnknown, ScriptFailed, ScriptUnknown, CheckFailed}
	if !slices.Equal(a.Reasons, want) || !slices.Equal(b.Reasons, want) {
		t.Fatalf("reasons %q / %q, want %q", a.Reasons, b.Reasons, want)
	}
	if a.Line != b.Line {
		t.Errorf("lines differ:\n%s\n%s", a.Line, b.Line)
	}
}

func TestReasonsVocabulary(t *testing.T) {
	t.Parallel()
	rs := Reasons()
	if len(rs) != 11 {
		t.Fatalf("%d reasons, want 11", len(rs))
	}
	for i, r := range rs {
		if !r.Valid() || r.rank() != i {
			t.Errorf("%q: rank %d, want %d", r, r.rank(), i)
		}
	}
	if Reason("confident").Valid() {
		t.Error("an unknown reason is valid")
	}
	rs[0] = "mutated"
	if Reasons()[0] != ArgumentAssumed {
		t.Error("Reasons() shares its slice")
	}
}
