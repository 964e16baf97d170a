package flow

import (
	"context"
	"fmt"

	"github.com/openrunbook/runbook/recorder"
)

// runSeq runs seq from index `from`. It returns a node to jump to when a
// loop targets a stage outside seq (the caller that holds it jumps).
func (r *runner) runSeq(ctx context.Context, f *frame, seq *sequence, from int) (*node, error) {
	for i := from; i < len(seq.nodes); i++ {
		n := seq.nodes[i]
		if err := ctx.Err(); err != nil {
			return nil, notStarted(ctx, f, n, err)
		}
		if r.opts.yield != nil {
			if r.yields(f) {
				return nil, &pauseSignal{at: []Step{{Node: n.id}}}
			}
			// The host's yield may have ended the run: its clock, not a
			// timer's firing, said the run's deadline had passed.
			if err := ctx.Err(); err != nil {
				return nil, notStarted(ctx, f, n, err)
			}
		}
		jump, err := r.runNode(ctx, f, n)
		if err != nil {
			if !continuable(ctx, n, err) {
				return nil, err
			}
			r.noteContinued(f, n, err)
			jump = nil
		}
		if jump != nil {
			if jump.seq == seq {
				i = jump.index - 1
				continue
			}
			return jump, nil
		}
		f.next(seq, i)
	}
	return nil, nil
}

// notStarted is the error of a run whose context ended before node n
// started.
func notStarted(ctx context.Context, f *frame, n *node, err error) *RunError {
	return &RunError{Path: Position{Scope: f.steps, Node: n.id, N: -1}.String(), Stage: n.id, Message: "the run " + endedBy(ctx) + " before this stage started: " + err.Error(), Cancelled: true, err: err}
}

// next tells the recorders the run goes on from seq's node i to the one
// after it.
func (f *frame) next(seq *sequence, i int) {
	if i+1 < len(seq.nodes) && f.rec.wants(recorder.Next) {
		e := f.nodeEvent(recorder.Next, seq.nodes[i], "")
		e.Target = seq.nodes[i+1].id
		f.rec.emit(e)
	}
}

func (r *runner) runNode(ctx context.Context, f *frame, n *node) (*node, error) {
	switch n.kind {
	case KindStage:
		return nil, r.runStage(ctx, f, n)
	case KindDecide:
		return r.runDecide(ctx, f, n)
	case KindSelect:
		return nil, r.runSelect(ctx, f, n)
	case KindParallel:
		return nil, r.runParallel(ctx, f, n)
	case KindForEach:
		return nil, r.runForEach(ctx, f, n)
	case KindSubflow:
		return nil, r.runSubflow(ctx, f, n)
	case KindLoop:
		return r.runLoop(ctx, f, n)
	}
	return nil, &RunError{Path: Position{Scope: f.steps, Node: n.id, N: -1}.String(), Stage: n.id, Message: fmt.Sprintf("unknown node kind %q", n.kind)}
}

// yields asks the host's yield (WithYield) whether to stop before the next
// node of f: only in the root frame, whose positions a checkpoint can
// name, and never before the first node a run starts, so every part of a
// yielded run makes progress.
func (r *runner) yields(f *frame) bool {
	if r.opts.yield == nil || f != &r.root {
		return false
	}
	if !r.begun {
		r.begun = true
		return false
	}
	return r.opts.yield()
}
