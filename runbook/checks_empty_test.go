package runbook

import (
	"context"
	"strings"
	"testing"
)

// TestAnswerCheckReadsAnEmptyTableAsEmpty: a run that wrote no verdict row
// gave its answer checks no `verdicts` at all, so `len(verdicts) ==
// len(failed)` over no failed unit "could not be evaluated (invalid
// argument for len (type <nil>))", and a chart whose empty table is its
// answer (result.empty: answer) stood Not sure on every good day. The
// checks read the empty table as [].
func TestAnswerCheckReadsAnEmptyTableAsEmpty(t *testing.T) {
	t.Parallel()
	rb := openYAMLChart(t, `version: 1
runbook: units
result:
  kind: verdict/units
  decider: D
  empty: answer
  checks:
    - len(verdicts) == len(failed)
stages:
  - {id: s, set: {failed: '[]'}}
  - id: each
    foreach:
      items: failed
      as: u
      maxBranches: 10
      stages:
        - id: d
          name: D
          decide:
            rules: [{when: u != "", then: failed, label: unit failed}]
            default: {branch: failed, label: unit with no name}
          branches:
            failed: [{id: v, verdict: {subject: u, verdict: '"failed"'}}]
`)
	res, err := rb.Exec(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	a := res.Record.Assessment
	if a == nil || a.Standing != "known" || strings.Contains(a.Line, "could not be evaluated") {
		t.Fatalf("standing = %+v, want known: the check holds over the empty table", a)
	}
}
