package flow_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/rules"
)

// TestExplainFollowsAReadOfTheStagesOwnWrite: a set: stage `{n: n + 1,
// trail: n}` computes trail from its own new n (a stage reads what it
// staged), and explain said trail rested on nothing, as if it were a
// constant: the read of the staged n was not noted for the key. The chain
// now names the stage's own write of n, and under it the read n rested
// on; the other key, computed before n was written, still rests on the
// scope's n.
func TestExplainFollowsAReadOfTheStagesOwnWrite(t *testing.T) {
	t.Parallel()
	c, err := flow.New("own").
		Stage("zero", func(ctx context.Context, s *flow.Scope) error { s.Set("n", 1); return nil }).
		Stage("inc", func(ctx context.Context, s *flow.Scope) error {
			s.BeginKey()
			before := s.Value("n").(int)
			s.Set("n", before+1)
			s.BeginKey()
			s.Set("trail", s.Value("n"))
			s.BeginKey()
			s.Set("other", 7) // reads nothing: still a constant
			return nil
		}).Build()
	if err != nil {
		t.Fatal(err)
	}
	res := run(t, c)
	ex := flow.NewExplainer(&res.Log, flow.WithStructure(c.Describe()))
	e, err := ex.Key("trail", -1)
	if err != nil {
		t.Fatal(err)
	}
	if e.Value != 2 || e.Root.Stage != "inc" {
		t.Fatalf("trail = %v written by %s, want 2 by inc", e.Value, e.Root.Path)
	}
	if len(e.Root.Causes) != 1 {
		t.Fatalf("trail rests on %d causes, want the stage's own write of n: %+v", len(e.Root.Causes), e.Root.Causes)
	}
	own := e.Root.Causes[0]
	if own.Kind != flow.NodeCommit || own.Rel != flow.RelRead || own.Key != "n" || own.Value != 2 || own.Index != e.Root.Index {
		t.Fatalf("trail's cause = %+v, want a read of n = 2 written by its own commit %d", own, e.Root.Index)
	}
	if len(own.Causes) != 1 || own.Causes[0].Key != "n" || own.Causes[0].Value != 1 || own.Causes[0].Stage != "zero" {
		t.Fatalf("the own write of n rests on %+v, want the read of n = 1 written by zero", own.Causes)
	}
	for _, key := range []string{"other", "n"} {
		e, err := ex.Key(key, -1)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range e.Root.Causes {
			if c.Index == e.Root.Index {
				t.Errorf("%s is credited with the stage's own write of %s", key, c.Key)
			}
		}
	}
	if e, _ := ex.Key("other", -1); len(e.Root.Causes) != 0 {
		t.Errorf("other, a constant, rests on %+v", e.Root.Causes)
	}
}

// TestExplainIntoListRestsOnTheBranches: a foreach's into list holds each
// item's final scope, written by the item's own stages, but explain said
// `results[3].used` rested on the read of the items list alone: the branch
// commit that wrote used (and what it read) was missing from the chain.
// Each element now rests on the branch commits that last wrote its
// members; one member asked for names only its own writer, and a gathered
// key, which is not in the element, is not named.
func TestExplainIntoListRestsOnTheBranches(t *testing.T) {
	t.Parallel()
	c := mustBuild(t, perSubject(10))
	res := run(t, c, flow.WithInputs(map[string]any{"subjects": subjects(5)}))
	ex := explainer(t, c, res)
	joined := func(n *flow.CauseNode) map[string]string {
		out := map[string]string{}
		for _, k := range n.Causes {
			if k.Rel == flow.RelJoined {
				out[k.Key] = k.Path
			}
		}
		return out
	}
	e, err := ex.Key("results[3].used", -1)
	if err != nil {
		t.Fatal(err)
	}
	got := joined(e.Root)
	if len(got) != 1 || !strings.HasPrefix(got["used"], "per-subject~3/load#") {
		t.Fatalf("results[3].used joined %v, want used from per-subject~3/load", got)
	}
	e, err = ex.Key("results[3]", -1)
	if err != nil {
		t.Fatal(err)
	}
	got = joined(e.Root)
	for _, k := range []string{"subject", "used", "replicas"} {
		if !strings.HasPrefix(got[k], "per-subject~3/load#") {
			t.Errorf("results[3] joined %v, want %s from per-subject~3/load", got, k)
		}
	}
	if _, ok := got[verdicts]; ok || len(got) != 3 {
		t.Errorf("results[3] joined %v, want subject, used and replicas only", got)
	}
	e, err = ex.Key("results", -1)
	if err != nil {
		t.Fatal(err)
	}
	items := map[string]bool{}
	for _, k := range e.Root.Causes {
		if k.Rel == flow.RelJoined {
			items[strings.SplitN(k.Path, "/", 2)[0]] = true
		}
	}
	if len(items) != 5 {
		t.Errorf("results joined from the branches %v, want all 5", items)
	}
}

// TestJoinNamesEveryBranchThatWroteTheValue: two parallel branches may
// write one key with the same value; the join's write named only the
// first branch's commit as where it came from, so explain's chain said
// nothing of the second branch, which wrote it too from reads of its own.
// Write.From now names both, in branch order, and the chain joins both.
func TestJoinNamesEveryBranchThatWroteTheValue(t *testing.T) {
	t.Parallel()
	setFrom := func(src string) flow.StageFunc {
		return func(ctx context.Context, s *flow.Scope) error { s.Set("same", s.Value(src)); return nil }
	}
	c := mustBuild(t, flow.New("par").
		Stage("seed", func(ctx context.Context, s *flow.Scope) error { s.Set("a", 90); s.Set("b", 90); return nil }).
		Parallel("par", []flow.Branch{
			{Name: "left", Steps: flow.Seq().Stage("l", setFrom("a"))},
			{Name: "right", Steps: flow.Seq().Stage("r", setFrom("b"))},
		}))
	res := run(t, c)
	join := res.Log.Commits()[len(res.Log.Commits())-1]
	if len(join.Writes) != 1 || !reflect.DeepEqual(join.Writes[0].From, []string{"par~left/l#2", "par~right/r#2"}) {
		t.Fatalf("the join wrote %+v, want same from both branches", join.Writes)
	}
	e, err := flow.NewExplainer(&res.Log, flow.WithStructure(c.Describe())).Key("same", -1)
	if err != nil {
		t.Fatal(err)
	}
	var reads []string
	for _, j := range e.Root.Causes {
		if j.Rel != flow.RelJoined {
			t.Fatalf("cause %+v, want a join", j)
		}
		for _, r := range j.Causes {
			reads = append(reads, r.Key)
		}
	}
	slices.Sort(reads)
	if !reflect.DeepEqual(reads, []string{"a", "b"}) {
		t.Errorf("the joins rest on the reads %v, want a (left) and b (right)", reads)
	}
}

// TestWhyNotAnItemTheForEachNeverHad: asked why per-subject~9/p did not
// run, of a foreach over 7 subjects, explain said "Nothing kept it from
// running": the other items' reasons were rightly left out as not this
// place's, and nothing was left (the foreach had 7). The place was never in
// the run: the answer now says the log holds no item 9, and which it holds.
func TestWhyNotAnItemTheForEachNeverHad(t *testing.T) {
	t.Parallel()
	c := mustBuild(t, perSubject(10))
	res := run(t, c, flow.WithInputs(map[string]any{"subjects": subjects(7)}))
	ex := explainer(t, c, res)
	for _, target := range []string{"per-subject~9/p", "per-subject~9/protected"} {
		wn, err := ex.WhyNot(target)
		if err != nil {
			t.Fatal(err)
		}
		if len(wn.Ran) != 0 || len(wn.Reasons) != 1 {
			t.Fatalf("%s: ran %+v, reasons %+v; want one reason: no item 9", target, wn.Ran, wn.Reasons)
		}
		r := wn.Reasons[0]
		if r.Because != flow.BecauseNoItems || !strings.Contains(r.Message, "the log holds no item 9 of per-subject, only 7 items (per-subject~0, per-subject~1, per-subject~2, …, per-subject~6)") {
			t.Errorf("%s: reason %+v", target, r)
		}
	}
	// An item that ran is still answered for itself.
	wn, err := ex.WhyNot("per-subject~3/p")
	if err != nil {
		t.Fatal(err)
	}
	if len(wn.Ran) != 1 || len(wn.Reasons) != 0 {
		t.Errorf("per-subject~3/p: ran %+v, reasons %+v; want its one run", wn.Ran, wn.Reasons)
	}
}

// TestWhyNotInALogCutInsideAForEach: a foreach's own commit follows its
// branches' in the log, so a record cut between them (damaged) holds items
// that ran and no commit of the foreach; asked why per-subject~3/p did
// not run, explain said "per-subject never ran here", of a foreach whose
// items 0 to 3 the log shows running. The items the log holds are now
// followed: per-subject~3/p ran.
func TestWhyNotInALogCutInsideAForEach(t *testing.T) {
	t.Parallel()
	c := mustBuild(t, perSubject(10))
	res := run(t, c, flow.WithInputs(map[string]any{"subjects": subjects(5)}))
	cut := -1
	for i, cm := range res.Log.Commits() {
		if strings.HasPrefix(cm.Path, "per-subject~4/") {
			cut = i
			break
		}
	}
	if cut < 0 {
		t.Fatal("no commit of item 4")
	}
	log := flow.NewLog(res.Log.Inputs, res.Log.Commits()[:cut])
	ex := flow.NewExplainer(&log, flow.WithStructure(c.Describe()), flow.WithGathered(verdicts))
	wn, err := ex.WhyNot("per-subject~3/p")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range wn.Reasons {
		t.Errorf("reason %+v, want none: item 3 is in the log", r)
	}
	if len(wn.Ran) != 1 || !strings.HasPrefix(wn.Ran[0].Path, "per-subject~3/p#") {
		t.Errorf("ran %+v, want per-subject~3/p", wn.Ran)
	}
}

// TestRouteNamesTheRulesThatErroredBeforeIt: a decide whose first rule
// could not judge its value (a filter's gte over the text "95%") and whose
// default decided: the route said only "the default", as if every rule
// had been asked and said no. Route.Errored now names the rule; a rule
// that matched after it carries it too.
func TestRouteNamesTheRulesThatErroredBeforeIt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, used, want string
		rules            []decide.Rule
	}{
		{"default", "95%", "ok", []decide.Rule{{When: filter("used", rules.OpGte, 90), Then: "full", Label: "Full"}}},
		{"later rule", "95%", "named", []decide.Rule{
			{When: filter("used", rules.OpGte, 90), Then: "full", Label: "Full"},
			{When: filter("name", rules.OpEq, "/"), Then: "named", Label: "Root"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			mark := func(ctx context.Context, s *flow.Scope) error { s.Set("row", s.Value("used")); return nil }
			var branches []flow.Branch
			for _, b := range []string{"full", "named", "ok"} {
				if b == "named" && len(tc.rules) == 1 {
					continue
				}
				branches = append(branches, flow.Branch{Name: b, Steps: flow.Seq().Stage("mark-"+b, mark)})
			}
			c := mustBuild(t, flow.New("d").
				Stage("seed", func(ctx context.Context, s *flow.Scope) error { s.Set("used", tc.used); s.Set("name", "/"); return nil }).
				Decide("level", tc.rules, decide.Default{Branch: "ok", Label: "Room"}, branches))
			res := run(t, c)
			e, err := flow.NewExplainer(&res.Log, flow.WithStructure(c.Describe())).Key("row", -1)
			if err != nil {
				t.Fatal(err)
			}
			if e.Root.Stage != "mark-"+tc.want || len(e.Root.Causes) == 0 || e.Root.Causes[0].Route == nil {
				t.Fatalf("row written by %s with causes %+v, want mark-%s routed", e.Root.Stage, e.Root.Causes, tc.want)
			}
			r := e.Root.Causes[0].Route
			if len(r.Errored) != 1 || r.Errored[0].Label != "Full" || !r.Errored[0].Errored() {
				t.Errorf("route %+v: errored %+v, want rule Full", r, r.Errored)
			}
		})
	}
}

// TestExplainStageSaysWhatItChose: explain of a decider asked about by its
// stage path listed what it read and not what it chose, so the answer to
// "what did posture decide, and why?" was in the row's chain only. The
// stage's explanation now carries the choice: the rule that chose (its
// evidence) or the default; for a select every branch it took, or none.
func TestExplainStageSaysWhatItChose(t *testing.T) {
	t.Parallel()
	seq := func(id string) *flow.Builder {
		return flow.Seq().Stage(id, func(ctx context.Context, s *flow.Scope) error { s.Set(id, true); return nil })
	}
	rule := func(key string, min int, then, label string) decide.Rule {
		return decide.Rule{When: rules.MustFilter(rules.Where(key, rules.OpGt, min)), Then: then, Label: label}
	}
	build := func(used int) *flow.Chart {
		c, err := flow.New("choice").
			Stage("facts", func(ctx context.Context, s *flow.Scope) error {
				s.Set("used", used)
				s.Set("errors", 9)
				return nil
			}).
			Decide("posture", []decide.Rule{rule("used", 90, "full", "Nearly full")}, decide.Default{Branch: "ok", Label: "Room to spare"},
				[]flow.Branch{{Name: "full", Steps: seq("f")}, {Name: "ok", Steps: seq("o")}}).
			Select("notes", []decide.Rule{rule("used", 95, "huge", "Almost out"), rule("errors", 5, "noisy", "Many errors")},
				[]flow.Branch{{Name: "huge", Steps: seq("h")}, {Name: "noisy", Steps: seq("n")}}).
			Build()
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	choice := func(c *flow.Chart, stage string) *flow.Choice {
		res := run(t, c)
		ex := flow.NewExplainer(&res.Log, flow.WithStructure(c.Describe()))
		// the decision's own commit (a select's join commits at the same
		// path after it)
		var path string
		for _, cm := range res.Log.Commits() {
			if cm.Stage == stage && cm.Decided() {
				path = cm.Path
			}
		}
		e, err := ex.Stage(path)
		if err != nil {
			t.Fatal(err)
		}
		return e.Choice
	}
	var branches = func(ch *flow.Choice) []string {
		out := []string{}
		for _, r := range ch.Routes {
			why := "default"
			if r.Rule != nil {
				why = r.Rule.Label
			}
			out = append(out, r.Branch+" by "+why)
		}
		return out
	}
	for _, tc := range []struct {
		used          int
		stage         string
		want          []string
		ruleEvidenced bool
	}{
		{used: 93, stage: "posture", want: []string{"full by Nearly full"}, ruleEvidenced: true},
		{used: 50, stage: "posture", want: []string{"ok by default"}},
		{used: 97, stage: "notes", want: []string{"huge by Almost out", "noisy by Many errors"}, ruleEvidenced: true},
	} {
		ch := choice(build(tc.used), tc.stage)
		if ch == nil {
			t.Fatalf("used %d: %s's explanation says nothing of what it chose", tc.used, tc.stage)
		}
		if got := branches(ch); !slices.Equal(got, tc.want) {
			t.Errorf("used %d: %s chose %v; want %v", tc.used, tc.stage, got, tc.want)
		}
		if r := ch.Routes[0].Rule; tc.ruleEvidenced && (r == nil || len(r.Conditions) == 0) {
			t.Errorf("used %d: %s's choice carries no evidence of the rule that chose", tc.used, tc.stage)
		}
	}
	// a select none of whose rules matched chose nothing, and says so
	c, err := flow.New("none").
		Stage("facts", func(ctx context.Context, s *flow.Scope) error { s.Set("used", 1); return nil }).
		Select("notes", []decide.Rule{rule("used", 95, "huge", "Almost out")}, []flow.Branch{{Name: "huge", Steps: seq("h")}}).
		Build()
	if err != nil {
		t.Fatal(err)
	}
	if ch := choice(c, "notes"); ch == nil || ch.Kind != decide.KindSelect || len(ch.Routes) != 0 {
		t.Fatalf("a select that matched no rule: choice %+v; want a select's choice of no branch", ch)
	}
}
