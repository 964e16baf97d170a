package main

import (
	"strings"
	"testing"
)

// The second round of issue-13 regressions: defects a new user found after
// the first round was merged. Each runs a chart under testdata/issue13
// through the real binary and compares its outputs with golden files.

// TestIssue13AbsentMemberIsRuleError: a rule read volume.stat (the items
// have state) and volume.usedPtc (they have usedPct). The first was a silent
// no match; the second errored as "<nil> >= int", which named neither the
// member nor what the object has. Both now fire rule-error naming the
// member, the nearest member the object has, and its members.
func TestIssue13AbsentMemberIsRuleError(t *testing.T) {
	t.Parallel()
	text, rec := issue13(t, "absent-member", "")
	st, line, reasons := standingOf(t, rec)
	if st != "not-sure" || !hasReason(reasons, "rule-error") {
		t.Fatalf("standing %s %v, want not-sure with rule-error", st, reasons)
	}
	for _, want := range []string{"rule 1", "rule 2", `did you mean "state"`, `did you mean "usedPct"`, "mount, state, usedPct"} {
		if !strings.Contains(line, want) {
			t.Errorf("line does not say %s: %s", want, line)
		}
	}
	if !strings.Contains(text, "Headroom rule 1") {
		t.Errorf("text output does not list rule 1:\n%s", text)
	}
}
