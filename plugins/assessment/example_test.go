package assessment_test

import (
	"fmt"

	"github.com/openrunbook/runbook/plugins/assessment"
)

func ExampleAssess() {
	a := assessment.Assess(assessment.Summary{
		Runbook: "search_logs",
		Assumed: []assessment.Assumed{{Name: "window", Value: "2h", By: "search_logs"}},
	})
	fmt.Println(a.Standing, a.Reasons)
	fmt.Println(a.Line)
	// Output:
	// not-sure [argument-assumed]
	// Not sure — window = "2h" was assumed by search_logs's rule, not given by you.
}

func ExampleAnnotate() {
	resp := assessment.Annotate(assessment.Request{
		Summary: assessment.Summary{HonestyRan: []string{"label", "coverage"}},
		When:    assessment.UnlessConsistent,
	})
	fmt.Println(resp.Assessment.Standing, resp.Said)
	fmt.Println(resp.Assessment.Line)
	// Output:
	// consistent false
	// Consistent with the run's record — 2 honesty checks ran (label, coverage) and none found a reason for doubt; this is not a verification.
}

func ExampleSaid() {
	fmt.Println(assessment.Said(assessment.NotSureOrAsk, assessment.Consistent))
	fmt.Println(assessment.Said(assessment.NotSureOrAsk, assessment.Ask))
	// Output:
	// false
	// true
}
