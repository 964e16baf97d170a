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
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	goplugin "github.com/hashicorp/go-plugin"

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
	env          []string
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

// WithMaxBatch caps the calls one batch carries.
func WithMaxBatch(n int) Option { return func(c *config) { c.maxBatch = n } }

// WithSameCoverageRules says the honesty plugin runs this build's
// plugins/coverage (the runbook binary serving its own honesty stages):
// a batch of stage results that coverage.Read does not recognize or warn
// about and coverage.Serve leaves unchanged — ordinary data, most results
// of a run — is answered here by those same functions, without a round
// trip. Never set it for a plugin with coverage rules of its own.
func WithSameCoverageRules() Option { return func(c *config) { c.sameRules = true } }

func newConfig(opts []Option) config {
	c := config{startTimeout: DefaultStartTimeout, callTimeout: DefaultCallTimeout, maxBatch: DefaultMaxBatch}
	for _, o := range opts {
		o(&c)
	}
	if c.logger == nil {
		c.logger = slog.New(slog.DiscardHandler)
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
		msg += "; its stderr ends: " + lastLines(e.Stderr, 5)
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// deadlineError is a call that got no answer in time. It says the transport's
// words and is context.DeadlineExceeded to errors.Is, so a caller asks one
// question of a timed-out call whichever side of the wire noticed first.
type deadlineError struct{ err error }

func (e deadlineError) Error() string   { return "no answer before the deadline: " + e.err.Error() }
func (e deadlineError) Unwrap() []error { return []error{e.err, context.DeadlineExceeded} }

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
	rpc    goplugin.ClientProtocol
	stderr *ring
	sock   string // a short socket directory of ours, removed on Kill

	killOnce sync.Once
	broken   atomic.Bool
}

// Start starts the plugin at src and completes the handshake. A checksum
// is checked before the process starts. A plugin that cannot start gets an
// error naming the likely cause (not executable, wrong architecture, wrote
// to stdout before the handshake, another protocol version).
func Start(ctx context.Context, src Source, opts ...Option) (*Plugin, error) {
	cfg := newConfig(opts)
	p := &Plugin{src: src, cfg: cfg, stderr: &ring{}}
	fail := func(err error) (*Plugin, error) {
		p.Kill()
		return nil, &Error{Plugin: src.Name, Op: "start", Err: err, Stderr: p.stderr.tail()}
	}
	if err := checkFile(src.Path); err != nil {
		return nil, &Error{Plugin: src.Name, Op: "start", Err: err}
	}
	var secure *goplugin.SecureConfig
	if src.SHA256 != "" {
		want, err := hex.DecodeString(src.SHA256)
		if err != nil || len(want) != sha256.Size {
			return nil, &Error{Plugin: src.Name, Op: "start", Err: fmt.Errorf("sha256 %q is not a SHA-256 digest", src.SHA256)}
		}
		secure = &goplugin.SecureConfig{Checksum: want, Hash: sha256.New()}
	}
	p.cmd = exec.Command(src.Path, src.Args...)
	// Its own process group: a terminal's Ctrl-C reaches the host only, and
	// Kill stops the plugin's children with it.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// A minimal environment, never the host's whole one (its tokens and
	// cloud credentials stay with it): proc's inherited set, what WithEnv
	// passes, and go-plugin's own handshake variables (SkipHostEnv below).
	p.cmd.Env = append(proc.InheritedEnv(), cfg.env...)
	// The SDK's parent watch compares against this, so a host that dies
	// before the plugin begins watching is still noticed.
	p.cmd.Env = append(p.cmd.Env, fmt.Sprintf("%s=%d", wire.EnvHostPID, os.Getpid()))
	if dir := shortSocketDir(); dir != "" {
		p.sock = dir
		p.cmd.Env = append(p.cmd.Env, "PLUGIN_UNIX_SOCKET_DIR="+dir)
	}
	p.client = goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig:  wire.Handshake,
		VersionedPlugins: wire.Sets(),
		Cmd:              p.cmd,
		SkipHostEnv:      true,
		SecureConfig:     secure,
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		Logger:           newSlogger(cfg.logger),
		Stderr:           p.stderr,
		SyncStdout:       &stdio{tail: p.stderr, logger: cfg.logger, plugin: src.Name, stream: "stdout"},
		SyncStderr:       &stdio{tail: p.stderr, logger: cfg.logger, plugin: src.Name, stream: "stderr"},
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
		go func() { <-ch; p.Kill() }()
		return nil, &Error{Plugin: src.Name, Op: "start", Err: ctx.Err()}
	}
	return p, nil
}

// Name is the plugin's name as charts call it.
func (p *Plugin) Name() string { return p.src.Name }

// Protocol is the protocol version the handshake agreed on.
func (p *Plugin) Protocol() int { return p.client.NegotiatedVersion() }

// Pid is the plugin process's id (its process group's too).
func (p *Plugin) Pid() int {
	if p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// Kill stops the plugin and every process in its process group. It is
// safe to call more than once and from several goroutines.
func (p *Plugin) Kill() {
	p.killOnce.Do(func() {
		pid := p.Pid()
		if p.broken.Load() && pid > 0 {
			// A hung plugin would spend go-plugin's whole grace period.
			_ = syscall.Kill(-pid, syscall.SIGKILL)
		}
		if p.client != nil {
			p.client.Kill()
		}
		if pid > 0 {
			_ = proc.KillGroup(pid, 500*time.Millisecond)
		}
		if p.sock != "" {
			_ = os.RemoveAll(p.sock)
		}
	})
}

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
		err = fmt.Errorf("the plugin process %s during the call: %w", how, err)
	} else if errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "DeadlineExceeded") {
		p.broken.Store(true)
		err = deadlineError{err}
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
	case errors.Is(err, goplugin.ErrChecksumsDoNotMatch):
		have := "?"
		if h, herr := fileSHA256(p.src.Path); herr == nil {
			have = h
		}
		return fmt.Errorf("checksum mismatch: the chart pins sha256 %s but %s has %s; refused before starting it", p.src.SHA256, p.src.Path, have)
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
		return fmt.Errorf("no handshake within %s", p.cfg.startTimeout)
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

// shortSocketDir makes a short directory for the plugin's unix socket when
// the temp dir's path is long: a socket path past 108 bytes cannot be
// bound. "" when the default is short enough.
func shortSocketDir() string {
	if len(os.TempDir()) <= 60 {
		return ""
	}
	dir, err := os.MkdirTemp("/tmp", "rbp-")
	if err != nil {
		return ""
	}
	return dir
}

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
