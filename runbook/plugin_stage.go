package runbook

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/host"
	"github.com/openrunbook/runbook/plugins/label"
)

// WithHonestyPlugin runs the honesty stages through h (for instance a
// started honesty plugin, host.StartHonesty, shared by many runs). The
// caller owns h's lifetime. A call that fails falls back as in
// WithHonestyProcess.
func WithHonestyPlugin(h Honesty) ExecOption { return func(o *execOptions) { o.honesty = h } }

// WithHonestyProcess runs the honesty stages as a plugin process started
// for this run, as the run begins, from path and args, and stopped when the
// run ends: in the background once the record is complete; Result.Close
// waits until it is gone. The process must serve this build's honesty
// stages (runbook.InProcess; see StartHonestyProcess). Its start competes
// with the run for the cores: a caller with something to do before Exec
// (the CLI loads the chart) starts it earlier with StartHonestyProcess and
// WithHonestyStarted. The record is the same bytes as in-process. A plugin
// that fails is replaced by the in-process stages, with a warning.
func WithHonestyProcess(path string, args ...string) ExecOption {
	return func(o *execOptions) { o.honestyCmd = append([]string{path}, args...) }
}

// HonestyProcess is a per-run honesty plugin process started before its
// run, so that its start (exec, the Go runtime, the handshake: several
// milliseconds of CPU) overlaps with what the caller does before Exec —
// the CLI loads and compiles the chart meanwhile — instead of competing
// with the run for the same cores. Hand it to one run with
// WithHonestyStarted; that run owns it and stops it as WithHonestyProcess
// does.
type HonestyProcess struct {
	h *host.Honesty
}

// StartHonestyProcess starts the honesty plugin process at path with args
// in the background and returns at once. logger, when not nil, receives
// its stderr. The process must serve this build's honesty stages, as for
// WithHonestyProcess: stage results that declare nothing are answered
// without a round trip (host.WithSameCoverageRules).
func StartHonestyProcess(logger *slog.Logger, path string, args ...string) *HonestyProcess {
	opts := []host.Option{host.WithSameCoverageRules()}
	if logger != nil {
		opts = append(opts, host.WithLogger(logger))
	}
	return &HonestyProcess{h: host.StartHonesty(host.Source{Name: "honesty", Path: path, Args: args}, opts...)}
}

// Wait waits until the process has started (its handshake done) and
// returns why it could not start, if it could not. A run does not need
// it: its first honesty call waits, and one that failed falls back.
func (p *HonestyProcess) Wait() error { return p.h.Wait() }

// Close stops the process and waits until it is gone. A run given the
// process stops it itself; Close is for a process no run took (the chart
// did not load) and is safe after the run's stop.
func (p *HonestyProcess) Close() {
	if p != nil {
		p.h.Close()
	}
}

// WithHonestyStarted runs the honesty stages in p, started earlier by
// StartHonestyProcess. The run owns p: it stops it when it ends (in the
// background, Result.Close waits), also when the chart turns the honesty
// stages off or the inputs are refused. Give a process to one run only: a
// second run finds it stopped and falls back to the in-process stages with
// a warning.
func WithHonestyStarted(p *HonestyProcess) ExecOption {
	return func(o *execOptions) { o.honestyStarted = p }
}

// WithPluginDir is where stage plugins the chart's plugins: map does not
// name are looked for, as runbook-plugin-<name>.
func WithPluginDir(dir string) ExecOption { return func(o *execOptions) { o.pluginDir = dir } }

// startPlugins readies the run's plugin side: its id, its honesty stages
// (in-process, or a process), and its stage plugin manager (which starts
// nothing until a plugin stage runs). The returned func, called once the
// record is complete, stops every process the run started: the stage
// plugins before it returns; a per-run honesty process in the background,
// its returned channel closed once that process is gone (Result.Close).
func (rb *Runbook) startPlugins(rs *runState, o *execOptions) (end func() <-chan struct{}) {
	rs.run = newRunID()
	var opts []host.Option
	if o.logger != nil {
		opts = append(opts, host.WithLogger(o.logger))
	}
	var proc *host.Honesty
	if o.honestyStarted != nil {
		proc = o.honestyStarted.h
	}
	primary := o.honesty
	on := rb.spec.Honesty == nil || len(rb.spec.Honesty) > 0
	usesProc := false
	switch {
	case primary != nil || !on:
		// A started process the run does not use is still the run's to stop.
	case proc != nil:
		primary, usesProc = proc, true
	case len(o.honestyCmd) > 0:
		proc = StartHonestyProcess(o.logger, o.honestyCmd[0], o.honestyCmd[1:]...).h
		primary, usesProc = proc, true
	}
	if primary == nil {
		rs.honesty = InProcess()
	} else {
		rs.honesty = &fallback{primary: primary, local: InProcess(), warn: rs.warn}
	}
	rs.plugins = &stagePlugins{chart: rb.pluginSources(), dir: o.pluginDir, opts: opts}
	return func() <-chan struct{} {
		rs.plugins.close()
		done := make(chan struct{})
		if !usesProc {
			_ = rs.honesty.EndRun(context.Background(), rs.run)
		}
		if proc == nil {
			close(done)
			return done
		}
		// The process and the in-process fallback serve this run only: the
		// run's memory ends with them, so no EndRun round trip. Stopping
		// (go-plugin's graceful shutdown, the group kill, the reap) needs
		// nothing of the record: it goes on while the caller uses it.
		go func() {
			defer close(done)
			proc.Close()
		}()
		return done
	}
}

// endPlugins calls end once: on the normal return, with the result's
// stop channel; on a panic, waiting for every process to be gone.
type endPlugins struct {
	end  func() <-chan struct{}
	done <-chan struct{}
}

func (e *endPlugins) stop() <-chan struct{} {
	if e.done == nil {
		e.done = e.end()
	}
	return e.done
}

// ensure is deferred: a run that panicked still stops every process.
func (e *endPlugins) ensure() {
	if e.done == nil {
		<-e.stop()
	}
}

// pluginSources is the chart's plugins: map, each command made absolute
// against the chart file's directory.
func (rb *Runbook) pluginSources() map[string]host.Source {
	if len(rb.spec.Plugins) == 0 {
		return nil
	}
	base := "."
	if rb.spec.File != "" {
		base = filepath.Dir(rb.spec.File)
	}
	out := make(map[string]host.Source, len(rb.spec.Plugins))
	for _, p := range rb.spec.Plugins {
		path := p.Command
		if !filepath.IsAbs(path) {
			path = filepath.Join(base, path)
		}
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		out[p.Name] = host.Source{Name: p.Name, Path: path, SHA256: p.SHA256}
	}
	return out
}

func newRunID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// stagePlugins is one run's stage plugin processes: the manager is made on
// the first plugin stage (a run without one pays nothing), and every
// process it started is stopped when the run ends.
type stagePlugins struct {
	chart map[string]host.Source
	dir   string
	opts  []host.Option

	mu     sync.Mutex
	m      *host.Manager
	closed bool
}

func (sp *stagePlugins) stage(ctx context.Context, name string) (*host.Stage, error) {
	sp.mu.Lock()
	if sp.closed {
		sp.mu.Unlock()
		return nil, fmt.Errorf("the run has ended")
	}
	if sp.m == nil {
		sp.m = host.NewManager(sp.chart, sp.dir, sp.opts...)
	}
	m := sp.m
	sp.mu.Unlock()
	return m.Stage(ctx, name)
}

func (sp *stagePlugins) close() {
	sp.mu.Lock()
	sp.closed = true
	m := sp.m
	sp.mu.Unlock()
	if m != nil {
		m.Close()
	}
}

// pluginStage calls a stage plugin: it evaluates the stage's args against
// the scope, fills the plugin's declared defaults for the missing ones
// (each an ASSUMED value, by the plugin's name), passes the scope values
// the plugin reads, and writes the plugin's result under `into` through
// the coverage stage. A plugin that runs code files a script row per call.
//
// A plugin that cannot start, crashes, hangs past the stage's timeout or
// answers garbage fails the stage, naming the plugin and its stderr's
// tail, and files the call's script row as outcome-unknown (settlement
// threw, no facts), whether or not the plugin runs code.
func pluginStage(st *chart.StageSpec, set settled) flow.StageFunc {
	ps := st.Plugin
	into := ps.Into
	if into == "" {
		into = st.ID
	}
	return func(ctx context.Context, s *flow.Scope) error {
		if set.timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, set.timeout)
			defer cancel()
		}
		rs := stateOf(s)
		if rs.plugins == nil {
			return fmt.Errorf("plugin %q: stage plugins run only inside a runbook run", ps.Name)
		}
		p, err := rs.plugins.stage(ctx, ps.Name)
		if err != nil {
			rs.script(s.Path(), label.Threw, nil, false)
			return outOfTime(ctx, err)
		}
		d := p.Description()
		args, err := pluginArgs(ps, d, s)
		if err != nil {
			return err
		}
		for _, a := range d.Args {
			if _, given := args[a.Name]; !given && a.HasDefault {
				args[a.Name] = a.Default
				rs.assume(s.Path(), a.Name, a.Default, ps.Name)
			}
		}
		scope := make(map[string]any, len(d.Reads))
		for _, k := range d.Reads {
			if v, ok := s.Get(k); ok {
				scope[k] = v
			}
		}
		resp, err := p.Run(ctx, plugins.Request{Path: RecordPath(s.Path()), Args: args, Scope: scope})
		err = outOfTime(ctx, err)
		var re *host.RunError
		switch {
		case errors.As(err, &re):
			if d.RunsCode {
				no := false
				rs.script(s.Path(), label.Returned, &label.Facts{OK: &no}, false)
			}
			return re
		case err != nil:
			rs.script(s.Path(), label.Threw, nil, false)
			return err
		}
		if d.RunsCode {
			rs.script(s.Path(), label.Returned, resp.Facts, false)
		}
		s.Set(into, rs.result(s.Path(), resp.Result))
		return nil
	}
}

// outOfTime marks err as a timeout when the stage's time ran out, whichever
// side noticed first: the plugin, answering with its context's error; the
// host, getting no answer; or the plugin's start, not done in time. Either
// way it is a timeout to retry.on.
func outOfTime(ctx context.Context, err error) error {
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return timedOut{err}
	}
	return err
}

// timedOut is a plugin call whose stage ran out of time: its words are the
// call's own, and it is context.DeadlineExceeded to errors.Is.
type timedOut struct{ err error }

func (e timedOut) Error() string   { return e.err.Error() }
func (e timedOut) Unwrap() []error { return []error{e.err, context.DeadlineExceeded} }

// pluginArgs evaluates the stage's args and checks them against what the
// plugin declares: no unknown name, every required one given, each of its
// declared type.
func pluginArgs(ps *chart.PluginStageSpec, d plugins.Description, s *flow.Scope) (map[string]any, error) {
	decl := make(map[string]plugins.Arg, len(d.Args))
	for _, a := range d.Args {
		decl[a.Name] = a
	}
	args := make(map[string]any, len(d.Args))
	for _, a := range ps.Args {
		da, ok := decl[a.Key]
		if !ok {
			return nil, fmt.Errorf("plugin %q has no argument %q (it takes: %s)", ps.Name, a.Key, argNames(d.Args))
		}
		v, _, err := a.Expr.Value(s)
		if err != nil {
			return nil, fmt.Errorf("plugin %q argument %s: %s: %w", ps.Name, a.Key, a.Src, err)
		}
		if !argFits(da.Type, v) {
			return nil, fmt.Errorf("plugin %q argument %s: %s is %s, want a %s", ps.Name, a.Key, a.Src, jsonv.Describe(v), da.Type)
		}
		args[a.Key] = v
	}
	for _, a := range d.Args {
		if _, ok := args[a.Name]; !ok && a.Required {
			return nil, fmt.Errorf("plugin %q needs argument %q (%s)", ps.Name, a.Name, a.Description)
		}
	}
	return args, nil
}

func argNames(as []plugins.Arg) string {
	if len(as) == 0 {
		return "none"
	}
	names := make([]string, len(as))
	for i, a := range as {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

// argFits is jsonv.Fits: a plugin argument's declared type is judged by the
// rule inputs are.
func argFits(typ string, v any) bool {
	return jsonv.Fits(typ, v)
}

// assumedArg is a plugin argument filled by the plugin's declared default.
type assumedArg struct {
	path, name, by string
	value          any
}

func (rs *runState) assume(path, name string, v any, by string) {
	rs.mu.Lock()
	rs.assumed = append(rs.assumed, assumedArg{path: path, name: name, by: by, value: v})
	rs.mu.Unlock()
}

// assumedArgs are the assumed plugin arguments for the assessment, in log
// order, each name once per plugin.
func (rs *runState) assumedArgs(log *flow.Log) []assessment.Assumed {
	rs.mu.Lock()
	as := ordered(log, slices.Clone(rs.assumed), func(a *assumedArg) *string { return &a.path })
	rs.mu.Unlock()
	var out []assessment.Assumed
	seen := map[[2]string]bool{}
	for _, a := range as {
		k := [2]string{a.by, a.name}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, assessment.Assumed{Name: a.name, Value: a.value, By: a.by})
	}
	return out
}

// fallback calls the primary honesty stages (a plugin process) and, when
// they fail, the in-process ones: the run's answer never depends on a
// plugin process staying up. The first failure is reported once.
type fallback struct {
	primary, local Honesty
	warn           func(path, msg string)
	failed         atomic.Bool
}

func (f *fallback) fail(err error) {
	if !f.failed.Swap(true) {
		f.warn("honesty", fmt.Sprintf("the honesty plugin failed (%v); the honesty stages ran in-process from then on", err))
	}
}

func (f *fallback) Label(ctx context.Context, req label.Request) (label.Response, error) {
	if !f.failed.Load() {
		if r, err := f.primary.Label(ctx, req); err == nil {
			return r, nil
		} else {
			f.fail(err)
		}
	}
	return f.local.Label(ctx, req)
}

func (f *fallback) Coverage(ctx context.Context, run string, req coverage.Request) (coverage.Response, error) {
	if !f.failed.Load() {
		if r, err := f.primary.Coverage(ctx, run, req); err == nil {
			return r, nil
		} else {
			f.fail(err)
		}
	}
	return f.local.Coverage(ctx, run, req)
}

func (f *fallback) Assess(ctx context.Context, req assessment.Request) (assessment.Response, error) {
	if !f.failed.Load() {
		if r, err := f.primary.Assess(ctx, req); err == nil {
			return r, nil
		} else {
			f.fail(err)
		}
	}
	return f.local.Assess(ctx, req)
}

func (f *fallback) EndRun(ctx context.Context, run string) error {
	_ = f.local.EndRun(ctx, run)
	if f.failed.Load() {
		return nil
	}
	return f.primary.EndRun(ctx, run)
}
