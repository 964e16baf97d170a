package runbook

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/rules"
)

// verdictStage is a `verdict:` stage: one row of columns, each an
// expression, appended to the verdict rows.
//
// The verdict column must be text: the projection keeps only rows whose
// verdict is a string, so a row with any other verdict would vanish from
// the table in silence. Such a row fails the stage instead, naming the
// expression and what it gave.
func verdictStage(cols []chart.Assign) flow.StageFunc {
	return func(ctx context.Context, s *flow.Scope) error {
		row := make(map[string]any, len(cols))
		for _, a := range cols {
			v, _, err := a.Expr.Value(s)
			if err != nil {
				return fmt.Errorf("verdict column %s: %s: %w", a.Key, rules.OneLine(a.Src), err)
			}
			if _, isText := v.(string); a.Key == "verdict" && !isText {
				return fmt.Errorf("verdict column verdict: %s gave %s, not text: a verdict is a word, such as '\"ok\"'",
					a.Src, gave(v))
			}
			stateOf(s).derive(s, a.Expr, v)
			row[a.Key] = v
		}
		rows, _ := s.Value(VerdictsKey).([]any)
		out := make([]any, len(rows), len(rows)+1)
		copy(out, rows)
		s.Set(VerdictsKey, append(out, row))
		return nil
	}
}

// gave says what a value is, and for all but null what it holds, cut short.
func gave(v any) string {
	if v == nil {
		return "null"
	}
	b, _ := json.Marshal(v)
	text := string(b)
	if len(text) > 60 {
		text = text[:57] + "..."
	}
	return jsonv.Describe(v) + " " + text
}
