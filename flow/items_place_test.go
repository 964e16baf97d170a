package flow_test

import (
	"context"
	"sync"
	"testing"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/recorder"
)

// placeRecorder keeps every stage start's path and place.
type placeRecorder struct {
	mu     sync.Mutex
	places map[string]string
}

func (p *placeRecorder) Record(e recorder.Event) {
	if e.Kind != recorder.StageStart {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.places[e.Path] = e.Place
}

// TestForeachItemsShareTheirGeneralPlace: every item of a foreach points
// its scope step at its own index (one slice of them a foreach) and shares
// one general spelling (`outer~*`, spelled once a foreach). In a foreach
// nested in a foreach, beside a parallel fork, each commit's scope must
// still name its own item — the index in its path — and each stage's
// place must be its scope with every item written `*`.
func TestForeachItemsShareTheirGeneralPlace(t *testing.T) {
	items := func(n int) func(ctx context.Context, s *flow.Scope) ([]any, error) {
		return func(ctx context.Context, s *flow.Scope) ([]any, error) { return make([]any, n), nil }
	}
	mark := func(ctx context.Context, s *flow.Scope) error { s.Set("seen", true); return nil }
	c, err := flow.New("nested").ForEach("outer", flow.ForEach{
		Items: items(5), MaxBranches: 5,
		Body: flow.Seq().Stage("a", mark).
			ForEach("inner", flow.ForEach{Items: items(3), MaxBranches: 3, Body: flow.Seq().Stage("b", mark)}).
			Parallel("both", []flow.Branch{{Name: "left", Steps: flow.Seq().Stage("l", mark)}, {Name: "right", Steps: flow.Seq().Stage("r", mark)}}),
	}).Build()
	if err != nil {
		t.Fatal(err)
	}
	rec := &placeRecorder{places: map[string]string{}}
	res, err := c.Run(context.Background(), flow.WithRecorders(rec), flow.WithConcurrency(3))
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, cm := range res.Log.Commits() {
		pos, err := flow.ParsePath(cm.Path)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := flow.ScopeString(cm.Scope), flow.ScopeString(pos.Scope); got != want {
			t.Fatalf("%s: its scope reads %q", cm.Path, got)
		}
		place, ok := rec.places[cm.Path]
		if !ok {
			continue // an execution that announces no start (a fork, a join)
		}
		if want := flow.GeneralScope(cm.Scope); place != want {
			t.Fatalf("%s: place %q, want %q", cm.Path, place, want)
		}
		seen++
	}
	// 5 outer items: a, 3 inner b, l, r — and the foreach stages themselves
	if want := 1 + 5*(1+1+3+2); seen != want {
		t.Fatalf("%d stage starts checked, want %d", seen, want)
	}
	nested := 0
	for _, p := range rec.places {
		if p == "outer~*/inner~*" {
			nested++
		}
	}
	if nested != 5*3 {
		t.Fatalf("%d stages placed at outer~*/inner~*, want %d", nested, 5*3)
	}
}
