package temporal

import (
	"context"
	"sync"
	"time"

	"go.temporal.io/sdk/workflow"
)

// A run's --timeout on Temporal. Locally the run's context ends on the
// wall clock (context.WithTimeout); workflow code may not read that clock,
// so here the deadline is a workflow timer, which a replay fires at the
// same point of the history. When it fires, two things end: the run's
// context (the engine then says the run timed out, as a local run does)
// and the workflow context the run's activities were scheduled with (so
// an activity waited on ends now, cancelled, rather than at its own
// timeout).

// cancellable is the context a run is given on Temporal: it ends, with
// context.Canceled, when the workflow is cancelled (runbook-temporal exec
// interrupted, or a cancel from Temporal's own tools), so the run stops as
// a local run stops when it is interrupted and its record says so, where
// context.Background would let it go on with every activity refused.
func (s *workflowStubs) cancellable() context.Context {
	c := &timerContext{done: make(chan struct{})}
	workflow.Go(s.ctx, func(w workflow.Context) {
		w.Done().Receive(w, nil)
		c.end(context.Canceled)
	})
	return c
}

// deadline is flow.Deadline on a workflow timer: the context it returns
// ends, with context.DeadlineExceeded, when a timer of d started now
// fires. The stop func cancels the timer (the run ended first) and ends
// the context as cancelled. It sets s.ctx to a context the timer cancels,
// so every activity the run schedules from here on is cancelled with it.
//
// A timer fires when the server gets to it, which can be later than a
// workflow run of a second or less lasts: the run's yield (continueAsNew)
// also reads the workflow's clock at each stage boundary and ends the run
// there once the deadline has passed (expire), and a run continued past
// its deadline (pastDue) ends before its first stage.
func (s *workflowStubs) deadline(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	runCtx, cancelRun := workflow.WithCancel(s.ctx)
	timerCtx, cancelTimer := workflow.WithCancel(s.ctx)
	s.ctx = runCtx
	dc := &timerContext{done: make(chan struct{})}
	s.expire = func() {
		cancelTimer()
		dc.end(context.DeadlineExceeded)
		cancelRun()
	}
	if s.pastDue {
		s.expire()
		return dc, func() {}
	}
	// The run's own context (cancelled with the workflow) ends it too;
	// context.AfterFunc uses parent's AfterFunc, so no goroutine waits.
	context.AfterFunc(parent, func() { dc.end(parent.Err()) })
	workflow.Go(timerCtx, func(w workflow.Context) {
		if err := workflow.NewTimer(w, d).Get(w, nil); err != nil {
			return // the run ended first: the timer was cancelled
		}
		dc.end(context.DeadlineExceeded)
		cancelRun()
	})
	return dc, func() {
		cancelTimer()
		dc.end(context.Canceled)
	}
}

// deadlineByClock says whether this workflow ends a run by its clock as
// well as by its timer (deadline): asked only once the clock says the
// deadline has passed, so a history recorded before this code, whose run
// went on until its timer fired or it continued, replays as it ran, with
// no marker (as continueAsNew's marker).
func deadlineByClock(ctx workflow.Context) bool {
	return workflow.GetVersion(ctx, "runbook.deadlineClock", workflow.DefaultVersion, 1) == 1
}

// pastDeadline reports whether the run's deadline has passed on the
// workflow's clock, for a run that has one and code that ends it so.
func (s *workflowStubs) pastDeadline(ctx workflow.Context) bool {
	return s.expire != nil && !s.deadlineAt.IsZero() && !workflow.Now(ctx).Before(s.deadlineAt) && deadlineByClock(ctx)
}

// timerContext is a context.Context ended by workflow code, never by a
// goroutine: a context derived from it (context.WithCancel, WithTimeout)
// is told through AfterFunc, called by end on the coroutine that ends it,
// so deriving one starts no goroutine (context's propagateCancel uses an
// AfterFunc method where its parent has one) and everything happens in an
// order a replay repeats.
type timerContext struct {
	mu    sync.Mutex // workflow coroutines run one at a time; context's callers may not
	done  chan struct{}
	err   error
	after []*afterFunc
}

type afterFunc struct {
	f       func()
	stopped bool
}

func (c *timerContext) Deadline() (time.Time, bool) { return time.Time{}, false } // a workflow's time is not the wall clock's
func (c *timerContext) Done() <-chan struct{}       { return c.done }
func (c *timerContext) Value(any) any               { return nil }

func (c *timerContext) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// AfterFunc calls f once c ends (at once if it has), as context.AfterFunc
// does; stop keeps f from being called and says whether it did.
func (c *timerContext) AfterFunc(f func()) (stop func() bool) {
	c.mu.Lock()
	a := &afterFunc{f: f}
	if c.err != nil {
		c.mu.Unlock()
		f() // outside the lock: f may ask c for its Err
		return func() bool { return false }
	}
	c.after = append(c.after, a)
	c.mu.Unlock()
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := a.stopped
		a.stopped = true
		return !was
	}
}

// end ends c with err, the first time, and calls its AfterFuncs in the
// order they were given.
func (c *timerContext) end(err error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = err
	close(c.done)
	var run []func()
	for _, a := range c.after {
		if !a.stopped {
			a.stopped = true
			run = append(run, a.f)
		}
	}
	c.after = nil
	c.mu.Unlock()
	for _, f := range run {
		f()
	}
}
