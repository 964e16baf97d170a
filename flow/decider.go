package flow

import (
	"context"
	"fmt"
	"strings"

	"github.com/openrunbook/runbook/decide"
)

// evaluate runs a decider's or selector's rules (or its Go function) as one
// stage execution and commits the evidence.
func (r *runner) evaluate(ctx context.Context, f *frame, n *node) (*decide.Evidence, string, error) {
	x := f.begin(n, true)
	s := x.s
	var ev *decide.Evidence
	var err error
	switch {
	case n.decideFn != nil:
		fnEv := new(decide.Evidence)
		err = r.call(ctx, s, func(ctx context.Context) error {
			e, err := n.decideFn(ctx, s)
			*fnEv = e
			return err
		})
		ev = fnEv
	case n.kind == KindSelect:
		ev = f.arena.slab.Select(s, n.rules)
	default:
		ev = f.arena.slab.Decide(s, n.rules, *n.def)
	}
	path := s.path
	if err != nil {
		return nil, path, f.end(n, x, ev, 0, err, ctx.Err() != nil)
	}
	return ev, path, f.end(n, x, ev, 0, nil, false)
}

func (n *node) branchNamed(name string) *branch {
	for _, b := range n.branches {
		if b.name == name {
			return b
		}
	}
	return nil
}

func (n *node) branchNames() string {
	names := make([]string, len(n.branches))
	for i, b := range n.branches {
		names[i] = b.name
	}
	return strings.Join(names, ", ")
}

func (r *runner) runDecide(ctx context.Context, f *frame, n *node) (*node, error) {
	ev, path, err := r.evaluate(ctx, f, n)
	if err != nil {
		return nil, err
	}
	if len(ev.Chosen) != 1 {
		return nil, f.fail(n, path, fmt.Errorf("decider %q chose %d branches %v; a decider chooses exactly one (branches: %s)", n.name, len(ev.Chosen), ev.Chosen, n.branchNames()), false)
	}
	br := n.branchNamed(ev.Chosen[0])
	if br == nil {
		return nil, f.fail(n, path, fmt.Errorf("decider %q chose branch %q, which does not exist (branches: %s)", n.name, ev.Chosen[0], n.branchNames()), false)
	}
	if err := r.deeper(f, ""); err != nil {
		return nil, f.fail(n, path, err, false) // the decision's commit is made
	}
	f.depth++
	jump, err := r.runSeq(ctx, f, br.seq, 0)
	f.depth--
	if ps := asPause(err); ps != nil {
		ps.at = append([]Step{{Node: n.id, Branch: br.name}}, ps.at...)
	}
	return jump, err
}

func (r *runner) runSelect(ctx context.Context, f *frame, n *node) error {
	ev, path, err := r.evaluate(ctx, f, n)
	if err != nil {
		return err
	}
	var brs []*branch
	for _, name := range ev.Chosen {
		if n.branchNamed(name) == nil {
			return f.fail(n, path, fmt.Errorf("selector %q chose branch %q, which does not exist (branches: %s)", n.name, name, n.branchNames()), false)
		}
	}
	for _, b := range n.branches { // declaration order
		for _, name := range ev.Chosen {
			if b.name == name {
				brs = append(brs, b)
				break
			}
		}
	}
	return r.fork(ctx, f, n, path, brs)
}
