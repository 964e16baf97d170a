package runbook

import (
	"context"
	"fmt"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
)

// verdictStage is a `verdict:` stage: one row of columns, each an
// expression, appended to the verdict rows.
func verdictStage(cols []chart.Assign) flow.StageFunc {
	return func(ctx context.Context, s *flow.Scope) error {
		row := make(map[string]any, len(cols))
		for _, a := range cols {
			v, _, err := a.Expr.Value(s)
			if err != nil {
				return fmt.Errorf("verdict column %s: %s: %w", a.Key, a.Src, err)
			}
			row[a.Key] = v
		}
		rows, _ := s.Value(VerdictsKey).([]any)
		out := make([]any, len(rows), len(rows)+1)
		copy(out, rows)
		s.Set(VerdictsKey, append(out, row))
		return nil
	}
}
