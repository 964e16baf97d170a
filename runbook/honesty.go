package runbook

import (
	"context"
	"sync"

	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/label"
)

// Honesty is how the runtime calls the three honesty stages: plain data in,
// plain data out, so each can run in this process (InProcess) or as a
// plugin process (WithHonestyVia chooses) and give the same bytes
// either way. Coverage keeps one warning per stage per run, keyed by the
// run's id; EndRun forgets it.
type Honesty = plugins.Honesty

// InProcess runs the honesty stages in this process. It never fails.
func InProcess() Honesty { return &inProcess{runs: map[string]*coverage.Annotator{}} }

type inProcess struct {
	mu   sync.Mutex
	runs map[string]*coverage.Annotator
}

func (*inProcess) Label(_ context.Context, req label.Request) (label.Response, error) {
	return label.Annotate(req), nil
}

func (h *inProcess) Coverage(_ context.Context, run string, req coverage.Request) (coverage.Response, error) {
	h.mu.Lock()
	a, ok := h.runs[run]
	if !ok {
		a = &coverage.Annotator{}
		h.runs[run] = a
	}
	h.mu.Unlock()
	return a.Annotate(req), nil
}

func (*inProcess) Assess(_ context.Context, req assessment.Request) (assessment.Response, error) {
	return assessment.Annotate(req), nil
}

func (h *inProcess) EndRun(_ context.Context, run string) error {
	h.mu.Lock()
	delete(h.runs, run)
	h.mu.Unlock()
	return nil
}
