package flow

import (
	"context"
	"testing"

	"github.com/openrunbook/runbook/recorder"
)

// TestARunLetsGoOfItsFirstScope: a Result keeps its runner alive (the
// Result, the first arena chunks and the log's first paths live in it),
// so when the run ends the runner's first scope must refer to nothing
// beyond the runner and the log — not its grown buffers, not its node
// (and so the chart), not its question or refusal — now that it is
// emptied field by field rather than zeroed whole.
func TestARunLetsGoOfItsFirstScope(t *testing.T) {
	c, err := New("wide").Stage("many", func(ctx context.Context, s *Scope) error {
		for _, k := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"} {
			s.Get(k)
			s.Set(k, 1) // past the scope's own buffer and its index threshold
		}
		s.BeginKey()
		return nil
	}).Build()
	if err != nil {
		t.Fatal(err)
	}
	r := newRunner(c, nil)
	root := r.rootFrame()
	res, err := r.finish(context.Background(), root, func(ctx context.Context) error {
		_, err := r.runSeq(ctx, root, c.root, 0)
		return err
	})
	if err != nil || len(res.Log.Commits()) != 1 || len(res.Log.Commits()[0].Writes) != 10 {
		t.Fatalf("run: %v, %+v", err, res.Log.Commits())
	}
	s := &r.scope0
	if s.n != nil || s.reads != nil || s.staged != nil || s.stagedIdx != nil || s.pending != nil || s.ask != nil || s.refused != nil {
		t.Fatalf("the runner's first scope still refers to: node %v, reads %d, staged %d, index %v, pending %v, ask %v, refused %v",
			s.n != nil, cap(s.reads), cap(s.staged), s.stagedIdx != nil, s.pending != nil, s.ask != nil, s.refused)
	}
	if r.arena0.spare != nil || r.root.state.slots != nil || r.root.state.index != nil {
		t.Fatal("the runner still holds its spare scope or its state")
	}
}

// TestARunLetsGoOfItsRecorders: the root frame's event emitter lives in
// the runner, which the Result keeps alive, so at the end of the run it
// must let go of the dispatcher (and so of the recorders and what they
// kept) and of the live recorders.
func TestARunLetsGoOfItsRecorders(t *testing.T) {
	c, err := New("told").Stage("s", func(ctx context.Context, s *Scope) error { s.Set("k", 1); return nil }).Build()
	if err != nil {
		t.Fatal(err)
	}
	n, live := recorder.NewNarrative(), recorder.NewNarrative()
	r := newRunner(c, []RunOption{WithRecorders(n), WithLiveRecorders(live)})
	root := r.rootFrame()
	if root.rec != &r.rec0 || r.rec0.d == nil || r.rec0.live == nil {
		t.Fatal("the root frame's emitter is not the runner's, or has no recorders")
	}
	if _, err := r.finish(context.Background(), root, func(ctx context.Context) error {
		_, err := r.runSeq(ctx, root, c.root, 0)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(n.Lines()) == 0 || len(live.Lines()) == 0 {
		t.Fatal("the recorders were told nothing")
	}
	if root.rec != nil || r.rec0.d != nil || r.rec0.live != nil || r.rec0.buf != nil {
		t.Fatal("the runner still holds the run's recorders")
	}
}
