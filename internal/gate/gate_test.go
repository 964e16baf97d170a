package gate

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/rules"
)

// TestIssue14StatesAreTheCharts: the state words are chart's, valued as
// the plugin API's exit codes, and print as the first line writes them.
func TestIssue14StatesAreTheCharts(t *testing.T) {
	t.Parallel()
	want := map[string]struct {
		s    State
		text string
	}{"ok": {OK, "OK"}, "warning": {Warning, "WARNING"}, "critical": {Critical, "CRITICAL"}, "unknown": {Unknown, "UNKNOWN"}}
	if len(chart.NagiosStates) != len(want) {
		t.Fatalf("chart.NagiosStates = %v", chart.NagiosStates)
	}
	for _, w := range chart.NagiosStates {
		s, ok := ParseState(w)
		if !ok || s != want[w].s || s.String() != want[w].text {
			t.Errorf("ParseState(%q) = %v (%d), %v; want %s (%d)", w, s, s, ok, want[w].text, want[w].s)
		}
	}
	if _, ok := ParseState("known"); ok {
		t.Error("known parses as a state")
	}
}

// TestIssue14WorseOrder: OK < UNKNOWN < WARNING < CRITICAL, the
// monitoring-plugins order, whichever comes first.
func TestIssue14WorseOrder(t *testing.T) {
	t.Parallel()
	order := []State{OK, Unknown, Warning, Critical}
	for i, a := range order {
		for j, b := range order {
			want := order[max(i, j)]
			if got := Worse(a, b); got != want {
				t.Errorf("Worse(%v, %v) = %v, want %v", a, b, got, want)
			}
		}
	}
}

// TestIssue14StateOf: result.nagios first, then a state word is itself
// (in any case: a row reading "CRITICAL" was UNKNOWN), then any other
// word is UNKNOWN and not its own.
func TestIssue14StateOf(t *testing.T) {
	t.Parallel()
	m := MappingOf(&chart.Spec{Result: &chart.ResultSpec{Nagios: map[string]string{"at-risk": "critical", "ok": "warning"}}})
	cases := []struct {
		word string
		s    State
		own  bool
	}{
		{"at-risk", Critical, true},
		{"ok", Warning, true}, // the chart's mapping beats the word itself
		{"critical", Critical, true},
		{"CRITICAL", Critical, true}, // a state word in any case
		{"Warning", Warning, true},
		{"unknown", Unknown, true},
		{"filling", Unknown, false},
		{"", Unknown, false},
	}
	for _, tc := range cases {
		if s, own := m.StateOf(tc.word); s != tc.s || own != tc.own {
			t.Errorf("StateOf(%q) = %v, %v; want %v, %v", tc.word, s, own, tc.s, tc.own)
		}
	}
	if got := MappingOf(nil); len(got) != 0 {
		t.Errorf("MappingOf(nil) = %v", got)
	}
}

// issue14Record is a completed record with these verdict rows (word,
// subject) in its final state, the first shown of them in its set.
func issue14Record(shown int, rows ...[2]string) *record.Record {
	var list []any
	vs := &record.VerdictSet{RowsTotal: len(rows), Rows: []record.Row{}}
	for _, r := range rows {
		row := record.Row{Keys: []string{"subject", "verdict"}, Values: map[string]any{"subject": r[1], "verdict": r[0]}}
		if r[1] == "" {
			row = record.Row{Keys: []string{"verdict"}, Values: map[string]any{"verdict": r[0]}}
		}
		list = append(list, row)
		if len(vs.Rows) < shown {
			vs.Rows = append(vs.Rows, row)
		}
	}
	vs.RowsShown, vs.RowsComplete = len(vs.Rows), len(vs.Rows) == len(rows)
	return &record.Record{Runbook: "t", Status: "completed", Verdicts: vs, State: map[string]any{chart.VerdictsKey: list},
		Assessment: &assessment.Assessment{Standing: assessment.Consistent}}
}

// TestIssue14Judge: the worst state over every row, hidden ones too;
// words worst first, first seen within a state; subjects in row order;
// unmapped words named; a run with no finished answer UNKNOWN.
func TestIssue14Judge(t *testing.T) {
	t.Parallel()
	m := Mapping{"at-risk": Critical, "filling": Warning}
	rec := issue14Record(2, [2]string{"ok", "/"}, [2]string{"odd", "/x"}, [2]string{"filling", "/home"}, [2]string{"at-risk", "/var"}, [2]string{"at-risk", ""}, [2]string{"at-risk", "/srv"})
	c := Judge(rec, m)
	if c.State != Critical {
		t.Errorf("state %v, want CRITICAL (the at-risk rows are hidden, not gone)", c.State)
	}
	want := []Word{
		{Word: "at-risk", State: Critical, Rows: 3, Subjects: []string{"/var", "/srv"}},
		{Word: "filling", State: Warning, Rows: 1, Subjects: []string{"/home"}},
		{Word: "odd", State: Unknown, Rows: 1, Subjects: []string{"/x"}},
		{Word: "ok", State: OK, Rows: 1, Subjects: []string{"/"}},
	}
	if !reflect.DeepEqual(c.Words, want) {
		t.Errorf("words\n%+v\nwant\n%+v", c.Words, want)
	}
	if !reflect.DeepEqual(c.Unmapped, []string{"odd"}) {
		t.Errorf("unmapped %v, want [odd]", c.Unmapped)
	}

	// A record read back from JSON holds plain objects: the same judgement.
	data, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	var back record.Record
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if got := Judge(&back, m); got.State != c.State || !reflect.DeepEqual(got.Words, c.Words) {
		t.Errorf("from JSON: %+v\nwant %+v", got, c)
	}

	for _, status := range []string{"failed", "cancelled", "paused"} {
		r := issue14Record(9, [2]string{"ok", "a"})
		r.Status = status
		if got := Judge(r, nil).State; got != Unknown {
			t.Errorf("%s run: %v, want UNKNOWN", status, got)
		}
	}
	if got := Judge(issue14Record(9), nil); got.State != OK || len(got.Words) != 0 || got.NoProjection {
		t.Errorf("no rows: %+v, want OK", got)
	}
	none := &record.Record{Status: "completed"}
	if got := Judge(none, nil); got.State != Unknown || !got.NoProjection {
		t.Errorf("no projection: %+v, want UNKNOWN, NoProjection", got)
	}

	// Raise never makes a state better.
	ok := Judge(issue14Record(9, [2]string{"ok", "a"}), nil)
	ok.Raise(Unknown, "lost")
	crit := Judge(issue14Record(9, [2]string{"critical", "a"}), nil)
	crit.Raise(Unknown, "lost")
	if ok.State != Unknown || crit.State != Critical || len(crit.Notes) != 1 {
		t.Errorf("raised: ok → %v, critical → %v %v", ok.State, crit.State, crit.Notes)
	}
}

// TestIssue14ParseConditions: the conditions read, commas split them,
// and a condition that does not read says what would be right.
func TestIssue14ParseConditions(t *testing.T) {
	t.Parallel()
	got, err := ParseConditions([]string{"not-sure,verdict=at-risk|filling", " ask ", "check-failed", "consistent", "not-assessed"})
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	for _, c := range got {
		words = append(words, c.String())
	}
	if want := "not-sure verdict=at-risk|filling ask check-failed consistent not-assessed"; strings.Join(words, " ") != want {
		t.Errorf("conditions %q, want %q", words, want)
	}
	bad := map[string]string{
		"not_sure":    `did you mean "not-sure"?`,
		"chek-failed": `did you mean "check-failed"?`,
		"verdicts":    `want verdict=WORD[|WORD…]`,
		"verdict=":    `a verdict word is empty`,
		"known":       `known is the standing of an answer whose checks passed`,
		"":            `a condition is empty`,
		"bogus":       `want one of not-sure, ask, not-assessed, consistent, check-failed, verdict=WORD[|WORD…]`,
	}
	for in, want := range bad {
		if _, err := ParseConditions([]string{in}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseConditions(%q) = %v; want an error holding %q", in, err, want)
		}
	}
	if got, err := ParseConditions(nil); err != nil || len(got) != 0 {
		t.Errorf("no --fail-on: %v, %v", got, err)
	}
}

// TestIssue14Held: each condition against the record, with what made it
// hold; a run that failed or was cancelled meets none.
func TestIssue14Held(t *testing.T) {
	t.Parallel()
	conds := func(s string) []Condition {
		c, err := ParseConditions([]string{s})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	rec := issue14Record(1, [2]string{"ok", "a"}, [2]string{"at-risk", "b"}, [2]string{"at-risk", "c"})
	notSure := issue14Record(9, [2]string{"ok", "a"})
	notSure.Assessment = &assessment.Assessment{Standing: assessment.NotSure, Reasons: []assessment.Reason{assessment.ArgumentAssumed, assessment.CheckFailed}}
	unassessed := issue14Record(9, [2]string{"ok", "a"})
	unassessed.Assessment = nil
	paused := issue14Record(9)
	paused.Status, paused.Assessment = "paused", &assessment.Assessment{Standing: assessment.Ask}
	failed := issue14Record(9, [2]string{"at-risk", "a"})
	failed.Status, failed.Assessment = "failed", &assessment.Assessment{Standing: assessment.NotSure, Reasons: []assessment.Reason{assessment.StoppedEarly}}
	cases := []struct {
		name  string
		rec   *record.Record
		conds string
		want  []string
	}{
		{"verdict-hidden-rows", rec, "verdict=at-risk", []string{"verdict=at-risk (2 rows)"}},
		{"verdict-alternatives-counted-once", rec, "verdict=at-risk|ok|at-risk", []string{"verdict=at-risk|ok|at-risk (3 rows)"}},
		{"verdict-absent", rec, "verdict=filling", nil},
		{"consistent", rec, "consistent,not-sure", []string{"consistent"}},
		{"not-sure-and-check-failed", notSure, "ask,not-sure,check-failed", []string{"not-sure", "check-failed"}},
		{"check-failed-absent", rec, "check-failed", nil},
		{"no-assessment-is-not-assessed", unassessed, "not-assessed,consistent", []string{"not-assessed"}},
		{"paused-ask", paused, "ask", []string{"ask"}},
		{"failed-meets-none", failed, "verdict=at-risk,not-sure", nil},
	}
	for _, tc := range cases {
		if got := Held(tc.rec, conds(tc.conds)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: held %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := Held(nil, conds("ask")); got != nil {
		t.Errorf("nil record: %v", got)
	}
}

// TestUnansweredScriptIsNotOk: a completed run whose script gave no answer
// (its last attempt failed, timed out or answered unknown) judges no better
// than UNKNOWN, naming the script; a worse row stays worse; a retry that
// recovered and a declared answer are answers. Before, the check was the
// rows' state alone: OK over a collector that never ran.
func TestUnansweredScriptIsNotOk(t *testing.T) {
	t.Parallel()
	one, code127, zero, two, three := 1, 127, 0, 2, 3
	row := func(path string, settlement label.Settlement, facts *label.Facts) label.Row {
		return label.NewRow(path, settlement, facts, false)
	}
	answered := func(path string, code *int, word string) label.Row {
		r := row(path, label.Returned, &label.Facts{ExitCode: code})
		r.Answer = word
		return r
	}
	recovered := []label.Row{row("flaky", label.Returned, &label.Facts{ExitCode: &one}), row("flaky", label.Returned, &label.Facts{ExitCode: &zero})}
	cases := []struct {
		name    string
		verdict string
		scripts []label.Row
		state   State
		paths   []string
	}{
		{"not installed", "ok", []label.Row{row("units", label.Returned, &label.Facts{ExitCode: &code127})}, Unknown, []string{"units"}},
		{"timed out", "ok", []label.Row{row("units", label.Threw, nil)}, Unknown, []string{"units"}},
		{"a critical row stays critical", "critical", []label.Row{row("units", label.Threw, nil)}, Critical, []string{"units"}},
		{"recovered on retry", "ok", recovered, OK, nil},
		{"failed after a success", "ok", []label.Row{recovered[1], recovered[0]}, Unknown, []string{"flaky"}},
		{"declared critical", "ok", []label.Row{answered("swap", &two, "critical")}, OK, nil},
		{"declared unknown", "ok", []label.Row{answered("dummy", &three, "unknown")}, Unknown, []string{"dummy"}},
		{"completed", "ok", []label.Row{row("units", label.Returned, &label.Facts{ExitCode: &zero})}, OK, nil},
	}
	for _, tc := range cases {
		rec := issue14Record(9, [2]string{tc.verdict, "systemd"})
		rec.Scripts = tc.scripts
		c := Judge(rec, nil)
		var paths []string
		for _, u := range c.Unanswered {
			paths = append(paths, u.Path)
		}
		if c.State != tc.state || !reflect.DeepEqual(paths, tc.paths) {
			t.Errorf("%s: %v, unanswered %v; want %v, %v", tc.name, c.State, paths, tc.state, tc.paths)
		}
	}
}

// TestUnjudgedItemsAreNotOk: the ledger's items of subjects never judged
// (a stage failed under onError: continue, items past maxBranches, null
// items, output withheld, lines a parse mode could not read, verdict rows
// dropped) leave a completed run no better than UNKNOWN; declined rows
// (in the table, under their word) and a stage's own declarations do not,
// and a worse row stays worse. Unparsed lines and dropped rows were OK: a
// disk on a line `parse: columns` could not read had no row, and the
// check said OK over the others.
func TestUnjudgedItemsAreNotOk(t *testing.T) {
	t.Parallel()
	entry := func(kind string) coverage.Entry {
		return coverage.Entry{Path: "per", Declaration: coverage.Declaration{Kind: coverage.KindLedger,
			NotChecked: []coverage.Item{{What: "w", Why: "y", Kind: kind}}}}
	}
	cases := []struct {
		kind, verdict string
		state         State
	}{
		{record.ItemFailed, "ok", Unknown},
		{record.ItemTruncated, "ok", Unknown},
		{record.ItemNullItems, "ok", Unknown},
		{record.ItemWithheld, "ok", Unknown},
		{record.ItemTruncated, "critical", Critical},
		{record.ItemUnparsed, "ok", Unknown},
		{record.ItemDropped, "ok", Unknown},
		{record.ItemDeclined, "ok", OK},
		{"", "ok", OK},
	}
	for _, tc := range cases {
		rec := issue14Record(9, [2]string{tc.verdict, "a"})
		rec.Coverage = []coverage.Entry{entry(tc.kind)}
		c := Judge(rec, nil)
		if c.State != tc.state {
			t.Errorf("%q under a %s row: %v, want %v", tc.kind, tc.verdict, c.State, tc.state)
		}
		if judged := tc.state == OK || tc.kind == ""; judged != (len(c.Unchecked) == 0) && tc.verdict == "ok" {
			t.Errorf("%q: unchecked %+v", tc.kind, c.Unchecked)
		}
	}
}

// TestRuleErrorIsNotOk: a completed run whose decider could not evaluate
// a rule (an expression's error) judges no better than UNKNOWN, naming the
// rule; a worse row stays worse; a rule that evaluated and did not match
// is no reason. Before, the state was the rows' alone: OK over a default
// taken because the rule that would have overruled it errored.
func TestRuleErrorIsNotOk(t *testing.T) {
	t.Parallel()
	decision := func(err string) record.Decision {
		return record.Decision{Path: "m", Decider: "m", Name: "m", Kind: decide.KindDecide, Chosen: []string{"ok"},
			Rules: []decide.RuleEvidence{{Index: 0, Label: "low", Then: "critical", Outcome: rules.Outcome{Err: err}}}}
	}
	cases := []struct {
		name, verdict, err string
		state              State
		errored            int
	}{
		{"errored", "ok", "invalid operation: string < int", Unknown, 1},
		{"a critical row stays critical", "critical", "invalid operation: string < int", Critical, 1},
		{"evaluated, no match", "ok", "", OK, 0},
	}
	for _, tc := range cases {
		rec := issue14Record(9, [2]string{tc.verdict, "mem"})
		rec.Decisions = []record.Decision{decision(tc.err)}
		c := Judge(rec, nil)
		if c.State != tc.state || len(c.RuleErrors) != tc.errored {
			t.Errorf("%s: %v, rule errors %+v; want %v, %d", tc.name, c.State, c.RuleErrors, tc.state, tc.errored)
		}
		if tc.errored > 0 && (c.RuleErrors[0].Decider != "m" || c.RuleErrors[0].Rule != 1) {
			t.Errorf("%s: rule errors %+v; want decider m, rule 1", tc.name, c.RuleErrors)
		}
	}
}

// TestReadThatFoundNoFileIsNotOk: a read: whose glob matched no file or
// whose path does not exist (the ledger's record.NoMatchEntry,
// record.NoFileEntry) leaves a completed run no better than UNKNOWN,
// naming what it looked for; a worse row stays worse; an absence a script
// declares in its own words is its answer and is not. Before, a glob
// misspelled /var/lgo/*.log judged "OK - no verdict rows", exit 0.
func TestReadThatFoundNoFileIsNotOk(t *testing.T) {
	t.Parallel()
	script := coverage.Entry{Path: "zombies", Declaration: coverage.Declaration{Kind: coverage.KindAbsence,
		LookedFor: "zombie processes", Checked: []coverage.Item{{What: "ps -eo stat"}}}}
	cases := []struct {
		name    string
		entry   coverage.Entry
		verdict string
		state   State
		what    string
	}{
		{"glob", record.NoMatchEntry("logs", "/var/lgo/*.log"), "ok", Unknown, `files matching "/var/lgo/*.log"`},
		{"path", record.NoFileEntry("log", "/var/log/app.lgo"), "ok", Unknown, `the file "/var/log/app.lgo"`},
		{"a critical row stays critical", record.NoMatchEntry("logs", "/var/lgo/*.log"), "critical", Critical, `files matching "/var/lgo/*.log"`},
		{"a script's absence", script, "ok", OK, ""},
	}
	for _, tc := range cases {
		rec := issue14Record(9, [2]string{tc.verdict, "a"})
		rec.Coverage = []coverage.Entry{tc.entry}
		c := Judge(rec, nil)
		var what string
		if len(c.Unchecked) > 0 {
			what = c.Unchecked[0].What
		}
		if c.State != tc.state || what != tc.what {
			t.Errorf("%s: %v, unchecked %+v; want %v, %q", tc.name, c.State, c.Unchecked, tc.state, tc.what)
		}
	}
}

// TestCheckFailedWithoutChecksIsRefused: check-failed is refused for a
// chart that declares no answer checks (no check of it can fail, so the
// gate would pass every run), and taken for one that declares some.
// Before, `runbook exec chart.yaml --fail-on check-failed` took it and
// exited 0 on every run of a chart with no result.checks.
func TestCheckFailedWithoutChecksIsRefused(t *testing.T) {
	t.Parallel()
	conds, err := ParseConditions([]string{"not-sure,check-failed"})
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []*chart.Spec{{}, {Result: &chart.ResultSpec{Kind: "verdict/x"}}} {
		err := CheckWords(conds, spec)
		if err == nil || !strings.HasPrefix(err.Error(), "--fail-on check-failed: the chart declares no answer checks (result.checks), so no check can fail and the condition would never hold") {
			t.Errorf("result %+v: %v; want check-failed refused", spec.Result, err)
		}
	}
	with := &chart.Spec{Result: &chart.ResultSpec{Kind: "verdict/x", Checks: []chart.Check{{}}}}
	if err := CheckWords(conds, with); err != nil {
		t.Errorf("a chart with a check: %v", err)
	}
}

// TestFailedAnswerCheckIsNotOk: a completed run whose answer check did not
// pass (the standing's check-failed) judges no better than UNKNOWN; a
// worse row stays worse; passing checks are no reason. Before, a chart
// declaring "every filesystem has a row" whose rows missed one judged OK.
func TestFailedAnswerCheckIsNotOk(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, verdict string
		reasons       []assessment.Reason
		state         State
	}{
		{"failed", "ok", []assessment.Reason{assessment.CheckFailed}, Unknown},
		{"a critical row stays critical", "critical", []assessment.Reason{assessment.CheckFailed}, Critical},
		{"passed", "ok", nil, OK},
	}
	for _, tc := range cases {
		rec := issue14Record(9, [2]string{tc.verdict, "a"})
		rec.Assessment.Reasons = tc.reasons
		c := Judge(rec, nil)
		if c.State != tc.state || c.ChecksFailed != (tc.reasons != nil) {
			t.Errorf("%s: %v, checks failed %v; want %v", tc.name, c.State, c.ChecksFailed, tc.state)
		}
	}
}

// TestPeriodNotHeldIsNotOk: a stage whose source did not hold all of the
// period it was asked about (a journal rotated past the window a log
// check asked for: not-held, partly-held, or a source that could not say:
// unknown) leaves a completed run no better than UNKNOWN, naming the
// stage and what its source held; a worse row stays worse; a period the
// source held whole is no reason. Before, a log check over the last two
// hours of a journal that held the last thirty minutes said "OK", exit 0,
// under a standing line saying the period was held only in part.
func TestPeriodNotHeldIsNotOk(t *testing.T) {
	t.Parallel()
	asked := coverage.Span{From: "2026-12-06T10:00:00Z", To: "2026-12-06T12:00:00Z"}
	entry := func(v coverage.Verdict, held *coverage.Span) coverage.Entry {
		return coverage.Entry{Path: "scan", Declaration: coverage.Declaration{Kind: coverage.KindLedger,
			Checked: []coverage.Item{{What: "journal"}}, Period: &coverage.Period{Queried: asked, Held: held, Verdict: v}}}
	}
	part := &coverage.Span{From: "2026-12-06T11:30:00Z", To: "2026-12-06T12:00:00Z"}
	cases := []struct {
		name    string
		entry   coverage.Entry
		verdict string
		state   State
		why     string
	}{
		{"partly-held", entry(coverage.PartlyHeld, part), "ok", Unknown, "its source held only part of it (2026-12-06T11:30:00Z to 2026-12-06T12:00:00Z)"},
		{"not-held", entry(coverage.NotHeld, &coverage.Span{From: "2026-12-06T13:00:00Z", To: "2026-12-06T14:00:00Z"}), "ok", Unknown, "its source held none of it (2026-12-06T13:00:00Z to 2026-12-06T14:00:00Z)"},
		{"unknown", entry(coverage.Unknown, nil), "ok", Unknown, "its source could not say which period it held"},
		{"a critical row stays critical", entry(coverage.PartlyHeld, part), "critical", Critical, "its source held only part of it (2026-12-06T11:30:00Z to 2026-12-06T12:00:00Z)"},
		{"covered", entry(coverage.Covered, &asked), "ok", OK, ""},
	}
	for _, tc := range cases {
		rec := issue14Record(9, [2]string{tc.verdict, "a"})
		rec.Coverage = []coverage.Entry{tc.entry}
		c := Judge(rec, nil)
		var why string
		if len(c.Unchecked) > 0 {
			u := c.Unchecked[0]
			why = u.Why
			if u.Path != "scan" || u.What != "the period it was asked about (2026-12-06T10:00:00Z to 2026-12-06T12:00:00Z)" {
				t.Errorf("%s: unchecked %+v", tc.name, u)
			}
		}
		if c.State != tc.state || why != tc.why || c.Judged() != (tc.why == "") {
			t.Errorf("%s: %v, unchecked %+v; want %v, %q", tc.name, c.State, c.Unchecked, tc.state, tc.why)
		}
	}
}

// TestRowWrittenBeforeTheRunStoppedKeepsItsState: a run with no finished
// answer (failed, cancelled, paused) is no better than UNKNOWN, yet its
// check said UNKNOWN over a critical row it had written before it stopped,
// a state the monitoring-plugins order ranks better than CRITICAL.
func TestRowWrittenBeforeTheRunStoppedKeepsItsState(t *testing.T) {
	t.Parallel()
	for _, status := range []string{"failed", "cancelled", "paused"} {
		for _, tc := range []struct {
			word string
			want State
		}{{"ok", Unknown}, {"unknown", Unknown}, {"warning", Warning}, {"critical", Critical}} {
			r := issue14Record(9, [2]string{"ok", "a"}, [2]string{tc.word, "b"})
			r.Status = status
			if got := Judge(r, nil).State; got != tc.want {
				t.Errorf("%s run with a %s row: %v, want %v", status, tc.word, got, tc.want)
			}
		}
	}
}

// TestStoppedRunListsTheWorseAnswersItsScriptsGave: a stopped run's
// scripts that answered WARNING or CRITICAL (their last attempt) are
// listed, the state left as it is; a completed run lists none.
func TestStoppedRunListsTheWorseAnswersItsScriptsGave(t *testing.T) {
	t.Parallel()
	code := func(n int) *int { return &n }
	r := issue14Record(9, [2]string{"ok", "a"})
	r.Scripts = []label.Row{
		{Path: "users", Label: label.CompletedWithFailure, ExitCode: code(2), Answer: "critical"},
		{Path: "load", Label: label.Completed, ExitCode: code(0), Answer: "ok"},
		{Path: "disk", Label: label.CompletedWithFailure, ExitCode: code(1), Answer: "warning"},
		{Path: "disk", Label: label.Completed, ExitCode: code(0), Answer: "ok"},
	}
	r.Status = "cancelled"
	c := Judge(r, nil)
	if c.State != Unknown || len(c.Stopped) != 1 || c.Stopped[0].Path != "users" || c.Stopped[0].Said != "answered critical (exit 2)" {
		t.Errorf("state %v, stopped %+v; want UNKNOWN and users alone (disk's last attempt answered ok)", c.State, c.Stopped)
	}
	// A chart's own word mapped under result.nagios is its state there.
	r.Scripts = append(r.Scripts, label.Row{Path: "fs", Label: label.CompletedWithFailure, ExitCode: code(1), Answer: "filling"})
	if c := Judge(r, Mapping{"filling": Warning}); len(c.Stopped) != 2 || c.Stopped[1].Path != "fs" {
		t.Errorf("stopped %+v, want users and fs (filling is WARNING by the chart's mapping)", c.Stopped)
	}
	r.Status = "completed"
	if c := Judge(r, nil); len(c.Stopped) != 0 {
		t.Errorf("a completed run: stopped %+v, want none", c.Stopped)
	}
}

// TestVerdictConditionNotRuledOutOverUnjudgedRows: a verdict condition no
// row meets holds over a completed run whose rows are not all judged (a
// script that gave no answer, a subject left unchecked, a rule that could
// not be evaluated, a failed answer check), saying what kept it open; over
// judged rows it does not.
// Before, a CI gate --fail-on verdict=dirty|behind over a checkout git
// could not read (exit 128) saw the default row "clean" and exited 0.
func TestVerdictConditionNotRuledOutOverUnjudgedRows(t *testing.T) {
	t.Parallel()
	code128, zero := 128, 0
	conds, err := ParseConditions([]string{"verdict=dirty|behind"})
	if err != nil {
		t.Fatal(err)
	}
	gitFailed := issue14Record(9, [2]string{"clean", "/srv/app"})
	gitFailed.Scripts = []label.Row{label.NewRow("status", label.Returned, &label.Facts{ExitCode: &code128}, false)}
	gitRan := issue14Record(9, [2]string{"clean", "/srv/app"})
	gitRan.Scripts = []label.Row{label.NewRow("status", label.Returned, &label.Facts{ExitCode: &zero}, false)}
	unchecked := issue14Record(9, [2]string{"clean", "/srv/app"})
	unchecked.Coverage = []coverage.Entry{{Path: "per", Declaration: coverage.Declaration{Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{What: "1 of its 2 items", Why: "maxBranches is 1", Kind: record.ItemTruncated}}}}}
	checkFailed := issue14Record(9, [2]string{"clean", "/srv/app"})
	checkFailed.Assessment = &assessment.Assessment{Standing: assessment.NotSure, Reasons: []assessment.Reason{assessment.CheckFailed}}
	dirty := issue14Record(9, [2]string{"dirty", "/srv/app"})
	dirty.Scripts = gitFailed.Scripts
	cases := []struct {
		name string
		rec  *record.Record
		want []string
	}{
		{"script gave no answer", gitFailed, []string{"verdict=dirty|behind (not ruled out: 1 script gave no answer (status))"}},
		{"script answered", gitRan, nil},
		{"subject unchecked", unchecked, []string{"verdict=dirty|behind (not ruled out: 1 stage did not check everything (per))"}},
		{"answer check failed", checkFailed, []string{"verdict=dirty|behind (not ruled out: an answer check did not pass)"}},
		{"a row meets it", dirty, []string{"verdict=dirty|behind (1 row)"}},
	}
	for _, tc := range cases {
		if got := Held(tc.rec, conds); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: held %q, want %q", tc.name, got, tc.want)
		}
	}
	// A standing condition is the standing's, whatever the rows rest on.
	if got := Held(gitFailed, []Condition{{standing: assessment.NotSure}}); got != nil {
		t.Errorf("consistent standing, not-sure asked: held %q", got)
	}
}

// TestVerdictConditionNotRuledOutOverAPausedRun: a verdict condition no
// row meets holds over a paused run, whose rows after its question are
// not written (a Nagios check says UNKNOWN of it); a row that meets it is
// counted as before. Before, a release gate --fail-on verdict=refused
// over a chart that paused to ask for an approval exited 0 in CI, where
// nobody could answer: the deploy went on.
func TestVerdictConditionNotRuledOutOverAPausedRun(t *testing.T) {
	t.Parallel()
	conds, err := ParseConditions([]string{"verdict=refused"})
	if err != nil {
		t.Fatal(err)
	}
	paused := issue14Record(9)
	paused.Status, paused.Pause = "paused", &record.PauseRecord{Stage: "approve", Question: "Deploy v2?"}
	want := []string{"verdict=refused (not ruled out: the run is paused at approve, waiting for an answer: its rows are not all written)"}
	if got := Held(paused, conds); !reflect.DeepEqual(got, want) {
		t.Errorf("paused: held %q, want %q", got, want)
	}
	refused := issue14Record(9, [2]string{"refused", "v1"})
	refused.Status = "paused"
	if got := Held(refused, conds); !reflect.DeepEqual(got, []string{"verdict=refused (1 row)"}) {
		t.Errorf("paused with a refused row: held %q", got)
	}
}

// TestVerdictWordHoldingABarIsOneWord: nmap names a port it could not
// tell open from filtered `open|filtered` (and `closed|filtered`), and a
// chart that writes nmap's state as the verdict has rows reading so. The
// `|` of `--fail-on verdict=open|filtered` joins two words, open and
// filtered, and neither is the row's: the gate exited 0 over a UDP port
// nmap called open|filtered (testdata/wave-scan/port-states). Words the
// condition joins are a word of their own too now: the row meets it, and
// a chart whose verdict stages write `open|filtered` takes the condition.
func TestVerdictWordHoldingABarIsOneWord(t *testing.T) {
	t.Parallel()
	conds, err := ParseConditions([]string{"verdict=open|filtered"})
	if err != nil {
		t.Fatal(err)
	}
	rec := issue14Record(9, [2]string{"open|filtered", "19453/udp"}, [2]string{"closed", "19454/udp"})
	if got, want := Held(rec, conds), []string{"verdict=open|filtered (1 row)"}; !reflect.DeepEqual(got, want) {
		t.Errorf("held %q, want %q", got, want)
	}
	closed := issue14Record(9, [2]string{"closed", "19454/udp"})
	if got := Held(closed, conds); got != nil {
		t.Errorf("over a closed port: held %q, want none", got)
	}
	three, err := ParseConditions([]string{"verdict=critical|open|filtered"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Held(rec, three), []string{"verdict=critical|open|filtered (1 row)"}; !reflect.DeepEqual(got, want) {
		t.Errorf("three words: held %q, want %q", got, want)
	}
	spec, err := chart.Parse("chart.yaml", []byte(`version: 1
runbook: t
result: {kind: verdict/port}
stages:
  - id: s
    decide:
      rules:
        - {when: 'true', then: o, label: x}
      default: {branch: c, label: y}
    branches:
      o: [{id: vo, verdict: {subject: '"p"', verdict: '"open|filtered"'}}]
      c: [{id: vc, verdict: {subject: '"p"', verdict: '"closed"'}}]
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckWords(conds, spec); err != nil {
		t.Errorf("a chart writing open|filtered: %v", err)
	}
	if err := CheckWords(three, spec); err == nil || !strings.Contains(err.Error(), `the verdict "critical"`) {
		t.Errorf("critical, which no row can have: %v", err)
	}
}
