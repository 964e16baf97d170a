package runbook_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/internal/gate"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/record"
)

// TestForeachNoneOfWhoseItemsWroteARowIsNotChecked: a foreach whose
// select matched no rule for any of its processes wrote no verdict row
// at all, and the run answered an empty table standing "Consistent", a
// Nagios check OK — the no-row ledger item fired only when some other
// item of the foreach had written a row. A foreach whose body has a
// verdict stage and none of whose items wrote one left every subject
// unjudged: its items are a no-row item, the standing Not sure, the check
// UNKNOWN. A foreach that only gathers facts (no verdict stage in its
// body) is not flagged, nor is one over no items (nothing ran that could
// have written a row: its empty table is the chart's to call an answer,
// TestEmptyVerdictTableIsNotSureUnlessItIsTheAnswer), nor one in which
// every item wrote a row.
func TestForeachNoneOfWhoseItemsWroteARowIsNotChecked(t *testing.T) {
	t.Parallel()
	const judge = `version: 1
runbook: procs
inputs:
  procs: {type: list, required: true}
result: {kind: verdict/health}
stages:
  - id: per-proc
    foreach:
      items: procs
      as: p
      maxBranches: 10
      stages:
        - id: classify
          select:
            rules:
              - {when: p.state == "R", then: running, label: Running}
              - {when: p.state == "S", then: sleeping, label: Sleeping}
          branches:
            running: [{id: mark-r, verdict: {subject: p.name, verdict: '"ok"'}}]
            sleeping: [{id: mark-s, verdict: {subject: p.name, verdict: '"ok"'}}]
`
	// facts gathers in a foreach with no verdict stage, then judges the
	// gathered list once, after it.
	const facts = `version: 1
runbook: facts
inputs:
  procs: {type: list, required: true}
result: {kind: verdict/health}
stages:
  - id: gather
    foreach:
      items: procs
      as: p
      maxBranches: 10
      stages:
        - {id: name, set: {n: p.name}}
  - id: mark
    verdict: {subject: '"procs"', verdict: '"ok"', count: len(gather)}
`
	proc := func(name, state string) any { return map[string]any{"name": name, "state": state} }
	tests := []struct {
		name  string
		src   string
		procs []any
		what  string // the no-row item's words; "" for none
		state gate.State
	}{
		{"no item matched a rule", judge, []any{proc("a", "Z"), proc("b", "Z")}, "all 2 of its items (per-proc~0, per-proc~1)", gate.Unknown},
		{"the one item matched no rule", judge, []any{proc("a", "Z")}, "its 1 item (per-proc~0)", gate.Unknown},
		{"some items matched no rule", judge, []any{proc("a", "R"), proc("b", "Z")}, "1 of its 2 items (per-proc~1)", gate.Unknown},
		{"every item wrote a row", judge, []any{proc("a", "R"), proc("b", "S")}, "", gate.OK},
		{"no items, empty: answer", strings.Replace(judge, "result: {kind: verdict/health}", "result: {kind: verdict/health, empty: answer}", 1), []any{}, "", gate.OK},
		{"a foreach that gathers facts", facts, []any{proc("a", "Z"), proc("b", "Z")}, "", gate.OK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rb := parse(t, tc.src)
			rec := exec(t, rb, map[string]any{"procs": tc.procs})
			var items []coverage.Item
			for _, e := range rec.Coverage {
				for _, it := range e.NotChecked {
					if it.Kind == record.ItemNoRow {
						items = append(items, it)
					}
				}
			}
			a := rec.Assessment
			if tc.what == "" {
				if len(items) > 0 || a.Standing == assessment.NotSure {
					t.Errorf("no-row items %+v, standing %s: %s", items, a.Standing, a.Line)
				}
			} else {
				if len(items) != 1 || items[0].What != tc.what {
					t.Fatalf("no-row items %+v, want one: %s", items, tc.what)
				}
				if a.Standing != assessment.NotSure || !slices.Contains(a.Reasons, assessment.CoverageGap) || !strings.Contains(a.Line, tc.what) {
					t.Errorf("standing %s %v, want not-sure naming %s: %s", a.Standing, a.Reasons, tc.what, a.Line)
				}
			}
			if got := gate.Judge(rec, gate.MappingOf(rb.Spec())).State; got != tc.state {
				t.Errorf("check state %s, want %s", got, tc.state)
			}
		})
	}
}
