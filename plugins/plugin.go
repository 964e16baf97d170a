// Package plugins is the stage plugin protocol as Go sees it: the Go-native
// types a plugin author and the host both use, and the protocol version.
// The wire form (plugins/proto/runbook/v1/plugin.proto) stays internal and
// is converted to these types at one boundary (plugins/internal/wire).
//
// Two kinds of plugin speak it:
//
//	kind      Go interface   served by                     called by
//	stage     Stage          sdk.Serve(stage)              a chart's plugin: stage
//	honesty   Honesty        sdk.ServeHonesty(h)           the run's label, coverage, assessment
//
// It owns one rule, the protocol version: a host and a plugin that do not
// share a version refuse each other, naming both (ProtocolVersion).
//
// Every JSON value (arguments, scope values, results, honesty requests)
// crosses the wire as the bytes of its JSON text: a whole number arrives as
// an int, any other number as a float64.
package plugins

import (
	"context"

	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/label"
)

// ProtocolVersion is the plugin protocol this build speaks. Bump it when the
// .proto changes incompatibly, and keep serving the old one beside it.
const ProtocolVersion = 1

// Stage is a stage plugin: implement it and call sdk.Serve.
type Stage interface {
	// Describe says what the plugin is; the host asks once per process.
	Describe() Description
	// Run runs one stage execution. It may be called concurrently (the
	// calls of a fan-out's branches arrive in one batch). ctx carries the
	// stage's deadline.
	Run(ctx context.Context, req Request) (Response, error)
}

// Description is what a stage plugin declares about itself.
type Description struct {
	Name        string
	Version     string
	Description string
	Args        []Arg
	// RunsCode says each call runs code whose outcome the record must
	// label: every call files a script row.
	RunsCode bool
	// Reads lists the scope keys whose values each call receives.
	Reads []string
}

// Arg is one declared argument.
type Arg struct {
	Name string
	// Type is string, number, integer, bool, list, object, duration or
	// any ("" is any). Any other is refused when the plugin describes
	// itself, and a Default must fit it.
	Type        string
	Description string
	Required    bool
	// Default is applied when the stage does not give the argument; the
	// host reports it as an ASSUMED value (the assessment reads it).
	Default    any
	HasDefault bool
	// Enum, when set, lists the only values the argument may take (each
	// fitting Type); the host refuses any other before the call.
	Enum []any
	// Min and Max, when set, bound a number or integer argument,
	// inclusive.
	Min, Max *float64
	// Sensitive says the value is a secret: the host masks it like a
	// secret input wherever the run shows it (record, narrative, logs,
	// errors), and a value derived from it too.
	Sensitive bool
}

// Request is one stage execution's input.
type Request struct {
	// Path is the stage path in the run (`per-file~3/age`).
	Path string
	// Args are the stage's arguments, each declared default filled in.
	Args map[string]any
	// Scope holds the values of the declared Reads that the scope has.
	Scope map[string]any
}

// Response is one stage execution's output.
type Response struct {
	// Result is written under the stage's `into`. It may declare its
	// coverage in one of the reserved shapes (an af_absent absence or an
	// af_coverage ledger; see plugins/coverage), which the run's coverage
	// stage reads.
	Result any
	// Facts is the execution evidence of the code the call ran (plugins
	// that run code), labelled by plugins/label. Nil from a plugin that
	// runs code files a "returned" row, no answer to stand on (Not sure).
	Facts *label.Facts
}

// Honesty serves the three honesty stages. Plain data in, plain data out,
// so the runtime makes the same calls in-process or over a plugin
// connection and gets the same bytes.
type Honesty interface {
	// Label files script rows for code calls.
	Label(ctx context.Context, req label.Request) (label.Response, error)
	// Coverage reads stage results for declarations and serves them. It
	// keeps one warning per stage per run: run names the run whose memory
	// the request uses.
	Coverage(ctx context.Context, run string, req coverage.Request) (coverage.Response, error)
	// Assess folds the run's summary into its standing and line.
	Assess(ctx context.Context, req assessment.Request) (assessment.Response, error)
	// EndRun forgets the run's memory.
	EndRun(ctx context.Context, run string) error
}
