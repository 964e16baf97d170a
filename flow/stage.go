package flow

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/openrunbook/runbook/recorder"
)

// runStage runs a function stage with its retry policy and timeout.
func (r *runner) runStage(ctx context.Context, f *frame, n *node) error {
	attempts := 1
	if n.retry != nil {
		attempts = max(1, n.retry.Attempts)
	}
	for a := 1; ; a++ {
		x := f.begin(n, true)
		s := x.s
		var err error
		if r.inline(ctx, n) {
			err = safeStage(ctx, n.fn, s)
			if ctx.Done() != nil && ctx.Err() != nil { // an inline run's host deadline: see call
				err = cancelledWhileRunning(err, ctx)
			}
		} else {
			err = r.call(ctx, s, func(ctx context.Context) error { return n.fn(ctx, s) })
		}
		attempt := 0
		if n.retry != nil {
			attempt = a
		}
		if err == nil && s.refused != nil {
			err = s.refused
		}
		if err == nil {
			return f.end(n, &x, nil, attempt, nil, false)
		}
		if errors.Is(err, ErrPaused) && s.ask != nil && ctx.Err() == nil {
			ask := s.ask
			f.end(n, &x, nil, attempt, nil, false)
			return &pauseSignal{pause: ask, at: []Step{{Node: n.id}}}
		}
		cancelled := ctx.Err() != nil
		if !cancelled && a < attempts && (n.retry.On == nil || n.retry.On(err)) {
			f.commit(s, nil, lazyDecision{}, attempt, true, err.Error())
			if f.rec != nil {
				e := f.nodeEvent(recorder.Retry, n, s.where())
				e.Index, e.Total, e.Err = a, attempts, err.Error()
				f.rec.emit(e)
			}
			if werr := r.wait(ctx, backoff(n.retry, a)); werr != nil {
				return &RunError{Path: s.where(), Stage: n.id, Message: "the run " + endedBy(ctx) + " while waiting to retry: " + werr.Error(), Cancelled: true, err: werr}
			}
			continue
		}
		return f.end(n, &x, nil, attempt, err, cancelled)
	}
}

// stageStart emits StageStart and reads the clock for StageEnd's Elapsed,
// each only when a recorder wants it: with none attached it does neither.
func (f *frame) stageStart(n *node, path string) time.Time {
	if f.rec.wants(recorder.StageStart) {
		ev := f.nodeEvent(recorder.StageStart, n, path)
		f.rec.send(&ev)
	}
	if f.rec.wants(recorder.StageEnd) {
		return time.Now()
	}
	return time.Time{}
}

func (f *frame) stageEnd(n *node, path string, t0 time.Time) {
	if f.rec.wants(recorder.StageEnd) {
		e := f.nodeEvent(recorder.StageEnd, n, path)
		e.Elapsed = time.Since(t0)
		f.rec.emit(e)
	}
}

// fail records a stage failure and turns it into the run's error.
func (f *frame) fail(n *node, path string, err error, cancelled bool) *RunError {
	re := &RunError{Path: path, Stage: n.id, Message: err.Error(), Cancelled: cancelled, err: err}
	var pe *PanicError
	if errors.As(err, &pe) {
		re.Stack = pe.Stack
	}
	if f.rec != nil {
		e := f.nodeEvent(recorder.Error, n, path)
		e.Err = re.Message
		f.rec.emit(e)
	}
	return re
}

// PanicError is a stage that panicked: recovered, and recorded as that
// stage's failure with its stack.
type PanicError struct {
	Value any
	Stack string
}

func (e *PanicError) Error() string { return fmt.Sprintf("the stage panicked: %v", e.Value) }

// ErrStageTimeout is the failure of a stage that ran past its own timeout,
// and the cause (context.Cause) of the context its timeout ended.
var ErrStageTimeout = errors.New("the stage ran past its timeout")

// stageTimedOut is ErrStageTimeout with the bound that passed.
func stageTimedOut(d time.Duration) error { return fmt.Errorf("%w (%s)", ErrStageTimeout, d) }

// inline says whether a stage body can run on the run's goroutine with no
// way to abandon it: no stage timeout, and a context that never ends. call
// would run it inline too; deciding here first spares the closure.
func (r *runner) inline(ctx context.Context, n *node) bool {
	return r.opts.inline || n.timeout <= 0 && ctx.Done() == nil
}

// safeStage is safeCall for a stage function, with no closure.
func safeStage(ctx context.Context, fn StageFunc, s *Scope) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Value: v, Stack: string(debug.Stack())}
		}
	}()
	return fn(ctx, s)
}

// call runs one stage body. With a timeout, or a context that can end, the
// body runs on its own goroutine so an overrunning stage can be abandoned:
// its late writes never commit. Otherwise, or in an inline run
// (WithInline), it runs on the caller's goroutine.
func (r *runner) call(ctx context.Context, s *Scope, body func(context.Context) error) error {
	if r.opts.inline {
		// Nothing watches the context while an inline body runs; one that
		// ended meanwhile (a host's deadline, WithDeadline) ended the run
		// while this stage ran, as the watch below would have said.
		err := safeCall(ctx, body)
		if ctx.Err() != nil {
			return cancelledWhileRunning(err, ctx)
		}
		return err
	}
	runCtx := ctx
	if s.n.timeout > 0 {
		var cancel context.CancelFunc
		// The cause says whose bound ended the context: code under the
		// stage (runbook.RunCommand) reads it with context.Cause, so a
		// process cut by the stage's timeout is not said cut by the run's.
		ctx, cancel = context.WithTimeoutCause(ctx, s.n.timeout, stageTimedOut(s.n.timeout))
		defer cancel()
	}
	if ctx.Done() == nil {
		return safeCall(ctx, body)
	}
	s.mu = &sync.Mutex{}
	s.where() // the body may name it from its goroutine after it is abandoned
	done := make(chan error, 1)
	go func() { done <- safeCall(ctx, body) }()
	var err error
	select {
	case err = <-done:
		s.mu = nil // the body has returned: the scope can be reused
	case <-ctx.Done():
		// A stage that honours its context (an exec stage stopping its
		// process group) gets a grace to finish, so what it did — and the
		// processes it must stop — are settled before the run returns. Past
		// the grace it is abandoned: its late writes never commit.
		t := time.NewTimer(r.opts.abandonGrace)
		select {
		case err = <-done:
			s.mu = nil
		case <-t.C:
			s.abandon()
			err = ctx.Err()
		}
		t.Stop()
		if err == nil {
			err = ctx.Err()
		}
	}
	if err != nil && runCtx.Err() == nil && ctx.Err() != nil && errors.Is(err, context.DeadlineExceeded) {
		return stageTimedOut(s.n.timeout)
	}
	if err != nil && runCtx.Err() != nil {
		return cancelledWhileRunning(err, runCtx)
	}
	return err
}

// cancelledWhileRunning is the failure of a stage whose run ended while it
// ran: its own error, or the run's when it returned none.
func cancelledWhileRunning(err error, run context.Context) error {
	if err == nil {
		err = run.Err()
	}
	return fmt.Errorf("the run %s while this stage ran: %w", endedBy(run), err)
}

// endedBy says how a run's context ended, as the run's error says it: its
// timeout passed (WithTimeout, or a host's deadline), or it was
// cancelled. A run stopped by its --timeout read "cancelled", as if
// someone had stopped it.
func endedBy(run context.Context) string {
	if errors.Is(run.Err(), context.DeadlineExceeded) {
		return "timed out"
	}
	return "was cancelled"
}

// TimedOut says whether a cancelled run's error message is one its
// timeout ended (endedBy's words, "the run timed out while…" or "…before
// this stage started"): what a reader of a saved record has, where the
// run's context is gone.
func TimedOut(message string) bool {
	return strings.HasPrefix(message, "the run timed out ")
}

func safeCall(ctx context.Context, body func(context.Context) error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Value: v, Stack: string(debug.Stack())}
		}
	}()
	return body(ctx)
}

func backoff(p *RetryPolicy, attempt int) time.Duration {
	d := p.Backoff
	for i := 1; i < attempt && d > 0; i++ {
		d *= 2
		if p.MaxBackoff > 0 && d >= p.MaxBackoff {
			d = p.MaxBackoff
			break
		}
	}
	if p.MaxBackoff > 0 && d > p.MaxBackoff {
		d = p.MaxBackoff
	}
	if p.Jitter && d > 1 {
		d = d/2 + rand.N(d/2+1)
	}
	return d
}

// wait waits out a retry's backoff: by the run's sleep (WithSleep), or
// by the clock.
func (r *runner) wait(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	if r.opts.sleep != nil {
		r.opts.sleep(ctx, d)
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
