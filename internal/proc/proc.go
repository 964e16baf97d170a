package proc

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/openrunbook/runbook/internal/secret"
)

// Defaults applied by Run to a zero Spec field.
const (
	DefaultMaxOutput = 1 << 20                // bytes per stream
	DefaultGrace     = 2 * time.Second        // SIGTERM → SIGKILL
	DefaultDrain     = 250 * time.Millisecond // leader ended → pipes closed
	// TailBytes is how much of each stream's end Result keeps as its tail.
	TailBytes = 1 << 10
)

// Spec is one process to run. Exactly one of Argv and Shell is set.
type Spec struct {
	// Argv is the command and its arguments, executed without a shell.
	Argv []string
	// Shell is a script run as `bash -e -o pipefail -c Shell`, only when the
	// author wrote `shell:` (the text reaches bash in its environment, not
	// its command line: shellRunner). bash is looked up like a command; where it is
	// not found the run does not start (StartErr is ErrNoBash): no other
	// shell is tried, since without pipefail `false | cat` would exit 0.
	// errexit (-e) too: without it `dmesg | tail; echo end` exits with
	// echo's 0 whatever dmesg did.
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

// Result is what one run left behind: plain facts about the process. What
// they mean for a script row (its settlement and facts) is the caller's
// rule; proc files nothing.
type Result struct {
	// Stdout and Stderr are the captured streams, capped and masked.
	Stdout, Stderr []byte
	// StdoutTail and StderrTail are the last TailBytes of each whole
	// stream, past the cap too, masked like the capture (a secret that
	// straddles the tail's start is masked whole); a cut inside a UTF-8
	// sequence drops that sequence's leading part.
	StdoutTail, StderrTail []byte
	// Started: the process was started. False with Cancelled when ctx was
	// already done, false with StartErr when it could not be started.
	Started bool
	// ExitCode is set only when the process really exited and the runner
	// had not begun to stop it.
	ExitCode *int
	// Signal names the signal that killed the process ("SIGKILL") when the
	// runner did not send one.
	Signal string
	// TimedOut and Cancelled: the runner stopped the process because
	// Spec.Timeout passed or ctx was done (or, with Started false, ctx was
	// done before it could start).
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
	// PipeStatus are the exit codes of the commands of the last pipeline a
	// shell script ran, in order (bash's PIPESTATUS), when it exited with
	// the last one's code; nil for an argv, and when the script did not
	// say (it set its own EXIT trap, exec'd, was killed). Under pipefail
	// a script exits with the code of the last command of a pipeline to
	// fail, so `smartctl -H /dev/sda | grep -q FAILED` exits with grep's
	// 1, "no FAILED line", when smartctl could not open the disk and
	// printed its error into grep: [2 1] says so.
	PipeStatus []int
}

// runSeq numbers the runs (and marks) of this process, for their tags.
var runSeq atomic.Uint64

// tagKey is the environment variable that marks every process of one Run:
// the child gets it (a Spec cannot replace it), and so do its descendants
// unless they clear their environment. The package doc names it.
const tagKey = "RUNBOOK_EXEC_ID"

// errTimedOut is the cause of a run's context when Spec.Timeout passed.
var errTimedOut = errors.New("proc: the spec's timeout passed")

// Run starts the process s describes, waits for it and its group to end,
// and reports what happened. It never panics on a bad Spec: a Spec that
// cannot be run is a StartErr. It is safe to call from many goroutines.
func Run(ctx context.Context, s Spec) Result {
	start := time.Now()
	if ctx.Err() != nil {
		return Result{Cancelled: true}
	}
	s = s.withDefaults()
	if s.Timeout > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeoutCause(ctx, s.Timeout, errTimedOut)
		defer stop()
	}

	tag := newTag()
	pipeFile := pipeStatusFile(s)
	if pipeFile != "" {
		defer os.Remove(pipeFile)
	}
	cmd, err := s.command(ctx, tag, pipeFile)
	if err != nil {
		return Result{StartErr: err, Duration: time.Since(start)}
	}
	p, err := newPipes(cmd, s.Stdin != nil)
	if err != nil {
		return Result{StartErr: &startError{what: cmd.Args[0], err: err}, Duration: time.Since(start)}
	}
	// os/exec stops the process when ctx is done: Cancel sends SIGTERM to
	// the whole group (and records that the runner stopped it); WaitDelay
	// (the grace) later sends the leader SIGKILL if it is still there. The
	// rest of the group is killed below, once the leader has ended.
	stop := &stopper{}
	cmd.Cancel = func() error { return stop.stop(ctx, cmd.Process) }
	cmd.WaitDelay = s.Grace
	// The parent-death signal (sysProcAttr) fires when the thread that
	// forked the child ends, and the Go runtime ends a thread whenever a
	// goroutine locked to it returns without unlocking: the fork must come
	// from a thread that lives until the child is reaped, so this goroutine
	// holds its thread from here until Run returns, past Wait.
	if lockThreadForChild {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	// Before the start: a process the command leaves behind outside its
	// group must be reparented here, for sweep to find it.
	becomeSubreaper()
	if err := cmd.Start(); err != nil {
		p.closeAll()
		if ctx.Err() != nil {
			// os/exec refuses to start once ctx is done: on a loaded machine
			// the timeout can pass before the fork. That is the runner's
			// stop, not a command that cannot be started.
			return Result{TimedOut: context.Cause(ctx) == errTimedOut, Cancelled: context.Cause(ctx) != errTimedOut, Duration: time.Since(start)}
		}
		return Result{StartErr: describeStart(cmd, s, err), Duration: time.Since(start)}
	}
	pgid := cmd.Process.Pid // the leader of its own group (Setpgid)
	p.closeChildEnds()

	lookahead := secret.Longest(s.Secrets)
	stdout := &capture{limit: s.MaxOutput + lookahead, tailKeep: TailBytes + lookahead}
	stderr := &capture{limit: s.MaxOutput + lookahead, tailKeep: TailBytes + lookahead}
	var streams sync.WaitGroup
	streams.Go(func() { stdout.readFrom(p.stdoutR) })
	streams.Go(func() { stderr.readFrom(p.stderrR) })
	if p.stdinW != nil {
		streams.Go(func() {
			_, _ = p.stdinW.Write(s.Stdin) // EPIPE: the child did not read it all
			_ = p.stdinW.Close()
		})
	}

	// Every stream is an *os.File, so os/exec starts no copying goroutine
	// and Wait only reaps the leader; the pipes are this function's.
	waitErr := cmd.Wait()
	duration := time.Since(start)
	reason := stop.leaderEnded()

	// The leader has ended: give the pipes the drain window to reach EOF,
	// then kill what is left of the group, which lets go of the pipes with
	// the output it wrote still readable. Only a holder outside the group
	// keeps them open past a second window; then they are closed, and what it
	// wrote but was not yet read is lost. (WaitDelay could close the pipes
	// too, but only after the one delay it holds, the grace, and without
	// first killing the group: what a holder wrote would be lost.)
	ioDone := make(chan struct{})
	go func() { streams.Wait(); close(ioDone) }()
	if !within(ioDone, s.Drain) {
		_ = signalGroup(pgid, syscall.SIGKILL)
		sweep(tag, pgid)
		if !within(ioDone, s.Drain) {
			p.waitUnread(ioDone)
			p.closeParentEnds()
			<-ioDone
		}
	}
	// Stragglers that let go of the pipes, in the group and out of it
	// (a grandchild that called setsid): none outlives the stage.
	_ = signalGroup(pgid, syscall.SIGKILL)
	sweep(tag, pgid)
	p.closeParentEnds()

	r := Result{Started: true, Duration: duration}
	var trunc1, trunc2 bool
	r.Stdout, trunc1 = stdout.finish(s.MaxOutput, s.Secrets)
	r.Stderr, trunc2 = stderr.finish(s.MaxOutput, s.Secrets)
	r.Truncated = trunc1 || trunc2
	r.StdoutTail = stdout.finishTail(TailBytes, s.Secrets)
	r.StderrTail = stderr.finishTail(TailBytes, s.Secrets)
	switch reason {
	case stopTimeout:
		r.TimedOut = true
		return r
	case stopCancel:
		r.Cancelled = true
		return r
	}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) {
		// Wait failed without a status: nothing about the outcome is known.
		r.StartErr = &startError{what: cmd.Args[0], err: waitErr}
		return r
	}
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	switch {
	case ws.Exited():
		code := ws.ExitStatus()
		r.ExitCode = &code
		r.PipeStatus = readPipeStatus(pipeFile, code)
	case ws.Signaled():
		r.Signal = SignalName(ws.Signal())
	}
	return r
}

// pipeStatusFile is a new empty file a shell script's trap writes its last
// pipeline's exit codes to (pipeStatusTrap), "" for an argv or when none
// can be made (the script then runs without the trap).
func pipeStatusFile(s Spec) string {
	if s.Shell == "" {
		return ""
	}
	f, err := os.CreateTemp("", "runbook-pipestatus-")
	if err != nil {
		return ""
	}
	_ = f.Close()
	return f.Name()
}

// readPipeStatus is the exit codes the trap wrote to file, when the last
// is code, the script's exit: one that ended otherwise (an `exit 3` after
// its last pipeline) says nothing of that pipeline. nil when it wrote
// none or what it wrote is not codes.
func readPipeStatus(file string, code int) []int {
	if file == "" {
		return nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 || n > 255 {
			return nil
		}
		out = append(out, n)
	}
	if len(out) == 0 || out[len(out)-1] != code {
		return nil
	}
	return out
}

// unreadWait bounds how long output still in the pipes is waited for
// once the drain windows are over: long enough for a starved runner's
// readers to be scheduled, short enough that a holder outside the group
// writing without end does not hold the stage.
const unreadWait = 10 * time.Second

// waitUnread waits, up to unreadWait, while output the command wrote is
// still unread in a pipe. Closing the pipes then would drop it: the
// readers are behind (a loaded machine starving this process's
// goroutines), not blocked on a holder, and the record would say the
// command printed less than it did. A pipe with nothing in it is closed
// at once: nothing is lost by it.
func (p *pipes) waitUnread(ioDone <-chan struct{}) {
	deadline := time.Now().Add(unreadWait)
	for unread(p.stdoutR)+unread(p.stderrR) > 0 && time.Now().Before(deadline) {
		if within(ioDone, 10*time.Millisecond) {
			return
		}
	}
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

// stopper is os/exec's Cancel for one run: it sends SIGTERM to the group
// unless the leader has already ended. The mutex orders the two: a stop begun
// before the leader was reaped is the runner's kill; one after it is no stop
// at all.
type stopper struct {
	mu     sync.Mutex
	reason stopReason
	done   bool
}

func (st *stopper) stop(ctx context.Context, leader *os.Process) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	// A leader already reaped (os/exec may call Cancel in the same instant
	// Wait sees the end) ended on its own: no stop.
	if st.done || errors.Is(leader.Signal(syscall.Signal(0)), os.ErrProcessDone) {
		return os.ErrProcessDone
	}
	// SIGTERM is sent under the lock, so a stop on record was sent before the
	// leader's end was seen.
	st.reason = stopCancel
	if context.Cause(ctx) == errTimedOut {
		st.reason = stopTimeout
	}
	return signalGroup(leader.Pid, syscall.SIGTERM)
}

// leaderEnded records that the leader was reaped and returns why the runner
// stopped it, if it did.
func (st *stopper) leaderEnded() stopReason {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.done = true
	return st.reason
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
