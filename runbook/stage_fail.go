package runbook

import (
	"context"
	"fmt"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/rules"
)

// FailError is the failure a `fail:` stage asks for.
type FailError struct{ Message string }

func (e *FailError) Error() string { return e.Message }

// failStage is a `fail:` stage: it fails the run with the message its
// expression yields.
func failStage(a *chart.Assign) flow.StageFunc {
	return func(ctx context.Context, s *flow.Scope) error {
		v, _, err := a.Expr.Value(s)
		if err != nil {
			return fmt.Errorf("fail: %s: %w", rules.OneLine(a.Src), err)
		}
		stateOf(s).derive(s, a.Expr, v)
		if str, ok := v.(string); ok {
			return &FailError{Message: str}
		}
		return &FailError{Message: fmt.Sprint(v)}
	}
}
