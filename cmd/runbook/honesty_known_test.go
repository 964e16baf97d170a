package main

import (
	"strings"
	"testing"
)

// TestNoRowAtAllIsNotSureAndUnknown: testdata/issue13/no-row-all, whose
// select has no rule for either volume, printed an empty table under
// "Consistent" and, as a Nagios check, "OK - no verdict rows" (exit 0).
// The foreach's body has verdict stages and none of its items wrote a
// row: Not sure naming every item, and the check UNKNOWN (exit 3).
func TestNoRowAtAllIsNotSureAndUnknown(t *testing.T) {
	t.Parallel()
	_, rec := issue13(t, "no-row-all", "")
	st, line, reasons := standingOf(t, rec)
	if st != "not-sure" || !hasReason(reasons, "coverage-gap") || !strings.Contains(line, `stage "Per volume" did not check all 2 of its items (per-volume~0, per-volume~1)`) {
		t.Errorf("standing %s %v %q, want not-sure naming both items", st, reasons, line)
	}
	r := runCLI(t, issue13Dir(t, "no-row-all"), "exec", "chart.yaml", "--format", "nagios")
	if r.code != 3 || !strings.HasPrefix(r.stdout, "no-row-all UNKNOWN - ") || !strings.Contains(r.stdout, "UNKNOWN: per-volume did not check all 2 of its items") {
		t.Errorf("exit %d, want 3 and UNKNOWN naming the items:\n%s", r.code, r.stdout)
	}
}

// TestMixedKindEqualityIsARuleErrorInTheCLI: testdata/issue13/mixed-equal
// compares the number PID with the text "1" (`p.PID == "1"`); the rule
// never matched and the run said "Consistent". It is a rule-error: Not
// sure, and the rule listed under Rules naming both kinds.
func TestMixedKindEqualityIsARuleErrorInTheCLI(t *testing.T) {
	t.Parallel()
	text, rec := issue13(t, "mixed-equal", "")
	st, line, reasons := standingOf(t, rec)
	const said = `p.PID == "1": a number cannot be compared with a string`
	if st != "not-sure" || !hasReason(reasons, "rule-error") || !strings.Contains(line, said) {
		t.Errorf("standing %s %v %q, want a rule-error saying %s", st, reasons, line, said)
	}
	if !strings.Contains(text, "Rules\n  Init rule 1 (\"The init process\"): could not be evaluated in 2 decisions") {
		t.Errorf("text output does not list the rule:\n%s", text)
	}
	// As a check: UNKNOWN, naming the rule, no perfdata (it said OK).
	r := runCLI(t, issue13Dir(t, "mixed-equal"), "exec", "chart.yaml", "--format", "nagios")
	first, _, _ := strings.Cut(r.stdout, "\n")
	if r.code != 3 || first != "mixed-equal UNKNOWN - 1 rule could not be evaluated (Init), 2 ok (2 not judged: systemd, sshd)" ||
		!strings.Contains(r.stdout, `UNKNOWN: decider "Init" could not evaluate rule 1 ("The init process") in 2 of its decisions`) {
		t.Errorf("nagios: exit %d\n%s", r.code, r.stdout)
	}
}
