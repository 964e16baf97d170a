package flow

import (
	"fmt"
	"time"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/recorder"
)

// execution is one stage execution under way: its scope, and when its
// start was announced (StageStart), the clock its end reads.
type execution struct {
	s       *Scope
	t0      time.Time
	started bool
	// msg, when set, is the commit's error text in place of the error's
	// own (a loop's commit keeps the condition's bare error).
	msg string
	// lazy, when set, is the execution's decision kept compact: the commit
	// holds it in place of evidence.
	lazy lazyDecision
}

// begin starts a stage execution of n. announce emits StageStart: a
// parallel fork, a loop's jump and a subflow's output bindings are
// executions that announce none, and so end none.
func (f *frame) begin(n *node, announce bool) execution {
	x := execution{s: f.newScope(n), started: announce}
	if announce && f.rec != nil { // no recorder: no event, no clock read
		x.t0 = f.stageStart(n, x.s.where())
	}
	return x
}

// end ends a stage execution; it is the one way every node kind ends one,
// so none can leave out a part:
//
//	commit      always, one per execution: the net writes, the decision's
//	            evidence (ev), the attempt, the error's text
//	Decision    the decision or selection event, when ev is set and it held;
//	            a decision kept compact, to the recorders that read it so
//	StageEnd    when its start was announced
//	failure     err recorded (an Error event) and returned as the run's
//	            error; a *RunError is a failure already recorded where it
//	            happened (a branch's), returned as it is
//
// A scope that ended well is handed back for the next execution; read
// x.s.where() before calling end when it is needed after.
func (f *frame) end(n *node, x *execution, ev *decide.Evidence, attempt int, err error, cancelled bool) error {
	msg := x.msg
	if msg == "" && err != nil {
		msg = err.Error()
	}
	var path string // spelled only for what will name it
	if err != nil || f.rec != nil {
		path = x.s.where()
	}
	if err != nil && n.kind == KindStage && n.errorInto != "" && n.continues && !cancelled {
		x.s.Set(n.errorInto, errorValue(msg)) // ContinueOnError: commits with the failure
	}
	f.commit(x.s, ev, x.lazy, attempt, false, msg)
	if ev != nil && err == nil && f.rec != nil {
		k := recorder.Decision
		if n.kind == KindSelect {
			k = recorder.Select
		}
		e := f.nodeEvent(k, n, path)
		e.Decision, e.Branches = ev, ev.Chosen
		f.rec.emit(e)
	} else if x.lazy.n != nil && err == nil && f.rec.wants(recorder.Decision) {
		// Only recorders that read compact decisions want it (evaluate).
		e := f.nodeEvent(recorder.Decision, n, path)
		e.SetCompact(n.plan, x.lazy.c)
		e.Branches = n.chosen(x.lazy.c.Branch(n.rules, *n.def))
		f.rec.emit(e)
	}
	if x.started && f.rec != nil {
		f.stageEnd(n, path, x.t0)
	}
	if err == nil {
		f.release(x.s)
		return nil
	}
	if re, ok := err.(*RunError); ok {
		return re
	}
	return f.fail(n, path, err, cancelled)
}

// deeper refuses one more level of nesting past the run's bound (hint
// says what nests, where it helps).
func (r *runner) deeper(f *frame, hint string) error {
	if f.depth+1 > r.opts.maxDepth {
		return fmt.Errorf("nesting deeper than %d%s", r.opts.maxDepth, hint)
	}
	return nil
}
