package bench

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/rules"
)

// The record floor: plain Go that builds only the record a workload's
// Result must hold — the commits with their reads and writes, the decision
// evidence with every rule and condition, the final state — with plain
// comparisons and no engine, and then the narrative's text. It bounds how
// fast any engine that builds this record as it runs can be.
//
// decide10 and loop10k had floors of their own, for the record with its
// evidence built eagerly. With no recorder watching, their decisions are
// now kept compact (decide.Compact) and the evidence is rebuilt only when
// read, so an eager record is no floor for them: those two were removed
// (issue #18). A narrative wants each decision's evidence as it is made,
// so decide10-narrative's floor still holds.

// BenchmarkFloorDecide10NarrativeRecord is decide10-narrative's floor: its
// record (3 commits, 10 rules and 20 conditions of evidence, the state and
// its snapshot), then the narrative's 14 lines
// (every write, read and condition with its values) appended in plain Go
// into one buffer and cut into strings — no events, no recorder.
func BenchmarkFloorDecide10NarrativeRecord(b *testing.B) {
	labels := decide10Labels()
	b.ReportAllocs()
	for b.Loop() {
		res := decide10Record(labels)
		if lines := decide10Lines(res); len(lines) != 14 {
			b.Fatalf("floor told %d lines, want 14", len(lines))
		}
	}
}

func decide10Labels() []string {
	labels := make([]string, 10)
	for i := range labels {
		labels[i] = fmt.Sprintf("Rule %d", i)
	}
	labels[9] = "Disk filling on a degraded service"
	return labels
}

func decide10Record(labels []string) *flow.Result {
	state := make(map[string]any, 5)
	log := make([]flow.Commit, 0, 3)
	ws := make([]flow.Write, 5)
	keys := [4]string{"usedPct", "errors", "state", "host"}
	vals := [4]any{91, 3, "degraded", "db-1"}
	for i, k := range keys {
		state[k] = vals[i]
		ws[i] = flow.Write{Key: k, Value: vals[i]}
	}
	log = append(log, flow.Commit{Path: "seed#0", Stage: "seed", Writes: ws[:4:4]})
	ev := &struct {
		e   decide.Evidence
		d   decide.Default
		c   [1]string
		rs  [10]decide.RuleEvidence
		cs  [20]rules.ConditionEvidence
		rds [3]flow.Read
	}{}
	ev.d = decide.Default{Branch: "ok", Label: "No rule fired — healthy"}
	used, errs, st := state["usedPct"].(int), state["errors"].(int), state["state"].(string)
	ev.rds = [3]flow.Read{{Key: "usedPct", Value: 91, Writer: "seed#0"}, {Key: "errors", Value: 3, Writer: "seed#0"}, {Key: "state", Value: "degraded", Writer: "seed#0"}}
	chosen := ""
	for i := 0; i < 10 && chosen == ""; i++ {
		c := ev.cs[2*i : 2*i+2 : 2*i+2]
		var p0, p1 bool
		if i < 9 {
			p0, p1 = used > 95+i, errs >= 100
			c[0] = rules.ConditionEvidence{Key: "usedPct", Op: rules.OpGt, Expected: 95 + i, Actual: used, Present: true, Pass: p0}
			c[1] = rules.ConditionEvidence{Key: "errors", Op: rules.OpGte, Expected: 100, Actual: errs, Present: true, Pass: p1}
		} else {
			p0, p1 = used > 80, st == "degraded"
			c[0] = rules.ConditionEvidence{Key: "usedPct", Op: rules.OpGt, Expected: 80, Actual: used, Present: true, Pass: p0}
			c[1] = rules.ConditionEvidence{Key: "state", Op: rules.OpEq, Expected: "degraded", Actual: st, Present: true, Pass: p1}
		}
		then := "critical"
		if i == 9 {
			then = "warning"
		}
		ev.rs[i] = decide.RuleEvidence{Index: i, Label: labels[i], Then: then, Outcome: rules.Outcome{Matched: p0 && p1, Conditions: c}}
		if p0 && p1 {
			chosen = then
		}
	}
	ev.c[0] = chosen
	ev.e = decide.Evidence{Kind: decide.KindDecide, Chosen: ev.c[:], Default: &ev.d, Rules: ev.rs[:]}
	log = append(log, flow.Commit{Path: "posture#1", Stage: "posture", Reads: ev.rds[:], Decision: &ev.e})
	state["verdict"] = chosen
	ws[4] = flow.Write{Key: "verdict", Value: chosen}
	log = append(log, flow.Commit{Path: "warning-mark#2", Stage: "warning-mark", Writes: ws[4:5:5]})
	snap := make(map[string]any, len(state))
	for k, v := range state {
		snap[k] = v
	}
	res := &flow.Result{Chart: "decide10", Status: flow.StatusCompleted, Log: flow.NewLog(nil, log), Stages: 3}
	res.SetState(snap)
	return res
}

// decide10Lines tells res as the narrative does, knowing its shape: the
// same words and values, written with appends into one sized buffer.
func decide10Lines(res *flow.Result) []string {
	buf := make([]byte, 0, 1536)
	ends := make([]int, 0, 16)
	end := func() { ends = append(ends, len(buf)) }
	value := func(v any) {
		switch v := v.(type) {
		case int:
			buf = strconv.AppendInt(buf, int64(v), 10)
		case string:
			buf = strconv.AppendQuote(buf, v)
		}
	}
	buf = append(buf, "The run of "...)
	buf = append(buf, res.Chart...)
	buf = append(buf, " started."...)
	end()
	names := [3]string{"Seed", "Disk posture", "warning-mark"}
	for i := range res.Log.Commits() {
		c := &res.Log.Commits()[i]
		buf = append(buf, "Stage "...)
		buf = append(buf, names[i]...)
		buf = append(buf, " ("...)
		buf = append(buf, c.Path...)
		buf = append(buf, ") ran."...)
		end()
		for _, r := range c.Reads {
			buf = append(buf, "  read "...)
			buf = append(buf, r.Key...)
			buf = append(buf, " = "...)
			value(r.Value)
			end()
		}
		for _, w := range c.Writes {
			buf = append(buf, "  wrote "...)
			buf = append(buf, w.Key...)
			buf = append(buf, " = "...)
			value(w.Value)
			end()
		}
		if ev := c.Decision; ev != nil {
			buf = append(buf, "  "...)
			buf = append(buf, names[i]...)
			for j := range ev.Rules {
				r := &ev.Rules[j]
				if j > 0 {
					buf = append(buf, ';')
				}
				buf = append(buf, " evaluated rule "...)
				buf = strconv.AppendInt(buf, int64(r.Index+1), 10)
				buf = append(buf, ' ')
				buf = strconv.AppendQuote(buf, r.Label)
				buf = append(buf, ':')
				for k := range r.Outcome.Conditions {
					ce := &r.Outcome.Conditions[k]
					if k > 0 {
						buf = append(buf, ',')
					}
					buf = append(buf, ' ')
					buf = append(buf, ce.Key...)
					buf = append(buf, ' ')
					value(ce.Actual)
					buf = append(buf, ' ')
					buf = append(buf, ce.Op...)
					buf = append(buf, ' ')
					value(ce.Expected)
					if ce.Pass {
						buf = append(buf, " ✓"...)
					} else {
						buf = append(buf, " ✗"...)
					}
				}
			}
			buf = append(buf, "; and chose "...)
			buf = append(buf, ev.Chosen[0]...)
			buf = append(buf, '.')
			end()
		}
	}
	buf = append(buf, "The run completed."...)
	end()
	text := string(buf)
	lines := make([]string, len(ends))
	start := 0
	for i, e := range ends {
		lines[i] = text[start:e]
		start = e
	}
	return lines
}

// TestFloorDecide10LinesAreTheNarrative: the floor tells the same text as
// the narrative recorder, so it is a floor for the same work.
func TestFloorDecide10LinesAreTheNarrative(t *testing.T) {
	n := recorder.NewNarrative()
	if _, err := Decide10().Run(context.Background(), flow.WithRecorders(n)); err != nil {
		t.Fatal(err)
	}
	want := n.Lines()
	got := decide10Lines(decide10Record(decide10Labels()))
	if !slices.Equal(got, want) {
		t.Fatalf("floor lines differ from the narrative:\ngot  %q\nwant %q", got, want)
	}
}
