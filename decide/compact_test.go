package decide

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/openrunbook/runbook/rules"
)

func TestCompactable(t *testing.T) {
	f := rules.MustFilter(rules.Where("used", rules.OpGt, 90))
	many := make([]rules.Condition, CompactConditions)
	for i := range many {
		many[i] = rules.Where("used", rules.OpGt, i)
	}
	var nilFilter *rules.Filter
	for _, tc := range []struct {
		name string
		rs   []Rule
		want bool
	}{
		{"filters", []Rule{{When: f}, {When: f}}, true},
		{"no rules", nil, true},
		{"an expression rule", []Rule{{When: f}, {When: rules.MustCompile("used > 1")}}, false},
		{"a rule with no condition", []Rule{{When: nil}}, false},
		{"a nil filter", []Rule{{When: nilFilter}}, false},
		{"64 conditions", []Rule{{When: rules.MustFilter(many...)}}, true},
		{"65 conditions", []Rule{{When: rules.MustFilter(many...)}, {When: f}}, false},
	} {
		if got := Compactable(tc.rs); got != tc.want {
			t.Errorf("%s: Compactable = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestCompactPlanDecidesAsDecide: the compact decision chooses what Decide
// chooses, and its evidence, rebuilt from the same values, is Decide's.
func TestCompactPlanDecidesAsDecide(t *testing.T) {
	rs := []Rule{
		{When: rules.MustFilter(rules.Where("used", rules.OpGt, 95), rules.Where("errors", rules.OpGte, 100)), Then: "critical", Label: "Failing"},
		{When: rules.MustFilter(rules.Where("used", rules.OpGt, 80), rules.Where("state", rules.OpEq, "degraded")), Then: "warning", Label: "Filling"},
		{When: rules.MustFilter(rules.Where("host", rules.OpExists, false)), Then: "unknown", Label: "No host"},
	}
	def := Default{Branch: "ok", Label: "healthy"}
	for _, env := range []mapEnv{
		{"used": 91, "errors": 3, "state": "degraded", "host": "db-1"},
		{"used": 99, "errors": 300, "host": "db-1"},
		{"used": 50, "host": "db-1"},
		{"used": "full"},
		{},
	} {
		plan := NewCompactPlan(rs, def)
		c, branch, ok := plan.Decide(env)
		want := Decide(env, rs, def)
		if !ok || branch != want.Chosen[0] || c.Branch(rs, def) != branch {
			t.Errorf("%v: compact chose %q (ok %v), Decide chose %v", env, branch, ok, want.Chosen)
		}
		if got := plan.Materialize(c, env); !reflect.DeepEqual(*got, want) {
			t.Errorf("%v: materialized\n%+v\nwant\n%+v", env, *got, want)
		}
	}
}

// TestMaterializeNamesChangedValues: rebuilt from values other than those
// the decision read, the evidence keeps the branch the run took and says
// on each rule whose marks differ that they do.
func TestMaterializeNamesChangedValues(t *testing.T) {
	rs := []Rule{
		{When: rules.MustFilter(rules.Where("used", rules.OpGt, 90)), Then: "full", Label: "Nearly full"},
		{When: rules.MustFilter(rules.Where("used", rules.OpGt, 50)), Then: "half", Label: "Half full"},
	}
	def := Default{Branch: "ok"}
	plan := NewCompactPlan(rs, def)
	c, branch, _ := plan.Decide(mapEnv{"used": 60})
	if branch != "half" {
		t.Fatalf("branch = %q", branch)
	}
	ev := plan.Materialize(c, mapEnv{"used": 95})
	if ev.Chosen[0] != "half" || len(ev.Rules) != 1 || ev.Rules[0].Err == "" || ev.Rules[0].Matched {
		t.Fatalf("evidence = %+v; want the run's branch kept and rule 1's disagreement named", ev)
	}
}

// TestPlanEvidenceIsDecide: the evidence a plan builds with one read of
// each key (what a run whose recorder wants decisions keeps) is
// Slab.Decide's, rule for rule and condition for condition, over random
// rules and scopes: values that pass, fail, cannot compare, are missing
// or step into an object.
func TestPlanEvidenceIsDecide(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 12))
	keys := []string{"used", "state", "errors", "host", "labels.app"}
	values := []any{nil, 0, 91, 95.5, "degraded", "ok", true, []any{"a"}, map[string]any{"app": "db"}}
	ops := []rules.Op{rules.OpEq, rules.OpNe, rules.OpGt, rules.OpLt, rules.OpGte, rules.OpIn, rules.OpExists, rules.OpContains}
	for round := range 1000 {
		var rs []Rule
		for i := range 1 + r.IntN(8) {
			var conds []rules.Condition
			for range 1 + r.IntN(3) {
				op := ops[r.IntN(len(ops))]
				var exp any = values[1+r.IntN(len(values)-3)]
				switch op {
				case rules.OpExists:
					exp = r.IntN(2) == 0
				case rules.OpIn:
					exp = []any{values[r.IntN(len(values))], "ok"}
				}
				conds = append(conds, rules.Where(keys[r.IntN(len(keys))], op, exp))
			}
			f, err := rules.NewFilter(conds...)
			if err != nil {
				continue
			}
			rs = append(rs, Rule{When: f, Then: fmt.Sprintf("b%d", i%3), Label: fmt.Sprintf("rule %d", i)})
		}
		env := mapEnv{}
		for _, k := range []string{"used", "state", "errors", "host", "labels"} {
			if r.IntN(5) > 0 {
				env[k] = values[r.IntN(len(values))]
			}
		}
		def := Default{Branch: "ok", Label: "nothing fired"}
		plan := NewCompactPlan(rs, def)
		var s Slab
		got, want := plan.Evidence(&s, env), Decide(env, rs, def)
		if !reflect.DeepEqual(*got, want) {
			t.Fatalf("round %d on %v:\nplan   %+v\nDecide %+v", round, env, *got, want)
		}
	}
}

// TestPlanEvidenceOfAPanicIsDecides: a condition that panics is evaluated
// again rule by rule, so the evidence names the rule whose predicate
// panicked, as Decide's does.
func TestPlanEvidenceOfAPanicIsDecides(t *testing.T) {
	rs := []Rule{{When: rules.MustFilter(rules.Where("used", rules.OpGt, 90)), Then: "full", Label: "Nearly full"}}
	def := Default{Branch: "ok"}
	var s Slab
	got := NewCompactPlan(rs, def).Evidence(&s, panicEnv{})
	if want := Decide(panicEnv{}, rs, def); !reflect.DeepEqual(*got, want) || got.Rules[0].Err == "" {
		t.Fatalf("evidence = %+v\nwant %+v, naming the panic", *got, want)
	}
}

type panicEnv struct{}

func (panicEnv) Get(string) (any, bool) { panic("a scope that cannot be read") }
