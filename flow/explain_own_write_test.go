package flow_test

import (
	"context"
	"testing"

	"github.com/openrunbook/runbook/flow"
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
