package proc

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/openrunbook/runbook/plugins/label"
)

// Defaults applied by Run to a zero Spec field.
const (
	DefaultMaxOutput = 1 << 20                // bytes per stream
	DefaultGrace     = 2 * time.Second        // SIGTERM → SIGKILL
	DefaultDrain     = 250 * time.Millisecond // leader ended → pipes closed
)

// Spec is one process to run. Exactly one of Argv and Shell is set.
type Spec struct {
	// Argv is the command and its arguments, executed without a shell.
	Argv []string
	// Shell is a script run as `/bin/sh -c Shell`, only when the author
	// wrote `shell:`.
	Shell string
	// Env is laid over the base environment; a key here wins.
	Env map[string]string
	// BaseEnv is the environment the child starts from, as KEY=VALUE
	// entries. nil means the minimal inherited set (see the package doc).
	BaseEnv []string
	// Dir is the working directory; "" means the runner's.
	Dir string
	// Stdin is written to the child's stdin, which is then closed. nil means
	// stdin is /dev/null.
	Stdin []byte
	// Timeout bounds the run; 0 or less means none (the caller applies the
	// chart's 60s default).
	Timeout time.Duration
	// MaxOutput caps each captured stream in bytes; 0 or less means
	// DefaultMaxOutput.
	MaxOutput int
	// Secrets are values masked as "***" in the captured output. Empty
	// values are ignored.
	Secrets []string
	// Grace is how long the group has between SIGTERM and SIGKILL when the
	// runner stops it; 0 or less means DefaultGrace.
	Grace time.Duration
	// Drain is how long the pipes may stay open after the leader ended
	// before the rest of the group is killed; 0 or less means DefaultDrain.
	Drain time.Duration
}

// Result is what one run left behind.
type Result struct {
	// Stdout and Stderr are the captured streams, capped and masked.
	Stdout, Stderr []byte
	// ExitCode is set only when the process really exited and the runner
	// had not begun to stop it.
	ExitCode *int
	// Signal names the signal that killed the process ("SIGKILL") when the
	// runner did not send one.
	Signal string
	// TimedOut and Cancelled: the runner stopped the process because
	// Spec.Timeout passed or ctx was done.
	TimedOut, Cancelled bool
	// StartErr says why the process could not be started, naming the
	// command and the likely cause (or, rarely, why its end could not be
	// read). errors.Is works on it: exec.ErrNotFound, fs.ErrPermission,
	// syscall.ENOEXEC, fs.ErrNotExist.
	StartErr error
	// Truncated: a stream passed MaxOutput; the caller withholds the result.
	Truncated bool
	// Duration runs from just before the start to the leader's end.
	Duration time.Duration
	// Settlement and Facts are the script row's, by the package rule.
	Settlement label.Settlement
	// Facts is nil when the runner files none.
	Facts *label.Facts
}

// Run starts the process s describes, waits for it and its group to end,
// and reports what happened. It never panics on a bad Spec: a Spec that
// cannot be run is a StartErr. It is safe to call from many goroutines.
func Run(ctx context.Context, s Spec) Result {
	start := time.Now()
	if ctx.Err() != nil {
		return settle(Result{Cancelled: true}, false, nil)
	}
	s = s.withDefaults()

	cmd, err := s.command()
	if err != nil {
		return settle(Result{StartErr: err, Duration: time.Since(start)}, true, nil)
	}
	p, err := newPipes(cmd, s.Stdin != nil)
	if err != nil {
		return settle(Result{StartErr: &startError{what: cmd.Args[0], err: err}, Duration: time.Since(start)}, true, nil)
	}
	if err := cmd.Start(); err != nil {
		p.closeAll()
		return settle(Result{StartErr: describeStart(cmd, s, err), Duration: time.Since(start)}, true, nil)
	}
	pgid := cmd.Process.Pid
	p.closeChildEnds()

	lookahead := longest(s.Secrets)
	stdout := &capture{limit: s.MaxOutput + lookahead}
	stderr := &capture{limit: s.MaxOutput + lookahead}
	var streams sync.WaitGroup
	streams.Go(func() { stdout.readFrom(p.stdoutR) })
	streams.Go(func() { stderr.readFrom(p.stderrR) })
	if p.stdinW != nil {
		streams.Go(func() {
			_, _ = p.stdinW.Write(s.Stdin) // EPIPE: the child did not read it all
			_ = p.stdinW.Close()
		})
	}

	w := &watcher{pgid: pgid, grace: s.Grace, ended: make(chan struct{})}
	var watch sync.WaitGroup
	watch.Go(func() { w.watch(ctx, s.Timeout) })

	waitErr := cmd.Wait() // every stream is an *os.File: this only reaps the leader
	duration := time.Since(start)
	reason := w.leaderEnded()

	// The leader has ended: give the pipes the drain window to reach EOF,
	// then kill what is left of the group, which lets go of the pipes with
	// the output it wrote still readable. Only a holder outside the group
	// keeps them open past a second window; then they are closed, and what it
	// wrote but was not yet read is lost.
	ioDone := make(chan struct{})
	go func() { streams.Wait(); close(ioDone) }()
	if !within(ioDone, s.Drain) {
		_ = signalGroup(pgid, syscall.SIGKILL)
		if !within(ioDone, s.Drain) {
			p.closeParentEnds()
			<-ioDone
		}
	}
	_ = signalGroup(pgid, syscall.SIGKILL) // stragglers that let go of the pipes
	p.closeParentEnds()
	watch.Wait()

	r := Result{Duration: duration}
	var trunc1, trunc2 bool
	r.Stdout, trunc1 = stdout.finish(s.MaxOutput, s.Secrets)
	r.Stderr, trunc2 = stderr.finish(s.MaxOutput, s.Secrets)
	r.Truncated = trunc1 || trunc2
	switch reason {
	case stopTimeout:
		r.TimedOut = true
		return settle(r, true, nil)
	case stopCancel:
		r.Cancelled = true
		return settle(r, true, nil)
	}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) {
		// Wait failed without a status: nothing about the outcome is known.
		r.StartErr = &startError{what: cmd.Args[0], err: waitErr}
		return settle(r, true, nil)
	}
	return settle(r, true, cmd.ProcessState)
}

// settle is the package rule (see the package doc): it sets the row's
// settlement and facts. entered is false when the process was never started
// because ctx was already done; ps is the leader's status, and is read only
// when the runner neither failed to start the process nor stopped it.
func settle(r Result, entered bool, ps *os.ProcessState) Result {
	r.ExitCode, r.Signal, r.Facts = nil, "", nil
	if !entered {
		r.Settlement = label.NotEntered
		return r
	}
	r.Settlement = label.Threw
	if r.StartErr != nil || r.TimedOut || r.Cancelled || ps == nil {
		return r // nothing about the outcome is known
	}
	ws, _ := ps.Sys().(syscall.WaitStatus)
	ok := false
	switch {
	case ws.Exited():
		code := ws.ExitStatus()
		ok = code == 0
		filed := code // the row's own copy: a caller editing one cannot edit the other
		r.ExitCode = &code
		r.Facts = &label.Facts{OK: &ok, ExitCode: &filed}
	case ws.Signaled():
		r.Signal = SignalName(ws.Signal())
		r.Facts = &label.Facts{OK: &ok, TerminatedBy: r.Signal}
	default:
		return r // stopped or continued: not an end
	}
	r.Settlement = label.Returned
	return r
}

// within reports whether done closes within d.
func within(done <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}

func (s Spec) withDefaults() Spec {
	if s.MaxOutput <= 0 {
		s.MaxOutput = DefaultMaxOutput
	}
	if s.Grace <= 0 {
		s.Grace = DefaultGrace
	}
	if s.Drain <= 0 {
		s.Drain = DefaultDrain
	}
	return s
}

// stopReason is why the runner stopped a process, if it did.
type stopReason int

const (
	stopNone stopReason = iota
	stopTimeout
	stopCancel
)

// watcher stops the group on timeout or ctx cancel, unless the leader has
// already ended. The mutex orders the two: a stop begun before the leader was
// reaped is the runner's kill; one after it is no stop at all.
type watcher struct {
	pgid  int
	grace time.Duration
	ended chan struct{}

	mu     sync.Mutex
	reason stopReason
	done   bool
}

func (w *watcher) watch(ctx context.Context, timeout time.Duration) {
	var deadline <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		deadline = t.C
	}
	var why stopReason
	select {
	case <-w.ended:
		return
	case <-deadline:
		why = stopTimeout
	case <-ctx.Done():
		why = stopCancel
	}
	w.mu.Lock()
	if w.done {
		w.mu.Unlock()
		return
	}
	// SIGTERM is sent under the lock, so a stop on record was sent before the
	// leader's end was seen.
	w.reason = why
	err := signalGroup(w.pgid, syscall.SIGTERM)
	w.mu.Unlock()
	if err == nil {
		_ = escalate(w.pgid, w.grace, w.ended)
	}
}

// leaderEnded records that the leader was reaped and returns why the runner
// stopped it, if it did.
func (w *watcher) leaderEnded() stopReason {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.done = true
	close(w.ended)
	return w.reason
}

// pipes are the child's three streams: the parent reads stdout and stderr
// and writes stdin (when there is any).
type pipes struct {
	stdoutR, stdoutW *os.File
	stderrR, stderrW *os.File
	stdinR, stdinW   *os.File

	closeOnce sync.Once
}

func newPipes(cmd *exec.Cmd, withStdin bool) (*pipes, error) {
	p := &pipes{}
	var err error
	if p.stdoutR, p.stdoutW, err = os.Pipe(); err != nil {
		return nil, err
	}
	if p.stderrR, p.stderrW, err = os.Pipe(); err != nil {
		p.closeAll()
		return nil, err
	}
	if withStdin {
		if p.stdinR, p.stdinW, err = os.Pipe(); err != nil {
			p.closeAll()
			return nil, err
		}
		cmd.Stdin = p.stdinR
	}
	cmd.Stdout, cmd.Stderr = p.stdoutW, p.stderrW
	return p, nil
}

// closeChildEnds drops the parent's copies of the child's ends, so EOF on
// stdout and stderr means every holder in the child's tree let go.
func (p *pipes) closeChildEnds() {
	closeFiles(p.stdoutW, p.stderrW, p.stdinR)
}

// closeParentEnds unblocks any read or write still pending on the parent's
// ends. Safe to call more than once.
func (p *pipes) closeParentEnds() {
	p.closeOnce.Do(func() { closeFiles(p.stdoutR, p.stderrR, p.stdinW) })
}

func (p *pipes) closeAll() {
	p.closeChildEnds()
	p.closeParentEnds()
}

func closeFiles(fs ...*os.File) {
	for _, f := range fs {
		if f != nil {
			_ = f.Close()
		}
	}
}
