package runbook_test

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
)

// TestIssue19GoStageNaNKeepsTheRecordWritable: a stage written in Go that
// writes a float NaN or ±Inf straight into the scope (no expression, so no
// jsonv.Normalize on the way) made record.WriteFile fail, losing the run's
// record. The stage now fails naming the key and the value, its other
// writes are kept, and the record is written and read back.
func TestIssue19GoStageNaNKeepsTheRecordWritable(t *testing.T) {
	for _, tc := range []struct {
		name  string
		value any
		words string
	}{
		{"NaN", math.NaN(), "NaN"},
		{"+Inf", math.Inf(1), "+Inf"},
		{"-Inf inside a list", []any{1.0, math.Inf(-1)}, "-Inf"},
		{"NaN inside an object", map[string]any{"pct": math.NaN()}, "NaN"},
		{"a typed float32 NaN", float32(math.NaN()), "NaN"},
		{"a channel", make(chan int), "chan int"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fc, err := flow.New("nan").
				Stage("measure", func(ctx context.Context, s *flow.Scope) error {
					s.Set("total", 0)
					s.Set("pct", tc.value)
					return nil
				}).
				Build()
			if err != nil {
				t.Fatal(err)
			}
			rb, err := runbook.New(fc)
			if err != nil {
				t.Fatal(err)
			}
			res, err := rb.Exec(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Record.Status != "failed" || res.Record.Error == nil {
				t.Fatalf("status %q; want the stage to fail on pct = %v", res.Record.Status, tc.value)
			}
			if msg := res.Record.Error.Message; !strings.Contains(msg, `"pct"`) || !strings.Contains(msg, tc.words) {
				t.Errorf("error %q does not name the key \"pct\" and %q", msg, tc.words)
			}
			path := filepath.Join(t.TempDir(), "r.json")
			if err := res.WriteRecord(path); err != nil {
				t.Fatalf("the record cannot be written: %v", err)
			}
			rec, problems, err := record.ReadRecord(path)
			if err != nil || len(problems) > 0 {
				t.Fatalf("the record does not read back: %v %v", err, problems)
			}
			var total, pct bool
			for _, c := range rec.Log.Commits() {
				for _, w := range c.Writes {
					total = total || w.Key == "total"
					pct = pct || w.Key == "pct"
				}
			}
			if !total || pct {
				t.Errorf("writes kept: total %v, pct %v; want the stage's other writes kept and pct refused", total, pct)
			}
		})
	}
}
