package runbook_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/rules"
	"github.com/openrunbook/runbook/runbook"
)

// TestEditingAResultLeavesTheNextRunAlone: a service that runs one compiled
// chart for many tenants, and edits a result's record before it hands it
// on, must not change what the next run starts from. A list or object
// default (WithInputs) and a set: whose expression is a literal list were
// the very values every run's state and record held, so writing into
// res.Record.State changed the next run's default and the next run's
// set: — its rows named a host nobody gave, over a line that said nothing
// of it; an edit of the record's decision evidence (a filter's in: list)
// edited the rule the next run judged by. The caller's own input map, edited after the run, likewise
// changed what that run's record said it was given.
func TestEditingAResultLeavesTheNextRunAlone(t *testing.T) {
	t.Parallel()
	fc, err := flow.New("hosts").Stage("mark", func(ctx context.Context, s *flow.Scope) error {
		h, _ := s.Value("hosts").([]any)
		o, _ := s.Value("owner").(map[string]any)
		s.Set("verdicts", []any{map[string]any{"subject": h[0], "verdict": "ok", "owner": o["team"]}})
		return nil
	}).Build()
	if err != nil {
		t.Fatal(err)
	}
	rb, err := runbook.New(fc, runbook.WithResult(chart.ResultSpec{Kind: "verdict/hosts"}), runbook.WithInputs(
		chart.InputSpec{Name: "hosts", Type: "list", Default: []any{"db-1"}, HasDefault: true},
		chart.InputSpec{Name: "owner", Type: "object", Default: map[string]any{"team": "dba"}, HasDefault: true}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := rb.Exec(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Record.State["hosts"].([]any)[0] = "edited"
	res.Record.Inputs.Assumed["owner"].(map[string]any)["team"] = "edited"
	res, err = rb.Exec(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if row := res.Record.Verdicts.Rows[0].Values; row["subject"] != "db-1" || row["owner"] != "dba" {
		t.Errorf("the second run's row after the first run's record was edited: %v; want subject db-1, owner dba (the defaults)", row)
	}

	// A foreach over a literal list built in Go: its into: results held
	// the literal's own maps.
	body := flow.Seq().Stage("mark", func(ctx context.Context, s *flow.Scope) error {
		h, _ := s.Value("h").(map[string]any)
		s.Set("verdicts", []any{map[string]any{"subject": h["host"], "verdict": "ok"}})
		return nil
	})
	lfc, err := flow.New("literal").ForEach("each", flow.ForEach{Items: flow.ItemsOf(rules.Literal([]any{map[string]any{"host": "db-1"}})),
		As: "h", MaxBranches: 5, Into: "results", Body: body}).Build()
	if err != nil {
		t.Fatal(err)
	}
	lrb, err := runbook.New(lfc, runbook.WithResult(chart.ResultSpec{Kind: "verdict/hosts"}))
	if err != nil {
		t.Fatal(err)
	}
	res, err = lrb.Exec(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Record.State["results"].([]any)[0].(map[string]any)["h"].(map[string]any)["host"] = "edited"
	if res, err = lrb.Exec(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if got := res.Record.Verdicts.Rows[0].Values["subject"]; got != "db-1" {
		t.Errorf("the foreach over rules.Literal checked %v after the first run's into: results were edited; want db-1", got)
	}

	given := map[string]any{"hosts": []any{"web-1"}, "owner": map[string]any{"team": "web"}}
	res, err = rb.Exec(ctx, given)
	if err != nil {
		t.Fatal(err)
	}
	given["hosts"].([]any)[0] = "reused"
	if got := res.Record.State["hosts"].([]any)[0]; got != "web-1" {
		t.Errorf("the record says hosts[0] = %v after the caller reused its input map; the run was given web-1", got)
	}

	path := filepath.Join(t.TempDir(), "chart.yaml")
	if err := os.WriteFile(path, []byte(`version: 1
runbook: ports
stages:
  - id: want
    set: {ports: "[22, 443]"}
  - id: mark
    verdict: {subject: "'db-1'", verdict: "'ok'", first: "ports[0]"}
  - id: ssh
    decide:
      rules:
        - {when: {ports.0: {in: [22, 2222]}}, then: ssh, label: An SSH port first}
      default: {branch: other, label: Another port first}
    branches:
      ssh: []
      other: []
result:
  kind: verdict/ports
`), 0o600); err != nil {
		t.Fatal(err)
	}
	yrb, err := runbook.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err = yrb.Exec(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Record.State["ports"].([]any)[0] = "edited"
	res.Record.Decisions[0].Rules[0].Conditions[0].Expected.([]any)[0] = 80
	res, err = yrb.Exec(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if first := res.Record.Verdicts.Rows[0].Values["first"]; first != 22 {
		t.Errorf("the second run's set: of the literal [22, 443] read ports[0] = %v after the first run's record was edited; want 22", first)
	}
	if d := res.Record.Decisions[0]; d.Chosen[0] != "ssh" {
		t.Errorf("the second run's decider chose %v over port 22 after the first run's evidence (in [22, 2222]) was edited; want ssh (%+v)", d.Chosen, d.Rules[0].Conditions)
	}
}
