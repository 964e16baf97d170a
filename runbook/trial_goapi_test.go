package runbook_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/runbook"
)

// TestFilterConditionThatCannotJudgeItsValueIsARuleError: a filter rule
// `{used: {gte: 90}}` over a value read as the text "95%" failed with the
// reason "a string cannot be compared with a number", counted as a plain
// no-match, and the run printed / as ok under "Consistent with the run's
// record" — where the same rule written `used >= 90` is a rule-error and
// Not sure. A condition that could not judge the value it read decided
// nothing: it is a rule-error too, said once per decider, rule and reason.
func TestFilterConditionThatCannotJudgeItsValueIsARuleError(t *testing.T) {
	t.Parallel()
	const src = `version: 1
runbook: filter-mixed
inputs:
  volumes: {type: list, required: true}
result: {kind: verdict/fullness, decider: Fullness}
stages:
  - id: each
    foreach:
      items: volumes
      as: v
      maxBranches: 10
      stages:
        - id: fullness
          name: Fullness
          decide:
            rules:
              - {when: {v.used: {gte: 90}}, then: full, label: At or over 90}
              - {when: {v.state: {eq: degraded}}, then: full, label: Degraded}
            default: {branch: ok, label: Under 90}
          branches:
            full: [{id: mark-full, verdict: {subject: v.name, verdict: '"full"'}}]
            ok: [{id: mark-ok, verdict: {subject: v.name, verdict: '"ok"'}}]
`
	tests := []struct {
		name    string
		volumes []any
		want    []string // in the standing line; none: no rule-error
	}{
		{"a number is judged", []any{
			map[string]any{"name": "/", "used": 95, "state": "up"},
			map[string]any{"name": "/var", "used": 10, "state": "up"},
		}, nil},
		{"a missing key in some rows is data", []any{
			map[string]any{"name": "/", "used": 10, "state": "up"},
			map[string]any{"name": "/var", "state": "up"},
		}, nil},
		{"text where a number was meant", []any{
			map[string]any{"name": "/", "used": "95%", "state": "up"},
			map[string]any{"name": "/var", "used": "12%", "state": "up"},
			map[string]any{"name": "/srv", "used": 5, "state": "up"},
		}, []string{`decider "Fullness" could not evaluate rule 1 ("At or over 90") in 2 of its decisions and counted it as no match each time: its condition on v.used (gte) could not judge the value it read: a string cannot be compared with a number`}},
		{"null has no order, a number is no state", []any{
			map[string]any{"name": "/", "used": nil, "state": 3},
		}, []string{
			`decider "Fullness" could not evaluate rule 1 ("At or over 90") and counted it as no match: its condition on v.used (gte) could not judge the value it read: null cannot be compared with a number`,
			`decider "Fullness" could not evaluate rule 2 ("Degraded") and counted it as no match: its condition on v.state (eq) could not judge the value it read: a number cannot be compared with a string`,
		}},
	}
	rb := parse(t, src)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := exec(t, rb, map[string]any{"volumes": tc.volumes})
			a := rec.Assessment
			if got := slices.Contains(a.Reasons, assessment.RuleError); got != (tc.want != nil) {
				t.Fatalf("rule-error among the reasons = %v, want %v: %s", got, tc.want != nil, a.Line)
			}
			for _, w := range tc.want {
				if !strings.Contains(a.Line, w) {
					t.Errorf("the standing line does not say\n  %s\nit says\n  %s", w, a.Line)
				}
			}
		})
	}
}

// TestFilterRuleErrorUnderAPassingCheckIsNotKnown: with an answer check
// that passes (`len(verdicts) == 2`), the filter rule that could not
// judge "95%" against 90 left / at 95% used as ok under "Known".
func TestFilterRuleErrorUnderAPassingCheckIsNotKnown(t *testing.T) {
	t.Parallel()
	rb, err := runbook.Open("../testdata/goapi/filter-rule-error/chart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := rb.Exec(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	a := res.Record.Assessment
	if a.Standing != assessment.NotSure || !slices.Equal(a.Reasons, []assessment.Reason{assessment.RuleError}) {
		t.Errorf("standing %s, reasons %v, want not-sure for rule-error: %s", a.Standing, a.Reasons, a.Line)
	}
}
