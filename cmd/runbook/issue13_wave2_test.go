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

// TestIssue13NullItemsIsNotChecked: a foreach read listing.volumes where
// the listing has vols. The items were null, the foreach ran nothing, and
// the run said Known over an empty table. Now the ledger has a not-checked
// item naming the items expression, and the line is Not sure.
func TestIssue13NullItemsIsNotChecked(t *testing.T) {
	t.Parallel()
	_, rec := issue13(t, "null-items", "")
	st, line, reasons := standingOf(t, rec)
	if st != "not-sure" || !hasReason(reasons, "coverage-gap") || !strings.Contains(line, "its items expression listing.volumes was null") {
		t.Errorf("standing %s %v %q, want not-sure naming the null items expression", st, reasons, line)
	}
}

// TestIssue13RowCapSaysWhatIsNotShown: four rows under --max-rows 2 said
// only "2 of 4 rows shown" while an at-risk row was among the hidden. Now
// the text counts the hidden rows by verdict, and the JSON record has the
// counts (verdicts.notShown), which the record's JSON Schema describes.
func TestIssue13RowCapSaysWhatIsNotShown(t *testing.T) {
	t.Parallel()
	text, rec := issue13(t, "row-cap", "", "--max-rows", "2")
	if !strings.Contains(text, "2 of 4 rows shown; not shown: 1 at-risk, 1 ok\n") {
		t.Errorf("text does not count the rows not shown:\n%s", text)
	}
	vs, _ := rec["verdicts"].(map[string]any)
	ns, _ := vs["notShown"].(map[string]any)
	if len(ns) != 2 || ns["at-risk"] != 1.0 || ns["ok"] != 1.0 {
		t.Errorf("verdicts.notShown = %v, want {at-risk: 1, ok: 1}", vs["notShown"])
	}
	schema := runCLI(t, ".", "schema", "--record")
	if !strings.Contains(schema.stdout, `"notShown"`) {
		t.Error("runbook schema --record does not describe verdicts.notShown")
	}
}

// TestIssue13ExplainRuleNumbersFromOne: the line and the text say "rule 1"
// for a decider's first rule, explain said "rule 0" — two numbers for one
// rule. explain now numbers from 1 too (decide.Number), in --why-not and
// in the route of a value.
func TestIssue13ExplainRuleNumbersFromOne(t *testing.T) {
	t.Parallel()
	dir := issue13Record(t, "rule-number")
	whyNot := explainGolden(t, dir, "rule-number", "why-not.golden", 0, "--why-not", "per-volume/headroom/full")
	route := explainGolden(t, dir, "rule-number", "route.golden", 0, "per-volume~0/mark-risk")
	if !strings.Contains(whyNot, `rule 1 "Full" → full: did not match`) || !strings.Contains(whyNot, `rule 2 "Used at or above 90%" → at-risk: matched`) {
		t.Errorf("--why-not does not number the rules from 1:\n%s", whyNot)
	}
	if !strings.Contains(route, `rule 2 "Used at or above 90%" matched`) {
		t.Errorf("the route does not number the rule from 1:\n%s", route)
	}
}

// TestIssue13ExplainCreditsSetKeysPerKey: a set: stage wrote pct from
// used and total, level from warn and label from a constant; explain said
// each of them rested on used, total (and warn) — the whole stage's reads.
// Each key is now credited to what its own expression read.
func TestIssue13ExplainCreditsSetKeysPerKey(t *testing.T) {
	t.Parallel()
	dir := issue13Record(t, "set-keys")
	pct := explainGolden(t, dir, "set-keys", "pct.golden", 0, "pct")
	level := explainGolden(t, dir, "set-keys", "level.golden", 0, "level")
	label := explainGolden(t, dir, "set-keys", "label.golden", 0, "label")
	if !strings.Contains(pct, "read used") || !strings.Contains(pct, "read total") || strings.Contains(pct, "read warn") {
		t.Errorf("pct is not credited to used and total only:\n%s", pct)
	}
	if strings.Contains(level, "read used") || !strings.Contains(level, "read warn") {
		t.Errorf("level is not credited to warn only:\n%s", level)
	}
	if strings.Contains(label, "read ") {
		t.Errorf("label, a constant, is credited with reads:\n%s", label)
	}
}

// TestIssue13ExplainInstancePath: `explain RECORD per-volume~2/headroom`
// explains the third item's decider — what it read and chose — and
// `per-volume~2/mark-risk` the third item's row, never another instance.
func TestIssue13ExplainInstancePath(t *testing.T) {
	t.Parallel()
	dir := issue13Record(t, "instance-path")
	dec := explainGolden(t, dir, "instance-path", "headroom-2.golden", 0, "per-volume~2/headroom")
	row := explainGolden(t, dir, "instance-path", "mark-risk-2.golden", 0, "per-volume~2/mark-risk")
	for _, out := range []string{dec, row} {
		if !strings.Contains(out, "per-volume~2/headroom") || !strings.Contains(out, `"mount":"/var"`) || strings.Contains(out, `"mount":"/data"`) {
			t.Errorf("does not explain the third item only:\n%s", out)
		}
	}
	if !strings.Contains(row, `into at-risk: rule 1 "Used at or above 90%" matched`) {
		t.Errorf("the row's route is not the third item's decision:\n%s", row)
	}
}
