package runbook

import (
	"context"
	"fmt"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
)

// setStage is a `set:` stage: each expression evaluated against the scope,
// its value (through the coverage stage) written under its key.
func setStage(assigns []chart.Assign) flow.StageFunc {
	return func(ctx context.Context, s *flow.Scope) error {
		rs := stateOf(s)
		for _, a := range assigns {
			s.BeginKey() // each key rests on its own expression's reads
			v, _, err := a.Expr.Value(s)
			if err != nil {
				return fmt.Errorf("set %s: %s: %w", a.Key, a.Src, err)
			}
			rs.derive(s, a.Expr, v)
			s.Set(a.Key, rs.result(s.Path(), v))
		}
		return nil
	}
}
