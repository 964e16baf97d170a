package flow

import (
	"context"
	"fmt"
	"strings"

	"github.com/openrunbook/runbook/decide"
)

// evaluate runs a decider's or selector's rules (or its Go function) as one
// stage execution and commits the evidence. A decider that may keep its
// decisions compact, with no recorder waiting for their evidence (none,
// or only recorders that read compact decisions, which end sends it to),
// commits the compact decision and returns no evidence: chosen is its
// branch. at
// is the execution's number, for spelling its path (frame.spell) where it
// is needed: a decision that goes well is seldom named.
func (r *runner) evaluate(ctx context.Context, f *frame, n *node) (ev *decide.Evidence, chosen []string, at int, err error) {
	x := f.begin(n, true)
	s := x.s
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
	case n.plan != nil && !f.rec.wantsEvidence():
		// Kept compact; a recorder that reads compact decisions is sent
		// this one by end.
		if c, branch, ok := n.plan.Decide(s); ok {
			x.lazy = lazyDecision{n: n, c: c}
			return nil, n.chosen(branch), s.count, f.end(n, &x, nil, 0, nil, false)
		}
		ev = f.arena.slab.Decide(s, n.rules, *n.def) // a predicate panicked: its evidence says so
	case n.plan != nil: // a recorder wants the evidence now
		ev = n.plan.Evidence(&f.arena.slab, s)
	default:
		ev = f.arena.slab.Decide(s, n.rules, *n.def)
	}
	at = s.count
	if err != nil {
		return nil, nil, at, f.end(n, &x, ev, 0, err, ctx.Err() != nil)
	}
	return ev, ev.Chosen, at, f.end(n, &x, ev, 0, nil, false)
}

// chosen is a one-branch choice as a slice, without allocating one for a
// branch the decider declares.
func (n *node) chosen(branch string) []string {
	for _, b := range n.branches {
		if b.name == branch {
			return b.nameSlice[:]
		}
	}
	return []string{branch}
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
	_, chosen, at, err := r.evaluate(ctx, f, n)
	if err != nil {
		return nil, err
	}
	if len(chosen) != 1 {
		return nil, f.fail(n, f.spell(n.id, at), fmt.Errorf("decider %q chose %d branches %v; a decider chooses exactly one (branches: %s)", n.name, len(chosen), chosen, n.branchNames()), false)
	}
	br := n.branchNamed(chosen[0])
	if br == nil {
		return nil, f.fail(n, f.spell(n.id, at), fmt.Errorf("decider %q chose branch %q, which does not exist (branches: %s)", n.name, chosen[0], n.branchNames()), false)
	}
	if err := r.deeper(f, ""); err != nil {
		return nil, f.fail(n, f.spell(n.id, at), err, false) // the decision's commit is made
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
	_, chosen, at, err := r.evaluate(ctx, f, n)
	if err != nil {
		return err
	}
	path := f.spell(n.id, at)
	var brs []*branch
	for _, name := range chosen {
		if n.branchNamed(name) == nil {
			return f.fail(n, path, fmt.Errorf("selector %q chose branch %q, which does not exist (branches: %s)", n.name, name, n.branchNames()), false)
		}
	}
	for _, b := range n.branches { // declaration order
		for _, name := range chosen {
			if b.name == name {
				brs = append(brs, b)
				break
			}
		}
	}
	return r.fork(ctx, f, n, path, brs)
}
