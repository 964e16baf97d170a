package record

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/label"
)

// Standing is what the assessment needs beside the record: what the record
// itself cannot say (how the run ended, what was assumed, the answer
// checks' outcomes, which honesty stages ran) and the words sentences use.
type Standing struct {
	Runbook string
	Flow    *flow.Result
	// Assumed are the values defaults filled that the run used: inputs a
	// stage or answer check read, and plugin arguments.
	Assumed []assessment.Assumed
	// Checks are the answer checks' outcomes (result.checks).
	Checks     []assessment.Check
	HonestyRan []string
	// StageName names the stage at a record path, for sentences.
	StageName func(path string) string
	// Decider names the decider the verdicts come from, for sentences;
	// Key is the state key its rows are gathered under (Projection.Key),
	// where Assemble files the declined rows.
	Decider, Key string
}

// Summary folds a record into the assessment's summary: the one place a
// record becomes what the standing is judged on.
func Summary(rec *Record, s Standing) assessment.Summary {
	sum := assessment.Summary{Runbook: s.Runbook, Assumed: s.Assumed, Checks: s.Checks, HonestyRan: s.HonestyRan}
	if rec.Pause != nil {
		sum.Paused, sum.Question = true, rec.Pause.Question
	}
	decider := s.Decider
	if decider == "" {
		decider = "the verdict projection"
	}
	for _, e := range rec.Coverage {
		stage := s.StageName(e.Path)
		if e.Kind == coverage.KindAbsence {
			sum.Absences = append(sum.Absences, assessment.Absence{Stage: stage, LookedFor: e.LookedFor})
		}
		if rec.Verdicts != nil && e.Path == s.Key && verdictsEntry(e) {
			// The record's own entry (Assemble): the declined rows, said
			// of the decider and whose decision they were, and the
			// dropped rows, counted from the verdict set itself.
			sum.Gaps = append(sum.Gaps, verdictGaps(rec.Verdicts, e, decider)...)
			continue
		}
		for _, it := range e.NotChecked {
			sum.Gaps = append(sum.Gaps, assessment.Gap{Stage: stage, What: it.What, Why: it.Why, Kind: assessment.GapNotChecked})
		}
		for _, it := range e.CannotCover {
			sum.Gaps = append(sum.Gaps, assessment.Gap{Stage: stage, What: it.What, Why: it.Why, Kind: assessment.GapCannotCover})
		}
		if e.Period != nil {
			sum.Periods = append(sum.Periods, assessment.Period{Stage: stage, Verdict: string(e.Period.Verdict)})
		}
	}
	for _, r := range rec.Scripts {
		sum.Scripts = append(sum.Scripts, ScriptOf(r))
	}
	sum.RuleErrors = RuleErrors(rec)
	switch s.Flow.Status {
	case flow.StatusCancelled:
		sum.Stopped = assessment.StoppedCancelled
		if errors.Is(s.Flow.Err, context.DeadlineExceeded) {
			sum.Stopped = assessment.StoppedTimedOut
		}
	case flow.StatusFailed:
		// A run that failed also stopped before its end: its answer cannot
		// be "consistent with the record" (stopped-early, "stopped").
		sum.Stopped = assessment.StoppedFailed
	}
	if sum.Stopped != "" && rec.Error != nil {
		sum.StoppedAt = rec.Error.Stage
	}
	return sum
}

// Unanswered are the script rows whose path's last run gave no answer
// (assessment.ScriptReason: failed, unknown, killed…), one a path, in the
// order the paths first ran: a retry that recovered answered, a declared
// exit code answered. The one home of which scripts a result rests on no
// answer of, for a Nagios check's state (gate) and for the sentence a
// table with no rows says (Assemble).
func Unanswered(rows []label.Row) []label.Row {
	var out []label.Row
	for _, r := range LastAttempts(rows) {
		if _, bad := assessment.ScriptReason(ScriptOf(r)); bad {
			out = append(out, r)
		}
	}
	return out
}

// LastAttempts are the last attempt of each script path, in the order
// the paths first ran: what a result rests on of each script (a retry
// that recovered replaces the failure before it).
func LastAttempts(rows []label.Row) []label.Row {
	last := map[string]int{}
	var order []string
	for i, r := range rows {
		if _, seen := last[r.Path]; !seen {
			order = append(order, r.Path)
		}
		last[r.Path] = i
	}
	out := make([]label.Row, len(order))
	for i, path := range order {
		out[i] = rows[last[path]]
	}
	return out
}

// ScriptOf is a script row as the assessment reads it: the standing
// line's scripts and a check's unanswered ones (internal/gate) are judged
// by assessment.ScriptReason over this one reading.
func ScriptOf(r label.Row) assessment.Script {
	sc := assessment.Script{Stage: r.Path, Label: string(r.Label), Words: r.Words, Answer: r.Answer, Cause: r.Cause, Call: r.Call}
	if r.Facts != nil && r.Facts.TerminatedBy != "" {
		sc.Killed = label.KilledBy(r.Facts.TerminatedBy)
	}
	return sc
}

// RuleErrors lists the decider rules whose predicate errored in this run,
// from the record's decision evidence: one entry per decider, rule and
// error, counting the decisions it errored in. A filter condition whose key
// was missing is one (rules.ConditionEvidence.Unjudged), as an expression
// reading a member its object lacks is. It is the one reading of
// errored rules; the summary and the text output both ask it. Entries
// come sorted by decider, rule and error, so they do not depend on the
// order parallel branches decided in.
func RuleErrors(rec *Record) []assessment.ErroredRule {
	var out []assessment.ErroredRule
	add := func(decider string, r *decide.RuleEvidence, err string) {
		for i := range out {
			if e := &out[i]; e.Decider == decider && e.Rule == decide.Number(r.Index) && e.Label == r.Label && e.Err == err {
				e.Decisions++
				return
			}
		}
		out = append(out, assessment.ErroredRule{Decider: decider, Rule: decide.Number(r.Index), Label: r.Label, Err: err, Decisions: 1})
	}
	for _, d := range rec.Decisions {
		decider := d.DeciderName()
		for i := range d.Rules {
			r := &d.Rules[i]
			for _, err := range RuleEvidenceErrors(r) {
				add(decider, r, err)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Decider != b.Decider {
			return a.Decider < b.Decider
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Err < b.Err
	})
	return out
}

// verdictsEntry says whether a ledger entry holds only the items the
// record adds for its verdict set (declined and dropped rows).
func verdictsEntry(e coverage.Entry) bool {
	if len(e.NotChecked) == 0 || len(e.Checked)+len(e.CannotCover)+len(e.InProgress) > 0 || e.Kind == coverage.KindAbsence {
		return false
	}
	for _, it := range e.NotChecked {
		if it.Kind != ItemDeclined && it.Kind != ItemDropped && it.Kind != ItemEmpty {
			return false
		}
	}
	return true
}

// verdictGaps are the gaps of a verdict set: that it has no rows when its
// entry e says so (the chart's result.empty is not in the record, the
// item is), each group of declined rows, said of the decider with whose
// decision it was (or that none of its decisions was behind them), then
// the dropped rows.
func verdictGaps(vs *VerdictSet, e coverage.Entry, decider string) []assessment.Gap {
	var out []assessment.Gap
	for _, it := range e.NotChecked {
		if it.Kind == ItemEmpty {
			out = append(out, assessment.Gap{Stage: decider, What: it.What, Why: it.Why, Kind: assessment.GapEmpty})
		}
	}
	for _, d := range vs.DeclinedBy {
		if d.Rule == "" && !d.Default {
			out = append(out, assessment.Gap{Stage: decider, What: rowsWord(d.Rows), Kind: assessment.GapUndecided})
			continue
		}
		it := declinedItem(d)
		out = append(out, assessment.Gap{Stage: decider, What: rowsWord(d.Rows), Why: it.Why, Rule: d.Rule, Kind: assessment.GapDeclined})
	}
	if n := vs.RowsDropped; n > 0 {
		why := "each was not an object with a string verdict"
		if n == 1 {
			why = "it was not an object with a string verdict"
		}
		out = append(out, assessment.Gap{What: strings.Replace(rowsWord(n), "row", "verdict row", 1), Why: why, Kind: assessment.GapDropped})
	}
	return out
}

func rowsWord(n int) string {
	if n == 1 {
		return "1 row"
	}
	return fmt.Sprintf("%d rows", n)
}

// RuleEvidenceErrors are the words of why one rule's evidence could not be
// evaluated (rules.Outcome.Errored): its expression's error, or each
// filter condition that could not judge the value it read, the filter form
// of an expression's run-time error (`"95%" >= 90`); none for a rule that
// evaluated. RuleErrors and a chart test's rule coverage both say it so.
func RuleEvidenceErrors(r *decide.RuleEvidence) []string {
	if r.Err != "" {
		return []string{r.Err}
	}
	if !r.Errored() {
		// A condition judged false answered the filter.
		return nil
	}
	var said []string
	for j := range r.Conditions {
		if c := &r.Conditions[j]; c.Unjudged() {
			err := "its condition on " + c.Key + " (" + string(c.Op) + ") could not judge the value it read: " + c.Reason
			if !c.Present {
				err = "its condition on " + c.Key + " (" + string(c.Op) + ") read no value: " + c.Reason
			}
			if !slices.Contains(said, err) {
				said = append(said, err)
			}
		}
	}
	return said
}
