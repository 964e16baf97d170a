package decide

import (
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
		c, branch, ok := NewCompactPlan(rs, def).Decide(env)
		want := Decide(env, rs, def)
		if !ok || branch != want.Chosen[0] || c.Branch(rs, def) != branch {
			t.Errorf("%v: compact chose %q (ok %v), Decide chose %v", env, branch, ok, want.Chosen)
		}
		if got := c.Materialize(env, rs, def); !reflect.DeepEqual(*got, want) {
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
	c, branch, _ := NewCompactPlan(rs, def).Decide(mapEnv{"used": 60})
	if branch != "half" {
		t.Fatalf("branch = %q", branch)
	}
	ev := c.Materialize(mapEnv{"used": 95}, rs, def)
	if ev.Chosen[0] != "half" || len(ev.Rules) != 1 || ev.Rules[0].Err == "" || ev.Rules[0].Matched {
		t.Fatalf("evidence = %+v; want the run's branch kept and rule 1's disagreement named", ev)
	}
}
