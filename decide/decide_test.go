package decide

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/rules"
)

type mapEnv map[string]any

func (m mapEnv) Get(k string) (any, bool) { v, ok := m[k]; return v, ok }

// fixed is a predicate with a set outcome.
type fixed rules.Outcome

func (f fixed) Eval(rules.Env) rules.Outcome { return rules.Outcome(f) }
func (f fixed) String() string               { return "fixed" }

type panicky struct{}

func (panicky) Eval(rules.Env) rules.Outcome { panic("kaboom") }
func (panicky) String() string               { return "panicky" }

var (
	yes  = fixed{Matched: true}
	no   = fixed{Matched: false}
	oops = fixed{Matched: true, Err: "cannot fetch x"} // an error is never a match
)

func posture() ([]Rule, Default) {
	return []Rule{
		{When: rules.MustCompile("volume.replicas < 1"), Then: "unprotected", Label: "No replica"},
		{When: rules.MustFilter(rules.Where("used", rules.OpGt, 90), rules.Where("state", rules.OpEq, "degraded")),
			Then: "at-risk", Label: "Nearly full on a degraded service"},
		{When: rules.MustCompile("volume.replicas >= 2"), Then: "protected", Label: "Two or more replicas"},
	}, Default{Branch: "declined", Label: "No rule reached a verdict"}
}

func TestDecide(t *testing.T) {
	t.Parallel()
	rs, def := posture()
	tests := []struct {
		name      string
		env       mapEnv
		chosen    string
		evaluated int
		fell      bool
	}{
		{"first rule", mapEnv{"volume": map[string]any{"replicas": 0}}, "unprotected", 1, false},
		{"second rule", mapEnv{"volume": map[string]any{"replicas": 2}, "used": 95, "state": "degraded"}, "at-risk", 2, false},
		{"first match wins over a later one", mapEnv{"volume": map[string]any{"replicas": 3}, "used": 95, "state": "degraded"}, "at-risk", 2, false},
		{"third rule", mapEnv{"volume": map[string]any{"replicas": 2}, "used": 10, "state": "degraded"}, "protected", 3, false},
		{"none: default", mapEnv{"volume": map[string]any{"replicas": 1}, "used": 10}, "declined", 3, true},
		{"errors fall through", mapEnv{}, "declined", 3, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ev := Decide(tc.env, rs, def)
			if ev.Kind != KindDecide || !slices.Equal(ev.Chosen, []string{tc.chosen}) {
				t.Fatalf("kind %s chosen %v, want decide [%s]", ev.Kind, ev.Chosen, tc.chosen)
			}
			if len(ev.Rules) != tc.evaluated {
				t.Fatalf("%d rules on the evidence, want %d", len(ev.Rules), tc.evaluated)
			}
			for i, r := range ev.Rules {
				if r.Index != i || r.Then != rs[i].Then || r.Label != rs[i].Label {
					t.Fatalf("rule %d evidence = %+v", i, r)
				}
				if last := i == len(ev.Rules)-1; r.Matched != (last && !tc.fell) {
					t.Fatalf("rule %d matched = %v", i, r.Matched)
				}
			}
			// The default and its label ride every decision, matched or not.
			if ev.Default == nil || *ev.Default != def {
				t.Fatalf("default = %+v, want %+v", ev.Default, def)
			}
			if ev.FellThrough() != tc.fell {
				t.Fatalf("FellThrough = %v", ev.FellThrough())
			}
			m, ok := ev.Matched()
			if ok == tc.fell || (ok && m.Then != tc.chosen) {
				t.Fatalf("Matched() = %+v, %v", m, ok)
			}
		})
	}
}

func TestDecideEvidenceDetail(t *testing.T) {
	t.Parallel()
	rs, def := posture()
	ev := Decide(mapEnv{"volume": map[string]any{"replicas": 2}, "used": 95, "state": "degraded"}, rs, def)
	if got := ev.Rules[0].Inputs; len(got) != 1 || got[0].Path != "volume.replicas" || got[0].Value != 2 || ev.Rules[0].Expr != "volume.replicas < 1" {
		t.Fatalf("expr evidence = %+v", ev.Rules[0].Outcome)
	}
	if c := ev.Rules[1].Conditions; len(c) != 2 || c[0].Actual != 95 || !c[0].Pass || !c[1].Pass {
		t.Fatalf("filter evidence = %+v", c)
	}
	// The default is a copy: changing it changes neither the caller's nor
	// another decision's.
	ev.Default.Label = "changed"
	if def.Label != "No rule reached a verdict" || Decide(mapEnv{}, rs, def).Default.Label != def.Label {
		t.Fatal("default shared")
	}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"kind":"decide"`, `"chosen":["at-risk"]`, `"default":{"branch":"declined","label":"changed"}`,
		`"index":0,"label":"No replica","then":"unprotected","matched":false,"expr":"volume.replicas \u003c 1","result":false,"inputs":{"volume.replicas":2}`,
		`{"key":"used","op":"gt","expected":90,"actual":95,"present":true,"pass":true}`} {
		if !strings.Contains(string(b), want) {
			t.Fatalf("JSON %s\nlacks %s", b, want)
		}
	}
}

func TestDecideErroringPredicate(t *testing.T) {
	t.Parallel()
	rs := []Rule{
		{When: oops, Then: "a"},
		{When: panicky{}, Then: "b"},
		{When: nil, Then: "c"},
		{When: rules.MustCompile(`"not a bool"`), Then: "d"},
		{When: yes, Then: "e", Label: "catch-all"},
	}
	ev := Decide(mapEnv{}, rs, Default{Branch: "z"})
	if !slices.Equal(ev.Chosen, []string{"e"}) || len(ev.Rules) != 5 {
		t.Fatalf("chosen %v after %d rules", ev.Chosen, len(ev.Rules))
	}
	wantErr := []string{"cannot fetch x", "panicked: kaboom", "no condition", "must be true or false"}
	for i, w := range wantErr {
		r := ev.Rules[i]
		if r.Matched || !strings.Contains(r.Err, w) {
			t.Fatalf("rule %d: matched=%v err=%q, want a non-match saying %q", i, r.Matched, r.Err, w)
		}
	}
	if ev.Default == nil || ev.Default.Branch != "z" || ev.Default.Label != "" {
		t.Fatalf("default = %+v", ev.Default)
	}
}

func TestDecideNoRules(t *testing.T) {
	t.Parallel()
	ev := Decide(nil, nil, Default{Branch: "only"})
	if !slices.Equal(ev.Chosen, []string{"only"}) || ev.Rules == nil || !ev.FellThrough() {
		t.Fatalf("%+v", ev)
	}
	b, _ := json.Marshal(ev)
	if !strings.Contains(string(b), `"rules":[]`) {
		t.Fatalf("JSON %s", b)
	}
}

func TestSelect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		rs     []Rule
		chosen []string
	}{
		{"all", []Rule{{When: yes, Then: "a"}, {When: yes, Then: "b"}, {When: yes, Then: "c"}}, []string{"a", "b", "c"}},
		{"some, rule order", []Rule{{When: no, Then: "a"}, {When: yes, Then: "c"}, {When: yes, Then: "b"}}, []string{"c", "b"}},
		{"none", []Rule{{When: no, Then: "a"}, {When: oops, Then: "b"}}, []string{}},
		{"duplicate branch once, first place", []Rule{{When: yes, Then: "b"}, {When: yes, Then: "a"}, {When: yes, Then: "b"}}, []string{"b", "a"}},
		{"errors are non-matches", []Rule{{When: panicky{}, Then: "a"}, {When: yes, Then: "b"}}, []string{"b"}},
		{"no rules", nil, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ev := Select(mapEnv{}, tc.rs)
			if ev.Kind != KindSelect || ev.Default != nil {
				t.Fatalf("kind %s default %v", ev.Kind, ev.Default)
			}
			if ev.Chosen == nil || !slices.Equal(ev.Chosen, tc.chosen) {
				t.Fatalf("chosen %#v, want %#v", ev.Chosen, tc.chosen)
			}
			if len(ev.Rules) != len(tc.rs) {
				t.Fatalf("%d rules on the evidence, want all %d", len(ev.Rules), len(tc.rs))
			}
			if ev.FellThrough() {
				t.Fatal("a selection fell through")
			}
			_, ok := ev.Matched()
			if ok != (len(tc.chosen) > 0) {
				t.Fatalf("Matched() ok = %v", ok)
			}
		})
	}
	b, _ := json.Marshal(Select(mapEnv{}, []Rule{{When: no, Then: "a"}}))
	if !strings.Contains(string(b), `"chosen":[]`) || strings.Contains(string(b), `"default"`) {
		t.Fatalf("JSON %s", b)
	}
}

func TestBranches(t *testing.T) {
	t.Parallel()
	rs, def := posture()
	rs = append(rs, Rule{When: yes, Then: "at-risk"}, Rule{When: yes, Then: ""})
	if got, want := Branches(rs, &def), []string{"unprotected", "at-risk", "protected", "declined"}; !slices.Equal(got, want) {
		t.Fatalf("Branches = %v, want %v", got, want)
	}
	if got, want := Branches(rs, nil), []string{"unprotected", "at-risk", "protected"}; !slices.Equal(got, want) {
		t.Fatalf("Branches(no default) = %v, want %v", got, want)
	}
	if got := Branches(nil, &Default{Branch: "unprotected"}); !slices.Equal(got, []string{"unprotected"}) {
		t.Fatalf("Branches = %v", got)
	}
}

func BenchmarkDecide(b *testing.B) {
	// The engine's shape: 10 filter rules × 2 conditions, the last matches.
	rs := make([]Rule, 10)
	for i := range rs {
		rs[i] = Rule{When: rules.MustFilter(rules.Where("used", rules.OpGt, 90-i*10), rules.Where("state", rules.OpEq, "degraded")),
			Then: "b", Label: "rule"}
	}
	env := mapEnv{"used": 5, "state": "degraded"}
	rs[9].When = rules.MustFilter(rules.Where("used", rules.OpGt, 0), rules.Where("state", rules.OpEq, "degraded"))
	def := Default{Branch: "declined", Label: "none"}
	b.ReportAllocs()
	for b.Loop() {
		Decide(env, rs, def)
	}
}
