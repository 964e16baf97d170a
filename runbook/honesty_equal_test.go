package runbook_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/plugins/assessment"
)

// TestExpressionComparingAStringWithANumberIsARuleError: a rule `p.PID ==
// "1"` over the number 1 read from JSON was false, silently: the decider
// took its default for every process and the answer stood "Consistent"
// over a rule that never could have judged. It is a rule-error now, as
// the filter `{p.PID: {eq: "1"}}` already was, naming both kinds and the
// comparison; a `set:` that compares mixed kinds fails its stage rather
// than writing false; `== nil` and comparisons of one kind are unchanged.
func TestExpressionComparingAStringWithANumberIsARuleError(t *testing.T) {
	t.Parallel()
	const decideSrc = `version: 1
runbook: init-proc
inputs:
  procs: {type: list, required: true}
result: {kind: verdict/init}
stages:
  - id: per-proc
    foreach:
      items: procs
      as: p
      maxBranches: 10
      stages:
        - id: is-init
          decide:
            rules:
              - {when: WHEN, then: init, label: The init process}
            default: {branch: other, label: Not init}
          branches:
            init: [{id: mark-i, verdict: {subject: p.comm, verdict: '"ok"', role: '"init"'}}]
            other: [{id: mark-o, verdict: {subject: p.comm, verdict: '"ok"', role: '"other"'}}]
`
	procs := []any{map[string]any{"PID": 1, "comm": "systemd"}, map[string]any{"PID": 42, "comm": "sshd", "tty": nil}}
	tests := []struct {
		when string
		err  string // in the standing line; "" for a Known/Consistent answer
		init int    // rows whose role is init
	}{
		{`p.PID == "1"`, `could not evaluate rule 1 ("The init process") in 2 of its decisions and counted it as no match each time: p.PID == "1": a number cannot be compared with a string`, 0},
		{`p.comm != 1`, `p.comm != 1: a string cannot be compared with a number`, 0},
		{`p.PID == 1`, "", 1},
		{`p.tty == nil && p.PID == 42`, "", 1},
		{`string(p.PID) == "1"`, "", 1},
	}
	for _, tc := range tests {
		t.Run(tc.when, func(t *testing.T) {
			t.Parallel()
			rec := exec(t, parse(t, strings.Replace(decideSrc, "WHEN", "'"+tc.when+"'", 1)), map[string]any{"procs": procs})
			a := rec.Assessment
			if tc.err == "" {
				if a.Standing == assessment.NotSure {
					t.Errorf("standing not-sure: %s", a.Line)
				}
			} else if !slices.Contains(a.Reasons, assessment.RuleError) || !strings.Contains(a.Line, tc.err) {
				t.Errorf("reasons %v, line %s; want a rule-error saying %s", a.Reasons, a.Line, tc.err)
			}
			init := 0
			for _, r := range rec.Verdicts.Rows {
				if r.Values["role"] == "init" {
					init++
				}
			}
			if init != tc.init {
				t.Errorf("%d init rows, want %d", init, tc.init)
			}
		})
	}

	t.Run("a set: stage fails", func(t *testing.T) {
		t.Parallel()
		const setSrc = `version: 1
runbook: init-set
inputs:
  ps: {type: object, required: true}
stages:
  - id: flag
    set: {isInit: ps.PID == "1"}
`
		rec := exec(t, parse(t, setSrc), map[string]any{"ps": map[string]any{"PID": 1}})
		if rec.Status != "failed" || rec.Error == nil || rec.Error.Stage != "flag" ||
			!strings.Contains(rec.Error.Message, `ps.PID == "1": a number cannot be compared with a string`) {
			t.Fatalf("status %s, error %+v; want stage flag failed naming the kinds", rec.Status, rec.Error)
		}
		if _, wrote := rec.State["isInit"]; wrote {
			t.Errorf("isInit written: %v", rec.State["isInit"])
		}
	})
}
