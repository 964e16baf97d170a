package host

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/openrunbook/runbook/internal/proc"
	"github.com/openrunbook/runbook/plugins/internal/wire"
)

// Defaults applied to a zero option.
const (
	DefaultStartTimeout = 10 * time.Second
	// DefaultCallTimeout bounds a call whose context has no deadline.
	DefaultCallTimeout = 60 * time.Second
	// DefaultMaxBatch is the most calls one batch carries.
	DefaultMaxBatch = 256
)

// Option configures how plugins are started and called.
type Option func(*config)

type config struct {
	logger       *slog.Logger
	startTimeout time.Duration
	callTimeout  time.Duration
	maxBatch     int
	sameRules    bool
	noDigest     bool
	env          []string
	mask         func(string) string
}

// WithLogger receives the plugins' stderr lines and the host's diagnostics.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithStartTimeout bounds a plugin's start, handshake included.
func WithStartTimeout(d time.Duration) Option { return func(c *config) { c.startTimeout = d } }

// WithCallTimeout bounds a call whose context carries no deadline.
func WithCallTimeout(d time.Duration) Option { return func(c *config) { c.callTimeout = d } }

// WithEnv passes these KEY=VALUE variables to the plugin process, over its
// minimal environment (PATH HOME LANG LC_ALL TZ USER TMPDIR from the host,
// when set). Nothing else of the host's environment reaches a plugin.
func WithEnv(kv ...string) Option { return func(c *config) { c.env = append(c.env, kv...) } }

// WithMask masks what a plugin says on stderr (and on stdout outside the
// protocol) before it goes anywhere: each line the logger receives, and
// the stderr tail an *Error carries. A runbook run passes its secrets'
// masker (internal/secret), so a plugin that logs its arguments never
// shows a secret. Without it, stderr is passed on as written.
func WithMask(mask func(string) string) Option { return func(c *config) { c.mask = mask } }

// WithMaxBatch caps the calls one batch carries.
func WithMaxBatch(n int) Option { return func(c *config) { c.maxBatch = n } }

// WithSameCoverageRules says the honesty plugin runs this build's
// plugins/coverage (the runbook binary serving its own honesty stages):
// a batch of stage results that coverage.Read does not recognize or warn
// about and coverage.Serve leaves unchanged — ordinary data, most results
// of a run — is answered here by those same functions, without a round
// trip. Never set it for a plugin with coverage rules of its own.
func WithSameCoverageRules() Option { return func(c *config) { c.sameRules = true } }

// withoutDigest skips reading the executable's digest when no pin asks for
// it: the record's provenance is for stage plugins, and the honesty
// plugin is usually the runbook binary itself, tens of megabytes whose
// read delayed every run's honesty start.
func withoutDigest() Option { return func(c *config) { c.noDigest = true } }

func newConfig(opts []Option) config {
	c := config{startTimeout: DefaultStartTimeout, callTimeout: DefaultCallTimeout, maxBatch: DefaultMaxBatch}
	for _, o := range opts {
		o(&c)
	}
	if c.logger == nil {
		c.logger = slog.New(slog.DiscardHandler)
	}
	if c.mask == nil {
		c.mask = func(s string) string { return s }
	}
	return c
}

// Error is a plugin's fault: it could not be started, crashed, hung past
// its timeout, answered garbage or speaks another protocol. It names the
// plugin and carries the tail of its stderr.
type Error struct {
	Plugin string
	// Op is what the host was doing: "start", "describe", "call".
	Op     string
	Err    error
	Stderr string // the last lines of its stderr, trimmed
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("plugin %q: %s: %v", e.Plugin, e.Op, e.Err)
	if e.Stderr != "" {
		msg += "; its stderr ends: " + stderrShown(e.Stderr)
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// deadlineError is a call that got no answer in time. It says the transport's
// words and is context.DeadlineExceeded to errors.Is, so a caller asks one
// question of a timed-out call whichever side of the wire noticed first.
//
// given is the time the call had, when the caller knows it (Stage.Run): the
// words were "no answer before the deadline: rpc error: code =
// DeadlineExceeded desc = context deadline exceeded", which told the
// plugin's author neither how long the host waited nor that it was the
// host's bound and not the plugin's own.
type deadlineError struct {
	err   error
	given time.Duration
	hint  string
}

func (e deadlineError) Error() string {
	if e.given > 0 {
		return fmt.Sprintf("no answer within %s, the time the call was given (%s): %s", e.given.Round(100*time.Millisecond), e.hint, e.err)
	}
	return "no answer before the deadline: " + e.err.Error()
}
func (e deadlineError) Unwrap() []error { return []error{e.err, context.DeadlineExceeded} }

// callTimedOut is a call's error with the time it was given and what its
// author can do about it, for fault.
type callTimedOut struct {
	err   error
	given time.Duration
	hint  string
}

func (e callTimedOut) Error() string { return e.err.Error() }
func (e callTimedOut) Unwrap() error { return e.err }

// RunError is a stage plugin's own failure of a call: its Run returned an
// error. The plugin is sound; the stage failed.
type RunError struct {
	Plugin  string
	Message string
}

func (e *RunError) Error() string { return fmt.Sprintf("plugin %q: %s", e.Plugin, e.Message) }

// Plugin is one started plugin process. Kill stops it and its children.
type Plugin struct {
	src    Source
	cfg    config
	client *goplugin.Client
	cmd    *exec.Cmd
	g      *group // runs cmd: its process group, its pipes
	rpc    goplugin.ClientProtocol
	stderr *ring

	sha256 string // of the executable, read before the start
	// mark is in the process's environment, and so its descendants':
	// Kill ends what it left outside its group by it (proc.Mark).
	mark proc.Mark

	killOnce sync.Once
	broken   atomic.Bool
}

// Start starts the plugin at src and completes the handshake. A checksum
// is checked before the process starts. A plugin that cannot start gets an
// error naming the likely cause (not executable, wrong architecture, wrote
// to stdout before the handshake, another protocol version).
func Start(ctx context.Context, src Source, opts ...Option) (*Plugin, error) {
	cfg := newConfig(opts)
	p := &Plugin{src: src, cfg: cfg, stderr: &ring{mask: cfg.mask}}
	fail := func(err error) (*Plugin, error) {
		p.Kill()
		return nil, &Error{Plugin: src.Name, Op: "start", Err: err, Stderr: p.stderr.tail()}
	}
	// A relative path is the file it names from here, never a name to look
	// up on $PATH: exec.Command would run a same-named binary from there
	// (issue #17). Every caller's path passes this one gate.
	if !filepath.IsAbs(src.Path) {
		abs, err := filepath.Abs(src.Path)
		if err != nil {
			return nil, &Error{Plugin: src.Name, Op: "start", Err: err}
		}
		src.Path = abs
		p.src = src
	}
	if err := checkFile(src.Path); err != nil {
		return nil, &Error{Plugin: src.Name, Op: "start", Err: err}
	}
	p.cmd = exec.Command(src.Path, src.Args...)
	// The digest is read before the start, a pin's check and the record's
	// provenance from the one read: the record names the bytes that ran.
	if src.SHA256 != "" || !cfg.noDigest {
		have, err := fileSHA256(p.cmd.Path)
		if err != nil {
			return nil, &Error{Plugin: src.Name, Op: "start", Err: fmt.Errorf("checksum: %w", err)}
		}
		p.sha256 = have
	}
	if have := p.sha256; src.SHA256 != "" {
		if err := sumMatches(p.cmd.Path, have, src.SHA256); err != nil {
			return nil, &Error{Plugin: src.Name, Op: "start", Err: err}
		}
	}
	// Its own process group: a terminal's Ctrl-C reaches the host only, and
	// Kill stops the plugin's children with it.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// A minimal environment, never the host's whole one (its tokens and
	// cloud credentials stay with it): proc's inherited set, what WithEnv
	// passes, and go-plugin's own handshake variables (SkipHostEnv below).
	p.cmd.Env = append(proc.InheritedEnv(), cfg.env...)
	p.mark = proc.NewMark()
	p.cmd.Env = append(p.cmd.Env, p.mark.Env())
	// The SDK's parent watch compares against this, so a host that dies
	// before the plugin begins watching is still noticed.
	p.cmd.Env = append(p.cmd.Env, fmt.Sprintf("%s=%d", wire.EnvHostPID, os.Getpid()))
	// go-plugin runs the process through p.g, which kills its whole group
	// and can end go-plugin's wait on its pipes (group.go).
	p.g = &group{cmd: p.cmd}
	p.client = goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig:  wire.Handshake,
		VersionedPlugins: wire.Sets(),
		RunnerFunc:       p.g.runner,
		UnixSocketConfig: &goplugin.UnixSocketConfig{TempDir: socketTempDir()},
		SkipHostEnv:      true,
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		Logger:           newSlogger(cfg.logger, cfg.mask),
		Stderr:           p.stderr,
		SyncStdout:       &stdio{tail: p.stderr, logger: cfg.logger, mask: cfg.mask, plugin: src.Name, stream: "stdout"},
		SyncStderr:       &stdio{tail: p.stderr, logger: cfg.logger, mask: cfg.mask, plugin: src.Name, stream: "stderr"},
		StartTimeout:     cfg.startTimeout,
	})
	type started struct {
		rpc goplugin.ClientProtocol
		err error
	}
	ch := make(chan started, 1)
	go func() {
		rpc, err := p.client.Client()
		ch <- started{rpc, err}
	}()
	select {
	case s := <-ch:
		if s.err != nil {
			return fail(p.diagnose(s.err))
		}
		p.rpc = s.rpc
	case <-ctx.Done():
		// Killing the group ends the handshake wait at once (go-plugin sees
		// the process exit, or its stdout end); closing the pipes ends it
		// should something outside the group hold them.
		p.g.kill()
		select {
		case <-ch:
		case <-time.After(pipeGrace):
			p.g.closePipes()
			<-ch
		}
		p.Kill()
		err := ctx.Err()
		if errors.Is(err, context.DeadlineExceeded) {
			// The caller's deadline came before the start timeout did: the
			// same fault, said as the start timeout says it.
			err = fmt.Errorf("did not handshake before the deadline: %w", err)
		}
		return nil, &Error{Plugin: src.Name, Op: "start", Err: err, Stderr: p.stderr.tail()}
	}
	return p, nil
}

// Name is the plugin's name as charts call it.
func (p *Plugin) Name() string { return p.src.Name }

// Path is the absolute path of the executable that was started.
func (p *Plugin) Path() string { return p.src.Path }

// SHA256 is the hex SHA-256 of the executable, read just before it started.
func (p *Plugin) SHA256() string { return p.sha256 }

// Protocol is the protocol version the handshake agreed on.
func (p *Plugin) Protocol() int { return p.client.NegotiatedVersion() }

// Pid is the plugin process's id (its process group's too).
func (p *Plugin) Pid() int { return p.g.Pid() }

// How long Kill waits at each step before it takes the next.
const (
	// gracefulExit: go-plugin asks a sound plugin to exit and waits 2s for
	// it before it kills the group itself.
	gracefulExit = 2500 * time.Millisecond
	// pipeGrace: after the group is killed, its pipes close at once unless
	// a process outside the group holds them.
	pipeGrace = 500 * time.Millisecond
	// lastWait: the pipes are closed; what remains is go-plugin's own
	// bookkeeping.
	lastWait = 2 * time.Second
)

// Kill stops the plugin and every process in its process group, and
// returns when they are gone. It is safe to call more than once and from
// several goroutines. It never waits unboundedly, whoever holds the
// plugin's pipes:
//
//	a sound plugin        asked to exit (go-plugin's graceful close, ≤ 2s)
//	never handshook, hung no asking: its group is killed first
//	then                  the group is killed; go-plugin reaps the plugin
//	                      once its readers of the plugin's stdout and
//	                      stderr end; should they not end (a process that
//	                      left the group holds them), the pipes are closed
//	last                  a plugin that exited when asked may have left
//	                      children: its group is stopped (proc.KillGroup:
//	                      SIGTERM, SIGKILL after 500ms); and what it left
//	                      outside its group (a child that called setsid)
//	                      is ended by its mark (proc.Mark.Sweep, Linux)
func (p *Plugin) Kill() {
	p.killOnce.Do(func() {
		asked := p.rpc != nil && !p.broken.Load()
		if asked && !p.shutdownServed() {
			// It cannot be asked: go-plugin would wait 2 s for an exit that
			// never comes before its kill (issue #17). Stop the group now,
			// SIGTERM first so it may clean up.
			if pid := p.Pid(); pid > 0 {
				_ = proc.KillGroup(pid, 500*time.Millisecond)
			}
			asked = false
		}
		if !asked {
			// Nothing to ask: spending go-plugin's grace period would only
			// delay the end.
			p.g.kill()
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			p.client.Kill()
		}()
		if asked {
			p.await(done, gracefulExit, p.g.kill)
		}
		p.await(done, pipeGrace, p.g.closePipes)
		if !p.await(done, lastWait, nil) {
			p.cfg.logger.Error("plugin: stopping it did not finish; leaving go-plugin's cleanup behind", "plugin", p.src.Name, "waited", gracefulExit+pipeGrace+lastWait)
		}
		if pid := p.Pid(); pid > 0 && !p.g.wasKilled() {
			// It exited when asked: its children may not have.
			_ = proc.KillGroup(pid, 500*time.Millisecond)
		}
		if pid := p.Pid(); pid > 0 {
			// What it left outside its group (a child that called setsid),
			// reparented here since the mark made this process a subreaper.
			p.mark.Sweep(pid)
		}
		p.g.removeSocketDir()
	})
}

// shutdownServed asks the plugin to shut down through go-plugin's
// GRPCController, as go-plugin's own Kill does, and reports whether the
// plugin serves it. A plugin written from plugin.proto alone may not (a
// non-Go one): its answer is Unimplemented, and it will not exit when
// asked. Any other outcome counts as served — a Go plugin's server stops
// as it answers, so the call may end with the connection.
func (p *Plugin) shutdownServed() bool {
	gc, ok := p.rpc.(*goplugin.GRPCClient)
	if !ok || gc.Conn == nil {
		return true
	}
	ctx, cancel := context.WithTimeout(context.Background(), shutdownAsk)
	defer cancel()
	err := gc.Conn.Invoke(ctx, "/plugin.GRPCController/Shutdown", &emptypb.Empty{}, &emptypb.Empty{})
	return status.Code(err) != codes.Unimplemented
}

// shutdownAsk bounds the Shutdown call: a plugin too busy to answer within
// it is left to go-plugin's own wait and the kill after it.
const shutdownAsk = time.Second

// await waits up to d for done; when it is not closed by then it calls
// next (if any). It reports whether done closed in time.
func (p *Plugin) await(done <-chan struct{}, d time.Duration, next func()) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		if next != nil {
			next()
		}
		return false
	}
}

// ExitedError is a call the plugin's process ended around: it exited
// during the call, or before it (the call never reached it). A run reads
// it as why the call's outcome is unknown (runbook's pluginCause): the
// record said "outcome unknown" and explain "the record does not say why"
// of a plugin that had crashed mid-call.
type ExitedError struct {
	How  string // "exited (exit status 3)", "exited (signal: killed)"
	When string // "during the call", "before this call"
	Err  error  // the transport's error
}

func (e *ExitedError) Error() string {
	return fmt.Sprintf("the plugin process %s %s: %v", e.How, e.When, e.Err)
}

func (e *ExitedError) Unwrap() error { return e.Err }

// Cause is the words of why the call's outcome is unknown.
func (e *ExitedError) Cause() string { return fmt.Sprintf("the plugin process %s %s", e.How, e.When) }

// errNotReached is a call made after the plugin's process had ended: it
// never reached a plugin, and fault says the process ended before it,
// not during it.
var errNotReached = errors.New("the call never reached it: a plugin is not restarted within a run")

// fault wraps err as the plugin's fault, with its stderr tail, and says
// so when the process has ended.
func (p *Plugin) fault(op string, err error) error {
	var re *RunError
	if errors.As(err, &re) {
		return err
	}
	if strings.Contains(err.Error(), "Unavailable") {
		// The connection broke: give a dying process a moment to be seen
		// dead, so the error says how it ended.
		for i := 0; i < 50 && !p.client.Exited(); i++ {
			time.Sleep(5 * time.Millisecond)
		}
	}
	if p.client.Exited() {
		how := "exited"
		if st := p.cmd.ProcessState; st != nil {
			how = "exited (" + st.String() + ")"
		}
		when := "during the call"
		if errors.Is(err, errNotReached) {
			when = "before this call"
		}
		err = &ExitedError{How: how, When: when, Err: err}
	} else if errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "DeadlineExceeded") {
		p.broken.Store(true)
		de := deadlineError{err: err}
		if ct, ok := err.(callTimedOut); ok {
			de = deadlineError(ct)
		}
		err = de
	}
	return &Error{Plugin: p.src.Name, Op: op, Err: err, Stderr: p.stderr.tail()}
}

var (
	reProtocol = regexp.MustCompile(`Plugin version: (\d+), Client versions: \[([0-9 ]*)\]`)
	reJunk     = regexp.MustCompile(`(?s)Unrecognized remote plugin message: (.*)`)
)

// diagnose turns go-plugin's start errors into the likely cause.
func (p *Plugin) diagnose(err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "exec format error"):
		return fmt.Errorf("%s is not an executable for this machine (exec format error: built for another architecture or OS, or a script without a #! line)", p.src.Path)
	case strings.Contains(msg, "permission denied"):
		return fmt.Errorf("%s is not executable (permission denied; chmod +x it)", p.src.Path)
	}
	if m := reProtocol.FindStringSubmatch(msg); m != nil {
		return fmt.Errorf("speaks plugin protocol %s, but this runbook speaks protocol %s (rebuild the plugin against a matching runbook SDK)", m[1], strings.ReplaceAll(strings.TrimSpace(m[2]), " ", ", "))
	}
	if m := reJunk.FindStringSubmatch(msg); m != nil {
		line, _, _ := strings.Cut(m[1], "\n")
		line = strings.TrimSpace(line)
		if line == "" || strings.Contains(m[1], "Failed to read any lines") {
			return fmt.Errorf("exited before the handshake, writing nothing on stdout (is it a runbook plugin? run by hand, a plugin says so on stderr)")
		}
		return fmt.Errorf("wrote to stdout before the handshake: %q (a plugin must write nothing to stdout before serving; log to stderr, or use sdk.Serve, which moves stray writes there)", clip(line, 120))
	}
	switch {
	case strings.Contains(msg, "plugin exited before we could connect"):
		return fmt.Errorf("exited before the handshake (is it a runbook plugin? run by hand, a plugin says so on stderr)")
	case strings.Contains(msg, "timeout while waiting for plugin to start"):
		return fmt.Errorf("did not handshake within %s", p.cfg.startTimeout)
	case strings.Contains(msg, "unsupported plugin protocol"):
		return fmt.Errorf("serves net/rpc, not gRPC: %v", err)
	}
	return err
}

func checkFile(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		if os.IsNotExist(err) {
			return kindError{fmt.Sprintf("no executable at %s", path), fs.ErrNotExist}
		}
		return err
	}
	if fi.IsDir() {
		return kindError{fmt.Sprintf("%s is a directory, not an executable", path), fs.ErrPermission}
	}
	if fi.Mode().Perm()&0o111 == 0 {
		return kindError{fmt.Sprintf("%s is not executable (mode %v; chmod +x it)", path, fi.Mode().Perm()), fs.ErrPermission}
	}
	return nil
}

// kindError keeps its own words and is kind (fs.ErrNotExist,
// fs.ErrPermission) to errors.Is, so a caller can say why a plugin could
// not be started without reading the words.
type kindError struct {
	msg  string
	kind error
}

func (e kindError) Error() string { return e.msg }
func (e kindError) Unwrap() error { return e.kind }

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// checkSum refuses the file at path unless its SHA-256 is want (hex),
// before anything starts it.
func checkSum(path, want string) error {
	if b, err := hex.DecodeString(want); err != nil || len(b) != sha256.Size {
		return fmt.Errorf("sha256 %q is not a SHA-256 digest", want)
	}
	have, err := fileSHA256(path)
	if err != nil {
		return fmt.Errorf("checksum: %w", err)
	}
	return sumMatches(path, have, want)
}

// sumMatches compares the digest have of the file at path with a pin.
func sumMatches(path, have, want string) error {
	if b, err := hex.DecodeString(want); err != nil || len(b) != sha256.Size {
		return fmt.Errorf("sha256 %q is not a SHA-256 digest", want)
	}
	if !strings.EqualFold(have, want) {
		return fmt.Errorf("checksum mismatch: the chart pins sha256 %s but %s has %s; refused before starting it", want, path, have)
	}
	return nil
}

// socketTempDir is where go-plugin makes the plugin's unix socket
// directory: the temp dir, or /tmp when the temp dir's path is long (a
// socket path past 108 bytes cannot be bound).
func socketTempDir() string {
	if len(os.TempDir()) <= 60 {
		return ""
	}
	return "/tmp"
}

// stderrShown is the part of a stderr tail an error shows: its last 5
// lines, or, when the plugin died of a Go panic or fatal error, from that
// line on (at most panicLines): a goroutine's panic is followed by its
// stack, so the last 5 lines were frames and the `panic:` line, the one
// that says what happened, was dropped (issue #17).
func stderrShown(s string) string {
	lines := strings.Split(s, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") {
			end := min(len(lines), i+panicLines)
			return strings.Join(lines[i:end], " | ")
		}
	}
	return lastLines(s, 5)
}

// panicLines bounds a panic's part of an error: the panic line and the
// first frames, which name the function that panicked.
const panicLines = 12

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// SHA256Of is the hex SHA-256 of the file at path, as a chart's `sha256:`
// pins it (runbook plan shows it without starting the plugin).
func SHA256Of(path string) (string, error) { return fileSHA256(path) }

// CheckSHA256 is the check a pinned plugin passes before it is started:
// nil when the file at path has SHA-256 want (hex), else what differs.
func CheckSHA256(path, want string) error { return checkSum(path, want) }
