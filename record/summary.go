package record

import (
	"context"
	"errors"
	"fmt"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/plugins/coverage"
)

// Standing is what the assessment needs beside the record: what the record
// itself cannot say (how the run ended, what was assumed, the answer
// checks' outcomes, which honesty stages ran) and the words sentences use.
type Standing struct {
	Runbook string
	Flow    *flow.Result
	// Assumed are the values defaults filled, inputs and plugin arguments.
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
		for _, it := range e.NotChecked {
			if rec.Verdicts != nil && e.Path == s.Key {
				// The declined rows: said of the decider that could not
				// classify them, counted in rows.
				sum.Gaps = append(sum.Gaps, assessment.Gap{Stage: decider, What: rowsWord(rec.Verdicts.Declined), Why: it.Why, Kind: assessment.GapDeclined})
				continue
			}
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
		sum.Scripts = append(sum.Scripts, assessment.Script{Stage: r.Path, Label: string(r.Label), Words: r.Words})
	}
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
	return sum
}

func rowsWord(n int) string {
	if n == 1 {
		return "1 row"
	}
	return fmt.Sprintf("%d rows", n)
}
