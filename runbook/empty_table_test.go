package runbook_test

import (
	"strings"
	"testing"

	"github.com/openrunbook/runbook/internal/gate"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/record"
)

// TestEmptyVerdictTableIsNotSureUnlessItIsTheAnswer: a chart checking
// that sshd listens read `ss -tlnp` as a user, where ss names no process,
// so its filter found no sshd row; the run answered "no verdict rows",
// Consistent, a Nagios check OK, while sshd listened. A completed run
// whose table has no rows is a gap now (record.ItemEmpty): Not sure, the
// check UNKNOWN, unless the chart says no rows is its answer (result:
// {empty: answer}). A paused run (no row yet), a failed one, and a
// ledger that already says why (a declared absence) add no item.
func TestEmptyVerdictTableIsNotSureUnlessItIsTheAnswer(t *testing.T) {
	t.Parallel()
	// ss -tlnp as a user: the Process column is empty on every line.
	const sshd = `version: 1
runbook: sshd-listens
result: {kind: verdict/listener{EMPTY}}
stages:
  - id: ss
    exec:
      shell: |
        printf '%s\n' '[{"local": "0.0.0.0:2222", "process": ""}, {"local": "127.0.0.1:631", "process": ""}]'
      parse: json
  - id: per
    foreach:
      items: 'filter(ss.stdout, .process contains "sshd")'
      maxBranches: 10
      stages:
        - {id: mark, verdict: {subject: item.local, verdict: '"ok"'}}
`
	cases := []struct {
		name     string
		src      string
		standing assessment.Standing
		empty    bool
		state    gate.State
	}{
		{"no rows", strings.Replace(sshd, "{EMPTY}", "", 1), assessment.NotSure, true, gate.Unknown},
		{"no rows, empty: answer", strings.Replace(sshd, "{EMPTY}", ", empty: answer", 1), assessment.Consistent, false, gate.OK},
		{"no rows, empty: gap", strings.Replace(sshd, "{EMPTY}", ", empty: gap", 1), assessment.NotSure, true, gate.Unknown},
		{"paused before any row", `version: 1
runbook: ask-first
result: {kind: verdict/approval}
stages:
  - id: q
    ask: {question: '"go on?"', expects: {ok: bool}}
  - {id: mark, verdict: {subject: '"x"', verdict: '"ok"'}}
`, assessment.Ask, false, gate.Unknown},
		{"failed before any row", `version: 1
runbook: broken
result: {kind: verdict/health}
stages:
  - id: boom
    exec: {shell: 'exit 7'}
  - {id: mark, verdict: {subject: '"x"', verdict: '"ok"'}}
`, assessment.NotSure, false, gate.Unknown},
		{"an absence says why", `version: 1
runbook: scan
result: {kind: verdict/service}
stages:
  - id: scan
    exec:
      shell: |
        printf '%s\n' '{"af_absent": true, "looked_for": "FATAL lines", "checked": ["app.log"]}'
      parse: json
  - id: per
    foreach:
      items: 'scan.stdout.result ?? []'
      maxBranches: 10
      stages:
        - {id: mark, verdict: {subject: item.svc, verdict: '"critical"'}}
`, assessment.NotSure, false, gate.OK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rb := parse(t, tc.src)
			rec := exec(t, rb, nil)
			var empty int
			for _, e := range rec.Coverage {
				for _, it := range e.NotChecked {
					if it.Kind == record.ItemEmpty {
						empty++
					}
				}
			}
			a := rec.Assessment
			if a.Standing != tc.standing || (empty == 1) != tc.empty || empty > 1 {
				t.Errorf("standing %s with %d empty items, want %s and an item %v: %s", a.Standing, empty, tc.standing, tc.empty, a.Line)
			}
			if said := strings.Contains(a.Line, "the verdict table is empty: no subject was judged"); said != tc.empty {
				t.Errorf("line says the table is empty: %v, want %v: %s", said, tc.empty, a.Line)
			}
			// The table's sentence says when no rows is the chart's claim.
			if declared := rec.Verdicts != nil && rec.Verdicts.EmptyAnswer; declared != (tc.name == "no rows, empty: answer") || declared && rec.NoRowsTable() != record.EmptyAnswerSet {
				t.Errorf("emptyAnswer %v, table %q", declared, rec.NoRowsTable())
			}
			if got := gate.Judge(rec, gate.MappingOf(rb.Spec())).State; got != tc.state {
				t.Errorf("check state %s, want %s", got, tc.state)
			}
		})
	}
}

// TestEmptyAnswerOverADeclaredGapIsNoOK: a check of long transactions
// said no rows is its answer (none open), and declared what its role
// could not see: a role without pg_monitor reads other roles' sessions
// with xact_start NULL, so none of them is a row. The standing was Not
// sure, but the Nagios check said `OK - no verdict rows`, exit 0, over a
// day-old transaction it could not see (testdata/wave-dba/xact-age.yaml):
// a declaration leaves the check's state to the rows, and there were
// none. No rows answers "none" only over all a chart looked at, so a
// stage's declared gap files the empty item again, in words that name
// the declaration, and the check is UNKNOWN.
func TestEmptyAnswerOverADeclaredGapIsNoOK(t *testing.T) {
	t.Parallel()
	const seen = `'xacts.stdout.hidden > 0 ? {"af_coverage": {"not_checked": [{"what": string(xacts.stdout.hidden) + " sessions of other roles", "why": "this role cannot read their xact_start"}]}} : {}'`
	for _, tc := range []struct {
		hidden   string
		standing assessment.Standing
		state    gate.State
		empty    bool
	}{
		{"0", assessment.Consistent, gate.OK, false},
		{"7", assessment.NotSure, gate.Unknown, true},
	} {
		rb := parse(t, xactAgeChart(tc.hidden, seen))
		rec := exec(t, rb, nil)
		var why string
		for _, e := range rec.Coverage {
			for _, it := range e.NotChecked {
				if it.Kind == record.ItemEmpty {
					why = it.Why
				}
			}
		}
		if rec.Assessment.Standing != tc.standing || (why != "") != tc.empty {
			t.Errorf("hidden %s: standing %s, empty item %q; want %s and an item %v: %s", tc.hidden, rec.Assessment.Standing, why, tc.standing, tc.empty, rec.Assessment.Line)
		}
		if tc.empty && !strings.Contains(why, `stage "seen" declared`) {
			t.Errorf("hidden %s: the empty item does not name the declaration: %q", tc.hidden, why)
		}
		// The table's sentence never calls no rows the chart's answer
		// where the ledger says it is none.
		if tc.empty && (rec.Verdicts.EmptyAnswer || rec.NoRowsTable() == record.EmptyAnswerSet) {
			t.Errorf("hidden %s: the table says %q over a gap", tc.hidden, rec.NoRowsTable())
		}
		if got := gate.Judge(rec, gate.MappingOf(rb.Spec())).State; got != tc.state {
			t.Errorf("hidden %s: check state %s, want %s", tc.hidden, got, tc.state)
		}
	}
}

// TestEmptyAnswerOverAnUnreadDeclarationIsNoOK: a stage's coverage
// declaration the record could not read (a not_checked that is no list)
// may have said it left ground unchecked; a table with no rows under
// result.empty: answer was OK over it. It is no answer of none now.
func TestEmptyAnswerOverAnUnreadDeclarationIsNoOK(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		decl  string
		state gate.State
	}{
		{`[]`, gate.OK},
		{`"the sessions of other roles"`, gate.Unknown},
	} {
		rb := parse(t, xactAgeChart("0", `'{"af_coverage": {"not_checked": `+tc.decl+`}}'`))
		rec := exec(t, rb, nil)
		if got := gate.Judge(rec, gate.MappingOf(rb.Spec())).State; got != tc.state {
			t.Errorf("not_checked %s: check state %s, want %s: %s", tc.decl, got, tc.state, rec.Assessment.Line)
		}
	}
}

// xactAgeChart is a check of long transactions (result.empty: answer)
// over none, its role blind to `hidden` sessions of others, whose stage
// seen writes the expression seen (a coverage declaration or none).
func xactAgeChart(hidden, seen string) string {
	return `version: 1
runbook: xact-age
result: {kind: verdict/xacts, empty: answer}
stages:
  - id: xacts
    exec:
      shell: |
        printf '%s\n' '{"xacts": [], "hidden": ` + hidden + `}'
      parse: json
  - id: seen
    set:
      visibility: ` + seen + `
  - id: per
    foreach:
      items: xacts.stdout.xacts
      maxBranches: 10
      stages:
        - {id: mark, verdict: {subject: string(item.pid), verdict: '"too-long"'}}
`
}
