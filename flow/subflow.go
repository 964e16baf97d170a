package flow

import (
	"context"
	"fmt"

	"github.com/openrunbook/runbook/recorder"
)

// frameEnv reads a frame's state without tracking (output bindings read a
// finished subflow).
type frameEnv struct{ f *frame }

func (e frameEnv) Get(key string) (any, bool) {
	en, ok := e.f.lookup(key)
	return en.v, ok
}

func (r *runner) runSubflow(ctx context.Context, f *frame, n *node) error {
	x := f.begin(n, true)
	s := x.s
	path := s.where()
	if err := r.deeper(f, " subflows and branches (a subflow that mounts itself?)"); err != nil {
		return f.end(n, &x, nil, 0, err, false)
	}
	c := f.child(ScopeStep{Node: n.id}, false, "")
	isolated := n.mount.Inputs != nil
	if isolated {
		c.parent, c.isolated = nil, true
		for _, b := range n.mount.Inputs {
			v, _, err := b.From.Value(s)
			if err != nil {
				return f.end(n, &x, nil, 0, fmt.Errorf("subflow input %q: %w", b.Key, err), false)
			}
			c.state.put(b.Key, entry{v: v, writer: path, bound: true})
		}
	}
	f.end(n, &x, nil, 0, nil, false)
	f.event(f.nodeEvent(recorder.SubflowEnter, n, path))
	jump, err := r.runSeq(ctx, c, n.subflow.root, 0)
	f.event(f.nodeEvent(recorder.SubflowExit, n, path))
	if err != nil {
		return err
	}
	if jump != nil {
		return &RunError{Path: path, Stage: n.id, Message: fmt.Sprintf("a loop jumps to %q, outside the subflow", jump.id)}
	}
	if n.mount.Outputs == nil {
		if isolated {
			c.parent = f
		}
		return f.join(n, []string{n.id}, []*frame{c})
	}
	out := f.begin(n, false)
	env := frameEnv{c}
	for _, b := range n.mount.Outputs {
		v, _, err := b.From.Value(env)
		if err != nil {
			return f.end(n, &out, nil, 0, fmt.Errorf("subflow output %q: %w", b.Key, err), false)
		}
		out.s.Set(b.Key, v)
	}
	return f.end(n, &out, nil, 0, nil, false)
}
