package runbook

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/plugins/host"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/rules"
)

// Open loads a chart file and builds the runbook it describes. Load errors
// come back together as LoadErrors. opts are the loader's (chart.AllowDir).
func Open(path string, opts ...chart.LoadOption) (*Runbook, error) {
	spec, err := chart.Load(path, opts...)
	if err != nil {
		return nil, err
	}
	return Build(spec)
}

// Build builds the runbook a loaded Spec describes: the flow chart with a
// stage function for every stage kind.
func Build(spec *chart.Spec) (*Runbook, error) {
	// Each mount is built anew: bound the expansion before building it.
	if err := chart.CheckMounts(spec); err != nil {
		return nil, err
	}
	b := &chartBuilder{spec: spec}
	fc, err := b.chart(spec.Name, spec.Description, spec.Stages)
	if err != nil {
		// The root chart's file first (Sorted keeps files in the order
		// they first appear); its subflows' refusals came in while it was
		// being built.
		b.errs = append(locate(err, spec.Stages, spec.Pos), b.errs...)
	}
	if len(b.errs) > 0 {
		return nil, b.errs.Sorted()
	}
	rb := &Runbook{spec: spec, chart: fc, columns: b.columns}
	rb.settleRecord()
	return rb, nil
}

// Option configures a runbook built around a Go chart (New).
type Option func(*chart.Spec, *[][]string)

// WithInputs declares the runbook's inputs. New refuses a type that is not
// one of chart.InputTypes and a default that is not of its input's type.
func WithInputs(in ...chart.InputSpec) Option {
	return func(s *chart.Spec, _ *[][]string) { s.Inputs = append(s.Inputs, in...) }
}

// WithResult sets the result options (kind verdict/* selects the verdict
// projection; Decider names the decider whose branches give meanings).
//
// New checks it as the loader checks a chart.yaml's `result:` (a decider
// that names no decide stage, a word that is none of its choices, a check
// that does not compile are errors), and compiles a check given as its
// source alone (Check.Src without Expr).
func WithResult(r chart.ResultSpec) Option {
	r.Checks = slices.Clone(r.Checks) // New compiles into them: never the caller's
	// New checks the words: a caller's later edit of its own map must not
	// reach the runbook past that check.
	r.Nagios, r.NagiosPos = maps.Clone(r.Nagios), maps.Clone(r.NagiosPos)
	return func(s *chart.Spec, _ *[][]string) { s.Result = &r }
}

// WithHonesty chooses the honesty stages (default: label, coverage and
// assessment; none turns them off).
func WithHonesty(stages ...string) Option {
	return func(s *chart.Spec, _ *[][]string) { s.Honesty = append([]string{}, stages...) }
}

// WithColumns declares a verdict row's key order, for rows a Go stage
// appends as maps (which have none): a row whose keys are exactly these
// columns keeps this order in the record and the table.
func WithColumns(columns ...string) Option {
	return func(_ *chart.Spec, cols *[][]string) { *cols = append(*cols, columns) }
}

// New wraps a chart built with the flow API as a runbook: the same honesty
// stages, verdict projection and result record as a YAML runbook. What the
// loader refuses in a chart.yaml's inputs and result, New refuses too
// (WithInputs, WithResult), so a mistake fails here and not in some run.
func New(fc *flow.Chart, opts ...Option) (*Runbook, error) {
	if fc == nil {
		return nil, errors.New("runbook: New needs a chart")
	}
	spec := &chart.Spec{Version: 1, Name: fc.Name(), Description: fc.Description()}
	rb := &Runbook{spec: spec, chart: fc}
	for _, o := range opts {
		o(spec, &rb.columns)
	}
	var errs []error
	for _, in := range spec.Inputs {
		if !slices.Contains(chart.InputTypes, in.Type) {
			errs = append(errs, fmt.Errorf("input %q: type %q is not one of %v", in.Name, in.Type, chart.InputTypes))
			continue
		}
		if in.HasDefault {
			// The conversion a run makes of it: a default it refuses
			// would fail only the runs that fall back on it.
			if _, err := convertInput(in.Type, in.Default); err != nil {
				errs = append(errs, fmt.Errorf("input %q: its default %w", in.Name, err))
			}
		}
	}
	deciders := rb.settleRecord()
	if spec.Result != nil {
		if err := spec.Result.Settle(deciders); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("runbook: %s: %w", fc.Name(), err)
	}
	return rb, nil
}

// settleRecord settles, once, what every run's record reads of the
// runbook: the static structure, the stage names sentences use, and the
// verdict projection with its defaults (maxRows 50, prose) and the declared
// meanings of its decider.
//
// It returns the ids and names of the chart's decide stages, in chart
// order: what result.decider may name.
func (rb *Runbook) settleRecord() (deciders []string) {
	rb.structure = rb.chart.Describe()
	rb.names = map[string]string{}
	var walk func(nodes []flow.NodeInfo)
	walk = func(nodes []flow.NodeInfo) {
		for _, n := range nodes {
			if _, ok := rb.names[n.ID]; !ok {
				rb.names[n.ID] = n.Name
			}
			if n.Kind == flow.KindDecide {
				deciders = append(deciders, n.ID)
				if n.Name != "" && n.Name != n.ID {
					deciders = append(deciders, n.Name)
				}
			}
			for _, b := range n.Branches {
				walk(b.Nodes)
			}
			if n.ForEach != nil {
				walk(n.ForEach.Body.Nodes)
			}
			if n.Subflow != nil {
				walk(n.Subflow.Nodes)
			}
		}
	}
	walk(rb.structure.Nodes)
	if !rb.spec.ProjectsVerdicts() {
		return deciders
	}
	r := rb.spec.Result
	p := &record.Projection{Key: VerdictsKey, MaxRows: r.MaxRows, Panel: r.Presentation == "panel", EmptyAnswer: r.Empty == chart.EmptyAnswer, Columns: rb.columns, Decider: r.Decider, Structure: &rb.structure}
	if p.MaxRows <= 0 {
		p.MaxRows = DefaultMaxRows
	}
	if d, ok := rb.chart.FindDecider(r.Decider); ok && r.Decider != "" {
		p.Spellings, p.Declared = []string{d.Name, d.ID}, d.Declared()
	}
	p.Words = rb.spec.BranchWords()
	rb.projection = p
	return deciders
}

type chartBuilder struct {
	spec    *chart.Spec
	columns [][]string
	errs    chart.LoadErrors
}

// locate turns the flow builder's refusals of one chart (its stages, the
// position of the chart as a whole) into load errors: each at the key flow
// names (chart.StageSpec.At), else at its stage; a refused foreach body's
// reasons inside the body. flow is the one home of the structural rules;
// the loader only knows where each key was written.
func locate(err error, stages []chart.StageSpec, whole chart.Pos) chart.LoadErrors {
	var be *flow.BuildError
	if !errors.As(err, &be) {
		return chart.LoadErrors{{Pos: whole, Msg: err.Error()}}
	}
	var out chart.LoadErrors
	for _, e := range be.Errs {
		var ne *flow.NodeError
		if !errors.As(e, &ne) {
			out = append(out, &chart.LoadError{Pos: whole, Msg: e.Error()})
			continue
		}
		st := findStage(stages, ne.Node, ne.Nth)
		switch {
		case st == nil:
			out = append(out, &chart.LoadError{Pos: whole, Msg: ne.Msg})
		case ne.Body != nil && st.ForEach != nil:
			out = append(out, locate(ne.Body, st.ForEach.Stages, st.Pos)...)
		case ne.Field == "id":
			// The message names the id; a repeated one also says where the
			// id was first written.
			le := &chart.LoadError{Pos: st.At["id"], Msg: ne.Msg}
			if first := findStage(stages, ne.Node, 0); ne.Nth > 0 && first != nil {
				p := first.At["id"]
				le.Msg += fmt.Sprintf(" (first at %d:%d)", p.Line, p.Col)
			}
			out = append(out, le)
		default:
			pos, ok := st.At[ne.Field]
			if !ok {
				pos = st.Pos
			}
			out = append(out, &chart.LoadError{Pos: pos, Stage: st.ID, Msg: ne.Msg})
		}
	}
	return out
}

// findStage finds the nth stage (0: the first) holding id among stages and
// their branches' stages, in chart order: flow's order (NodeError.Nth).
func findStage(stages []chart.StageSpec, id string, nth int) *chart.StageSpec {
	var found *chart.StageSpec
	var walk func(stages []chart.StageSpec)
	walk = func(stages []chart.StageSpec) {
		for i := range stages {
			st := &stages[i]
			if found != nil {
				return
			}
			if st.ID == id {
				if nth == 0 {
					found = st
					return
				}
				nth--
			}
			for _, brs := range [][]chart.BranchSpec{st.Branches, st.Parallel} {
				for _, br := range brs {
					walk(br.Stages)
				}
			}
		}
	}
	walk(stages)
	return found
}

func (b *chartBuilder) chart(name, desc string, stages []chart.StageSpec) (*flow.Chart, error) {
	fb := flow.New(name, flow.ChartDescription(desc))
	b.seq(fb, stages)
	return fb.Build()
}

func (b *chartBuilder) seq(fb *flow.Builder, stages []chart.StageSpec) *flow.Builder {
	for i := range stages {
		b.stage(fb, &stages[i])
	}
	return fb
}

func (b *chartBuilder) branches(brs []chart.BranchSpec) []flow.Branch {
	out := make([]flow.Branch, len(brs))
	for i, br := range brs {
		out[i] = flow.Branch{Name: br.Name, Description: br.Description, Steps: b.seq(flow.Seq(), br.Stages)}
	}
	return out
}

func (b *chartBuilder) stage(fb *flow.Builder, st *chart.StageSpec) {
	// A chart's stages write JSON values only (expressions are normalized,
	// output decoded, plugin answers read by jsonv), so flow need not check
	// each write again (flow.JSONWrites).
	opts := []flow.Option{flow.Name(st.Name), flow.Description(st.Description), flow.Type(st.Kind), flow.JSONWrites()}
	if st.Name == "" {
		opts[0] = flow.Name(st.ID)
	}
	set := settle(st)
	if set.flowTimeout > 0 {
		opts = append(opts, flow.Timeout(set.flowTimeout))
	}
	if set.flowRetry != nil {
		opts = append(opts, flow.WithRetry(*set.flowRetry))
	}
	if o, ok := continueOption(st); ok { // onerror.go
		opts = append(opts, o)
	}
	switch st.Kind {
	case "set":
		fb.Stage(st.ID, setStage(st.Set), opts...)
	case "exec":
		if in := st.Exec.Stdin; in != nil {
			// what the command prints is made from what it was given
			opts = append(opts, flow.Feeds(rules.RootsOf(in.Expr)...))
		}
		fb.Stage(st.ID, execStage(st, set), opts...)
	case "read":
		fb.Stage(st.ID, readStage(st), opts...) // stage_read.go
	case "verdict":
		cols := make([]string, len(st.Verdict))
		for i, a := range st.Verdict {
			cols[i] = a.Key
		}
		b.columns = append(b.columns, cols)
		fb.Stage(st.ID, verdictStage(st.Verdict), opts...)
	case "fail":
		fb.Stage(st.ID, failStage(st.Fail), opts...)
	case "ask":
		fb.Stage(st.ID, askStage(st.Ask), opts...)
	case "plugin":
		fb.Stage(st.ID, pluginStage(st, set), opts...)
	case "decide", "select":
		rs := make([]decide.Rule, len(st.Decide.Rules))
		for i, r := range st.Decide.Rules {
			rs[i] = decide.Rule{When: r.When, Then: r.Then, Label: r.Label}
		}
		if st.Kind == "decide" {
			fb.Decide(st.ID, rs, st.Decide.Default, b.branches(st.Branches), opts...)
		} else {
			fb.Select(st.ID, rs, b.branches(st.Branches), opts...)
		}
	case "parallel":
		fb.Parallel(st.ID, b.branches(st.Parallel), opts...)
	case "foreach":
		fe := st.ForEach
		fb.ForEach(st.ID, flow.ForEach{Items: flow.ItemsOf(fe.Items), As: fe.As, MaxBranches: fe.MaxBranches, Into: fe.Into, Body: b.seq(flow.Seq(), fe.Stages)}, opts...)
	case "subflow":
		sf := st.Subflow
		name, desc, stages := st.ID, st.Description, sf.Stages
		if sf.Spec != nil {
			name, desc, stages = sf.Spec.Name, sf.Spec.Description, sf.Spec.Stages
		}
		sub, err := b.chart(name, desc, stages)
		if err != nil {
			pos := st.Pos
			if sf.Spec != nil {
				pos = sf.Spec.Pos
			}
			b.errs = append(b.errs, locate(err, stages, pos)...)
			return
		}
		var m flow.Mount
		for _, in := range sf.Inputs {
			m.Inputs = append(m.Inputs, flow.Binding{Key: in.Key, From: in.Expr})
		}
		fb.Subflow(st.ID, sub, m, opts...)
	case "loop":
		l := flow.Loop{To: st.Loop.To, Max: st.Loop.Max}
		if st.Loop.While != nil {
			l.While = st.Loop.While
		}
		fb.Loop(st.ID, l, opts...)
	default:
		b.errs = append(b.errs, &chart.LoadError{Pos: st.Pos, Stage: st.ID, Msg: fmt.Sprintf("stage kind %q cannot be built", st.Kind)})
	}
}

// settled is a stage's effective bounds, decided once, here, for every
// kind: what bounds one attempt and how failed attempts are retried. The
// stage functions and the executor apply what it says and decide nothing.
type settled struct {
	// flowTimeout and flowRetry are what the executor applies (flow.Timeout,
	// flow.WithRetry).
	flowTimeout time.Duration
	flowRetry   *flow.RetryPolicy
	// timeout bounds one attempt inside the stage function: exec's process,
	// a plugin's call. 0: none.
	timeout time.Duration
	// retry is the policy an exec stage applies itself, every attempt a
	// script row of its own (nil: one attempt).
	retry *flow.RetryPolicy
	// on is retry.on as written: exit codes, script labels, "timeout".
	on []string
}

// settle decides a stage's bounds (chart-yaml.md, "Stages" and "exec"):
//
//	exec     exec.timeout, else the stage's timeout, else DefaultExecTimeout,
//	         bounding each process; retries inside the stage, by retry.on
//	plugin   the stage's timeout bounds each call (the plugin's row is filed
//	         by the stage); retries by the executor, by retry.on
//	others   the stage's timeout and retry, by the executor
//
// Every kind keeps every key of retry (attempts, backoff, maxBackoff,
// jitter, on); the wait between attempts is always flow.RetryPolicy.Delay.
func settle(st *chart.StageSpec) settled {
	var s settled
	if st.Retry != nil {
		s.on = st.Retry.On
	}
	policy := func() *flow.RetryPolicy {
		if st.Retry == nil {
			return nil
		}
		r := st.Retry
		return &flow.RetryPolicy{Attempts: r.Attempts, Backoff: r.Backoff, MaxBackoff: r.MaxBackoff, Jitter: r.Jitter, On: errRetryOn(r.On)}
	}
	switch st.Kind {
	case "exec":
		s.timeout = chart.DefaultExecTimeout
		switch {
		case st.Exec != nil && st.Exec.Timeout > 0:
			s.timeout = st.Exec.Timeout
		case st.Timeout > 0:
			s.timeout = st.Timeout
		}
		s.retry = policy()
	case "plugin":
		s.timeout = st.Timeout
		s.flowRetry = policy()
	default:
		s.flowTimeout = st.Timeout
		s.flowRetry = policy()
	}
	return s
}

// errRetryOn is retry.on for a stage whose failure is an error (every kind
// but exec, whose outcomes are script rows): "timeout" matches an attempt
// that ran out of time; a script label matches the label a failed plugin
// call is filed under (completed-with-failure when the plugin answered with
// an error, outcome-unknown when it did not answer). Exit codes match no
// error. nil: any failure.
func errRetryOn(on []string) func(error) bool {
	if len(on) == 0 {
		return nil
	}
	return func(err error) bool {
		// A plugin that answers with its own context's error when the
		// stage's time ran out timed out; it did not fail on its own.
		var re *host.RunError
		answered := errors.As(err, &re) && !errors.Is(err, context.DeadlineExceeded)
		for _, w := range on {
			switch {
			case w == "timeout" && errors.Is(err, context.DeadlineExceeded):
				return true
			case w == string(label.CompletedWithFailure) && answered:
				return true
			case w == string(label.OutcomeUnknown) && !answered:
				return true
			}
		}
		return false
	}
}

var _ rules.Valuer = rules.Literal(nil)
