package runbook

import (
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/label"
)

// Honesty is how the runtime calls the three honesty stages: plain data in,
// plain data out, so each can run in this process or as a plugin process
// and give the same bytes either way.
type Honesty interface {
	// Label files script rows for code calls.
	Label(req label.Request) label.Response
	// Coverage reads stage results for declarations and serves them. The
	// annotator keeps one warning per stage per run.
	Coverage(a *coverage.Annotator, req coverage.Request) coverage.Response
	// Assess folds the run's summary into its standing and line.
	Assess(req assessment.Request) assessment.Response
}

// InProcess runs the honesty stages in this process.
func InProcess() Honesty { return inProcess{} }

type inProcess struct{}

func (inProcess) Label(req label.Request) label.Response { return label.Annotate(req) }

func (inProcess) Coverage(a *coverage.Annotator, req coverage.Request) coverage.Response {
	return a.Annotate(req)
}

func (inProcess) Assess(req assessment.Request) assessment.Response {
	return assessment.Annotate(req)
}
