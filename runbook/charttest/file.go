package charttest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/gate"
	"github.com/openrunbook/runbook/internal/parse"
	"github.com/openrunbook/runbook/internal/suggest"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
)

// File is one loaded test file: its chart, built, and its cases.
type File struct {
	Path  string // as given to Load
	Chart string // the chart's path (relative to the test file, joined)
	Cases []*Case

	rb  *runbook.Runbook
	src []byte
}

// Case is one test case: a run of the chart on stubs, and what it expects.
type Case struct {
	Name    string
	Pos     chart.Pos // where the case begins (its first key)
	Inputs  map[string]any
	Stubs   map[string]*ExecStub   // by stage id or record path
	Plugins map[string]*PluginStub // by stage id or record path
	Files   map[string]*FileStub   // by path read (read: stages; see TESTING.md)
	Answers map[string]any         // ask: answers, by name
	Real    []string               // stage ids this case runs for real
	// Now is the time every now() of the case's run reads (runbook.Clock);
	// zero: the host's clock, and a case over now() passes or fails by the
	// day it runs.
	Now time.Time
	// Zone is the case's zone: (an IANA name), the zone its clock and this
	// machine's zone are read in; nil: the zone of now:'s offset, which
	// no daylight-saving change moves.
	Zone   *time.Location
	Expect Expect

	// For --update: where the case and its expect were written.
	keyCol    int       // the column of the case's keys
	expectKey chart.Pos // zero: the case has no expect
}

// ExecStub is what a stubbed exec stage's process did (testing.md).
type ExecStub struct {
	Stdout, Stderr string
	ExitCode       *int
	TimedOut       bool
	NotFound       bool
	Signal         string
	// PipeStatus, when given, is a shell: script's last pipeline's exit
	// codes (bash's PIPESTATUS), the last its exit code (runbook.ExecStub).
	PipeStatus []int
	// Argv, when given, is the argv the run must start the stage with: a
	// run that renders another fails the case at ArgvAt (the stub still
	// answers, so the case says every other way it differs too).
	Argv   []string
	ArgvAt chart.Pos
	// Each is set for a stub written as a list: the executions at each
	// place the stub answers (a record path: a loop's passes, a retry's
	// attempts) take its items in order, the first execution the first;
	// one past the last fails the case. Each place counts on its own, so
	// a foreach's items each start at the first. The other fields are
	// then unset.
	Each []*ExecStub
}

// PluginStub is what a stubbed plugin stage's plugin answered.
type PluginStub struct {
	Writes  any
	Assumed map[string]any
	Fail    string
	// Facts are what a plugin that runs code reports of how its code
	// ended (facts: {exitCode, ok, terminatedBy, serviceError}), filed as
	// its script row: without them a stubbed call of such a plugin filed
	// none, and a case stood Consistent where a real run's row was
	// labelled. nil: no row, as before.
	Facts *label.Facts
}

// FileStub is the content a stubbed read: path holds, or Missing: the file
// does not exist (a glob's pattern as the key, missing: a glob that
// matches nothing).
type FileStub struct {
	Content string
	Missing bool
	// Unreadable is a file, or a folder a glob reads, that is there and
	// that the run may not read (permission denied): a path read fails
	// its stage, and a glob reads the others and files it as not
	// checked (record.UnreadGlobEntry).
	Unreadable bool
}

// Expect is what a case expects; a nil or empty field expects nothing.
type Expect struct {
	Status    *string
	Exit      *int
	FailOn    []string         // as written (--update keeps it)
	conds     []gate.Condition // FailOn, read by gate as exec's --fail-on is
	Verdicts  []record.Row     // nil: not expected; empty: no rows
	RowsTotal *int
	// UnjudgedRows are the shown rows that rest on what the run did not
	// judge (record.VerdictSet.UnjudgedRows), each by its subject's cell
	// text (or "row N" for a row with none), in row order; nil: not
	// expected; empty: none.
	UnjudgedRows []string
	Standing     *string
	Reasons      []string // nil: not expected
	Decisions    map[string][]string
	Coverage     []map[string]any
	State        map[string]any
	Line         *string
	Nagios       *string // the check state --format nagios would give: ok, warning, critical, unknown

	// At is where each key was written, for failures that name it.
	At map[string]chart.Pos
}

// The words of a test file, one list each (unknown-key errors name them).
var (
	fileKeys     = []string{"version", "chart", "cases"}
	caseKeys     = []string{"name", "inputs", "stubs", "plugins", "files", "answers", "real", "now", "zone", "expect"}
	stubKeys     = []string{"stdout", "stdoutFile", "stderr", "stderrFile", "exitCode", "timedOut", "notFound", "signal", "pipeStatus", "argv"}
	pluginKeys   = []string{"writes", "assumed", "fail", "facts"}
	factsKeys    = []string{"exitCode", "ok", "terminatedBy", "serviceError"}
	fileStubKeys = []string{"content", "contentFile", "missing", "unreadable"}
	expectKeys   = []string{"status", "exit", "failOn", "verdicts", "rowsTotal", "unjudgedRows", "standing", "reasons", "decisions", "coverage", "state", "line", "nagios"}
	coverageKeys = []string{"path", "kind", "what", "why"}
	statusWords  = []string{"completed", "failed", "paused", "cancelled"}
	standings    = []string{"known", "consistent", "not-sure", "ask", "not-assessed"}
	coverKinds   = []string{"checked", "not-checked", "cannot-cover", "in-progress", "absence"}
)

// reasonWords are the standing's reasons an expect may name.
var reasonWords = func() []string {
	var out []string
	for _, r := range assessment.Reasons() {
		out = append(out, string(r))
	}
	return out
}()

// Load reads a test file and the chart it names. A test file that does not
// load is a chart.LoadErrors, every problem at file:line:col; a chart that
// does not load is its own LoadErrors.
func Load(path string) (*File, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, chart.LoadErrors{{Pos: chart.Pos{File: path}, Msg: fmt.Sprintf("cannot be read: %v", err)}}
	}
	if e := chart.NotUTF8(path, src); e != nil {
		return nil, chart.LoadErrors{e}
	}
	src = []byte(parse.WithoutBOM(string(src)))
	r := &reader{file: path}
	f, err := parser.ParseBytes(src, parser.ParseComments)
	if err != nil {
		return nil, chart.LoadErrors{chart.YAMLError(path, err)}
	}
	if errs := chart.FlowColons(path, src); len(errs) > 0 {
		return nil, errs
	}
	if errs := chart.LeadingZeros(path, src); len(errs) > 0 {
		return nil, errs
	}
	if len(f.Docs) == 0 || f.Docs[0].Body == nil {
		return nil, chart.LoadErrors{{Pos: chart.Pos{File: path, Line: 1, Col: 1}, Msg: "the file is empty: a test file needs version: 1, chart: FILE and cases: [...]"}}
	}
	root := f.Docs[0].Body
	top, ok := r.mapping(root, "a test file")
	if !ok {
		return nil, r.errs
	}
	if hasKey(top, "stages") && !hasKey(top, "cases") {
		// The reverse of chart's refusal of a test file given as a chart:
		// one line, not an unknown-key error for each of the chart's keys.
		return nil, chart.LoadErrors{{Pos: chart.Pos{File: path, Line: 1, Col: 1}, Msg: fmt.Sprintf(
			"this is a chart, not a test file: its tests go in a file named *_test.yaml beside it, with chart: %s and cases: (runbook init writes one); runbook test DIR finds them", filepath.Base(path))}}
	}
	r.known(top, "a test file", fileKeys...)
	tf := &File{Path: path, src: src}
	var casesNode ast.Node
	version := false
	for _, p := range top {
		switch p.key {
		case "version":
			if v, ok := r.integer(p.val, "version"); ok && v != 1 {
				r.errf(p.val, "version %d: this runbook reads test files of version 1", v)
			}
			version = true
		case "chart":
			if s, ok := r.str(p.val, "chart"); ok {
				tf.Chart = besideTestFile(path, s)
			}
		case "cases":
			casesNode = p.val
		}
	}
	if !version {
		r.errf(root, "a test file needs version: 1")
	}
	if tf.Chart == "" && !hasKey(top, "chart") {
		r.errf(root, "a test file needs chart: FILE (the chart it tests, relative to the test file)")
	}
	if casesNode == nil {
		r.errf(root, "a test file needs cases: [...] (one or more)")
	}
	if len(r.errs) > 0 || tf.Chart == "" {
		return nil, r.errs
	}
	rb, err := runbook.Open(tf.Chart)
	if err != nil {
		return nil, err
	}
	tf.rb = rb
	r.spec = rb.Spec()
	st := stagesOf(rb.Spec())
	asked := answersOf(rb.Spec())
	items, _ := r.sequence(casesNode, "cases")
	names := map[string]bool{}
	for i, it := range items {
		c := r.readCase(it, i, st, asked)
		if c == nil {
			continue
		}
		if names[c.Name] {
			r.errf(it, "case %q: another case has this name: names say which case failed, so each is its own", c.Name)
		}
		names[c.Name] = true
		tf.Cases = append(tf.Cases, c)
	}
	if len(items) == 0 && len(r.errs) == 0 {
		r.errf(casesNode, "cases: the list is empty: a test file has one case or more")
	}
	if len(r.errs) > 0 {
		return nil, r.errs
	}
	return tf, nil
}

// Runbook is the chart the file tests, built.
func (f *File) Runbook() *runbook.Runbook { return f.rb }

func hasKey(ps []pair, k string) bool {
	for _, p := range ps {
		if p.key == k {
			return true
		}
	}
	return false
}

// stageIndex is every stage id of a chart (subflows, branches and bodies
// too) and its kind.
type stageIndex map[string]string

// has says whether the chart has a stage of kind.
func (st stageIndex) has(kind string) bool {
	for _, k := range st {
		if k == kind {
			return true
		}
	}
	return false
}

func stagesOf(spec *chart.Spec) stageIndex {
	out := stageIndex{}
	eachStage(spec, func(s *chart.StageSpec) {
		if _, ok := out[s.ID]; !ok {
			out[s.ID] = s.Kind
		}
	})
	return out
}

// answersOf are the names every ask: stage of the chart expects, sorted.
func answersOf(spec *chart.Spec) []string {
	seen := map[string]bool{}
	eachStage(spec, func(s *chart.StageSpec) {
		if s.Ask != nil {
			for _, e := range s.Ask.Expects {
				seen[e.Name] = true
			}
		}
	})
	return sortedKeys(seen)
}

// eachStage calls f for every stage of the chart: branches, foreach
// bodies and subflows (inline or mounted) too.
func eachStage(spec *chart.Spec, f func(*chart.StageSpec)) {
	var walk func([]chart.StageSpec)
	walk = func(ss []chart.StageSpec) {
		for i := range ss {
			s := &ss[i]
			f(s)
			for _, b := range s.Branches {
				walk(b.Stages)
			}
			for _, b := range s.Parallel {
				walk(b.Stages)
			}
			if s.ForEach != nil {
				walk(s.ForEach.Stages)
			}
			if s.Subflow != nil {
				walk(s.Subflow.Stages)
				if s.Subflow.Spec != nil {
					walk(s.Subflow.Spec.Stages)
				}
			}
		}
	}
	walk(spec.Stages)
}

// stage checks that key names a stage of kind in the chart: a stage id, or
// a record path (`per-volume~0/probe`) every step of which is one.
func (r *reader) stage(n ast.Node, st stageIndex, key, kind, what string) bool {
	p, err := flow.ParsePath(key)
	if err != nil {
		r.errf(n, "%s %q: %v", what, key, err)
		return false
	}
	if p.N >= 0 {
		// Stubs are looked up by record path, which has no counter: a key
		// with one would never be used, and the case would run without it.
		r.errf(n, "%s %q: #%d is an execution counter, which a stub is not keyed by: give the stage id or its record path without the counter (%s); the executions at one place (a loop's iterations) share one stub", what, key, p.N, flow.StripCounter(key))
		return false
	}
	ids := make([]string, 0, len(st))
	for id := range st {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	steps := []string{p.Node}
	for _, s := range p.Scope {
		steps = append(steps, s.Node)
	}
	for _, id := range steps {
		if _, ok := st[id]; !ok {
			msg := fmt.Sprintf("%s %q: the chart has no stage %q", what, key, id)
			if near := suggest.Nearest(id, ids); near != "" {
				msg += fmt.Sprintf("; did you mean %q?", near)
			}
			r.errf(n, "%s", msg)
			return false
		}
	}
	if got := st[p.Node]; got != kind {
		r.errf(n, "%s %q: stage %q is a %s stage, not %s", what, key, p.Node, got, kind)
		return false
	}
	return true
}

func (r *reader) readCase(n ast.Node, i int, st stageIndex, asked []string) *Case {
	ps, ok := r.mapping(n, fmt.Sprintf("case %d", i+1))
	if !ok {
		return nil
	}
	c := &Case{Pos: r.pos(n), keyCol: r.pos(n).Col}
	for _, p := range ps {
		if p.key == "name" {
			c.Name, _ = r.str(p.val, "name")
		}
	}
	what := fmt.Sprintf("case %q", c.Name)
	if c.Name == "" {
		what = fmt.Sprintf("case %d", i+1)
		if !hasKey(ps, "name") {
			r.errf(n, "%s needs a name", what)
		}
	}
	r.known(ps, what, caseKeys...)
	for _, p := range ps {
		switch p.key {
		case "inputs":
			c.Inputs = r.object(p.val, what+": inputs")
		case "answers":
			c.Answers = r.object(p.val, what+": answers")
			kv, _ := r.mapping(p.val, what+": answers")
			for _, a := range kv {
				if !slices.Contains(asked, a.key) {
					// Answers go to the questions that expect them by
					// name (File.answers): this one would go to none.
					msg := fmt.Sprintf("%s: answer %q: no ask: stage of the chart expects it", what, a.key)
					if near := suggest.Nearest(a.key, asked); near != "" {
						msg += fmt.Sprintf("; did you mean %q?", near)
					}
					expected := "none: the chart has no ask: stage"
					if len(asked) > 0 {
						expected = strings.Join(asked, ", ")
					}
					r.errf(a.node, "%s (expected: %s)", msg, expected)
				}
			}
		case "now":
			c.Now = r.instant(p.val, what+": now")
		case "zone":
			if name, ok := r.str(p.val, what+": zone"); ok {
				loc, err := time.LoadLocation(name)
				if err != nil || name == "" || name == "Local" {
					r.errf(p.val, "%s: zone %q is no zone name this machine knows: write an IANA name, such as Europe/Berlin or UTC", what, name)
				} else {
					c.Zone = loc
				}
			}
		case "real":
			c.Real, _ = r.strings(p.val, what+": real")
			for _, id := range c.Real {
				if kind, ok := st[id]; !ok || (kind != "exec" && kind != "plugin" && kind != "read") {
					r.stage(p.val, st, id, "exec", what+": real")
				}
			}
		case "stubs":
			c.Stubs = map[string]*ExecStub{}
			kv, _ := r.mapping(p.val, what+": stubs")
			for _, s := range kv {
				if r.stage(s.node, st, s.key, "exec", what+": stub") {
					c.Stubs[s.key] = r.execStubs(s.val, what+": stub "+s.key)
				}
			}
		case "plugins":
			c.Plugins = map[string]*PluginStub{}
			kv, _ := r.mapping(p.val, what+": plugins")
			for _, s := range kv {
				if r.stage(s.node, st, s.key, "plugin", what+": plugin stub") {
					c.Plugins[s.key] = r.pluginStub(s.val, what+": plugin stub "+s.key)
				}
			}
		case "files":
			c.Files = map[string]*FileStub{}
			kv, _ := r.mapping(p.val, what+": files")
			if len(kv) > 0 && !st.has("read") {
				r.errf(p.node, "%s: files: the chart has no read: stage, so no file stub is ever read (exec stages are stubbed under stubs:)", what)
			}
			for _, s := range kv {
				c.Files[s.key] = r.fileStub(s.val, what+": file stub "+s.key)
			}
		case "expect":
			c.expectKey = r.pos(p.node)
			c.Expect = r.expect(p.val, what+": expect")
		}
	}
	for _, p := range ps {
		if p.key != "real" {
			continue
		}
		for _, id := range c.Real {
			_, exec := c.Stubs[id]
			_, plugin := c.Plugins[id]
			if exec || plugin {
				// A stub by id wins over real: (Exec, Plugin), so the
				// stage would never run for real, whatever the case says.
				r.errf(p.val, "%s: real %q: the stage is stubbed by its id too, and a stub wins: it would never run for real; remove one (a stub keyed by one execution's record path leaves the others real)", what, id)
			}
		}
	}
	return c
}

func (r *reader) object(n ast.Node, what string) map[string]any {
	v, ok := r.value(n, what)
	if !ok || v == nil {
		return nil
	}
	m, isMap := v.(map[string]any)
	if !isMap {
		r.errf(n, "%s is a mapping (name: value), not %s", what, describe(v))
		return nil
	}
	return m
}

// besideTestFile is the file a test file names (chart:, stdoutFile:,
// contentFile:): a relative name is relative to the test file's folder,
// an absolute one is itself. `chart: /srv/charts/nginx/chart.yaml` was
// joined to the test file's folder, and the test said
// `/tmp/t/srv/charts/nginx/chart.yaml: chart cannot be read`, a path
// nobody wrote (TestAbsoluteChartPathIsItself).
func besideTestFile(testFile, name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(filepath.Dir(testFile), name)
}

// text reads `KEY` or `KEYFile` (a file relative to the test file).
func (r *reader) text(p pair, what string) string {
	s, _ := r.str(p.val, what+": "+p.key)
	if !strings.HasSuffix(p.key, "File") {
		return s
	}
	b, err := os.ReadFile(besideTestFile(r.file, s))
	if err != nil {
		r.errf(p.val, "%s: %s: %v", what, p.key, err)
	}
	return string(b)
}

// execStubs reads an exec stub: one mapping, which answers every
// execution at its place, or a list of them, one per execution.
func (r *reader) execStubs(n ast.Node, what string) *ExecStub {
	if _, ok := r.deref(n).(*ast.SequenceNode); !ok {
		return r.execStub(n, what)
	}
	items, _ := r.sequence(n, what)
	if len(items) == 0 {
		r.errf(n, "%s: the list is empty: give one stub per execution (a loop's passes, a retry's attempts), in order", what)
	}
	s := &ExecStub{}
	for i, it := range items {
		s.Each = append(s.Each, r.execStub(it, fmt.Sprintf("%s: execution %d", what, i+1)))
	}
	return s
}

func (r *reader) execStub(n ast.Node, what string) *ExecStub {
	ps, _ := r.mapping(n, what)
	r.known(ps, what, stubKeys...)
	s := &ExecStub{}
	ends := 0
	var pipeAt ast.Node
	for _, p := range ps {
		switch p.key {
		case "stdout", "stdoutFile":
			s.Stdout = r.text(p, what)
		case "stderr", "stderrFile":
			s.Stderr = r.text(p, what)
		case "exitCode":
			if v, ok := r.integer(p.val, what+": exitCode"); ok {
				s.ExitCode = &v
			}
			ends++
		case "timedOut":
			s.TimedOut, _ = r.boolean(p.val, what+": timedOut")
			ends++
		case "notFound":
			s.NotFound, _ = r.boolean(p.val, what+": notFound")
			ends++
		case "signal":
			if v, ok := r.str(p.val, what+": signal"); ok {
				s.Signal = "SIG" + strings.TrimPrefix(strings.ToUpper(v), "SIG")
			}
			ends++
		case "pipeStatus":
			nodes, _ := r.sequence(p.val, what+": pipeStatus")
			for i, nd := range nodes {
				if v, ok := r.integer(nd, fmt.Sprintf("%s: pipeStatus %d", what, i+1)); ok {
					if v < 0 || v > 255 {
						r.errf(nd, "%s: pipeStatus %d is %d, and a process exits with 0 to 255 (a signal's death is 128 and its number in bash's PIPESTATUS: 141 for SIGPIPE)", what, i+1, v)
					}
					s.PipeStatus = append(s.PipeStatus, v)
				}
			}
			pipeAt = p.val
		case "argv":
			if v, ok := r.strings(p.val, what+": argv"); ok {
				s.Argv, s.ArgvAt = v, r.pos(p.node)
				if len(v) == 0 {
					r.errf(p.val, "%s: argv is empty: give the command and its arguments as the run renders them, such as [df, -P, /]", what)
				}
			}
		}
	}
	if ends > 1 {
		r.errf(n, "%s: give one of exitCode, timedOut, notFound and signal: a process ends one way", what)
	}
	if pipeAt != nil {
		code := 0
		if s.ExitCode != nil {
			code = *s.ExitCode
		}
		switch {
		case s.TimedOut || s.NotFound || s.Signal != "":
			r.errf(pipeAt, "%s: pipeStatus is the codes of a script that exited, and this one did not", what)
		case len(s.PipeStatus) < 2:
			r.errf(pipeAt, "%s: pipeStatus is a pipeline's exit codes, one a command, such as [2, 1] for smartctl's 2 piped into grep's 1", what)
		case s.PipeStatus[len(s.PipeStatus)-1] != code:
			r.errf(pipeAt, "%s: pipeStatus's last code (%d) is the script's exit code, and exitCode is %d", what, s.PipeStatus[len(s.PipeStatus)-1], code)
		}
	}
	return s
}

func (r *reader) pluginStub(n ast.Node, what string) *PluginStub {
	ps, _ := r.mapping(n, what)
	r.known(ps, what, pluginKeys...)
	s := &PluginStub{}
	for _, p := range ps {
		switch p.key {
		case "writes":
			s.Writes, _ = r.value(p.val, what+": writes")
		case "assumed":
			s.Assumed = r.object(p.val, what+": assumed")
		case "fail":
			s.Fail, _ = r.str(p.val, what+": fail")
		case "facts":
			s.Facts = r.facts(p.val, what+": facts")
		}
	}
	return s
}

// facts reads a plugin stub's facts: how the code it ran ended.
func (r *reader) facts(n ast.Node, what string) *label.Facts {
	fs, _ := r.mapping(n, what)
	r.known(fs, what, factsKeys...)
	f := &label.Facts{}
	for _, p := range fs {
		switch p.key {
		case "exitCode":
			if v, ok := r.integer(p.val, what+": exitCode"); ok {
				f.ExitCode = &v
			}
		case "ok":
			if v, ok := r.boolean(p.val, what+": ok"); ok {
				f.OK = &v
			}
		case "terminatedBy":
			f.TerminatedBy, _ = r.str(p.val, what+": terminatedBy")
		case "serviceError":
			f.ServiceError, _ = r.boolean(p.val, what+": serviceError")
		}
	}
	return f
}

func (r *reader) fileStub(n ast.Node, what string) *FileStub {
	ps, _ := r.mapping(n, what)
	r.known(ps, what, fileStubKeys...)
	s := &FileStub{}
	for _, p := range ps {
		switch p.key {
		case "missing":
			s.Missing, _ = r.boolean(p.val, what+": missing")
		case "unreadable":
			s.Unreadable, _ = r.boolean(p.val, what+": unreadable")
		default:
			s.Content = r.text(p, what)
		}
	}
	if s.Missing && len(ps) > 1 {
		r.errf(n, "%s: a missing file has no content: give missing: true or content, not both", what)
	}
	if s.Unreadable && len(ps) > 1 {
		r.errf(n, "%s: a file the run may not read shows it no content: give unreadable: true or content, not both", what)
	}
	return s
}

func (r *reader) expect(n ast.Node, what string) Expect {
	ps, _ := r.mapping(n, what)
	r.known(ps, what, expectKeys...)
	e := Expect{At: map[string]chart.Pos{}}
	// oneOf says whether s is one of words, else refuses it at n, with
	// the nearest word.
	oneOf := func(n ast.Node, key, s string, words []string) bool {
		if contains(words, s) {
			return true
		}
		msg := fmt.Sprintf("%s: %s %q is not one of %s", what, key, s, strings.Join(words, ", "))
		if near := suggest.Nearest(s, words); near != "" {
			msg += fmt.Sprintf("; did you mean %q?", near)
		}
		r.errf(n, "%s", msg)
		return false
	}
	word := func(p pair, words []string) *string {
		s, ok := r.str(p.val, what+": "+p.key)
		if !ok || !oneOf(p.val, p.key, s, words) {
			return nil
		}
		return &s
	}
	for _, p := range ps {
		e.At[p.key] = r.pos(p.node)
		switch p.key {
		case "status":
			e.Status = word(p, statusWords)
		case "standing":
			e.Standing = word(p, standings)
		case "exit":
			if v, ok := r.integer(p.val, what+": exit"); ok {
				e.Exit = &v
			}
		case "rowsTotal":
			if v, ok := r.integer(p.val, what+": rowsTotal"); ok {
				e.RowsTotal = &v
			}
		case "unjudgedRows":
			e.UnjudgedRows, _ = r.strings(p.val, what+": unjudgedRows")
			if e.UnjudgedRows == nil {
				e.UnjudgedRows = []string{}
			}
		case "failOn":
			e.FailOn, _ = r.strings(p.val, what+": failOn")
			conds, err := gate.ParseConditions(e.FailOn)
			if err == nil {
				// As exec refuses it: a condition the chart can never
				// meet would let exit: 0 pass whatever the chart says.
				err = gate.CheckWords(conds, r.spec)
			}
			if err != nil {
				r.errf(p.val, "%s: failOn: %s", what, strings.TrimPrefix(err.Error(), "--fail-on "))
			}
			e.conds = conds
		case "reasons":
			e.Reasons, _ = r.strings(p.val, what+": reasons")
			if e.Reasons == nil {
				e.Reasons = []string{}
			}
			// A reason no standing can have would fail its case with
			// "expected [coverage-gapp], got [coverage-gap]": say so here.
			var items []ast.Node
			if seq, ok := r.deref(p.val).(*ast.SequenceNode); ok {
				items = seq.Values
			}
			for i, reason := range e.Reasons {
				at := p.val
				if i < len(items) {
					at = items[i]
				}
				oneOf(at, "reason", reason, reasonWords)
			}
		case "line":
			if s, ok := r.str(p.val, what+": line"); ok {
				e.Line = &s
			}
		case "nagios":
			e.Nagios = word(p, chart.NagiosStates)
		case "verdicts":
			items, _ := r.sequence(p.val, what+": verdicts")
			e.Verdicts = []record.Row{}
			for _, it := range items {
				kv, ok := r.mapping(it, what+": a verdict row")
				if !ok {
					continue
				}
				row := record.Row{Values: map[string]any{}}
				for _, c := range kv {
					v, _ := r.value(c.val, what+": verdict row key "+c.key)
					row.Keys = append(row.Keys, c.key)
					row.Values[c.key] = v
				}
				e.Verdicts = append(e.Verdicts, row)
			}
		case "decisions":
			e.Decisions = map[string][]string{}
			kv, _ := r.mapping(p.val, what+": decisions")
			for _, d := range kv {
				e.Decisions[d.key], _ = r.strings(d.val, what+": decisions "+d.key)
			}
		case "coverage":
			items, _ := r.sequence(p.val, what+": coverage")
			for _, it := range items {
				kv, ok := r.mapping(it, what+": a coverage item")
				if !ok {
					continue
				}
				r.known(kv, what+": a coverage item", coverageKeys...)
				m := map[string]any{}
				for _, c := range kv {
					m[c.key], _ = r.value(c.val, what+": coverage item key "+c.key)
				}
				if k, ok := m["kind"].(string); ok {
					oneOf(it, "coverage item kind", k, coverKinds)
				}
				e.Coverage = append(e.Coverage, m)
			}
		case "state":
			e.State = r.object(p.val, what+": state")
		}
	}
	r.expectsSomething(ps, what)
	return e
}

// expectsSomething refuses an expect key that holds nothing a run could
// fail (TestExpectationThatCannotFailIsRefused): failOn without exit (it
// is only the conditions exit is judged under, so `failOn: [verdict=full]`
// alone passed over a run whose gate never fired), an empty coverage:,
// state: or decisions: (a subset of every run's), and a verdicts row with
// no key (it matches every row). verdicts: [] and reasons: [] are
// expectations (no rows, no reason) and stay.
func (r *reader) expectsSomething(ps []pair, what string) {
	has := map[string]bool{}
	for _, p := range ps {
		has[p.key] = true
	}
	for _, p := range ps {
		v := r.deref(p.val)
		switch p.key {
		case "failOn":
			if !has["exit"] {
				r.errf(p.node, "%s: failOn alone expects nothing: it is the conditions exit: is judged under, as runbook exec --fail-on takes them; add exit: 3 (a condition holds) or exit: 0 (none does)", what)
			}
		case "coverage", "state", "decisions":
			empty := false
			switch n := v.(type) {
			case *ast.SequenceNode:
				empty = len(n.Values) == 0
			case *ast.MappingNode:
				empty = len(n.Values) == 0
			}
			if empty {
				r.errf(p.node, "%s: %s holds no item, so it expects nothing (what it lists is looked for among the run's, and nothing is found in every run): list what the run must give, or drop the key", what, p.key)
			}
		case "verdicts":
			seq, ok := v.(*ast.SequenceNode)
			if !ok {
				continue
			}
			for _, it := range seq.Values {
				if m, ok := r.deref(it).(*ast.MappingNode); ok && len(m.Values) == 0 {
					r.errf(it, "%s: a verdict row with no key matches every row, so it holds only that a row is there: give the row's subject and verdict", what)
				}
			}
		}
	}
}
