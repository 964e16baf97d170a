package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/plugins/host"
	"github.com/openrunbook/runbook/rules"
	"github.com/openrunbook/runbook/runbook"
)

// planFlags are `runbook plan`'s flags.
type planFlags struct {
	inputs     []string
	inputsFile string
	format     string
	pluginDir  string
	noPlugins  bool
	allow      []string
}

// planFormats are the -o values plan accepts.
var planFormats = []string{"text", "json"}

func newPlanCmd(stdout, stderr io.Writer) *cobra.Command {
	var f planFlags
	cmd := &cobra.Command{
		Use:   "plan CHART.yaml",
		Short: "Show what a run would do, without doing it",
		Long: `plan shows what runbook exec would do with these inputs, and runs nothing:
no command, no plugin stage, no file read. It prints the stages in the order a run
reaches them; each exec stage's argv with its ${…} templates filled from the
inputs (a part only a run can know is shown as <from EXPR>), its env and
envFrom (a secret input's value never shown), and whether its binary is on
PATH (a shell: stage needs bash); each plugin stage's plugin, where it was
found and its sha256 (checked against the chart's pin), the plugin started
once to describe itself and the stage's arguments held to what it declares
(as validate does; --no-plugins starts none); each read: stage's path; and
the inputs, checked as exec checks them.

Exit codes: 0 every check passed, 2 bad usage, a chart that does not load,
or a failed check (a binary or plugin not found, a pin that does not match,
an argument the plugin does not take, bad inputs).`,
		Example: `  runbook plan examples/disk/chart.yaml --input threshold=80
  runbook plan examples/plugins/file-age/chart.yaml -o json`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, a []string) error {
			return planChart(cmd.Context(), a[0], f, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.inputs, "input", nil, "an input as `name=value` (repeatable)")
	fl.StringVar(&f.inputsFile, "inputs", "", "a JSON object `FILE` of inputs (--input overrides it)")
	fl.StringVarP(&f.format, "format", "o", "text", "output `format`: "+strings.Join(planFormats, ", "))
	addPluginDirFlag(fl, &f.pluginDir)
	fl.BoolVar(&f.noPlugins, "no-plugins", false, "start no stage plugin: find it and check its sha256 only")
	allowChartPath(fl, &f.allow)
	return cmd
}

// plan is what `runbook plan` found; -o json prints it as it is.
type plan struct {
	Chart   string       `json:"chart"`
	Runbook string       `json:"runbook"`
	SHA256  string       `json:"sha256"`
	OK      bool         `json:"ok"`
	Inputs  []planInput  `json:"inputs"`
	Stages  []*planStage `json:"stages"`
	// Result is what the answer is judged on: nil when the chart has no
	// result: block (no verdict table, no answer checks).
	Result *planResult `json:"result"`
	Checks []planCheck `json:"checks"`

	mask func(string) string // every form of every secret input hidden
	// maskSensitive hides every value given to a plugin's sensitive
	// argument (runbook.PluginChecker.Mask; nil: --no-plugins).
	maskSensitive func(string) string
}

// planInput is one input or var as a run would start with it.
type planInput struct {
	Name   string `json:"name"`
	Type   string `json:"type,omitempty"`
	Value  any    `json:"value,omitempty"`
	From   string `json:"from"` // given, default, var, unset
	Secret bool   `json:"secret,omitempty"`
}

// planStage is one stage, in the order a run reaches it; Depth is how far
// it is nested (branches, foreach bodies, subflows).
type planStage struct {
	Path   string      `json:"path"`
	Kind   string      `json:"kind"`
	Name   string      `json:"name,omitempty"`
	Depth  int         `json:"depth"`
	Branch string      `json:"branch,omitempty"` // the branch it runs in
	What   string      `json:"what,omitempty"`   // what the stage does, in words
	Argv   []string    `json:"argv,omitempty"`
	Shell  string      `json:"shell,omitempty"`
	Env    []string    `json:"env,omitempty"`
	Dir    string      `json:"dir,omitempty"` // exec's dir:, as written
	Binary *planBinary `json:"binary,omitempty"`
	Plugin *planPlugin `json:"plugin,omitempty"`
	// Answers are the exit codes exitCodes: declares answers, in order:
	// any other is a failure of the command.
	Answers []planAnswer `json:"answers,omitempty"`
	// Note is what a reader of the stage should know before it runs (an
	// exec's pipeline run without pipefail).
	Note string `json:"note,omitempty"`
}

// planAnswer is one exit code an exec stage's exitCodes: declares an
// answer: its word, and the text its stderr must hold for it, if any.
type planAnswer struct {
	Code   int    `json:"code"`
	Word   string `json:"word"`
	Stderr string `json:"stderr,omitempty"`
	// Bit marks an exitBits: entry: Code is a bit of the exit code.
	Bit bool `json:"bit,omitempty"`
	// Relayed marks a bit read under a shell or timeout, whose own codes
	// (124-127, 128+N of a signal) are no bits (chart.ExecSpec.RelaysCode).
	Relayed bool `json:"relayed,omitempty"`
}

// answersText is a stage's answers in a line: `0 present, 1 missing
// (when stderr says "No such file or directory")`.
func answersText(as []planAnswer) string {
	var parts, bits []string
	relayed := false
	for _, a := range as {
		if a.Bit {
			relayed = relayed || a.Relayed
			bits = append(bits, fmt.Sprintf("%d %s", a.Code, a.Word))
			continue
		}
		part := fmt.Sprintf("%d %s", a.Code, a.Word)
		if a.Stderr != "" {
			part += fmt.Sprintf(" (when stderr says %q)", a.Stderr)
		}
		parts = append(parts, part)
	}
	if len(bits) > 0 {
		which := "the word of the first it holds"
		if relayed {
			which += "; not 124-127 or past 128, the shell's or timeout's own codes"
		}
		if !slices.ContainsFunc(as, func(a planAnswer) bool { return !a.Bit && a.Code == 0 }) {
			parts = append(parts, "0 no word (status absent, bits empty)")
		}
		parts = append(parts, "a code of the bits "+strings.Join(bits, ", ")+" alone ("+which+")")
	}
	return strings.Join(parts, ", ") + "; anything else is a failure of the command"
}

// planBinary is the program an exec stage starts, looked up as exec
// would (PATH for a bare name).
type planBinary struct {
	Name  string `json:"name"`
	Path  string `json:"path,omitempty"`
	Found bool   `json:"found"`
	Note  string `json:"note,omitempty"`
}

// planPlugin is a plugin stage's plugin as a run would find it.
type planPlugin struct {
	Name   string `json:"name"`
	Path   string `json:"path,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
	Pinned string `json:"pinned,omitempty"` // the sha256 the chart pins
	Found  bool   `json:"found"`
}

// planResult is the chart's result: block as a run reads it, defaults
// filled: a reader of the plan sees what an empty table will stand as
// (result.empty) before any run makes one.
type planResult struct {
	Kind    string   `json:"kind"`
	Decider string   `json:"decider,omitempty"`
	MaxRows int      `json:"maxRows,omitempty"` // verdict kinds only
	Empty   string   `json:"empty,omitempty"`   // verdict kinds only: gap | answer
	Checks  []string `json:"checks,omitempty"`
	// Nagios is each verdict word result.nagios maps, and its state.
	Nagios map[string]string `json:"nagios,omitempty"`
	// Unshown is set for a chart with no result: block whose verdict
	// stages write rows: nothing will show or judge them.
	Unshown bool `json:"unshown,omitempty"`
}

// planResultOf fills a plan's result from the chart's block; nil for none.
func planResultOf(spec *chart.Spec) *planResult {
	r := spec.Result
	if r == nil {
		if spec.WritesVerdicts() {
			return &planResult{Unshown: true}
		}
		return nil
	}
	pr := &planResult{Kind: r.Kind, Decider: r.Decider, Nagios: r.Nagios}
	if strings.HasPrefix(r.Kind, "verdict/") {
		pr.MaxRows, pr.Empty = r.MaxRows, r.Empty
		if pr.MaxRows <= 0 {
			pr.MaxRows = runbook.DefaultMaxRows
		}
		if pr.Empty == "" {
			pr.Empty = chart.EmptyGap
		}
	}
	for _, c := range r.Checks {
		pr.Checks = append(pr.Checks, c.Src)
	}
	return pr
}

// text writes the result section of a plan's text.
func (r *planResult) text(b *strings.Builder) {
	if r.Unshown {
		b.WriteString("\nresult none: the rows the verdict stages write are shown and judged by nothing (no table, no Nagios state), and a run says so, Not sure; add result: {kind: verdict/NAME}, unless a chart mounts this one\n")
		return
	}
	fmt.Fprintf(b, "\nresult %s\n", r.Kind)
	if r.Decider != "" {
		fmt.Fprintf(b, "  verdict meanings from %s\n", r.Decider)
	}
	if r.MaxRows > 0 {
		fmt.Fprintf(b, "  at most %d %s in the table\n", r.MaxRows, plural(r.MaxRows, "row", "rows"))
	}
	switch r.Empty {
	case chart.EmptyAnswer:
		b.WriteString("  no rows is an answer: nothing to report (empty: answer)\n")
	case chart.EmptyGap:
		b.WriteString("  no rows is a gap: nothing was judged, Not sure (empty: gap, the default)\n")
	}
	for _, c := range r.Checks {
		fmt.Fprintf(b, "  answer check %s\n", c)
	}
	for _, w := range slices.Sorted(maps.Keys(r.Nagios)) {
		fmt.Fprintf(b, "  nagios %s → %s\n", w, strings.ToUpper(r.Nagios[w]))
	}
}

// planCheck is one failed check: what, where, and what would be right.
type planCheck struct {
	Stage   string `json:"stage,omitempty"`
	Message string `json:"message"`
}

// planChart is `runbook plan`: it loads the chart, settles the inputs and
// walks the stages, running none (each plugin is started only to describe
// itself).
func planChart(ctx context.Context, path string, f planFlags, stdout, stderr io.Writer) error {
	if !contains(planFormats, f.format) {
		return &usageError{err: fmt.Errorf("--format %q: want one of %s", f.format, strings.Join(planFormats, ", ")), showUsage: true}
	}
	given, err := readInputs(f.inputsFile, f.inputs)
	if err != nil {
		return exit(exitUsage, "%v", err)
	}
	rb, ok := load(path, f.allow, stderr)
	if !ok {
		return quietExit(exitUsage)
	}
	p := makePlan(ctx, path, rb, given, f)
	var text string
	if f.format == "json" {
		b, err := json.MarshalIndent(p, "", "  ")
		if err != nil {
			return exit(exitFailed, "plan: %v", err)
		}
		text = string(b) + "\n"
	} else {
		text = p.text()
	}
	if p.mask != nil {
		text = p.mask(text) // the last guard: no secret's value leaves
	}
	if p.maskSensitive != nil {
		text = p.maskSensitive(text) // values given to sensitive plugin arguments
	}
	fmt.Fprint(stdout, text)
	if !p.OK {
		fmt.Fprintf(stderr, "runbook: plan: %d check(s) failed\n", len(p.Checks))
		return quietExit(exitUsage)
	}
	return nil
}

// planner walks a chart for a plan.
type planner struct {
	rb *runbook.Runbook
	in *runbook.PlannedInputs // nil: the inputs were refused
	// env is what the plan knows of the scope the stage being planned
	// runs in (nil: the inputs were refused, nothing is known).
	env *runbook.PlannedScope
	dir string // --plugin-dir
	// plugins starts each plugin once to judge the stages' arguments
	// (nil: --no-plugins).
	plugins *runbook.PluginChecker
	ctx     context.Context
	out     *plan
}

func makePlan(ctx context.Context, path string, rb *runbook.Runbook, given map[string]any, f planFlags) *plan {
	spec := rb.Spec()
	pl := &planner{rb: rb, dir: f.pluginDir, ctx: ctx, out: &plan{Chart: path, Runbook: spec.Name, SHA256: spec.SHA256, Inputs: []planInput{}, Stages: []*planStage{}, Checks: []planCheck{}}}
	in, err := rb.PlanInputs(given)
	if err != nil {
		if ies, ok := inputErrors(err); ok {
			for _, ie := range ies {
				msg := ie.Error()
				if ie.Fix == runbook.FixGive {
					msg += fmt.Sprintf(" (give it with --input %s=…)", ie.Input)
				}
				pl.check("", msg)
			}
		} else {
			pl.check("", "inputs: "+err.Error())
		}
	} else {
		pl.in = in
		pl.out.mask = in.Mask
	}
	for _, i := range spec.Inputs {
		pi := planInput{Name: i.Name, Type: i.Type, From: "unset", Secret: i.Secret}
		if in == nil && i.HasDefault {
			// The inputs were refused (one required is missing): a default
			// is still what a run would start with, not "unset".
			pi.From = "default"
			if !i.Secret {
				pi.Value = i.Default
			}
		}
		if in != nil {
			if v, ok := in.Values[i.Name]; ok {
				pi.From = "default"
				if slices.Contains(in.Given, i.Name) {
					pi.From = "given"
				}
				if !i.Secret {
					pi.Value = v
				}
			}
		}
		pl.out.Inputs = append(pl.out.Inputs, pi)
	}
	for _, v := range spec.Vars {
		pi := planInput{Name: v.Key, From: "var"}
		if in != nil {
			if in.Secret(v.Key) {
				pi.Secret = true
			} else {
				pi.Value = in.Values[v.Key]
			}
		}
		pl.out.Inputs = append(pl.out.Inputs, pi)
	}
	if !f.noPlugins {
		pl.plugins = rb.NewPluginChecker(f.pluginDir, pluginDirHint)
		defer pl.plugins.Close()
		pl.out.maskSensitive = pl.plugins.Mask
	}
	if in != nil {
		in.WalkPlanned(rb, func(v runbook.StageVisit, env *runbook.PlannedScope) {
			pl.env = env
			pl.stage(v)
		})
	} else {
		rb.WalkStages(pl.stage)
	}
	pl.out.Result = planResultOf(spec)
	pl.out.OK = len(pl.out.Checks) == 0
	return pl.out
}

func (pl *planner) check(stage, msg string) {
	pl.out.Checks = append(pl.out.Checks, planCheck{Stage: stage, Message: msg})
}

func (pl *planner) stage(v runbook.StageVisit) {
	st := v.Stage
	ps := &planStage{Path: v.Path, Kind: st.Kind, Depth: v.Depth, Branch: v.Branch}
	if st.Name != "" && st.Name != st.ID {
		ps.Name = st.Name
	}
	pl.out.Stages = append(pl.out.Stages, ps)
	switch st.Kind {
	case "exec":
		pl.exec(ps, st.Exec)
	case "read":
		rd := st.Read
		if rd.Glob != nil {
			ps.What = "reads every file matching " + pl.value(rd.Glob)
		} else {
			ps.What = "reads " + pl.value(rd.Path)
		}
	case "plugin":
		pl.plugin(ps, st)
	case "decide", "select":
		var names []string
		for _, b := range st.Branches {
			names = append(names, b.Name)
		}
		n := len(st.Decide.Rules)
		ps.What = fmt.Sprintf("%d %s", n, plural(n, "rule", "rules"))
		if st.Kind == "decide" {
			ps.What += " and a default"
		}
		ps.What += " → " + strings.Join(names, ", ")
	case "parallel":
		ps.What = fmt.Sprintf("%d branches at once", len(st.Parallel))
	case "foreach":
		fe := st.ForEach
		ps.What = fmt.Sprintf("each %s in %s", fe.As, fe.Items.String())
		if fe.MaxBranches > 0 {
			ps.What += fmt.Sprintf(", at most %d", fe.MaxBranches)
		}
	case "subflow":
		if sf := st.Subflow; sf.Spec != nil {
			ps.What = "the chart " + sf.Chart
		}
	case "ask":
		var names []string
		for _, e := range st.Ask.Expects {
			names = append(names, e.Name+" ("+e.Type+")")
		}
		ps.What = "asks a person; the run pauses for " + strings.Join(names, ", ")
	case "loop":
		ps.What = "back to " + st.Loop.To
		if st.Loop.While != nil {
			ps.What += " while " + st.Loop.While.String()
		}
	case "set":
		var keys []string
		for _, a := range st.Set {
			keys = append(keys, a.Key)
		}
		ps.What = "sets " + strings.Join(keys, ", ")
	}
}

// exec fills an exec stage: its argv (templates rendered where the inputs
// say, by chart.TemplateText's rule), env, and the binary it starts.
func (pl *planner) exec(ps *planStage, es *chart.ExecSpec) {
	env := make([]string, 0, len(es.Env)+len(es.EnvFrom))
	for _, e := range es.Env {
		env = append(env, e.Name+"="+e.Value)
	}
	for _, a := range es.EnvFrom {
		env = append(env, a.Key+"="+pl.value(a.Expr))
	}
	for _, name := range es.InheritEnv {
		env = append(env, name+"=<from the runner's environment>")
	}
	if len(env) > 0 {
		ps.Env = env
	}
	ps.Dir = es.Dir
	for _, c := range slices.Sorted(maps.Keys(es.ExitCodes)) {
		ps.Answers = append(ps.Answers, planAnswer{Code: c, Word: es.ExitCodes[c], Stderr: es.AnswerStderr[c]})
	}
	for _, b := range es.ExitBits {
		ps.Answers = append(ps.Answers, planAnswer{Code: b.Bit, Word: b.Word, Bit: true, Relayed: es.RelaysCode(255)})
	}
	// what a run warns of, then what only a run's outcome can show
	notes := append(es.RunWarnings(), es.PipedAnswerNote(), es.HiddenSubstitutionsNote(), es.InheritedLocaleNote(), es.ExitBitsAscendingNote(), es.FirstCertificateNote())
	ps.Note = strings.Join(slices.DeleteFunc(notes, func(n string) bool { return n == "" }), "; ")
	name := "bash" // proc runs a shell: line as bash -e -o pipefail -c
	if es.Shell != "" {
		ps.Shell = es.Shell
	} else {
		ps.Argv = slices.Clone(es.Command)
		if es.Args != nil {
			for i := range es.Args {
				ps.Argv[i] = pl.template(&es.Args[i])
			}
		}
		if len(ps.Argv) == 0 {
			return // the loader refuses an exec with neither; a Go-built spec may not
		}
		name = ps.Argv[0]
	}
	b := &planBinary{Name: name}
	ps.Binary = b
	if strings.HasPrefix(name, "<from ") {
		b.Note = "known when the stage runs"
		return
	}
	p, err := lookBinary(name, es.Dir)
	if err != nil {
		pl.check(ps.Path, fmt.Sprintf("%s: the binary %q is not found (%v): install it, or put its folder on PATH", ps.Path, name, errors.Unwrap(err)))
		return
	}
	b.Path, b.Found = p, true
}

// lookBinary is where exec would find name: PATH for a bare name (as
// os/exec looks), else the file, relative to dir when dir is given.
func lookBinary(name, dir string) (string, error) {
	if !strings.Contains(name, "/") {
		return exec.LookPath(name)
	}
	p := name
	if dir != "" && !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return exec.LookPath(p)
}

// plugin fills a plugin stage: where the run would find its plugin
// (runbook.FindPlugin) and its sha256, held to the chart's pin.
func (pl *planner) plugin(ps *planStage, st *chart.StageSpec) {
	sp := st.Plugin
	var args []string
	for _, a := range sp.Args {
		args = append(args, a.Key+"="+pl.value(a.Expr))
	}
	if len(args) > 0 {
		ps.What = "args " + strings.Join(args, ", ")
	}
	pp := &planPlugin{Name: sp.Name}
	ps.Plugin = pp
	src, err := pl.rb.FindPlugin(sp.Name, pl.dir)
	if err != nil {
		var nf *host.NotFoundError
		if errors.As(err, &nf) && nf.Dir == "" {
			c := *nf
			c.Hint = pluginDirHint
			err = &c
		}
		pl.check(ps.Path, fmt.Sprintf("%s: %v", ps.Path, err))
		return
	}
	pp.Path = src.Path
	sum, err := host.SHA256Of(src.Path)
	if err != nil {
		pl.check(ps.Path, fmt.Sprintf("%s: plugin %q at %s cannot be read: %v", ps.Path, sp.Name, src.Path, errors.Unwrap(err)))
		return
	}
	pp.SHA256, pp.Found = sum, true
	if src.SHA256 != "" {
		pp.Pinned = src.SHA256
		if err := host.CheckSHA256(src.Path, src.SHA256); err != nil {
			pl.check(ps.Path, fmt.Sprintf("%s: plugin %q: %v", ps.Path, sp.Name, err))
			return
		}
	}
	if pl.plugins == nil {
		return
	}
	var env rules.Env
	if pl.env != nil {
		env = pl.env
	}
	for _, e := range pl.plugins.Check(pl.ctx, ps.Path, st, env) {
		pl.check(ps.Path, fmt.Sprintf("%s: %s", ps.Path, e.Msg))
	}
}

// template is one argv item with each ${EXPR} part that reads only the
// inputs and vars rendered (chart.TemplateText, the rule a run uses), and
// each other part written <from EXPR>: only the run knows it.
func (pl *planner) template(t *chart.Template) string {
	var b strings.Builder
	for _, p := range t.Parts {
		if p.Expr == nil {
			b.WriteString(p.Text)
			continue
		}
		b.WriteString(pl.value(p.Expr))
	}
	return b.String()
}

// value is an expression's value as text when the plan knows it at this
// stage (runbook.PlannedScope: it reads only inputs and vars no stage
// before has written over), `<secret>` when it reads a secret, else
// `<from EXPR>`.
func (pl *planner) value(v rules.Valuer) string {
	if pl.env == nil {
		if _, isExpr := v.(*rules.Expr); isExpr {
			return "<from " + v.String() + ">"
		}
	}
	var env rules.Env = emptyEnv{}
	if pl.env != nil {
		known, secret := pl.env.Known(v)
		if secret {
			return "<secret>"
		}
		if !known {
			return "<from " + v.String() + ">"
		}
		env = pl.env
	}
	val, _, err := v.Value(env)
	if err != nil {
		return "<from " + v.String() + ">"
	}
	s, err := chart.TemplateText(val)
	if err != nil {
		return "<from " + v.String() + ">"
	}
	return s
}

type emptyEnv struct{}

func (emptyEnv) Get(string) (any, bool) { return nil, false }

// text is the plan for a person: the stages as an indented list, then
// the checks; every secret input's value masked, whatever the path.
func (p *plan) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "plan of %s (%s)\n", p.Runbook, p.Chart)
	fmt.Fprintf(&b, "sha256 %s\n", p.SHA256)
	if len(p.Inputs) > 0 {
		b.WriteString("\ninputs\n")
		for _, in := range p.Inputs {
			val := "—"
			switch {
			case in.Secret && in.From != "unset":
				val = "<secret>"
			case in.Value != nil:
				val = compactJSON(in.Value)
			}
			typ := in.Type
			if typ == "" {
				typ = "var"
			}
			fmt.Fprintf(&b, "  %-14s %-8s %s  (%s)\n", in.Name, typ, val, in.From)
		}
	}
	b.WriteString("\nstages, in the order a run reaches them\n")
	for _, s := range p.Stages {
		ind := strings.Repeat("  ", s.Depth+1)
		if s.Branch != "" {
			ind = strings.Repeat("  ", s.Depth) + "  "
		}
		head := s.Path + "  " + s.Kind
		if s.Branch != "" {
			head = "[" + s.Branch + "] " + head
		}
		if s.Name != "" {
			head += "  " + s.Name
		}
		fmt.Fprintf(&b, "%s%s\n", ind, head)
		more := ind + "    "
		if s.What != "" {
			fmt.Fprintf(&b, "%s%s\n", more, s.What)
		}
		if s.Argv != nil {
			fmt.Fprintf(&b, "%sargv %s\n", more, quoteArgv(s.Argv))
		}
		if s.Shell != "" {
			lines := strings.Split(strings.TrimRight(s.Shell, "\n"), "\n")
			fmt.Fprintf(&b, "%sshell %s", more, strings.TrimSpace(lines[0]))
			if len(lines) > 1 {
				fmt.Fprintf(&b, "  (+%d %s; -o json has it whole)", len(lines)-1, plural(len(lines)-1, "line", "lines"))
			}
			b.WriteString("\n")
		}
		for _, e := range s.Env {
			fmt.Fprintf(&b, "%senv %s\n", more, e)
		}
		if s.Dir != "" {
			fmt.Fprintf(&b, "%sdir %s\n", more, s.Dir)
		}
		if bin := s.Binary; bin != nil {
			switch {
			case bin.Found:
				fmt.Fprintf(&b, "%sbinary %s: %s\n", more, bin.Name, bin.Path)
			case bin.Note != "":
				fmt.Fprintf(&b, "%sbinary %s\n", more, bin.Note)
			default:
				fmt.Fprintf(&b, "%sbinary %s: NOT FOUND\n", more, bin.Name)
			}
		}
		if len(s.Answers) > 0 {
			fmt.Fprintf(&b, "%sanswers %s\n", more, answersText(s.Answers))
		}
		if s.Note != "" {
			fmt.Fprintf(&b, "%snote: %s\n", more, s.Note)
		}
		if pg := s.Plugin; pg != nil {
			switch {
			case pg.Found:
				pin := ""
				switch {
				case pg.Pinned != "" && strings.EqualFold(pg.Pinned, pg.SHA256):
					pin = " (the chart's pin)"
				case pg.Pinned != "":
					pin = " (the chart pins " + pg.Pinned + ": NO MATCH)"
				}
				fmt.Fprintf(&b, "%splugin %s: %s sha256 %s%s\n", more, pg.Name, pg.Path, pg.SHA256, pin)
			default:
				fmt.Fprintf(&b, "%splugin %s: NOT FOUND\n", more, pg.Name)
			}
		}
	}
	if p.Result != nil {
		p.Result.text(&b)
	}
	b.WriteString("\n")
	if p.OK {
		b.WriteString("every check passed: binaries, plugins and inputs (nothing was run)\n")
	} else {
		fmt.Fprintf(&b, "%d %s failed (nothing was run):\n", len(p.Checks), plural(len(p.Checks), "check", "checks"))
		for _, c := range p.Checks {
			fmt.Fprintf(&b, "  %s\n", c.Message)
		}
	}
	return b.String()
}

// quoteArgv writes an argv as a shell would read it back: a word with a
// space or quote in single quotes.
func quoteArgv(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if bare := fromPart.ReplaceAllString(a, ""); a == "" || strings.ContainsAny(bare, " \t\n'\"\\$`*?[]{}()<>|&;#~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}

// fromPart is a <from EXPR> placeholder in an argv word, which quoting
// leaves as it is: it is plan's words, not the word a shell would read.
var fromPart = regexp.MustCompile(`<from [^>]*>`)

func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
