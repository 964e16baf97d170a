package flow

import (
	"context"
	"fmt"

	"github.com/openrunbook/runbook/recorder"
)

// loopPasses is one active loop's passes back.
type loopPasses struct {
	n      *node
	passes int
}

// passes is the passes loop n has made in this activation (0: none).
// A frame has few loops active at once: a scan, not a map, whose hashing
// was a fiftieth of every pass of a loop.
func (f *frame) passes(n *node) int {
	for i := range f.loops {
		if f.loops[i].n == n {
			return f.loops[i].passes
		}
	}
	return 0
}

// setLoop records a loop's passes.
func (f *frame) setLoop(n *node, count int) {
	for i := range f.loops {
		if f.loops[i].n == n {
			f.loops[i].passes = count
			return
		}
	}
	f.loops = append(f.loops, loopPasses{n, count})
}

// endLoop forgets loop n's passes: the bound is per activation, and a
// loop entered again starts afresh.
func (f *frame) endLoop(n *node) {
	for i := range f.loops {
		if f.loops[i].n == n {
			f.loops = append(f.loops[:i], f.loops[i+1:]...)
			return
		}
	}
}

func (r *runner) runLoop(ctx context.Context, f *frame, n *node) (*node, error) {
	x := f.begin(n, false)
	holds := true
	var msg string
	if n.loop.While != nil {
		out := n.loop.While.Eval(x.s).UnlessJudged()
		holds = out.Matched
		msg = out.Err
	}
	at := x.s.count // named only if it fails or a recorder listens
	if msg != "" {
		x.msg = msg
		return nil, f.end(n, &x, nil, 0, fmt.Errorf("loop condition %s: %s", n.loop.While.String(), msg), false)
	}
	f.end(n, &x, nil, 0, nil, false)
	if !holds {
		f.endLoop(n)
		return nil, nil
	}
	count := f.passes(n) + 1
	if count > n.loop.Max {
		return nil, f.fail(n, f.spell(n.id, at), fmt.Errorf("loop %q reached its bound of %d passes back to %q and its condition still held; the runbook did not settle", n.id, n.loop.Max, n.loop.To), false)
	}
	f.setLoop(n, count)
	if f.rec != nil {
		e := f.nodeEvent(recorder.Loop, n, f.spell(n.id, at))
		e.Target, e.Index, e.Total = n.loop.To, count, n.loop.Max
		f.rec.emit(e)
	}
	return n.loopTarget, nil
}
