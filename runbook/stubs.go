package runbook

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/proc"
	"github.com/openrunbook/runbook/internal/secret"
	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/record"
)

// Stubs answers for the stages that touch the world, in place of the world:
// what a chart test (runbook test, package charttest) gives a run so that it
// starts no process and calls no plugin.
//
// The seam's contract, one rule per stage kind:
//
//	stage    asked                      answer                        the run then
//	exec     before its process starts  *ExecStub                     files the stub's facts as the process's: label,
//	                                                                  exitCodes, parse, coverage, retry, the standing
//	exec                                nil, nil                      starts the real process (a test's `real:`)
//	plugin   before its plugin starts   *PluginStub                   writes Result through coverage, files Assumed
//	plugin                              nil, nil                      calls the real plugin
//	either                              error                         fails the stage with the error
//
// A read: stage asks too when the stubs are also ReadStubs (an optional
// interface, so a Stubs written before read: existed still builds).
//
// The call carries the runtime path (RecordPath makes the record's). Stubs
// may be called from many branches at once.
type Stubs interface {
	Exec(ctx context.Context, call ExecCall) (*ExecStub, error)
	Plugin(ctx context.Context, call PluginCall) (*PluginStub, error)
}

// WithStubs hands the run its stubs (Stubs). Without it every stage runs
// for real.
func WithStubs(s Stubs) ExecOption { return func(o *execOptions) { o.stubs = s } }

// ExecCall is an exec stage about to start its process: where, and what
// would have run (the argv or shell script as the stage resolved it, and
// the rest of the process's spec, for a stub that runs it elsewhere:
// RunExec).
type ExecCall struct {
	Path  string // runtime path (`per-volume~0/probe#4`)
	Stage string // the stage's id
	Argv  []string
	Shell string
	Stdin []byte
	// Env is laid over the minimal inherited environment; Dir is the
	// working directory ("" the runner's); Timeout bounds the process.
	Env     map[string]string
	Dir     string
	Timeout time.Duration
	// MaxOutput caps each captured stream in bytes (the stage's
	// maxOutput:; 0: proc.DefaultMaxOutput).
	MaxOutput int
	// Secrets are the run's secret values the process's output is masked
	// by. A stub that sends the call elsewhere carries them there, and so
	// must keep what carries them as safe as the secrets themselves.
	Secrets []string
}

// ExecStub is what a stubbed process did. At most one of ExitCode,
// TimedOut, NotFound and Signal says how it ended; none is exit code 0.
//
// Ran, when set, replaces all the others: the facts of a real process that
// ran elsewhere (RunExec), filed as a local run files its own process's, so
// the record is the same.
type ExecStub struct {
	Stdout, Stderr []byte
	ExitCode       *int
	TimedOut       bool
	NotFound       bool
	Signal         string // "SIGKILL"
	// PipeStatus is a shell: script's last pipeline's exit codes (proc's
	// Result.PipeStatus), the last the exit code; ignored for an argv.
	PipeStatus []int
	Ran        *ProcFacts
}

// ProcFacts is what one real process did, in a form that can travel (JSON)
// from the machine that ran it to the run that files it: every fact a
// local run reads from its own process, its start error as its message and
// its kind.
type ProcFacts struct {
	Stdout, Stderr         []byte `json:",omitempty"`
	StdoutTail, StderrTail []byte `json:",omitempty"`
	Started                bool   `json:",omitempty"`
	ExitCode               *int   `json:",omitempty"`
	Signal                 string `json:",omitempty"`
	TimedOut               bool   `json:",omitempty"`
	Cancelled              bool   `json:",omitempty"`
	Truncated              bool   `json:",omitempty"`
	PipeStatus             []int  `json:",omitempty"`
	// StartErr is why the process could not be started (or its end read),
	// as the local run would say it; StartKind names the cause it reads
	// from the error ("not-found", "permission", "not-executable",
	// "no-bash", "workdir-missing", "workdir-not-dir"; "" none of these).
	StartErr  string        `json:",omitempty"`
	StartKind string        `json:",omitempty"`
	Duration  time.Duration `json:",omitempty"`
}

// RunExec starts the process call describes, here, exactly as a local run
// of its stage would (the same runner, environment rules, timeout, output
// cap and masking), and reports its facts: the half of an exec stage that
// a worker on another machine runs for a run that files them (ExecStub's
// Ran). ctx ending stops the process as a run's cancellation does.
func RunExec(ctx context.Context, call ExecCall) *ProcFacts {
	r := proc.Run(ctx, proc.Spec{Argv: call.Argv, Shell: call.Shell, Env: call.Env, Dir: call.Dir, Stdin: call.Stdin, Timeout: call.Timeout, MaxOutput: call.MaxOutput, Secrets: call.Secrets})
	f := &ProcFacts{Stdout: r.Stdout, Stderr: r.Stderr, StdoutTail: r.StdoutTail, StderrTail: r.StderrTail, Started: r.Started,
		ExitCode: r.ExitCode, Signal: r.Signal, TimedOut: r.TimedOut, Cancelled: r.Cancelled, Truncated: r.Truncated, Duration: r.Duration,
		PipeStatus: r.PipeStatus}
	if r.StartErr != nil {
		f.StartErr = r.StartErr.Error()
		for _, k := range startKinds {
			if k.is(r.StartErr) {
				f.StartKind = k.name
				break
			}
		}
	}
	return f
}

// startKinds are the causes of a start error that the record tells apart
// (causeOfStart), in its order, so a kind read here is the cause read there.
var startKinds = []struct {
	name string
	is   func(error) bool
	errs []error // what the error rebuilt from the kind matches
}{
	{"no-bash", func(e error) bool { return errors.Is(e, proc.ErrNoBash) }, []error{proc.ErrNoBash}},
	{"workdir-missing", func(e error) bool { return errors.Is(e, proc.ErrWorkDir) && errors.Is(e, fs.ErrNotExist) }, []error{proc.ErrWorkDir, fs.ErrNotExist}},
	{"workdir-not-dir", func(e error) bool { return errors.Is(e, proc.ErrWorkDir) }, []error{proc.ErrWorkDir}},
	{"not-found", func(e error) bool { return errors.Is(e, exec.ErrNotFound) || errors.Is(e, fs.ErrNotExist) }, []error{exec.ErrNotFound}},
	{"permission", func(e error) bool { return errors.Is(e, fs.ErrPermission) }, []error{fs.ErrPermission}},
	{"not-executable", func(e error) bool { return errors.Is(e, syscall.ENOEXEC) }, []error{syscall.ENOEXEC}},
	{"worker-lost", func(e error) bool { return errors.Is(e, errWorkerLost) }, []error{errWorkerLost}},
}

// errWorkerLost marks the end of a process that no one saw: the machine
// running it for the run was lost while it ran (LostFacts). A local run
// never has it: its own process's end is always read.
var errWorkerLost = errors.New("worker lost")

// LostFacts are the facts of a process whose end was never reported
// because the worker running it was lost while it ran (it stopped, or
// went silent): why says how that was seen. The process may have run in
// whole, in part or not at all, so the stage's row is outcome-unknown,
// its cause that the worker was lost, and its into.error says why; the
// stage's retry: then retries it as any other attempt.
//
// @example
//
//	LostFacts("no heartbeat from worker w-1 for 20s") → outcome-unknown: its worker was lost
func LostFacts(why string) *ProcFacts {
	return &ProcFacts{Started: true, StartErr: "the worker running the process was lost: " + why, StartKind: "worker-lost"}
}

// remoteStartError is a start error that crossed from another machine: its
// message as it was said there, and errors.Is true for its kind's causes.
type remoteStartError struct {
	msg  string
	errs []error
}

func (e *remoteStartError) Error() string   { return e.msg }
func (e *remoteStartError) Unwrap() []error { return e.errs }

// procResult is ProcFacts as the proc.Result the run files.
func (f *ProcFacts) procResult() proc.Result {
	r := proc.Result{Stdout: f.Stdout, Stderr: f.Stderr, StdoutTail: f.StdoutTail, StderrTail: f.StderrTail, Started: f.Started,
		ExitCode: f.ExitCode, Signal: f.Signal, TimedOut: f.TimedOut, Cancelled: f.Cancelled, Truncated: f.Truncated, Duration: f.Duration,
		PipeStatus: f.PipeStatus}
	if f.StartErr != "" {
		e := &remoteStartError{msg: f.StartErr}
		for _, k := range startKinds {
			if k.name == f.StartKind {
				e.errs = k.errs
			}
		}
		r.StartErr = e
	}
	return r
}

// Sleeper is an optional interface of Stubs: a run whose stubs implement
// it waits out every retry's delay — an exec stage's, which the stage
// waits itself, and a plugin, read or any other stage's, which flow waits
// (flow.WithSleep) — by Sleep rather than by this process's clock (a
// Temporal workflow must wait on the workflow's own timer, which survives
// a replay; a chart's tests need not wait).
type Sleeper interface {
	Sleep(ctx context.Context, d time.Duration)
}

// Clock is an optional interface of Stubs: a run whose stubs implement it
// tells its expressions the time by Now — every now() a stage, a rule, a
// var or an answer check calls (flow.WithClock), the evidence saying what
// it read — rather than by this process's clock: a chart's test fixes the
// day a certificate's expiry is judged on, and a Temporal workflow reads
// its own clock, which a replay repeats.
type Clock interface {
	Now() time.Time
}

// Zone is an optional interface of Stubs: a run whose stubs implement it
// reads Zone as this machine's zone — date(x, layout, "Local") in a
// stage's or a rule's expression and in an answer check (flow.WithZone) —
// rather than this process's: a chart's test whose case fixes its clock
// in a zone reads a log's local stamps in that zone on every host. A nil
// Zone is the host's.
type Zone interface {
	Zone() *time.Location
}

// zoneOf is the zone of a run with these stubs (Zone), or nil for the
// host's.
func zoneOf(stubs Stubs) *time.Location {
	if z, ok := stubs.(Zone); ok {
		return z.Zone()
	}
	return nil
}

// clock is the run's clock: its stubs' (Clock), or nil for the host's.
func (o *execOptions) clock() func() time.Time { return clockOf(o.stubs) }

// clockOf is the clock of a run with these stubs (Clock), or nil for the
// host's.
func clockOf(stubs Stubs) func() time.Time {
	if c, ok := stubs.(Clock); ok {
		return c.Now
	}
	return nil
}

// WithInline runs the chart on the caller's goroutine, branches one after
// another in declaration order (flow.WithInline): for a host that forbids
// goroutines, as a Temporal workflow does. Stage timeouts are then not
// enforced by the run; an exec stage's process still stops at its timeout
// wherever it runs (RunExec). The record is the same as a default run's.
func WithInline() ExecOption { return func(o *execOptions) { o.inline = true } }

// PluginCall is a plugin stage about to call its plugin.
type PluginCall struct {
	Path   string // runtime path
	Stage  string // the stage's id
	Plugin string // the plugin's name
}

// PluginStub is what a stubbed plugin answered: its result, the arguments
// it filled by its declared defaults (each ASSUMED, by the plugin's name),
// or Fail, the stage's error; and for a plugin that runs code, Facts, how
// that code ended, filed as the call's script row as a real call's are
// (nil: no row).
type PluginStub struct {
	Result  any
	Assumed map[string]any
	Fail    string
	Facts   *label.Facts
}

// runProc starts the stage's process, or asks the run's stubs for what it
// did (WithStubs): the one place an exec stage's process is started.
func (rs *runState) runProc(ctx context.Context, s *flow.Scope, spec proc.Spec) (proc.Result, error) {
	res, _, err := rs.runOrStub(ctx, s, spec)
	return res, err
}

// runOrStub is runProc, and whether a stub answered (no process ran here:
// a fact of who ran it, such as its user, is not this process's).
func (rs *runState) runOrStub(ctx context.Context, s *flow.Scope, spec proc.Spec) (res proc.Result, stubbed bool, err error) {
	if rs.stubs == nil {
		return proc.Run(ctx, spec), false, nil
	}
	stub, err := rs.stubs.Exec(ctx, ExecCall{Path: s.Path(), Stage: s.Stage(), Argv: spec.Argv, Shell: spec.Shell, Stdin: spec.Stdin,
		Env: spec.Env, Dir: spec.Dir, Timeout: spec.Timeout, MaxOutput: spec.MaxOutput, Secrets: spec.Secrets})
	switch {
	case err != nil:
		return proc.Result{}, false, err
	case stub == nil:
		return proc.Run(ctx, spec), false, nil
	case stub.Ran != nil:
		return stub.Ran.procResult(), true, nil
	}
	return stubResult(*stub, spec, record.Masker(rs.secrets)), true, nil
}

// stubResult is a stub as the facts proc would have reported: output capped
// and masked as proc's is, tails taken, no duration (a stub takes none).
func stubResult(stub ExecStub, spec proc.Spec, m record.Masker) proc.Result {
	out, errb := []byte(m.Text(string(stub.Stdout))), []byte(m.Text(string(stub.Stderr)))
	r := proc.Result{Started: true, StdoutTail: tail(out), StderrTail: tail(errb)}
	if secret.PrivateKeyDER(out) { // as proc's capture masks it
		r.StdoutTail = []byte(secret.Masked)
	}
	if limit := maxOutput(spec.MaxOutput); len(out) > limit || len(errb) > limit {
		r.Truncated = true
		out, errb = out[:min(len(out), limit)], errb[:min(len(errb), limit)]
	}
	r.Stdout, r.Stderr = out, errb
	switch {
	case stub.NotFound:
		name := "bash"
		if len(spec.Argv) > 0 {
			name = spec.Argv[0]
		}
		return proc.Result{StartErr: fmt.Errorf("exec %q: not found (stubbed): %w", name, exec.ErrNotFound)}
	case stub.TimedOut:
		r.TimedOut = true
	case stub.Signal != "":
		r.Signal = stub.Signal
	default:
		code := 0
		if stub.ExitCode != nil {
			code = *stub.ExitCode
		}
		r.ExitCode = &code
		if n := len(stub.PipeStatus); spec.Shell != "" && n > 0 && stub.PipeStatus[n-1] == code {
			r.PipeStatus = stub.PipeStatus
		}
	}
	return r
}

func tail(b []byte) []byte {
	if len(b) > proc.TailBytes {
		return b[len(b)-proc.TailBytes:]
	}
	return b
}

// pluginStub asks the run's stubs for a plugin stage's answer; ok says the
// stage is stubbed and its answer (or error) stands.
func (rs *runState) pluginStub(ctx context.Context, st *chart.StageSpec, s *flow.Scope, into string) (ok bool, err error) {
	if rs.stubs == nil {
		return false, nil
	}
	stub, err := rs.stubs.Plugin(ctx, PluginCall{Path: s.Path(), Stage: st.ID, Plugin: st.Plugin.Name})
	switch {
	case err != nil:
		return true, err
	case stub == nil:
		return false, nil
	case stub.Fail != "":
		return true, fmt.Errorf("plugin %q: %s", st.Plugin.Name, stub.Fail)
	}
	if stub.Facts != nil {
		// held to what a real plugin's facts are held to (plugins.CheckResponse)
		if err := plugins.CheckResponse(plugins.Description{RunsCode: true}, plugins.Response{Facts: stub.Facts}); err != nil {
			return true, fmt.Errorf("plugin %q (stubbed): %w", st.Plugin.Name, err)
		}
		rs.script(s.Path(), label.Returned, pluginFacts(stub.Facts), false, callNotes{})
	}
	for _, k := range sortedNames(stub.Assumed) {
		rs.assume(s.Path(), k, stub.Assumed[k], st.Plugin.Name, false) // a stub carries no declaration to say sensitive
	}
	s.SetFact(into, rs.result(s.Path(), stub.Result)) // as a plugin's answer is
	return true, nil
}

// ReadStubs answers for read: stages, when a run's Stubs also implements
// it:
//
//	answer            the run then
//	*ReadStub         writes its files as read: writes real ones (content
//	                  parsed by the stage's parse mode, a missing file
//	                  exists: false)
//	nil, nil          reads the real file system
//	error             fails the stage with the error
type ReadStubs interface {
	Read(ctx context.Context, call ReadCall) (*ReadStub, error)
}

// ReadCall is a read: stage about to read: one File, or every file a Glob
// matches, each as the chart gave it (relative to the chart's folder when
// relative).
type ReadCall struct {
	Path  string // runtime path
	Stage string // the stage's id
	File  string // path: the file
	Glob  string // glob: the pattern
	Dir   string // the folder a relative File or Glob is read from (the chart's)
	// MaxSize is the stage's maxSize: (0: the 1 MiB default): a file
	// past it is read no further than one byte over.
	MaxSize int
}

// RunRead reads what call names from this machine's file system, exactly
// as a local run's read: stage does (the same paths, order, size cap and
// refusals): the half of a read: stage that a worker on another machine
// runs for a run that files its answer as a stub's (ReadStubs). The error
// is the stage's failure, as a local run would say it.
//
// A secret known by its form (a private key's material, a password hash:
// secret.ByForm) is masked here, before the answer leaves this machine,
// as a command's output is by its capture: the run masks it again when
// the bytes become text, so the record is a local run's, but the answer
// itself is stored where the run is (a Temporal workflow's history), and
// a read: of a TLS key put the key there whole, with no secret input to
// ask for an encrypting codec.
func RunRead(ctx context.Context, call ReadCall) (*ReadStub, error) {
	limit := maxOutput(call.MaxSize)
	files, unread, err := readFiles(ctx, call.Dir, call.File, call.Glob, limit)
	if err != nil {
		return nil, err
	}
	for i := range files {
		switch c := files[i].Content; {
		case len(c) > limit:
			// Withheld by the run, which reads of it only that it passed
			// the cap (readValue): none of its bytes need travel, and
			// masked it could fall under the cap.
			files[i].Content = make([]byte, limit+1)
		case c != nil:
			files[i].Content = []byte(secret.ByForm(string(c)))
		}
	}
	return &ReadStub{Files: files, Unread: unread}, nil
}

// ReadStub is what a stubbed read found: for a path, exactly one file; for
// a glob, every match (none is a pattern that matched nothing).
type ReadStub struct {
	Files []ReadFile
	// Unread are, for a glob, the folders on its way it could not read
	// and the files it matched and was refused: the run files them as
	// not checked (record.UnreadGlobEntry).
	Unread []ReadUnread `json:",omitempty"`
}

// ReadUnread is a folder a glob had to read, or a file it matched, that
// could not be read, shown as a match is, and why (the error without its
// path: "permission denied").
type ReadUnread struct {
	Path string
	Why  string
}

// ReadFile is one file a read found, its path as read: shows it.
type ReadFile struct {
	Path    string
	Exists  bool
	Content []byte
}

// readStub asks the run's stubs for what a read: stage finds (file, or
// the matches of glob); stubbed says the answer (or error) stands. A path
// read's stub is one file, named as the chart gave it.
func (rs *runState) readStub(ctx context.Context, st *chart.StageSpec, s *flow.Scope, dir, file, glob string) (files []ReadFile, unread []ReadUnread, stubbed bool, err error) {
	rsb, ok := rs.stubs.(ReadStubs)
	if !ok {
		return nil, nil, false, nil
	}
	stub, err := rsb.Read(ctx, ReadCall{Path: s.Path(), Stage: st.ID, File: file, Glob: glob, Dir: dir, MaxSize: st.Read.MaxSize})
	switch {
	case err != nil:
		return nil, nil, true, err
	case stub == nil:
		return nil, nil, false, nil
	}
	m := record.Masker(rs.secrets)
	files = make([]ReadFile, len(stub.Files))
	for i, f := range stub.Files {
		files[i] = ReadFile{Path: f.Path, Exists: f.Exists, Content: []byte(m.Text(string(f.Content)))}
	}
	if glob == "" && (len(files) != 1 || files[0].Path != file || len(stub.Unread) > 0) {
		return nil, nil, true, fmt.Errorf("read %s: the stub gave %d files, not the one file read", file, len(files))
	}
	slices.SortFunc(files, func(a, b ReadFile) int { return strings.Compare(a.Path, b.Path) })
	return files, slices.Clone(stub.Unread), true, nil
}

// WithFanout runs the branches of the chart's fan-outs (foreach, parallel,
// select) by the host's f (flow.WithFanout): with WithInline, for a host
// with a deterministic concurrency of its own, as a Temporal workflow's
// coroutines are. The record is the same.
func WithFanout(f flow.Fanout) ExecOption { return func(o *execOptions) { o.fanout = f } }

// WithDeadline makes WithTimeout's deadline on the host's clock
// (flow.WithDeadline): with WithInline, for a host whose code must not
// read the wall clock, as a Temporal workflow's (a workflow timer).
func WithDeadline(f flow.Deadline) ExecOption { return func(o *execOptions) { o.deadline = f } }

// WithYield lets a host stop the run before a node outside any fan-out
// (flow.WithYield) and carry it on elsewhere: when yield says true the
// run ends paused with no question (Record.Pause nil) and a checkpoint of
// kind flow.CheckpointContinue, and Resume of its record, with no answers
// (a secret input given again, as for an ask), goes on from that node. The
// parts leave the record of a run that never stopped: no answer, no
// commit, no pause of their own. A Temporal workflow continues as new
// this way before its history is too long.
func WithYield(yield func() bool) ExecOption { return func(o *execOptions) { o.yield = yield } }
