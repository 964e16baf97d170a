package runbook

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/host"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/rules"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// WithHonestyVia chooses where the run's honesty stages (label, coverage,
// assessment) run: h is InProcess() — the default — or an honesty plugin
// process, host.StartHonesty serving this build's stages (the CLI's
// --honesty=plugin: the runbook binary re-executed). Either way the run
// takes the one path: every call goes through h, and, should h fail, through
// the in-process stages from then on, with one warning; the record is the
// same bytes. The caller owns h: start it before it loads the chart, so the
// start overlaps with the load, hand it to as many runs as it likes (each
// run's coverage memory is keyed by the run's id and forgotten when the run
// ends), and stop it when done. It is not WithHonesty, the build option
// choosing which honesty stages are on.
//
// Cost, fanout1000 (1000 branches; docs/BENCHMARKS.md): a process kept
// across runs adds ≤ 1.03× to Exec (the calls are batched, and stage results
// that declare nothing are answered in the host: host.WithSameCoverageRules);
// `runbook exec`, which starts one process per command before loading the
// chart, measures 1.1–1.2× the in-process wall time. A process started
// per run on a busy machine costs its start, ~9 ms of CPU.
func WithHonestyVia(h Honesty) ExecOption { return func(o *execOptions) { o.honesty = h } }

// WithPluginDir is where stage plugins the chart's plugins: map does not
// name are looked for, as runbook-plugin-<name>.
func WithPluginDir(dir string) ExecOption { return func(o *execOptions) { o.pluginDir = dir } }

// WithPluginDirHint says, in the error for a plugin that was not found when
// no plugin directory was given, how the user gives one: the CLI says
// "--plugin-dir or RUNBOOK_PLUGIN_DIR". The library knows no flags.
func WithPluginDirHint(hint string) ExecOption {
	return func(o *execOptions) { o.pluginDirHint = hint }
}

// startPlugins readies the run's plugin side: its id, its honesty stages
// (WithHonestyVia, behind the in-process fallback), and its stage plugin
// manager (which starts nothing until a plugin stage runs). The returned
// func, called once the record is complete, stops every stage plugin the run
// started and ends the run's honesty memory.
func (rb *Runbook) startPlugins(rs *runState, o *execOptions) (end func()) {
	rs.run = newRunID()
	opts := []host.Option{host.WithMask(rs.secrets.Text)}
	if o.logger != nil {
		opts = append(opts, host.WithLogger(o.logger))
	}
	via := o.honesty
	if via == nil {
		via = InProcess()
	}
	// The fallback wraps every choice, the in-process one too (it never
	// fails, so the wrapper only costs a second, unused map): one path.
	rs.honesty = &fallback{primary: via, local: InProcess(), warn: rs.warn}
	rs.plugins = &stagePlugins{chart: rb.pluginSources(), dir: o.pluginDir, hint: o.pluginDirHint, opts: opts}
	rs.plugins.host, _ = o.stubs.(PluginHost) // plugin_remote.go
	return func() {
		rs.plugins.close()
		_ = rs.honesty.EndRun(context.Background(), rs.run)
	}
}

// endPlugins calls end once: when the record is complete (run.finish), or,
// deferred, when the run panicked.
type endPlugins struct {
	end  func()
	once sync.Once
}

func (e *endPlugins) stop() { e.once.Do(e.end) }

// ensure is deferred: a run that panicked still stops every process.
func (e *endPlugins) ensure() { e.stop() }

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
		out[p.Name] = host.Source{Name: p.Name, Path: path, SHA256: p.SHA256, Version: p.Version}
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
	hint  string // WithPluginDirHint
	opts  []host.Option

	mu     sync.Mutex
	m      *host.Manager
	closed bool
	calls  map[string]map[string]bool // plugin name → ids of the stages that called it

	// host, when set (the run's stubs are a PluginHost), runs every
	// plugin elsewhere; described holds each plugin's description answer.
	host      PluginHost
	described map[string]*PluginAnswer
}

// pluginConn is a started stage plugin as a plugin stage calls it: here
// (*host.Stage) or elsewhere (remoteStage).
type pluginConn interface {
	Description() plugins.Description
	Run(ctx context.Context, req plugins.Request) (plugins.Response, error)
}

// called notes that stage id called the plugin name, for the record's
// provenance.
func (sp *stagePlugins) called(name, id string) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.calls == nil {
		sp.calls = map[string]map[string]bool{}
	}
	if sp.calls[name] == nil {
		sp.calls[name] = map[string]bool{}
	}
	sp.calls[name][id] = true
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
	st, err := m.Stage(ctx, name)
	// The manager hands every caller the same error value: copy, never
	// write into it (branches ask at once).
	if nf, ok := err.(*host.NotFoundError); ok && nf.Hint == "" && sp.hint != "" {
		c := *nf
		c.Hint = sp.hint
		err = &c
	}
	return st, err
}

// provenance is what the record says of each stage plugin the run
// started (nil: none, or no plugin side), with the arguments its defaults
// filled (assumed, in log order).
func (sp *stagePlugins) provenance(assumed []assumedArg) []record.PluginRun {
	if sp == nil {
		return nil
	}
	sp.mu.Lock()
	m := sp.m
	calls := map[string][]string{}
	for name, ids := range sp.calls {
		calls[name] = slices.Sorted(maps.Keys(ids))
	}
	var started []host.Provenance
	if m != nil {
		started = m.Started()
	}
	for _, a := range sp.described {
		if a.Provenance != nil {
			started = append(started, *a.Provenance)
		}
	}
	sp.mu.Unlock()
	slices.SortFunc(started, func(a, b host.Provenance) int { return strings.Compare(a.Name, b.Name) })
	var out []record.PluginRun
	for _, p := range started {
		out = append(out, record.PluginRun{Name: p.Name, Version: p.Version, Protocol: p.Protocol, Path: p.Path, SHA256: p.SHA256, Stages: calls[p.Name]})
	}
	attachAssumed(out, assumed)
	return out
}

// attachAssumed files each assumed argument under the plugin that assumed
// it.
func attachAssumed(ps []record.PluginRun, assumed []assumedArg) {
	for _, a := range assumed {
		if k := slices.IndexFunc(ps, func(p record.PluginRun) bool { return p.Name == a.by }); k >= 0 {
			ps[k].Assumed = append(ps[k].Assumed, a.record())
		}
	}
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

// readsSecretError is a plugin's declared read of a key that holds a
// secret the chart did not give it: the run's refusal, and what validate
// and plan say before it (PluginChecker.Check).
func readsSecretError(plugin, key string) error {
	return fmt.Errorf("plugin %q declares it reads %s from the scope, which holds a secret the chart did not give it: it is not sent; a plugin gets a secret only as an argument (args: {NAME: %s})", plugin, key, key)
}

// givenAsArg reports whether the chart passed v, as a whole, as one of the
// stage's arguments.
func givenAsArg(args map[string]any, v any) bool {
	for _, a := range args {
		if jsonv.EqualGo(a, v) {
			return true
		}
	}
	return false
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
		rs := stateOf(s)
		if rs.plugins == nil {
			return fmt.Errorf("plugin %q: stage plugins run only inside a runbook run", ps.Name)
		}
		// A plugin run elsewhere has its timeout kept where it runs
		// (RunPlugin): a deadline on this clock would, in a Temporal
		// workflow, read differently when the run is replayed.
		run := ctx
		if set.timeout > 0 && rs.plugins.host == nil {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, set.timeout)
			defer cancel()
		}
		if stubbed, err := rs.pluginStub(ctx, st, s, into); stubbed { // stubs.go
			return err
		}
		var p pluginConn
		var err error
		if rs.plugins.host != nil {
			p, err = rs.plugins.remote(ctx, rs.plugins.host, PluginRunCall{Path: s.Path(), Stage: st.ID, Plugin: ps.Name, Timeout: set.timeout}, rs.secrets)
		} else {
			p, err = rs.plugins.stage(ctx, ps.Name)
		}
		if err != nil {
			rs.script(s.Path(), label.Threw, nil, false, callNotes{cause: pluginCause(ctx, run, err, set.timeout)})
			return outOfTime(ctx, err)
		}
		rs.plugins.called(ps.Name, st.ID)
		d := p.Description()
		args, assumed, err := pluginArgs(ps, d, s)
		if err != nil {
			return err
		}
		for _, name := range assumed {
			rs.assume(s.Path(), name, args[name], ps.Name, sensitive(d, name))
		}
		scope := make(map[string]any, len(d.Reads))
		var absent []string // declared reads the scope lacks: each a gap once the plugin answers
		for _, k := range d.Reads {
			if v, ok := s.Get(k); ok {
				if rs.secrets.Holds(v) && !givenAsArg(args, v) {
					// A secret reaches a process only where the chart
					// puts it (an exec's envFrom: or stdin:, a plugin's
					// args:), never because a plugin asked for the key.
					return readsSecretError(ps.Name, k)
				}
				scope[k] = v
			} else {
				absent = append(absent, k)
			}
		}
		resp, err := p.Run(ctx, plugins.Request{Path: RecordPath(s.Path()), Args: args, Scope: scope})
		err = outOfTime(ctx, err)
		var re *host.RunError
		switch {
		case errors.As(err, &re) && !errors.Is(err, context.DeadlineExceeded):
			if d.RunsCode {
				no := false
				rs.script(s.Path(), label.Returned, &label.Facts{OK: &no}, false, callNotes{})
			}
			return re
		case err != nil:
			rs.script(s.Path(), label.Threw, nil, false, callNotes{cause: pluginCause(ctx, run, err, set.timeout)})
			return err
		}
		if d.RunsCode {
			rs.script(s.Path(), label.Returned, pluginFacts(resp.Facts), false, callNotes{})
		}
		for _, k := range absent {
			rs.fileLedger(record.PluginReadAbsentEntry(s.Path(), ps.Name, k))
		}
		s.SetFact(into, rs.result(s.Path(), resp.Result)) // what the plugin answered now, changed or not
		return nil
	}
}

// pluginFacts is a code-running plugin's Facts as its script row files
// them: a process killed by a signal, with no exit code and no verdict of
// the plugin's own (`TerminatedBy: "SIGKILL"` alone), failed, as execOutcome
// files an exec stage's process killed by a signal it did not send
// ({ok: false, terminatedBy}). Filed as the plugin gave them they were
// labelled "returned", and the run stood Consistent over the result of a
// process that never reached an exit. The plugin's Facts are not changed.
func pluginFacts(f *label.Facts) *label.Facts {
	if f == nil || f.TerminatedBy == "" || f.ExitCode != nil || f.OK != nil || f.ServiceError {
		return f
	}
	failed := false
	out := *f
	out.OK = &failed
	return &out
}

// outOfTime marks err as a timeout when the stage's time ran out, whichever
// side noticed first: the plugin, answering with its context's error; the
// host, getting no answer; or the plugin's start, not done in time. Either
// way it is a timeout to retry.on.
//
// The deadline is read from the clock as well as from ctx.Err: grpc and the
// plugin keep their own timers on the same deadline, and one of those can
// fire a moment before the context's own, which left such a timeout
// unrecognised (TestIssue12PluginRetryOn flaked under load); a deadline
// that crossed the process boundary may come back only as grpc's code or
// its words.
func outOfTime(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	dl, hasDeadline := ctx.Deadline()
	late := hasDeadline && (!time.Now().Before(dl) || status.Code(err) == codes.DeadlineExceeded || strings.Contains(err.Error(), context.DeadlineExceeded.Error()))
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || late {
		return timedOut{err}
	}
	return err
}

// timedOut is a plugin call whose stage ran out of time: its words are the
// call's own, and it is context.DeadlineExceeded to errors.Is.
type timedOut struct{ err error }

func (e timedOut) Error() string   { return e.err.Error() }
func (e timedOut) Unwrap() []error { return []error{e.err, context.DeadlineExceeded} }

// pluginArgs evaluates the stage's args and applies the host's argument
// rules to them (plugins.ApplyArgs: their one home). An argument the plugin
// does not declare is not evaluated: its error is that it is unknown.
func pluginArgs(ps *chart.PluginStageSpec, d plugins.Description, s *flow.Scope) (map[string]any, []string, error) {
	declared := make(map[string]bool, len(d.Args))
	for _, a := range d.Args {
		declared[a.Name] = true
	}
	given := make(map[string]any, len(ps.Args))
	src := make(map[string]string, len(ps.Args))
	for _, a := range ps.Args {
		src[a.Key] = a.Src
		if !declared[a.Key] {
			given[a.Key] = nil
			continue
		}
		v, _, err := a.Expr.Value(s)
		if err != nil {
			return nil, nil, fmt.Errorf("plugin %q argument %s: %s: %w", ps.Name, a.Key, rules.OneLine(a.Src), err)
		}
		stateOf(s).derive(s, a.Expr, v)
		given[a.Key] = v
	}
	// A sensitive argument is a secret from here on, given or defaulted:
	// masked wherever the run shows it, as a secret input — the error
	// refusing it too, which quotes the value.
	for _, a := range d.Args {
		if !a.Sensitive {
			continue
		}
		if v, ok := given[a.Name]; ok {
			stateOf(s).secrets.Add(v)
		} else if a.HasDefault {
			stateOf(s).secrets.Add(a.Default)
		}
	}
	args, assumed, err := plugins.ApplyArgs(d, given)
	var ae *plugins.ArgError
	if errors.As(err, &ae) && ae.Problem == plugins.WrongType {
		// Name the chart's words too: the value came from them.
		return nil, nil, fmt.Errorf("%w (the stage gives %s)", err, src[ae.Arg])
	}
	return args, assumed, err
}

// assumedArg is a plugin argument filled by the plugin's declared default.
type assumedArg struct {
	path, name, by string
	value          any
	secret         bool // a sensitive argument: the line names it, never its value
}

// record is the argument as the record keeps it: a sensitive one
// without its value.
func (a assumedArg) record() record.AssumedArg {
	r := record.AssumedArg{Path: a.path, Name: a.name, Secret: a.secret}
	if !a.secret {
		r.Value = a.value
	}
	return r
}

// assumedFrom is what a saved record says its plugins assumed, as this
// run's own assumptions: a resumed run calls none of them again.
func assumedFrom(ps []record.PluginRun) []assumedArg {
	var out []assumedArg
	for _, p := range ps {
		for _, a := range p.Assumed {
			out = append(out, assumedArg{path: a.Path, name: a.Name, by: p.Name, value: a.Value, secret: a.Secret})
		}
	}
	return out
}

func (rs *runState) assume(path, name string, v any, by string, secret bool) {
	rs.mu.Lock()
	rs.assumed = append(rs.assumed, assumedArg{path: path, name: name, by: by, value: v, secret: secret})
	rs.mu.Unlock()
}

// sensitive says whether d declares the argument name sensitive.
func sensitive(d plugins.Description, name string) bool {
	for _, a := range d.Args {
		if a.Name == name {
			return a.Sensitive
		}
	}
	return false
}

// assumedInOrder is this run's (or this part's) assumed plugin
// arguments in log order, every call's.
func (rs *runState) assumedInOrder(log *flow.Log) []assumedArg {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return ordered(log, slices.Clone(rs.assumed), func(a *assumedArg) *string { return &a.path })
}

// assumedArgs are the assumed plugin arguments for the assessment, in log
// order, each name once per plugin: a resumed run's before the pause
// first.
func (rs *runState) assumedArgs(log *flow.Log) []assessment.Assumed {
	rs.mu.Lock()
	prior := slices.Clone(rs.priorAssumed)
	rs.mu.Unlock()
	as := append(prior, rs.assumedInOrder(log)...)
	var out []assessment.Assumed
	seen := map[[2]string]bool{}
	for _, a := range as {
		k := [2]string{a.by, a.name}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, assessment.Assumed{Name: a.name, Value: a.value, Secret: a.secret, By: a.by})
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
