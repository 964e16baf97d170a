package runbook

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

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
// expression and what it gave; so does a word with spaces or a line end
// around it (verdictWord).
func verdictStage(cols []chart.Assign) flow.StageFunc {
	return func(ctx context.Context, s *flow.Scope) error {
		row := make(map[string]any, len(cols))
		for _, a := range cols {
			v, _, err := a.Expr.Value(s)
			if err != nil {
				return fmt.Errorf("verdict column %s: %s: %w", a.Key, rules.OneLine(a.Src), err)
			}
			if a.Key == "verdict" {
				if err := verdictWord(a.Src, v); err != nil {
					return err
				}
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

// verdictWord says what is wrong with v, the verdict column's value from
// the expression src, as a verdict word: not text, or text with spaces or
// a line end around it — a script's "critical\n" read with parse: text
// shows as "critical" in the table, yet no gate reads it so (--fail-on
// verdict=critical, a Nagios check's critical state) and the check said
// UNKNOWN and the gate did not fire.
func verdictWord(src string, v any) error {
	w, isText := v.(string)
	switch {
	case !isText:
		return fmt.Errorf("verdict column verdict: %s gave %s, not text: a verdict is a word, such as '\"ok\"'", src, gave(v))
	case strings.TrimSpace(w) != w:
		return fmt.Errorf("verdict column verdict: %s gave the text %s, with spaces or a line end around it: a verdict is a word, and no gate (--fail-on verdict=…, a Nagios check state) reads it as the word it shows; write trim(%s)", src, strconv.Quote(cut(w)), src)
	}
	return nil
}

// cut is s cut short for a message.
func cut(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
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
