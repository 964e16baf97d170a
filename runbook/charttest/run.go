package charttest

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/internal/gate"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
)

// Option configures File.Run.
type Option func(*options)

type options struct {
	match *regexp.Regexp
}

// Match runs only the cases whose name re matches (--run).
func Match(re *regexp.Regexp) Option { return func(o *options) { o.match = re } }

// FileResult is every selected case of one file, run.
type FileResult struct {
	File  *File
	Cases []*CaseResult
}

// Failed is how many of the cases failed.
func (r *FileResult) Failed() int {
	n := 0
	for _, c := range r.Cases {
		if !c.Passed() {
			n++
		}
	}
	return n
}

// CaseResult is one case, run and compared.
type CaseResult struct {
	Case     *Case
	Duration time.Duration
	// Failures are the case's mismatches, in the order expect lists them
	// (a stage reached with no stub, and a run that would not start,
	// first).
	Failures []Failure
	// Record is what the run answered (nil when it could not start).
	Record *record.Record
	// Exit is the exit code `runbook exec` would give the run.
	Exit int
	// Nagios is the check state `runbook exec -o nagios` would give the
	// run (gate.CheckOf): ok, warning, critical or unknown.
	Nagios string
}

// Passed says the case met every expectation.
func (c *CaseResult) Passed() bool { return len(c.Failures) == 0 }

// Failure is one mismatch: the key of expect it is about ("stub" for a
// stage reached with no stub, "run" for a run that did not start), where
// that key was written, the expected and actual values, and for verdicts
// the row diff.
type Failure struct {
	Key      string
	Pos      chart.Pos
	Msg      string
	Expected any
	Actual   any
	Rows     []RowDiff
}

// RowDiff is one line of a verdict row diff: ' ' a row as expected, '-' an
// expected row not there, '+' an actual row not expected.
type RowDiff struct {
	Op  byte
	Row record.Row
}

// answeredAt is the clock of every answer a test gives: a record's
// answers do not change from run to run.
var answeredAt = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// maxResumes bounds the answers one case gives (a loop around an ask: that
// its answers never end).
const maxResumes = 100

// Run runs the file's cases, one after another, in the order written.
func (f *File) Run(ctx context.Context, opts ...Option) *FileResult {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	out := &FileResult{File: f}
	for _, c := range f.Cases {
		if o.match != nil && !o.match.MatchString(c.Name) {
			continue
		}
		out.Cases = append(out.Cases, f.runCase(ctx, c))
	}
	return out
}

func (f *File) runCase(ctx context.Context, c *Case) *CaseResult {
	start := time.Now()
	res := &CaseResult{Case: c}
	defer func() { res.Duration = time.Since(start) }()
	stubs := &caseStubs{c: c}
	run, err := f.rb.Exec(ctx, c.Inputs, runbook.WithStubs(stubs))
	if err != nil {
		res.Failures = append(res.Failures, Failure{Key: "run", Pos: c.Pos, Msg: "the run did not start: " + err.Error()})
		return res
	}
	for i := 0; run.Record.Status == "paused" && i < maxResumes; i++ {
		ans, ok := f.answers(c, run.Record.Pause)
		if !ok {
			break
		}
		next, err := f.rb.Resume(ctx, run.RunRecord(), ans, runbook.AnsweredBy("runbook test"),
			runbook.ResumeClock(func() time.Time { return answeredAt }), runbook.ResumeExec(runbook.WithStubs(stubs)))
		if err != nil {
			res.Failures = append(res.Failures, Failure{Key: "answers", Pos: c.Pos, Msg: "the answers were refused: " + err.Error()})
			break
		}
		run = next
	}
	res.Record = run.Record
	res.Exit = ExitOf(run.Record, c.Expect.conds...)
	res.Nagios = strings.ToLower(gate.CheckOf(f.rb.Spec(), run.Record).State.String())
	for _, msg := range append(append(stubs.unstubbed(), stubs.unusedItems()...), stubs.unusedStubs()...) {
		res.Failures = append(res.Failures, Failure{Key: "stub", Pos: c.Pos, Msg: msg})
	}
	stubs.mu.Lock()
	res.Failures = append(res.Failures, stubs.argv...)
	stubs.mu.Unlock()
	res.Failures = append(res.Failures, compare(c, res)...)
	return res
}

// answers are the case's answers to the question a run paused at: the
// names it expects (and the secret inputs, which a record never keeps);
// ok false when the case answers none of them.
func (f *File) answers(c *Case, p *record.PauseRecord) (map[string]any, bool) {
	if p == nil {
		return nil, false
	}
	out := map[string]any{}
	for name := range p.Expects {
		if v, ok := c.Answers[name]; ok {
			out[name] = v
		}
	}
	if len(out) == 0 {
		return nil, false
	}
	for _, in := range f.rb.Inputs() {
		if v, ok := c.Inputs[in.Name]; ok && in.Secret {
			out[in.Name] = v
		}
	}
	return out, true
}

// ExitOf is the exit code `runbook exec --fail-on CONDS` gives a finished
// run (cmd/runbook's rule, runExit, stated here as it reads today, with
// the conditions judged by the one home, gate.Held): 1 failed or
// cancelled, 3 a condition holds, else 0 (completed or paused).
func ExitOf(rec *record.Record, conds ...gate.Condition) int {
	switch rec.Status {
	case "failed", "cancelled":
		return 1
	}
	if len(gate.Held(rec, conds)) > 0 {
		return 3
	}
	return 0
}

// caseStubs answers a case's run in place of the world (runbook.Stubs): a
// stub by record path first, then by stage id; a stage under real: runs;
// any other is refused and remembered.
type caseStubs struct {
	c *Case

	mu      sync.Mutex
	reached []string
	argv    []Failure // executions whose argv is not their stub's
	// execs counts the executions at each place (record path) a list
	// stub answered: the next takes that item (ExecStub.Each); lists is
	// the list stub each place took its items from.
	execs map[string]int
	lists map[string]*ExecStub
	// used are the exec stubs' keys (a stage id or a record path) some
	// execution took (unusedStubs).
	used map[string]bool
}

func (s *caseStubs) refuse(stage string) error {
	return s.refused(stage, fmt.Sprintf("stage %q was reached with no stub: a test never runs a real command or plugin; give it a stub (stubs: or plugins:), or list it under real:", stage))
}

// refused remembers msg, a stage the case reached with no stub, for the
// case's failures, and is the error that fails the stage.
func (s *caseStubs) refused(stage, msg string) error {
	s.remember(msg)
	return fmt.Errorf("stage %q has no stub in this test case (a test never runs a real command)", stage)
}

// remember keeps msg, once, for the case's failures.
func (s *caseStubs) remember(msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Contains(s.reached, msg) {
		s.reached = append(s.reached, msg)
	}
}

// checkArgv remembers, for the case's failures, an execution whose argv
// is not the one its stub says the run starts.
func (s *caseStubs) checkArgv(st *ExecStub, call runbook.ExecCall) {
	if st.Argv == nil {
		return
	}
	var msg string
	switch {
	case call.Shell != "":
		msg = runbook.RecordPath(call.Path) + " runs a shell: script, not an argv: drop the stub's argv:"
	case !slices.Equal(st.Argv, call.Argv):
		msg = "the run started " + runbook.RecordPath(call.Path) + " with another argv than its stub's"
	default:
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.ContainsFunc(s.argv, func(f Failure) bool { return f.Msg == msg }) {
		s.argv = append(s.argv, Failure{Key: "argv", Pos: st.ArgvAt, Msg: msg, Expected: st.Argv, Actual: call.Argv})
	}
}

func (s *caseStubs) unstubbed() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.Clone(s.reached)
	sort.Strings(out)
	return out
}

func lookup[T any](m map[string]T, path, stage string) (T, bool) {
	if v, ok := m[runbook.RecordPath(path)]; ok {
		return v, true
	}
	v, ok := m[stage]
	return v, ok
}

// Exec implements runbook.Stubs.
func (s *caseStubs) Exec(_ context.Context, call runbook.ExecCall) (*runbook.ExecStub, error) {
	st, ok := lookup(s.c.Stubs, call.Path, call.Stage)
	if ok {
		s.mu.Lock()
		if s.used == nil {
			s.used = map[string]bool{}
		}
		if _, byPath := s.c.Stubs[runbook.RecordPath(call.Path)]; byPath {
			s.used[runbook.RecordPath(call.Path)] = true
		} else {
			s.used[call.Stage] = true
		}
		s.mu.Unlock()
	}
	if ok && st.Each != nil {
		var err error
		if st, err = s.next(st, call); err != nil {
			return nil, err
		}
	}
	switch {
	case ok:
		s.checkArgv(st, call)
		return &runbook.ExecStub{Stdout: []byte(st.Stdout), Stderr: []byte(st.Stderr), ExitCode: st.ExitCode,
			TimedOut: st.TimedOut, NotFound: st.NotFound, Signal: st.Signal, PipeStatus: st.PipeStatus}, nil
	case slices.Contains(s.c.Real, call.Stage):
		return nil, nil
	}
	return nil, s.refuse(call.Stage)
}

// next is the item of the list stub st that answers this execution at
// call's place: the first for its first execution there, and so on. One
// past the last fails the case: the list says how many executions the
// author expects, and answering more with a guess would test something
// the author did not write.
func (s *caseStubs) next(st *ExecStub, call runbook.ExecCall) (*ExecStub, error) {
	place := runbook.RecordPath(call.Path)
	s.mu.Lock()
	if s.execs == nil {
		s.execs, s.lists = map[string]int{}, map[string]*ExecStub{}
	}
	s.execs[place]++
	s.lists[place] = st
	n := s.execs[place]
	s.mu.Unlock()
	if n <= len(st.Each) {
		return st.Each[n-1], nil
	}
	s.remember(fmt.Sprintf("stage %q ran %s at %s, and its stub lists %d: give one stub per execution (a loop's passes, a retry's attempts), or a single stub for all of them", call.Stage, timesWord(n), place, len(st.Each)))
	return nil, fmt.Errorf("stage %q has no stub for its execution %d here: its stub lists %d (a test never runs a real command)", call.Stage, n, len(st.Each))
}

// unusedItems says, for each place a list stub answered, that the stage
// ran there fewer times than the list has items: the list says how many
// executions the author expects, and a loop that stopped a pass early (or
// a retry that gave up) would otherwise pass the case unseen.
func (s *caseStubs) unusedItems() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, place := range sortedKeys(s.execs) {
		if n, st := s.execs[place], s.lists[place]; n < len(st.Each) {
			out = append(out, fmt.Sprintf("the stage at %s ran %s, and its stub lists %d: the executions the list expects did not all happen; drop the items past the last one the run reaches", place, timesWord(n), len(st.Each)))
		}
	}
	return out
}

// unusedStubs are the case's exec stubs no execution took: the run never
// reached their stage (or place), so what they say was never tested.
func (s *caseStubs) unusedStubs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, key := range sortedKeys(s.c.Stubs) {
		if !s.used[key] {
			out = append(out, fmt.Sprintf("stub %q was never used: the run did not reach that stage, so what the stub says was not tested; drop it, or give the case what reaches it", key))
		}
	}
	return out
}

// timesWord is how many times, in words a person reads.
func timesWord(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

// Now implements runbook.Clock: the case's now:, or the host's clock.
func (s *caseStubs) Now() time.Time {
	now := s.c.Now
	if now.IsZero() {
		now = time.Now()
	}
	if s.c.Zone != nil {
		return now.In(s.c.Zone)
	}
	return now
}

// Zone implements runbook.Zone: the case's zone:, else the zone of its
// now:, so a chart
// that reads a stamp in this machine's zone (date(x, layout, "Local"))
// reads it in the zone the case's clock is in, and the case passes or
// fails alike on a laptop in Berlin and in CI in UTC; without now:, the
// host's.
func (s *caseStubs) Zone() *time.Location {
	switch {
	case s.c.Zone != nil:
		return s.c.Zone // across a daylight-saving change, as a host there reads it
	case s.c.Now.IsZero():
		return nil
	}
	return s.c.Now.Location()
}

// Sleep implements runbook.Sleeper: a stage's retry does not wait out its
// backoff, as the stub's process or plugin took no time either; the
// attempts are on the record as a real run's are. A case that runs some
// stage for real (real:) waits as a real run does: its process may need
// the time.
func (s *caseStubs) Sleep(ctx context.Context, d time.Duration) {
	if len(s.c.Real) == 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// Plugin implements runbook.Stubs.
func (s *caseStubs) Plugin(_ context.Context, call runbook.PluginCall) (*runbook.PluginStub, error) {
	st, ok := lookup(s.c.Plugins, call.Path, call.Stage)
	switch {
	case ok:
		return &runbook.PluginStub{Result: st.Writes, Assumed: st.Assumed, Fail: st.Fail, Facts: st.Facts}, nil
	case slices.Contains(s.c.Real, call.Stage):
		return nil, nil
	}
	return nil, s.refuse(call.Stage)
}

// trimmed is s on one line, for a message.
func trimmed(s string) string { return strings.TrimSpace(strings.ReplaceAll(s, "\n", " ")) }

// Read implements runbook.ReadStubs: a path read is the file stubbed at
// that path; a glob matches the stubbed paths (filepath.Match), or is the
// pattern itself stubbed missing: true (it matches nothing). A read with
// no stub is refused as an exec is.
func (s *caseStubs) Read(_ context.Context, call runbook.ReadCall) (*runbook.ReadStub, error) {
	if call.Glob == "" {
		if st, ok := s.c.Files[call.File]; ok && st.Unreadable {
			return nil, fmt.Errorf("read %s: permission denied", call.File)
		} else if ok {
			return &runbook.ReadStub{Files: []runbook.ReadFile{{Path: call.File, Exists: !st.Missing, Content: []byte(st.Content)}}}, nil
		}
	} else {
		var files []runbook.ReadFile
		var unread []runbook.ReadUnread
		for _, p := range sortedKeys(s.c.Files) {
			st := s.c.Files[p]
			switch {
			case st.Unreadable && globReaches(call.Glob, p):
				unread = append(unread, runbook.ReadUnread{Path: p, Why: "permission denied"})
			case !st.Missing && !st.Unreadable:
				if ok, _ := filepath.Match(call.Glob, p); ok {
					files = append(files, runbook.ReadFile{Path: p, Exists: true, Content: []byte(st.Content)})
				}
			}
		}
		if st, ok := s.c.Files[call.Glob]; len(files) > 0 || len(unread) > 0 || (ok && st.Missing) {
			return &runbook.ReadStub{Files: files, Unread: unread}, nil
		}
	}
	if slices.Contains(s.c.Real, call.Stage) {
		return nil, nil
	}
	if call.Glob != "" {
		return nil, s.refused(call.Stage, fmt.Sprintf("stage %q read glob %q with no stub: a test never reads the real file system; stub the files it should match under files: (or the pattern itself with missing: true for none), or list the stage under real:", call.Stage, call.Glob))
	}
	return nil, s.refused(call.Stage, fmt.Sprintf("stage %q read %q with no stub: a test never reads the real file system; give it files: {%s: {content: …}} (or missing: true), or list the stage under real:", call.Stage, call.File, call.File))
}

// globReaches says whether a glob would read path: match it as a file,
// or read it as a folder on its way (its elements match the pattern's
// first ones): a stubbed unreadable /home/bob is on the way of
// /home/*/.ssh/authorized_keys.
func globReaches(glob, path string) bool {
	g := strings.Split(filepath.Clean(glob), string(filepath.Separator))
	p := strings.Split(filepath.Clean(path), string(filepath.Separator))
	if len(p) > len(g) {
		return false
	}
	for i := range p {
		if ok, _ := filepath.Match(g[i], p[i]); !ok {
			return false
		}
	}
	return true
}
