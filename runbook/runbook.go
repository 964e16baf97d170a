package runbook

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"time"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/secret"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/recorder"
)

// Runbook is a chart with its inputs, its result options and its honesty
// stages: what `runbook exec` runs. Build one from a file (Open), from a
// loaded Spec (Build), or around a chart built in Go (New). Immutable;
// runs may share it.
type Runbook struct {
	spec  *chart.Spec
	chart *flow.Chart
	// columns gives verdict rows their key order, by the set of keys a row
	// has (from the chart's verdict stages, or WithColumns).
	columns [][]string
	// Settled once when the runbook is built (settleRecord), never per
	// run: the static structure, each stage id's name for sentences, and
	// the verdict projection (nil: the result is not verdict/*).
	structure  flow.Structure
	names      map[string]string
	projection *record.Projection
}

// Name is the runbook's name.
func (rb *Runbook) Name() string { return rb.spec.Name }

// Spec is the runbook as its file said it (for a Go-built runbook, what the
// options said). It is the runbook's own, read by every run: read it,
// never edit it (Inputs gives a copy of the inputs).
func (rb *Runbook) Spec() *chart.Spec { return rb.spec }

// Chart is the flow chart the runbook runs.
func (rb *Runbook) Chart() *flow.Chart { return rb.chart }

// Inputs are the declared inputs: a copy, so a caller that edits what it
// got (clears a Secret to show a form, drops a Default) changes no run —
// the runbook's own list was handed out, and such an edit unmasked a
// secret input in every later run's record (TestRunbookInputsAreACopy).
func (rb *Runbook) Inputs() []chart.InputSpec { return slices.Clone(rb.spec.Inputs) }

// ExecOption configures one run.
type ExecOption func(*execOptions)

type execOptions struct {
	recorders []recorder.Recorder
	live      []recorder.Recorder // WithLiveRecorders
	maxRows   int                 // WithMaxRows; 0: the chart's
	narrative bool
	timeout   time.Duration
	logger    *slog.Logger
	resume    string
	// plugin processes (plugin_stage.go)
	honesty   Honesty
	pluginDir string
	// pluginDirHint: WithPluginDirHint.
	pluginDirHint string
	// stubs answer for exec and plugin stages (WithStubs, stubs.go).
	stubs Stubs
	// inline, fanout: WithInline, WithFanout (stubs.go).
	inline   bool
	fanout   flow.Fanout
	deadline flow.Deadline
	// yield: WithYield.
	yield func() bool
}

// WithRecorders attaches more recorders (e.g. an NDJSON stream).
func WithRecorders(rs ...recorder.Recorder) ExecOption {
	return func(o *execOptions) { o.recorders = append(o.recorders, rs...) }
}

// WithLiveRecorders attaches recorders that see events as they happen in
// every branch (flow.WithLiveRecorders), for a display of the run going on
// such as the CLI's progress line; WithRecorders' recorders see a branch's
// events at its join. Secrets are masked for them as for the others.
func WithLiveRecorders(rs ...recorder.Recorder) ExecOption {
	return func(o *execOptions) { o.live = append(o.live, rs...) }
}

// WithMaxRows overrides the chart's result.maxRows for this run: the one
// cap on the record's verdict rows and on its rendered table (the
// one-number law: the same first n rows, rowsShown and rowsTotal saying
// what was left out). n must be a whole number ≥ 1: Exec and Resume
// refuse any other with an error. A chart whose result is not verdict/*
// has no rows, and the option changes nothing there.
func WithMaxRows(n int) ExecOption {
	return func(o *execOptions) {
		o.maxRows = n
		if n < 1 {
			o.maxRows = -1 // refused by check, whatever n was
		}
	}
}

// check refuses options that cannot hold for any run.
func (o *execOptions) check() error {
	if o.maxRows < 0 {
		return errors.New("runbook: WithMaxRows: want a whole number of rows ≥ 1")
	}
	return nil
}

// WithNarrative puts the run's narrative in the record.
func WithNarrative() ExecOption { return func(o *execOptions) { o.narrative = true } }

// WithTimeout bounds the run; past it the run is cancelled.
func WithTimeout(d time.Duration) ExecOption { return func(o *execOptions) { o.timeout = d } }

// WithLogger receives diagnostics (plugin stderr, warnings) — never stdout.
func WithLogger(l *slog.Logger) ExecOption { return func(o *execOptions) { o.logger = l } }

// WithResumeCommand is the command a paused run's record tells the person
// to run (the CLI passes `runbook resume FILE`).
func WithResumeCommand(cmd string) ExecOption { return func(o *execOptions) { o.resume = cmd } }

// Result is one run: the result record and the engine's result beneath it.
// It is the run's own: a caller may edit it (redact, annotate) without
// changing any other run of the Runbook — the inputs a run starts from,
// defaults included, a literal list an expression yields and a filter's
// list operand in a decision's evidence are copies
// (TestEditingAResultLeavesTheNextRunAlone) — and a caller's input map,
// reused after Exec returns, changes nothing the result says.
type Result struct {
	// Record is the result record, every secret masked: what to print,
	// save or hand on.
	Record *record.Record
	// Run is the engine's own result beneath the record, unmasked: its
	// Err and State hold values as the stages had them, a secret input's
	// among them. Read it in the program that ran the chart; never print
	// or log it where the record would be.
	Run *flow.Result
	rb  *Runbook
	// answers are the answers a resumed run was given (resume.go).
	answers []record.AnswerRecord
	// secrets are the run's secrets, derived values included: what the
	// saved record is masked with (RunRecord).
	secrets secret.Set
	// finished is when the run ended or paused, by its clock, in UTC
	// (RunRecord's FinishedAt).
	finished time.Time
}

// Exec runs the runbook. given are the person's inputs (strings from
// `--input k=v` are converted to the declared type). The error is non-nil
// only when the run could not start — bad inputs (*InputError) — never for
// a run that failed: that is the Record's status.
func (rb *Runbook) Exec(ctx context.Context, given map[string]any, opts ...ExecOption) (*Result, error) {
	return rb.exec(ctx, given, opts)
}
