package flow

import (
	"context"
	"fmt"

	"github.com/openrunbook/runbook/recorder"
)

// setLoop records a loop's passes, making the map on the first.
func (f *frame) setLoop(n *node, count int) {
	if f.loops == nil {
		f.loops = make(map[*node]int)
	}
	f.loops[n] = count
}

func (r *runner) runLoop(ctx context.Context, f *frame, n *node) (*node, error) {
	x := f.begin(n, false)
	holds := true
	var msg string
	if n.loop.While != nil {
		out := n.loop.While.Eval(x.s)
		holds = out.Matched
		msg = out.Err
	}
	path := x.s.path
	if msg != "" {
		x.msg = msg
		return nil, f.end(n, x, nil, 0, fmt.Errorf("loop condition %s: %s", n.loop.While.String(), msg), false)
	}
	f.end(n, x, nil, 0, nil, false)
	if !holds {
		delete(f.loops, n) // the bound is per activation: a loop entered again starts afresh
		return nil, nil
	}
	count := f.loops[n] + 1
	if count > n.loop.Max {
		return nil, f.fail(n, path, fmt.Errorf("loop %q reached its bound of %d passes back to %q and its condition still held; the runbook did not settle", n.id, n.loop.Max, n.loop.To), false)
	}
	f.setLoop(n, count)
	if f.rec != nil {
		e := f.nodeEvent(recorder.Loop, n, path)
		e.Target, e.Index, e.Total = n.loop.To, count, n.loop.Max
		f.rec.emit(e)
	}
	return n.loopTarget, nil
}
