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

// TestGoStageDeclaresWithTypedGoValues: a Go stage that declared what it
// did not check with its own types — a struct field tagged
// `json:"af_coverage"`, a []map[string]string of items — had the record
// show the declaration (encoding/json wrote it) while the coverage stage,
// which read only map[string]any, left it out in silence: "Consistent
// with the run's record" over a stage that said it had not read line 3.
// SetResult reads v as the JSON value the record writes of it.
func TestGoStageDeclaresWithTypedGoValues(t *testing.T) {
	type item struct {
		What string `json:"what"`
		Why  string `json:"why"`
	}
	type declaration struct {
		NotChecked []item `json:"not_checked"`
	}
	type sockets struct {
		List     []string    `json:"list"`
		Coverage declaration `json:"af_coverage"`
	}
	for name, v := range map[string]any{
		"a struct":            sockets{List: []string{"0.0.0.0:22"}, Coverage: declaration{NotChecked: []item{{"line 3 of ss -tln", "it did not parse"}}}},
		"a pointer to one":    &sockets{List: []string{"0.0.0.0:22"}, Coverage: declaration{NotChecked: []item{{"line 3 of ss -tln", "it did not parse"}}}},
		"typed maps and list": map[string]any{"list": []string{"0.0.0.0:22"}, "af_coverage": map[string][]map[string]string{"not_checked": {{"what": "line 3 of ss -tln", "why": "it did not parse"}}}},
	} {
		res := runGo(t, flow.New("sockets").Stage("parse", func(ctx context.Context, s *flow.Scope) error {
			runbook.SetResult(s, "sockets", v)
			return nil
		}), nil)
		a := res.Record.Assessment
		if a.Standing != "not-sure" || !strings.Contains(a.Line, `did not check line 3 of ss -tln (it did not parse)`) {
			t.Errorf("%s: standing %q, %q: want Not sure, naming line 3 of ss -tln", name, a.Standing, a.Line)
		}
		got, _ := res.Record.State["sockets"].(map[string]any)
		if list, _ := got["list"].([]any); len(list) != 1 {
			t.Errorf("%s: scope's sockets %v, want the served form with its list", name, got)
		}
	}
}
