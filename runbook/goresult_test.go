package runbook_test

import (
	"context"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/runbook"
)

// TestGoStageDeclaresWhatItDidNotCheck: a Go stage that parsed a command's
// output and could not read one line had no way to say so. It wrote the
// af_coverage declaration README's coverage-gap row names, with s.Set, and
// the run stood "Consistent with the run's record": the declaration was
// only data. Written with SetResult it reaches the ledger, as a set:
// stage's does, and the answer is Not sure, naming what was not checked.
func TestGoStageDeclaresWhatItDidNotCheck(t *testing.T) {
	res := runGo(t, flow.New("sockets").Stage("parse", func(ctx context.Context, s *flow.Scope) error {
		runbook.SetResult(s, "sockets", map[string]any{
			"list": []any{"0.0.0.0:22"},
			"af_coverage": map[string]any{"not_checked": []any{
				map[string]any{"what": "line 3 of ss -tln", "why": "it did not parse"},
			}},
		})
		return nil
	}), nil)
	a := res.Record.Assessment
	if a.Standing != "not-sure" || !strings.Contains(a.Line, "line 3 of ss -tln") {
		t.Errorf("standing %q, %q: want Not sure, naming line 3 of ss -tln", a.Standing, a.Line)
	}
	if len(res.Record.Coverage) != 1 || res.Record.Coverage[0].Path != "parse" {
		t.Errorf("ledger %+v, want the stage's one declaration", res.Record.Coverage)
	}
	got, _ := res.Record.State["sockets"].(map[string]any)
	if list, _ := got["list"].([]any); len(list) != 1 {
		t.Errorf("scope's sockets %v, want the served form with its list", got)
	}
}
