package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/runbook"
)

// rowOf is a result's only verdict row, as text.
func rowOf(t *testing.T, res *runbook.Result) string {
	t.Helper()
	if n := len(res.Record.Verdicts.Rows); n != 1 {
		t.Fatalf("%d verdict rows, want 1", n)
	}
	r := res.Record.Verdicts.Rows[0].Values
	return fmt.Sprintf("%v %v %v %v", r["subject"], r["verdict"], r["used"], r["owner"])
}

// TestRedactedRecordsLeaveLaterRunsAlone: Check edits each record in place
// (the owners default, the filter's in: list in the evidence). Before the
// fix both edits reached the compiled chart: the next run's owners
// default read "redacted", and acme, exempt by contract, was judged over.
func TestRedactedRecordsLeaveLaterRunsAlone(t *testing.T) {
	c, err := NewChecker()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range 3 {
		res, err := c.Check(ctx, "acme", nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := rowOf(t, res); got != "acme exempt 95 ops" {
			t.Errorf("run %d: row %q, want acme exempt 95 ops (the owners default's first)", i+1, got)
		}
	}
}

// TestManyTenantsAtOnce: one compiled chart, many goroutines, each run's
// own answer (run with -race).
func TestManyTenantsAtOnce(t *testing.T) {
	c, err := NewChecker()
	if err != nil {
		t.Fatal(err)
	}
	var tenants []string
	for range 10 {
		tenants = append(tenants, "acme", "globex", "initech", "hooli")
	}
	want := map[string]string{"acme": "acme exempt 95 ops", "globex": "globex within 40 ops", "initech": "initech within 81 ops"}
	var wg sync.WaitGroup
	for i, tn := range tenants {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := c.Check(context.Background(), tn, nil)
			if err != nil {
				t.Error(err)
				return
			}
			if tn == "hooli" {
				// no usage: the stage failed, no row, never Consistent
				if res.Record.Status != "failed" || !strings.HasPrefix(res.Record.Assessment.Line, "Not sure") {
					t.Errorf("run %d (hooli): status %s, line %q", i, res.Record.Status, res.Record.Assessment.Line)
				}
				return
			}
			if got := rowOf(t, res); got != want[tn] {
				t.Errorf("run %d (%s): row %q, want %q", i, tn, got, want[tn])
			}
		}()
	}
	wg.Wait()
}

// TestLiveEventsReachTheWriter: the NDJSON stream of a live recorder was
// never flushed, so a service streaming a run's events got nothing.
func TestLiveEventsReachTheWriter(t *testing.T) {
	c, err := NewChecker()
	if err != nil {
		t.Fatal(err)
	}
	var events bytes.Buffer
	if _, err := c.Check(context.Background(), "initech", &events); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"event":"flow.decision"`, `"event":"run.end"`} {
		if !strings.Contains(events.String(), want) {
			t.Errorf("the live NDJSON stream lacks %s: %q", want, events.String())
		}
	}
}

// TestInputsFormLeavesSecretsMasked: a form built from Inputs() that
// clears Secret changed the runbook's own list, and the next record held
// the token in the clear.
func TestInputsFormLeavesSecretsMasked(t *testing.T) {
	c, err := NewChecker()
	if err != nil {
		t.Fatal(err)
	}
	form := c.rb.Inputs()
	for i := range form {
		form[i].Secret = false
	}
	res, err := c.rb.Exec(context.Background(), map[string]any{"tenant": "globex", "token": "tok-5ecret-991"})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(res.Record.State["token"]); strings.Contains(got, "5ecret") {
		t.Errorf("the record holds the token: %s", got)
	}
}

// TestMisspeltVerdictKind: kind verdicts/quota projected no rows; the run
// stood Consistent with no table over a row that said over.
func TestMisspeltVerdictKind(t *testing.T) {
	fc, err := flow.New("x").Stage("s", func(ctx context.Context, s *flow.Scope) error {
		s.Set(runbook.VerdictsKey, []any{map[string]any{"subject": "acme", "verdict": "over"}})
		return nil
	}).Build()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runbook.New(fc, runbook.WithResult(chart.ResultSpec{Kind: "verdicts/quota"})); err == nil || !strings.Contains(err.Error(), "verdict/quota") {
		t.Errorf("New took kind verdicts/quota: %v", err)
	}
}
