package rules

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestFilterOperators(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"used":    95,
		"usedF":   95.5,
		"state":   "degraded",
		"ok":      true,
		"nothing": nil,
		"tags":    []any{"db", "prod", 3},
		"nums":    []int{1, 2, 3},
		"meta":    map[string]any{"zone": "eu-west-1", "n": 2},
		"big":     json.Number("18446744073709551615"),
	}
	const (
		pass = iota
		fail
		missing
		incomparable
	)
	tests := []struct {
		name     string
		key      string
		op       Op
		expected any
		want     int
		reason   string // for incomparable: substring of Reason
	}{
		// eq
		{"eq pass", "used", OpEq, 95, pass, ""},
		{"eq pass int vs float", "used", OpEq, 95.0, pass, ""},
		{"eq fail", "used", OpEq, 90, fail, ""},
		{"eq string", "state", OpEq, "degraded", pass, ""},
		{"eq bool", "ok", OpEq, true, pass, ""},
		{"eq null actual", "nothing", OpEq, nil, pass, ""},
		{"eq null vs string", "nothing", OpEq, "x", fail, ""},
		{"eq list", "tags", OpEq, []any{"db", "prod", 3}, pass, ""},
		{"eq dotted", "meta.zone", OpEq, "eu-west-1", pass, ""},
		{"eq missing", "nope", OpEq, 1, missing, ""},
		{"eq incomparable", "state", OpEq, 1, incomparable, "a string cannot be compared with a number"},
		// ne
		{"ne pass", "state", OpNe, "healthy", pass, ""},
		{"ne fail", "state", OpNe, "degraded", fail, ""},
		{"ne null actual", "nothing", OpNe, "x", pass, ""},
		{"ne missing", "nope", OpNe, "x", missing, ""},
		{"ne incomparable", "used", OpNe, "95", incomparable, "a number cannot be compared with a string"},
		// gt gte lt lte
		{"gt pass", "used", OpGt, 90, pass, ""},
		{"gt fail", "used", OpGt, 95, fail, ""},
		{"gt float", "usedF", OpGt, 95, pass, ""},
		{"gt big json.Number", "big", OpGt, uint64(1 << 63), pass, ""},
		{"gt missing", "nope", OpGt, 1, missing, ""},
		{"gt incomparable", "state", OpGt, 1, incomparable, "a string cannot be compared with a number"},
		{"gt bool actual", "ok", OpGt, 1, incomparable, "a boolean cannot be compared with a number"},
		{"gte pass equal", "used", OpGte, 95, pass, ""},
		{"gte fail", "used", OpGte, 96, fail, ""},
		{"gte missing", "nope", OpGte, 1, missing, ""},
		{"gte incomparable", "tags", OpGte, 1, incomparable, "a list cannot be compared with a number"},
		{"lt pass", "used", OpLt, 100, pass, ""},
		{"lt fail", "used", OpLt, 95, fail, ""},
		{"lt strings", "state", OpLt, "e", pass, ""},
		{"lt missing", "nope", OpLt, 1, missing, ""},
		{"lt incomparable null", "nothing", OpLt, 1, incomparable, "null cannot be compared with a number"},
		{"lte pass", "used", OpLte, 95, pass, ""},
		{"lte fail", "used", OpLte, 94.999, fail, ""},
		{"lte missing", "nope", OpLte, 1, missing, ""},
		{"lte incomparable", "meta", OpLte, "x", incomparable, "a map cannot be compared with a string"},
		// in notIn
		{"in pass", "state", OpIn, []any{"failed", "degraded"}, pass, ""},
		{"in pass typed list", "used", OpIn, []int{90, 95}, pass, ""},
		{"in fail", "state", OpIn, []string{"failed"}, fail, ""},
		{"in empty", "state", OpIn, []any{}, fail, ""},
		{"in null", "nothing", OpIn, []any{nil}, pass, ""},
		{"in missing", "nope", OpIn, []any{1}, missing, ""},
		{"in incomparable", "used", OpIn, []any{"95"}, incomparable, "no element of the list is a number"},
		{"notIn pass", "state", OpNotIn, []any{"failed"}, pass, ""},
		{"notIn fail", "state", OpNotIn, []any{"degraded"}, fail, ""},
		{"notIn empty", "state", OpNotIn, []any{}, pass, ""},
		{"notIn missing", "nope", OpNotIn, []any{1}, missing, ""},
		{"notIn incomparable", "state", OpNotIn, []any{1, 2}, incomparable, "no element of the list is a string"},
		// contains
		{"contains substring", "state", OpContains, "grad", pass, ""},
		{"contains substring fail", "state", OpContains, "xyz", fail, ""},
		{"contains element", "tags", OpContains, "prod", pass, ""},
		{"contains element number", "tags", OpContains, 3.0, pass, ""},
		{"contains typed list", "nums", OpContains, 2, pass, ""},
		{"contains element fail", "tags", OpContains, "dev", fail, ""},
		{"contains missing", "nope", OpContains, "x", missing, ""},
		{"contains incomparable number", "used", OpContains, 9, incomparable, "contains needs a string or a list; the value is a number"},
		{"contains string with number", "state", OpContains, 1, incomparable, "a string can only contain a string"},
		{"contains list of other kind", "nums", OpContains, "1", incomparable, "no element of the list is a string"},
		// startsWith endsWith matches
		{"startsWith pass", "state", OpStartsWith, "deg", pass, ""},
		{"startsWith fail", "state", OpStartsWith, "ok", fail, ""},
		{"startsWith missing", "nope", OpStartsWith, "x", missing, ""},
		{"startsWith incomparable", "used", OpStartsWith, "9", incomparable, "the value is a number, not a string"},
		{"endsWith pass", "state", OpEndsWith, "ded", pass, ""},
		{"endsWith fail", "state", OpEndsWith, "x", fail, ""},
		{"endsWith missing", "nope", OpEndsWith, "x", missing, ""},
		{"endsWith incomparable", "ok", OpEndsWith, "e", incomparable, "the value is a boolean, not a string"},
		{"matches pass", "meta.zone", OpMatches, `^eu-[a-z]+-\d$`, pass, ""},
		{"matches fail", "state", OpMatches, `^ok$`, fail, ""},
		{"matches missing", "nope", OpMatches, `.`, missing, ""},
		{"matches incomparable", "tags", OpMatches, `.`, incomparable, "the value is a list, not a string"},
		// exists
		{"exists true pass", "state", OpExists, true, pass, ""},
		{"exists true missing", "nope", OpExists, true, missing, ""},
		{"exists true null", "nothing", OpExists, true, fail, ""},
		{"exists false pass missing", "nope", OpExists, false, pass, ""},
		{"exists false pass missing segment", "meta.nope", OpExists, false, pass, ""},
		{"exists false null", "nothing", OpExists, false, pass, ""},
		{"exists false fail", "state", OpExists, false, fail, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f, err := NewFilter(Where(tc.key, tc.op, tc.expected))
			if err != nil {
				t.Fatal(err)
			}
			out := f.Eval(env)
			if len(out.Conditions) != 1 {
				t.Fatalf("conditions = %d, want 1", len(out.Conditions))
			}
			c := out.Conditions[0]
			if c.Key != tc.key || c.Op != tc.op || !Equal(c.Expected, tc.expected) {
				t.Fatalf("evidence names %s %s %v", c.Key, c.Op, c.Expected)
			}
			wantPass := tc.want == pass
			if out.Matched != wantPass || c.Pass != wantPass {
				t.Fatalf("matched=%v pass=%v, want %v (reason %q)", out.Matched, c.Pass, wantPass, c.Reason)
			}
			if out.Err != "" {
				t.Fatalf("Err = %q", out.Err)
			}
			switch tc.want {
			case pass, fail:
				if tc.op != OpExists && c.Reason != "" {
					t.Fatalf("reason = %q, want none", c.Reason)
				}
				if tc.op != OpExists && !c.Present {
					t.Fatal("present = false")
				}
			case missing:
				if c.Present || c.Actual != nil {
					t.Fatalf("present=%v actual=%v; want missing", c.Present, c.Actual)
				}
				// exists asks about presence: a missing key is its answer;
				// under any other operator it is no judgement.
				if tc.op == OpExists {
					if c.Reason != "key not present" || c.Unjudged() {
						t.Fatalf("exists: reason=%q unjudged=%v; want its answer", c.Reason, c.Unjudged())
					}
				} else if !c.Unjudged() || !strings.Contains(c.Reason, `has no key "nope"`) {
					t.Fatalf("reason=%q unjudged=%v; want the absence named, unjudged", c.Reason, c.Unjudged())
				}
			case incomparable:
				if !c.Present || !strings.Contains(c.Reason, tc.reason) {
					t.Fatalf("reason = %q, want one saying %q", c.Reason, tc.reason)
				}
			}
		})
	}
}

func TestFilterEvaluatesEveryCondition(t *testing.T) {
	t.Parallel()
	f, err := NewFilter(
		Where("used", OpGt, 90),
		Where("state", OpEq, "degraded"),
		Where("zone", OpExists, true),
	)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.String(), `used gt 90 and state eq "degraded" and zone exists true`; got != want {
		t.Fatalf("String() = %q, want %q", got, want)
	}
	out := f.Eval(mapEnv{"used": 10, "state": "degraded", "zone": "eu"})
	if out.Matched {
		t.Fatal("matched with a failing condition")
	}
	passes := []bool{out.Conditions[0].Pass, out.Conditions[1].Pass, out.Conditions[2].Pass}
	if passes[0] || !passes[1] || !passes[2] {
		t.Fatalf("passes = %v, want [false true true]: every condition evaluated", passes)
	}
	if out.Conditions[0].Actual != 10 || !out.Conditions[0].Present {
		t.Fatalf("actual = %v", out.Conditions[0].Actual)
	}
	out = f.Eval(mapEnv{"used": 91, "state": "degraded", "zone": "eu"})
	if !out.Matched {
		t.Fatalf("not matched: %+v", out.Conditions)
	}
}

func TestFilterString(t *testing.T) {
	t.Parallel()
	f := MustFilter(Where("a.b", OpIn, []string{"x", "<y>"}), Where("n", OpLte, 2.5), Where("r", OpMatches, `^a\d$`))
	want := `a.b in ["x","<y>"] and n lte 2.5 and r matches "^a\\d$"`
	if f.String() != want {
		t.Fatalf("String() = %q, want %q", f.String(), want)
	}
	if got := f.Conditions(); len(got) != 3 || got[0].Key != "a.b" {
		t.Fatalf("Conditions() = %v", got)
	}
}

func TestNewFilterErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cond Condition
		want string
	}{
		{"unknown op", Where("a", "greater", 1), `unknown operator "greater" (operators: eq ne gt gte lt lte in notIn contains startsWith endsWith matches exists)`},
		{"bad regexp", Where("a", OpMatches, `(`), "invalid regular expression"},
		{"regexp not string", Where("a", OpMatches, 1), "matches needs a string; got a number"},
		{"in not list", Where("a", OpIn, "x"), "in needs a list of values; got a string"},
		{"notIn nil", Where("a", OpNotIn, nil), "notIn needs a list of values; got null"},
		{"gt bool", Where("a", OpGt, true), "gt needs a number or a string; got a boolean"},
		{"lt list", Where("a", OpLt, []any{1}), "lt needs a number or a string; got a list"},
		{"gte bad json number", Where("a", OpGte, json.Number("x")), "not a number"},
		{"startsWith number", Where("a", OpStartsWith, 1), "startsWith needs a string"},
		{"endsWith nil", Where("a", OpEndsWith, nil), "endsWith needs a string"},
		{"exists string", Where("a", OpExists, "yes"), "exists needs true or false; got a string"},
		{"empty key", Where("", OpEq, 1), "is not a path"},
		{"bad path", Where("a..b", OpEq, 1), "is not a path"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := NewFilter(Where("ok", OpEq, 1), tc.cond)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want one saying %q", err, tc.want)
			}
			var ce *ConditionError
			if !errors.As(err, &ce) || ce.Index != 1 || ce.Key != tc.cond.Key || ce.Op != tc.cond.Op {
				t.Fatalf("want a *ConditionError for condition 1, got %#v", ce)
			}
		})
	}
	if _, err := NewFilter(); err == nil {
		t.Fatal("empty filter accepted")
	}
	// Every bad condition is reported, not only the first.
	_, err := NewFilter(Where("a", "x", 1), Where("b", OpIn, 1))
	if u, ok := err.(interface{ Unwrap() []error }); !ok || len(u.Unwrap()) != 2 {
		t.Fatalf("want two joined errors, got %v", err)
	}
}

func TestFilterRegexpCompiledOnce(t *testing.T) {
	t.Parallel()
	f := MustFilter(Where("s", OpMatches, `^a+$`))
	re := f.conds[0].re
	if re == nil {
		t.Fatal("regexp not compiled by NewFilter")
	}
	for range 3 {
		f.Eval(mapEnv{"s": "aaa"})
	}
	if f.conds[0].re != re {
		t.Fatal("regexp recompiled")
	}
}

func TestFilterEvalAllocatesOnce(t *testing.T) {
	f := MustFilter(Where("s", OpMatches, `^a+$`), Where("n", OpGt, 2), Where("m.k", OpIn, []any{"x", "y"}))
	env := mapEnv{"s": "aaa", "n": 3, "m": map[string]any{"k": "y"}}
	if !f.Eval(env).Matched {
		t.Fatal("no match")
	}
	if n := testing.AllocsPerRun(50, func() { f.Eval(env) }); n > 1 {
		t.Fatalf("Eval allocates %v times, want 1 (the evidence slice)", n)
	}
}

func TestFilterNeverPanics(t *testing.T) {
	t.Parallel()
	f := MustFilter(Where("a", OpEq, 1))
	out := f.Eval(panicEnv{})
	if out.Matched || !strings.Contains(out.Err, "boom") {
		t.Fatalf("out = %+v", out)
	}
	out = f.Eval(nil)
	if out.Matched || !strings.Contains(out.Conditions[0].Reason, `the scope has no key "a"`) {
		t.Fatalf("nil env: %+v", out)
	}
}

func TestMustFilterPanics(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	MustFilter(Where("a", "bogus", 1))
}

func TestOps(t *testing.T) {
	t.Parallel()
	ops := Ops()
	if len(ops) != 13 {
		t.Fatalf("%d ops", len(ops))
	}
	for _, op := range ops {
		if !op.Valid() {
			t.Fatalf("%s not valid", op)
		}
	}
	if Op("like").Valid() {
		t.Fatal("like is valid")
	}
}

// TestFilterKeepsItsOwnOperand: a filter built from a caller's list
// (Where("port", OpIn, ports)) judged by that very list, so the caller's
// later edit of it changed the rule of every run of the chart.
func TestFilterKeepsItsOwnOperand(t *testing.T) {
	t.Parallel()
	ports := []any{22, 2222}
	f := MustFilter(Where("port", OpIn, ports))
	ports[0] = 80
	if out := f.Eval(mapEnv{"port": 22}); !out.Matched {
		t.Fatalf("port 22 in [22, 2222] did not match after the caller edited its list: %+v", out.Conditions)
	}
}
