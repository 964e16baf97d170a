package runbook_test

import (
	"context"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/rules"
	"github.com/openrunbook/runbook/runbook"
)

// TestGoStageTypedVerdictRowsAreRows: a Go stage that wrote its verdict
// rows with its own types — a []Row of structs, a []map[string]string —
// had the record's state show them (encoding/json wrote them) while the
// projection, which took only a []any, saw neither a row nor a dropped
// one: "no verdict rows", Consistent, over a row that said critical. A
// single row written without its list was as silent. Rows are read as
// the JSON the record writes of them; a verdicts value that is not a list
// is a dropped row, never nothing.
func TestGoStageTypedVerdictRowsAreRows(t *testing.T) {
	type row struct {
		Subject string `json:"subject"`
		Verdict string `json:"verdict"`
	}
	for _, tc := range []struct {
		name     string
		rows     any
		critical bool // the table holds the critical row
	}{
		{"a []Row of structs", []row{{"/", "critical"}}, true},
		{"a []map[string]string", []map[string]string{{"subject": "/", "verdict": "critical"}}, true},
		{"a []any of structs", []any{row{"/", "critical"}}, true},
		{"one row, not in a list", map[string]any{"subject": "/", "verdict": "critical"}, false},
	} {
		fc, err := flow.New("rows").Stage("judge", func(ctx context.Context, s *flow.Scope) error {
			s.Set(runbook.VerdictsKey, tc.rows)
			return nil
		}, flow.Type(record.VerdictType)).Build()
		if err != nil {
			t.Fatal(err)
		}
		rb, err := runbook.New(fc, runbook.WithResult(chart.ResultSpec{Kind: "verdict/disk"}))
		if err != nil {
			t.Fatal(err)
		}
		res, err := rb.Exec(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		vs, line := res.Record.Verdicts, res.Record.Assessment.Line
		if tc.critical {
			if vs.RowsTotal != 1 || !strings.Contains(vs.Table, "| / | critical |") {
				t.Errorf("%s: %d rows, table %q: want the critical row", tc.name, vs.RowsTotal, vs.Table)
			}
			continue
		}
		if vs.RowsDropped != 1 || !strings.HasPrefix(line, "Not sure") {
			t.Errorf("%s: dropped %d, %q: want a dropped row and Not sure", tc.name, vs.RowsDropped, line)
		}
	}
}

// TestGoForEachOfTypedVerdictRows: in a foreach the branches' rows are
// gathered into one list, and a branch that wrote its list as a
// []map[string]string is refused, naming the branch and the type, never
// gathered as no rows: the line is Not sure.
func TestGoForEachOfTypedVerdictRows(t *testing.T) {
	fc, err := flow.New("rows").
		Stage("list", func(ctx context.Context, s *flow.Scope) error {
			s.Set("mounts", []string{"/", "/data"})
			return nil
		}).
		ForEach("each", flow.ForEach{Items: flow.ItemsOf(rules.Key("mounts")), As: "m", MaxBranches: 10, Body: flow.Seq().
			Stage("judge", func(ctx context.Context, s *flow.Scope) error {
				rows, _ := s.Value(runbook.VerdictsKey).([]map[string]string)
				s.Set(runbook.VerdictsKey, append(append([]map[string]string{}, rows...), map[string]string{"subject": s.Value("m").(string), "verdict": "critical"}))
				return nil
			}, flow.Type(record.VerdictType))}).
		Build()
	if err != nil {
		t.Fatal(err)
	}
	rb, err := runbook.New(fc, runbook.WithResult(chart.ResultSpec{Kind: "verdict/disk"}))
	if err != nil {
		t.Fatal(err)
	}
	res, err := rb.Exec(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Run.Err; err == nil || !strings.Contains(err.Error(), `wrote "verdicts" as []map[string]string`) {
		t.Errorf("run error %v, want the gather's refusal naming the type", err)
	}
	if line := res.Record.Assessment.Line; !strings.HasPrefix(line, "Not sure") {
		t.Errorf("standing %q, want Not sure", line)
	}
}
