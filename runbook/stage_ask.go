package runbook

import (
	"context"
	"fmt"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/rules"
)

// askStage is an `ask:` stage: it pauses the run with a question for a
// person and the answers it expects (resume continues it).
func askStage(ask *chart.AskSpec) flow.StageFunc {
	return func(ctx context.Context, s *flow.Scope) error {
		q, _, err := ask.Question.Expr.Value(s)
		if err != nil {
			return fmt.Errorf("ask: question %s: %w", rules.OneLine(ask.Question.Src), err)
		}
		expects := make(map[string]string, len(ask.Expects))
		for _, e := range ask.Expects {
			expects[e.Name] = e.Type
		}
		text, ok := q.(string)
		if !ok {
			text = fmt.Sprint(q)
		}
		if rs := stateOf(s); readsSecret(rs.secrets, ask.Question.Expr, s.Get) {
			// A question made from a secret may hold a piece of it
			// (token[9:], upper(token[0:6])), which is no value the run
			// holds: it goes to a person, and through MCP to an agent.
			text = rs.secrets.Pieces(text)
		}
		return s.Ask(text, expects)
	}
}
