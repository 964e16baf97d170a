package sdk

import (
	"os"
	"syscall"

	"github.com/openrunbook/runbook/internal/proc"
	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/label"
)

// The plugin author's types are aliases of package plugins', the protocol's
// Go-native types, which the host uses too: one definition, so a plugin and
// the host can never disagree about a field. An alias shows no fields in
// `go doc`, so each one's comment lists them (TestGoDocShowsFields holds
// every list to the real fields); `go doc github.com/openrunbook/runbook/plugins`
// shows the definitions themselves.

// Stage is what a stage plugin implements; Serve serves it.
//
//	Describe() Description
//	    What the plugin is. The host asks once per process, before any call.
//	Run(ctx context.Context, req Request) (Response, error)
//	    One stage execution. Calls of one batch arrive concurrently; ctx
//	    carries the call's deadline. An error fails the stage with its
//	    message (a RunsCode plugin's row is then reported-failure); a panic
//	    fails the call too, its stack kept on the error (Serve recovers it).
type Stage = plugins.Stage

// Description is what a stage plugin declares about itself (Stage.Describe).
//
//	Name        string   the plugin's name, as charts call it
//	Version     string   its version, shown by `runbook plugins`
//	Description string   one line on what it does
//	Args        []Arg    the arguments it takes; the host refuses any other
//	RunsCode    bool     each call runs code whose outcome the record must
//	                     label: every call files a script row from Facts
//	Reads       []string the scope keys whose values each call receives
type Description = plugins.Description

// Arg is one declared argument of a stage plugin.
//
//	Name        string the argument's name in a chart's `args:`
//	Type        string its type, checked by the host before the call
//	                   (see package plugins for the vocabulary; "" is any)
//	Description string what it means (shown when a required one is missing)
//	Required    bool   the chart must give it
//	Default     any    the value used when the chart does not give it: the
//	                   host fills it and reports it as an ASSUMED value
//	HasDefault  bool   Default is set (a default may be nil, 0 or "")
//	Enum        []any  the only values it may take (each fitting Type)
//	Min         *float64 the least a number or integer may be (inclusive)
//	Max         *float64 the most a number or integer may be (inclusive)
//	Sensitive   bool   the value is a secret: masked like a secret input
//	                   wherever the run shows it
type Arg = plugins.Arg

// Request is one stage execution's input (Stage.Run).
//
//	Path  string         the stage's path in the run (`per-file~3/age`), for logs
//	Args  map[string]any the arguments, each declared default filled in
//	Scope map[string]any the values of the declared Reads the scope holds
//
// A whole number arrives as an int, any other number as a float64.
type Request = plugins.Request

// Response is one stage execution's output (Stage.Run).
//
//	Result any     written under the stage's `into`; it may declare its
//	               coverage (Absent, Ledger)
//	Facts  *Facts  the execution evidence of the code the call ran (a
//	               RunsCode plugin, which must give it: without it the
//	               row says "returned" and the standing is Not sure, as
//	               how the code ended is on no record); nil from a
//	               plugin that runs no code
type Response = plugins.Response

// Facts is the execution evidence of the code a call ran, which the host
// labels (completed, completed-with-failure, outcome-unknown …) on the
// call's script row.
//
//	OK           *bool   the plugin's verdict on the call, when it gives one
//	ExitCode     *int    set only when a process really exited
//	ServiceError bool    a remote service said the call failed, no exit code
//	TerminatedBy string  the signal that killed the process, when one did
//
// Exited builds the common case.
type Facts = label.Facts

// Honesty serves the three honesty stages (label, coverage, assessment);
// the runbook binary serves its built-in ones with ServeHonesty. See
// package plugins for its methods.
type Honesty = plugins.Honesty

// Exited is the Facts of a process that exited with code: completed when
// code is 0, completed-with-failure otherwise. For a process your plugin
// started with os/exec, use Ended, which also knows a kill.
func Exited(code int) *Facts {
	c := code
	return &Facts{ExitCode: &c}
}

// Ended is the Facts of a process that ended as ps says: the code it
// exited with (Exited), or the signal that killed it (TerminatedBy
// "SIGKILL", no exit code: the row reads "reported failure, killed by
// SIGKILL"); nil when ps is nil (it never ran, or was not waited for) or
// says neither.
//
//	err := cmd.Run()
//	return sdk.Response{Result: out, Facts: sdk.Ended(cmd.ProcessState)}, nil
//
// os.ProcessState.ExitCode is -1 for a process a signal killed, so
// `sdk.Exited(cmd.ProcessState.ExitCode())`, which this package's doc
// showed, filed "completed with failure, exit -1": an exit the process
// never reached, and the signal lost.
func Ended(ps *os.ProcessState) *Facts {
	if ps == nil {
		return nil
	}
	ws, ok := ps.Sys().(syscall.WaitStatus)
	switch {
	case !ok:
		if ps.Exited() {
			return Exited(ps.ExitCode())
		}
		return nil
	case ws.Exited():
		return Exited(ws.ExitStatus())
	case ws.Signaled():
		return &Facts{TerminatedBy: proc.SignalName(ws.Signal())}
	}
	return nil
}
