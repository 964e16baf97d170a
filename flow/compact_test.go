package flow_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/rules"
)

// wantsDecisions is a recorder that asks for every event, decisions among
// them, so a run with it attached builds each decision's evidence as it is
// made (the eager path).
type wantsDecisions struct{ n int }

func (w *wantsDecisions) Record(e recorder.Event) {
	if e.Kind == recorder.Decision {
		w.n++
	}
}

// randomChart builds a chart nobody wrote by hand: a seed of random facts
// (numbers, strings, null, lists, maps, keys left out), then deciders and
// selectors over random filter rules (every operator, dotted paths, keys
// that are missing) and now and then an expression rule, a foreach whose
// branches decide over their item, and a loop whose decider says when to
// stop.
func randomChart(rng *rand.Rand) *flow.Chart {
	keys := []string{"a", "b", "c", "d", "m.x", "m.y", "l.0", "l.3", "gone", "item.v", "item.s", "n"}
	value := func() any {
		switch rng.IntN(9) {
		case 0:
			return nil
		case 1:
			return rng.IntN(10)
		case 2:
			return float64(rng.IntN(100)) / 8
		case 3:
			return []string{"x", "db-1", "Degraded", ""}[rng.IntN(4)]
		case 4:
			return rng.IntN(2) == 0
		case 5:
			return []any{rng.IntN(4), "x", nil}
		case 6:
			return map[string]any{"x": rng.IntN(5), "y": "db"}
		case 7:
			return int64(1)<<53 + int64(rng.IntN(3))
		default:
			return "db-" + fmt.Sprint(rng.IntN(3))
		}
	}
	condition := func() rules.Condition {
		key := keys[rng.IntN(len(keys))]
		ops := rules.Ops()
		for {
			op := ops[rng.IntN(len(ops))]
			var exp any
			switch op {
			case rules.OpGt, rules.OpGte, rules.OpLt, rules.OpLte:
				exp = []any{rng.IntN(10), 2.5, "db-1"}[rng.IntN(3)]
			case rules.OpIn, rules.OpNotIn:
				exp = []any{rng.IntN(4), "x", nil}
			case rules.OpStartsWith, rules.OpEndsWith:
				exp = []string{"db", "1", ""}[rng.IntN(3)]
			case rules.OpMatches:
				exp = []string{"^db-[0-9]$", "x|y", "(?i)degraded"}[rng.IntN(3)]
			case rules.OpExists:
				exp = rng.IntN(2) == 0
			default:
				exp = value()
			}
			c := rules.Where(key, op, exp)
			if _, err := rules.NewFilter(c); err == nil {
				return c
			}
		}
	}
	ruleList := func(exprOK bool) []decide.Rule {
		rs := make([]decide.Rule, 3+rng.IntN(4))
		for i := range rs {
			then := []string{"x", "y", "z"}[rng.IntN(3)]
			if i < 3 {
				then = []string{"x", "y", "z"}[i] // every branch reachable
			}
			if exprOK && rng.IntN(6) == 0 {
				rs[i] = decide.Rule{When: rules.MustCompile(`a != nil && b != nil`), Then: then, Label: "expr"}
				continue
			}
			cs := make([]rules.Condition, 1+rng.IntN(3))
			for j := range cs {
				cs[j] = condition()
			}
			rs[i] = decide.Rule{When: rules.MustFilter(cs...), Then: then, Label: fmt.Sprintf("rule %d", i)}
		}
		rng.Shuffle(len(rs), func(i, j int) { rs[i], rs[j] = rs[j], rs[i] })
		return rs
	}
	marks := 0
	mark := func(v string) *flow.Builder {
		marks++
		return flow.Seq().Stage(fmt.Sprintf("mark-%s-%d", v, marks), func(ctx context.Context, s *flow.Scope) error {
			s.Set("verdict", v)
			return nil
		})
	}
	branches := func() []flow.Branch {
		return []flow.Branch{{Name: "x", Steps: mark("x")}, {Name: "y", Steps: mark("y")}, {Name: "z", Steps: mark("z")}, {Name: "ok", Steps: mark("ok")}}
	}
	facts := map[string]any{}
	for _, k := range []string{"a", "b", "c", "d", "m", "l", "n"} {
		if rng.IntN(5) == 0 {
			continue // left out: a missing key
		}
		switch k {
		case "m":
			facts[k] = map[string]any{"x": value(), "y": value()}
			if rng.IntN(4) == 0 { // a path through a value that has no members
				facts[k] = value()
			}
		case "l":
			facts[k] = []any{value(), value()}
		default:
			facts[k] = value()
		}
	}
	items := make([]any, rng.IntN(4))
	for i := range items {
		items[i] = map[string]any{"v": value(), "s": value()}
	}
	b := flow.New("random").Stage("seed", func(ctx context.Context, s *flow.Scope) error {
		for _, k := range slices.Sorted(maps.Keys(facts)) {
			s.Set(k, facts[k])
		}
		s.Set("items", items)
		s.Set("n", 0)
		return nil
	})
	for i := range 1 + rng.IntN(3) {
		id := fmt.Sprintf("d%d", i)
		if rng.IntN(4) == 0 {
			b = b.Select(id, ruleList(true), branches()[:3])
		} else {
			b = b.Decide(id, ruleList(rng.IntN(3) == 0), decide.Default{Branch: "ok", Label: "none"}, branches())
		}
	}
	body := flow.Seq().Decide("per-item", ruleList(false), decide.Default{Branch: "ok", Label: "none"}, branches())
	b = b.ForEach("each", flow.ForEach{
		Items: func(ctx context.Context, s *flow.Scope) ([]any, error) { return s.Value("items").([]any), nil },
		Body:  body, MaxBranches: 10,
	})
	passes := 1 + rng.IntN(3)
	b = b.Stage("tick", func(ctx context.Context, s *flow.Scope) error {
		v, _ := s.Get("n")
		s.Set("n", v.(int)+1)
		return nil
	}).Decide("again", append([]decide.Rule{{When: rules.MustFilter(rules.Where("n", rules.OpLt, passes)), Then: "x", Label: "more"}}, ruleList(false)...),
		decide.Default{Branch: "ok", Label: "done"}, []flow.Branch{
			{Name: "x", Steps: flow.Seq().Loop("back", flow.Loop{To: "tick", Max: passes + 1})},
			{Name: "y", Steps: mark("y")}, {Name: "z", Steps: mark("z")}, {Name: "ok", Steps: mark("ok")},
		})
	c, err := b.Build()
	if err != nil {
		panic(err)
	}
	return c
}

// TestCompactEvidenceEqualsEager is the property compact decisions rest
// on: for random charts, a run that keeps its decisions compact (no
// recorder wants their evidence) leaves the same log as a run that builds
// every decision's evidence as it is made — the evidence rebuilt from a
// commit's reads equal, field for field, to the eager evidence, and the
// log's JSON the same bytes, before and after Materialize.
func TestCompactEvidenceEqualsEager(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 2026))
	compacted := 0
	for i := range 400 {
		c := randomChart(rng)
		w := &wantsDecisions{}
		eager, err1 := c.Run(context.Background(), flow.WithRecorders(w))
		lazy, err2 := c.Run(context.Background())
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("chart %d: eager err %v, compact err %v", i, err1, err2)
		}
		if len(eager.Log.Commits()) != len(lazy.Log.Commits()) {
			t.Fatalf("chart %d: %d commits eager, %d compact", i, len(eager.Log.Commits()), len(lazy.Log.Commits()))
		}
		for j := range eager.Log.Commits() {
			e, l := &eager.Log.Commits()[j], &lazy.Log.Commits()[j]
			if e.Compact() {
				t.Fatalf("chart %d commit %d: a run whose recorder wants decisions kept one compact", i, j)
			}
			if l.Compact() {
				compacted++
			}
			if e.Decided() != l.Decided() {
				t.Fatalf("chart %d commit %s: decided %v eager, %v compact", i, e.Path, e.Decided(), l.Decided())
			}
			if !reflect.DeepEqual(e.Evidence(), l.Evidence()) {
				t.Fatalf("chart %d commit %s: evidence differs\neager:   %+v\ncompact: %+v", i, e.Path, e.Evidence(), l.Evidence())
			}
		}
		eb, err := json.Marshal(eager.Log)
		if err != nil {
			t.Fatal(err)
		}
		lb, err := json.Marshal(lazy.Log)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(eb, lb) {
			t.Fatalf("chart %d: the log's JSON differs\neager:   %s\ncompact: %s", i, eb, lb)
		}
		// commits marshalled one by one, outside a Log, carry it too
		eachB, _ := json.Marshal(lazy.Log.Commits())
		if want, _ := json.Marshal(eager.Log.Commits()); !bytes.Equal(want, eachB) {
			t.Fatalf("chart %d: the commits' JSON, outside their log, differs", i)
		}
		before := countCompact(lazy.Log)
		if plain := lazy.Log.PlainCommits(); countCompact(lazy.Log) != before || len(plain) != len(lazy.Log.Commits()) {
			t.Fatalf("chart %d: PlainCommits changed the log it viewed", i)
		}
		lazy.Log.Materialize()
		mb, _ := json.Marshal(lazy.Log)
		if !bytes.Equal(eb, mb) {
			t.Fatalf("chart %d: the materialized log's JSON differs", i)
		}
		if !reflect.DeepEqual(eager.State(), lazy.State()) {
			t.Fatalf("chart %d: state differs", i)
		}
	}
	if compacted < 400 {
		t.Fatalf("only %d decisions were kept compact: the property was hardly tested", compacted)
	}
}

// TestCompactEvidenceNamesAValueChangedInPlace: a stage that changes a
// value in place after a decider read it (the scope's contract forbids
// it) makes the rebuilt evidence disagree with the run; the evidence says
// so on the rule, and keeps the branch the run took.
func TestCompactEvidenceNamesAValueChangedInPlace(t *testing.T) {
	facts := map[string]any{"used": 95}
	c, err := flow.New("mutate").
		Stage("seed", func(ctx context.Context, s *flow.Scope) error { s.Set("facts", facts); return nil }).
		Decide("posture", []decide.Rule{{When: rules.MustFilter(rules.Where("facts.used", rules.OpGt, 90)), Then: "full", Label: "Nearly full"}},
			decide.Default{Branch: "ok", Label: "fine"}, []flow.Branch{
				{Name: "full", Steps: flow.Seq().Stage("spoil", func(ctx context.Context, s *flow.Scope) error {
					s.Value("facts").(map[string]any)["used"] = 10 // changed in place
					return nil
				})},
				{Name: "ok"},
			}).Build()
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ev := res.Log.Commits()[1].Evidence()
	if ev.Chosen[0] != "full" || !ev.Rules[0].Matched || ev.Rules[0].Err == "" {
		t.Fatalf("evidence = %+v; want the branch taken (full), the rule matched, and an error naming the disagreement", ev)
	}
}

func countCompact(l flow.Log) int {
	n := 0
	for i := range l.Commits() {
		if l.Commits()[i].Compact() {
			n++
		}
	}
	return n
}

// compactSpy reads compact decisions (recorder.CompactReader) and counts
// those it is sent.
type compactSpy struct{ compact int }

func (s *compactSpy) Wants(k recorder.Kind) bool {
	return k == recorder.Read || k == recorder.Decision
}
func (s *compactSpy) ReadsCompact() bool { return true }
func (s *compactSpy) Record(e recorder.Event) {
	if e.Kind == recorder.Decision && e.Plan != nil {
		s.compact++
	}
}

// TestCompactNarrativeEqualsEager: a narrative told a decision kept
// compact (its plan's fixed words, the values it read, its marks) writes
// the very lines it writes from the decision's evidence — over random
// charts (every operator, dotted paths, missing keys, nulls, values of
// every kind, loops folded, foreach items), at the default width, at a
// width that cuts values and operands, and with loops folded after one
// pass.
func TestCompactNarrativeEqualsEager(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 1207))
	opts := [][]recorder.NarrativeOption{nil, {recorder.WithValueWidth(6)}, {recorder.WithLoopPasses(1)}}
	compact := 0
	for i := range 400 {
		c := randomChart(rng)
		for _, o := range opts {
			told, eager := recorder.NewNarrative(o...), recorder.NewNarrative(o...)
			spy := &compactSpy{}
			_, err1 := c.Run(context.Background(), flow.WithRecorders(told, spy))
			_, err2 := c.Run(context.Background(), flow.WithRecorders(eager, &wantsDecisions{}))
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("chart %d: compact err %v, eager err %v", i, err1, err2)
			}
			compact += spy.compact
			if got, want := told.Lines(), eager.Lines(); !slices.Equal(got, want) {
				for j := range min(len(got), len(want)) {
					if got[j] != want[j] {
						t.Fatalf("chart %d, line %d:\ncompact: %s\neager:   %s", i, j, got[j], want[j])
					}
				}
				t.Fatalf("chart %d: %d lines told compact, %d eager", i, len(got), len(want))
			}
		}
	}
	if compact < 1000 {
		t.Fatalf("only %d decisions were told compact: the property was hardly tested", compact)
	}
}

// TestCompactNarrativeOfManyKeysIsToldFromItsEvidence: a decision over
// more keys than the narrative's fixed words look up (maxHeads) is told
// from its evidence, rebuilt from the reads before it: the same lines.
func TestCompactNarrativeOfManyKeysIsToldFromItsEvidence(t *testing.T) {
	var rs []decide.Rule
	for i := range 20 {
		k := fmt.Sprintf("k%02d", i)
		rs = append(rs, decide.Rule{When: rules.MustFilter(rules.Where(k, rules.OpGt, 5), rules.Where("gone", rules.OpEq, "x")), Then: "hit", Label: k})
	}
	c, err := flow.New("many").
		Stage("seed", func(ctx context.Context, s *flow.Scope) error {
			for i := range 20 {
				s.Set(fmt.Sprintf("k%02d", i), i)
			}
			return nil
		}).
		Decide("d", rs, decide.Default{Branch: "miss", Label: "none"}, []flow.Branch{
			{Name: "hit", Steps: flow.Seq().Stage("h", func(ctx context.Context, s *flow.Scope) error { return nil })},
			{Name: "miss", Steps: flow.Seq().Stage("m", func(ctx context.Context, s *flow.Scope) error { return nil })},
		}).Build()
	if err != nil {
		t.Fatal(err)
	}
	told, eager, spy := recorder.NewNarrative(), recorder.NewNarrative(), &compactSpy{}
	if _, err := c.Run(context.Background(), flow.WithRecorders(told, spy)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(context.Background(), flow.WithRecorders(eager, &wantsDecisions{})); err != nil {
		t.Fatal(err)
	}
	if spy.compact != 1 {
		t.Fatalf("%d decisions sent compact, want 1", spy.compact)
	}
	if got, want := told.Lines(), eager.Lines(); !slices.Equal(got, want) {
		t.Fatalf("compact:\n%s\neager:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
