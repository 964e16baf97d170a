package chart

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/openrunbook/runbook/internal/ident"
	"github.com/openrunbook/runbook/internal/suggest"
	"github.com/openrunbook/runbook/rules"
)

// VerdictsKey is the scope key a `verdict:` stage appends its row to, the
// chart format's word (chart-yaml.md): a name every expression of a chart
// with a verdict stage may read.
const VerdictsKey = "verdicts"

// indexKey is the key every foreach branch sees its item's position under
// (flow.IndexKey, which chart does not import; a test holds them equal).
const indexKey = "index"

// compiled is one expression the loader compiled, kept until the whole
// chart — every file it mounts included — is read, when the names it reads
// can be checked against every name the chart defines.
type compiled struct {
	l     *loader
	e     entry
	stage string
	what  string
	x     *rules.Expr
	// only, when set, is all the expression may read (a var reads inputs
	// and earlier vars: no stage has run when it is evaluated), and
	// onlyWhat says so in a message.
	only     map[string]bool
	onlyWhat string
	// part: the expression is a template's ${…} part, where a word alone
	// is more likely a tool's own placeholder (dpkg-query -f's ${Package})
	// than a string to quote.
	part bool
}

// noteCompiled keeps an expression for checkNames.
func (l *loader) noteCompiled(e entry, stage, what string, x *rules.Expr) {
	l.s.compiled = append(l.s.compiled, compiled{l: l, e: e, stage: stage, what: what, x: x})
}

// onlyVars limits the expressions compiled since the n-th to the names a
// var may read: the inputs and the vars before it.
func (l *loader) onlyVars(n int, may map[string]bool) {
	for i := n; i < len(l.s.compiled); i++ {
		l.s.compiled[i].only = maps.Clone(may)
		l.s.compiled[i].onlyWhat = "an input or an earlier var (vars are evaluated in order, before the first stage)"
	}
}

// checkNames checks every top-level identifier of every expression the
// session compiled, and the root key of every filter-form rule condition,
// against the names the chart defines (chart-yaml.md, "Expressions:
// JSON-safe, and no silent subtraction"):
//
//	defined by     inputs and vars (of the chart and of every chart it mounts),
//	               what any stage writes (set keys, into of exec, plugin and
//	               foreach, ask answers, subflow input bindings, verdicts
//	               when a verdict stage exists), foreach as and index
//	not a name     member names after a dot, closure pointers, let
//	               variables, builtin calls, keys read through $env
//
// Whether a name is defined is flow-insensitive: a name any stage writes
// counts as defined everywhere, so it refuses only what no run could ever
// read, never a chart that works. A name that reads a key spelled with '-'
// as a subtraction (per-volume.rows where per-volume is a key) is refused
// with the way to read it.
//
// Order is then asked of what is defined (see laterWriters): a stage that
// reads a key only LATER stages write, with no loop leading back, reads it
// before any run could have written it, and is refused naming the stage
// that writes it. Where the order is not the loader's to know (a subflow,
// stages beside each other in a parallel or select, an id written twice in
// one file), it says nothing.
//
// It runs once, from the root chart, when nothing else is wrong (an error
// elsewhere can hide a definition).
func (l *loader) checkNames(spec *Spec) {
	d := newDefs()
	d.chart(spec, place{})
	known := make([]string, 0, len(d.names))
	for n := range d.names {
		known = append(known, n)
	}
	slices.Sort(known)
	for _, c := range l.s.compiled {
		c.check(d, d.reader(c.l.file, c.stage), known)
	}
	for _, f := range d.filters {
		l.checkFilter(d, f, known)
	}
	l.checkFilterWords(d)
	l.checkDecider(spec)
	l.checkVerdictStagesProjected(spec)
	l.checkForeachSubjects(spec) // foreachsubject.go
	l.checkShadowedRules(spec)   // shadowrule.go
	l.checkNagiosWords(spec)
	l.checkStatusWords(spec, d) // statuswords.go
	l.checkAnswerChecks(spec, d)
	l.checkTimeoutNumbers(spec, d) // templates.go
	l.checkForeignTemplates(d)     // foreigntemplate.go
	noteShellChartNames(spec, d, map[*Spec]bool{})
}

// noteShellChartNames fills each shell: stage's ShellChartNames: the
// inputs and vars (of the chart or any it mounts), and the item and index
// of every foreach around the stage, that its script reads as bash
// variables its environment does not set (pipefail.go). A foreach's item
// was left out, so `shell: 'exec 3<>/dev/tcp/${host}/80'` under `as: host`
// connected to /dev/tcp//80 and an open port stood refused, Consistent,
// with no word said (TestShellReadingAForeachItemIsNoted).
func noteShellChartNames(spec *Spec, d *defs, seen map[*Spec]bool) {
	if spec == nil || seen[spec] {
		return
	}
	seen[spec] = true
	noteShellStages(spec.Stages, d, nil, seen)
}

// noteShellStages is noteShellChartNames over a list of stages, items the
// foreach item keys in scope there.
func noteShellStages(list []StageSpec, d *defs, items []string, seen map[*Spec]bool) {
	for i := range list {
		st := &list[i]
		if es := st.Exec; es != nil && es.Shell != "" {
			noteShell(es, d, items)
		}
		for _, brs := range [][]BranchSpec{st.Branches, st.Parallel} {
			for _, br := range brs {
				noteShellStages(br.Stages, d, items, seen)
			}
		}
		if fe := st.ForEach; fe != nil {
			noteShellStages(fe.Stages, d, append(slices.Clone(items), fe.ItemKeys()...), seen)
		}
		if sf := st.Subflow; sf != nil {
			if sf.Spec != nil {
				noteShellChartNames(sf.Spec, d, seen)
			}
			inner := items
			if len(sf.Inputs) > 0 {
				inner = nil // it runs in a scope of its inputs alone
			}
			noteShellStages(sf.Stages, d, inner, seen)
		}
	}
}

// noteShell fills one shell: stage's ShellChartNames.
func noteShell(es *ExecSpec, d *defs, items []string) {
	set := map[string]bool{}
	for _, e := range es.Env {
		set[e.Name] = true
	}
	for _, a := range es.EnvFrom {
		set[a.Key] = true
	}
	for _, n := range es.InheritEnv {
		set[n] = true
	}
	es.ShellChartNames = nil
	for _, n := range shellVarReads(es.Shell) {
		if (d.early[n] || slices.Contains(items, n)) && !set[n] {
			es.ShellChartNames = append(es.ShellChartNames, n)
		}
	}
}

// checkAnswerChecks refuses a result check that reads no key a stage
// writes ('true', '1 == 1', 'threshold > 0' over an input alone): it gives
// the same value on every run, so it checks nothing of this one, and a
// passing check is what makes the standing Known. $env read whole
// (`len($env)`) reads every key, stages' too.
func (l *loader) checkAnswerChecks(spec *Spec, d *defs) {
	if spec.Result == nil {
		return
	}
	for i, c := range spec.Result.Checks {
		if c.Expr == nil || c.Expr.ReadsWholeScope() {
			continue
		}
		roots := c.Expr.Roots()
		if slices.ContainsFunc(roots, func(k string) bool { return len(d.writers[k]) > 0 }) {
			continue
		}
		reads := "reads nothing of the run"
		if len(roots) > 0 {
			reads = "reads no key a stage writes, only the inputs and vars " + strings.Join(roots, ", ")
		}
		l.errf(c.Pos, "", "result check %d: %q %s, so it gives the same answer on every run and checks nothing of this one (a passing check is what makes the answer Known); check what the run wrote, as in len(verdicts) == len(df.stdout)", i+1, c.Src, reads)
	}
	// Perfdata that reads no stage's key graphs no measurement of the
	// run: a misspelt stage (lod.stdout.perfdata) would be a rule error on
	// every run, and a constant the same line on every run.
	if p := spec.Result.Perfdata; p != nil && p.Expr != nil && !p.Expr.ReadsWholeScope() {
		roots := p.Expr.Roots()
		if !slices.ContainsFunc(roots, func(k string) bool { return len(d.writers[k]) > 0 }) {
			msg := fmt.Sprintf("result perfdata: %q reads no key a stage writes, so it graphs nothing this run measured; give a stage's perfdata, as in load.stdout.perfdata", p.Src)
			for _, k := range roots {
				if near := suggest.Nearest(k, slices.Sorted(maps.Keys(d.writers))); near != "" {
					msg += fmt.Sprintf("; did you mean %q for %q?", near, k)
					break
				}
			}
			l.errf(p.Pos, "", "%s", msg)
		}
	}
}

// checkNagiosWords refuses a result.nagios word no row of the chart can
// have that is a near miss of one it can, when its verdict stages' words
// are all known (VerdictWords): a misspelled `critical: [at-rsik]` left
// the at-risk rows a word nothing maps, and a check over a volume at risk
// said UNKNOWN where its author mapped CRITICAL. A word near none of them
// is let be: a chart may map a word its rows do not have yet (the
// README's `unknown: [declined]`).
func (l *loader) checkNagiosWords(spec *Spec) {
	if spec.Result == nil || len(spec.Result.Nagios) == 0 {
		return
	}
	words, complete := spec.VerdictWords()
	if !complete {
		return
	}
	listed := make([]string, 0, len(spec.Result.Nagios))
	for w := range spec.Result.Nagios {
		listed = append(listed, w)
	}
	slices.Sort(listed)
	has := "no verdict word"
	if len(words) > 0 {
		has = "the verdict words " + strings.Join(words, ", ")
	}
	for _, w := range listed {
		near := suggest.Nearest(w, words)
		if slices.Contains(words, w) || near == "" || spec.Result.Nagios[near] != "" {
			continue // a word the rows have, one near none, or a near word mapped too
		}
		state := spec.Result.Nagios[w]
		l.errf(spec.Result.NagiosPos[w], "", "result nagios %s lists the verdict %q, which no row of this chart can have (its verdict stages write %s), so no row reading %q is %s by it; did you mean %q?",
			state, w, has, near, strings.ToUpper(state), near)
	}
}

// checkVerdictStagesProjected refuses a verdict: stage in a chart whose
// result kind projects no verdict rows (kind: disk): the rows it writes
// were neither shown nor judged, and the line stood Consistent, exit 0,
// over a row that said critical (testdata/bad/result-kind-disk.yaml). A
// chart with no result: block (a chart others mount) is not refused.
func (l *loader) checkVerdictStagesProjected(spec *Spec) {
	r := spec.Result
	if r == nil || r.Kind == "" || spec.ProjectsVerdicts() || kindProblem(r.Kind) != "" {
		return
	}
	walkStages(spec.Stages, func(st *StageSpec) bool {
		if st.Kind != "verdict" {
			return true
		}
		l.errf(st.Pos, st.ID, "writes verdict rows, but result kind %q projects none: nothing would show or judge them (no table, no Nagios state); use a kind starting with verdict/, such as verdict/%s", r.Kind, r.Kind)
		return false
	})
}

// checkDecider refuses a result.decider that names no decide stage (by id
// or name, in the chart or any chart it mounts — where the runtime looks
// for it): the verdicts would have no meanings and nothing would say why.
func (l *loader) checkDecider(spec *Spec) {
	if spec.Result == nil || spec.Result.Decider == "" {
		return
	}
	var names []string
	seen := map[*Spec]bool{}
	var walk func(stages []StageSpec)
	walk = func(stages []StageSpec) {
		for i := range stages {
			st := &stages[i]
			if st.Kind == "decide" {
				names = append(names, st.ID)
				if st.Name != "" && st.Name != st.ID {
					names = append(names, st.Name)
				}
			}
			for _, b := range st.Branches {
				walk(b.Stages)
			}
			for _, b := range st.Parallel {
				walk(b.Stages)
			}
			if st.ForEach != nil {
				walk(st.ForEach.Stages)
			}
			if sf := st.Subflow; sf != nil {
				walk(sf.Stages)
				if sf.Spec != nil && !seen[sf.Spec] {
					seen[sf.Spec] = true
					walk(sf.Spec.Stages)
				}
			}
		}
	}
	walk(spec.Stages)
	want := spec.Result.Decider
	if slices.Contains(names, want) {
		return
	}
	pos := spec.Result.DeciderPos
	if pos.Line == 0 {
		pos = spec.Result.Pos
	}
	l.errf(pos, "", "%s", deciderProblem(want, names))
}

// defs is what a chart defines, and where: every name, the stages writing
// each, and each stage's place in the chart's order.
type defs struct {
	names map[string]bool
	// early are names defined before the first stage (inputs, vars).
	early map[string]bool
	// writers lists, per key, the stages that write it (foreach as and
	// index at their foreach).
	writers map[string][]*placed
	// byStage finds a stage by its file and id; more than one entry for a
	// key means the order is not known (an id reused by a foreach body).
	byStage map[string][]*placed
	loops   []*placed
	filters []filterRead
	seen    map[*Spec]bool
	n       int
}

// placed is one stage at its place in the chart's preorder (a stage, then
// its branches' and body's stages, then the next stage), the order a run
// without loops meets them in.
type placed struct {
	st  *StageSpec
	pre int
	place
}

// place is what of a stage's surroundings bears on its order: inside a
// subflow (whose scope the loader does not read), and the parallel and
// select branches it sits in (which run beside each other).
type place struct {
	subflow bool
	forks   []fork
}

// fork is one parallel or select branch: the stage's preorder number and
// the branch's index.
type fork struct{ at, branch int }

// filterRead is one condition of a filter-form rule: the stage deciding,
// the rule, and the key the condition reads.
type filterRead struct {
	at   *placed
	rule int // 1-based
	key  string
	pos  Pos
	// op and expected are the condition's operator and operand as
	// authored (checkStatusWords reads the words it compares with).
	op       rules.Op
	expected any
}

func newDefs() *defs {
	return &defs{names: map[string]bool{}, early: map[string]bool{}, writers: map[string][]*placed{},
		byStage: map[string][]*placed{}, seen: map[*Spec]bool{}}
}

// chart adds every name spec defines.
func (d *defs) chart(spec *Spec, at place) {
	if spec == nil || d.seen[spec] {
		return
	}
	d.seen[spec] = true
	for _, in := range spec.Inputs {
		d.names[in.Name], d.early[in.Name] = true, true
	}
	for _, v := range spec.Vars {
		d.names[v.Key], d.early[v.Key] = true, true
	}
	d.stages(spec.Stages, at)
}

// stages adds every key the stages write, each stage at its place. A
// stage kind that writes the scope names its keys here, or expressions
// reading them are refused.
func (d *defs) stages(stages []StageSpec, at place) {
	for i := range stages {
		st := &stages[i]
		p := &placed{st: st, pre: d.n, place: at}
		d.n++
		k := st.Pos.File + "\x00" + st.ID
		d.byStage[k] = append(d.byStage[k], p)
		write := func(key string) {
			d.names[key] = true
			d.writers[key] = append(d.writers[key], p)
		}
		for _, key := range st.Writes() {
			write(key)
		}
		if st.Loop != nil {
			d.loops = append(d.loops, p)
		}
		if st.Decide != nil {
			for ri, r := range st.Decide.Rules {
				f, ok := r.When.(*rules.Filter)
				if !ok {
					continue
				}
				for _, c := range f.Conditions() {
					d.filters = append(d.filters, filterRead{at: p, rule: ri + 1, key: c.Key, pos: r.Pos, op: c.Op, expected: c.Expected})
				}
			}
		}
		if fe := st.ForEach; fe != nil {
			for _, key := range fe.ItemKeys() {
				write(key)
			}
			d.stages(fe.Stages, at)
		}
		if sf := st.Subflow; sf != nil {
			in := place{subflow: true, forks: at.forks}
			for _, a := range sf.Inputs {
				write(a.Key)
			}
			d.stages(sf.Stages, in)
			d.chart(sf.Spec, in)
		}
		beside := st.Kind == "select" || len(st.Parallel) > 0
		for _, brs := range [][]BranchSpec{st.Branches, st.Parallel} {
			for bi, br := range brs {
				in := at
				if beside {
					in.forks = append(slices.Clone(at.forks), fork{at: p.pre, branch: bi})
				}
				d.stages(br.Stages, in)
			}
		}
	}
}

// Writes are the keys a stage writes into the scope it runs in: a set:
// stage's keys, the verdict rows' key, an exec's, read's, plugin's or
// foreach's into, an ask's answers. A foreach's item keys are its body's
// (ForEachSpec.ItemKeys); a branch's or subflow's stages write their own.
// It is the one list of what each stage kind writes: the loader checks
// expressions' names by it, and a plan knows by it which names a stage
// before may have changed.
func (st *StageSpec) Writes() []string {
	var out []string
	for _, a := range st.Set {
		out = append(out, a.Key)
	}
	if len(st.Verdict) > 0 || st.Kind == "verdict" {
		out = append(out, VerdictsKey)
	}
	var intos []string
	if st.Exec != nil {
		intos = append(intos, st.Exec.Into)
	}
	if st.Plugin != nil {
		intos = append(intos, st.Plugin.Into)
	}
	if st.Read != nil {
		intos = append(intos, st.Read.Into)
	}
	if st.ForEach != nil {
		intos = append(intos, st.ForEach.Into)
	}
	for _, into := range intos {
		if into != "" {
			out = append(out, into)
		}
	}
	if st.Ask != nil {
		for _, x := range st.Ask.Expects {
			out = append(out, x.Name)
		}
	}
	return out
}

// ItemKeys are the keys a foreach writes into each item's scope: the item
// (as) and index.
func (fe *ForEachSpec) ItemKeys() []string { return []string{fe.As, indexKey} }

// reader is the stage an expression of file, written in stage id, sits
// in; nil when that is not known for sure (no stage, as for result
// checks, or an id written twice in the file).
func (d *defs) reader(file, id string) *placed {
	if id == "" {
		return nil
	}
	if ps := d.byStage[file+"\x00"+id]; len(ps) == 1 {
		return ps[0]
	}
	return nil
}

// setStageHint is the hint for an expression reading name where name is
// no scope key but the id of a set: stage: its keys are names of their
// own, and `csn.p` over `- id: csn, set: {p: …}` read a name nothing
// defines with nothing said of why (TestSetStageIdReadAsItsKeysSaysHow).
// member is the name read after it (`.c` of `csn.c`), "" when none: the
// hint names it when the stage sets it, else the stage's first key. ""
// when no set: stage has that id.
func (d *defs) setStageHint(name, member string) string {
	files := make([]string, 0, len(d.byStage))
	for k := range d.byStage {
		if strings.HasSuffix(k, "\x00"+name) {
			files = append(files, k)
		}
	}
	slices.Sort(files)
	for _, k := range files {
		for _, p := range d.byStage[k] {
			if len(p.st.Set) == 0 {
				continue
			}
			key := p.st.Set[0].Key
			for _, a := range p.st.Set {
				if a.Key == member {
					key = member
				}
			}
			return fmt.Sprintf(" (%s is the id of a set: stage, whose keys are names of their own: read %s, not %s.%s)", name, key, name, key)
		}
	}
	return ""
}

// memberAfter is the name src reads at rune offset i after a dot
// (`.p`), "" when none does.
func memberAfter(src []rune, i int) string {
	if i >= len(src) || src[i] != '.' {
		return ""
	}
	j := i + 1
	for j < len(src) && (src[j] == '_' || unicode.IsLetter(src[j]) || unicode.IsDigit(src[j])) {
		j++
	}
	return string(src[i+1 : j])
}

// laterWriters returns the stages that write name when every one of them
// runs after stage r on every path, so that r reads name before any run
// could have written it; nil when some writer may have run first, or the
// order is not the loader's to know. A writer may have run first when:
//
//	it comes at or before r in the chart's order (an earlier stage, r's own,
//	  an enclosing foreach or decider, a branch before r's)
//	a loop jumps back to r or before it from after the writer
//	it or r sits in a subflow, or they sit in different branches of one
//	  parallel or select
//
// An input or a var is written before every stage.
func (d *defs) laterWriters(r *placed, name string) []*placed {
	if r == nil || r.subflow || d.early[name] || d.loopAmiss() {
		return nil
	}
	ws := d.writers[name]
	for _, w := range ws {
		if w.subflow || w.pre <= r.pre || beside(r, w) || d.loopsBack(r, w) {
			return nil
		}
	}
	return ws
}

// beside says whether two stages sit in different branches of one
// parallel or select.
func beside(a, b *placed) bool {
	for _, fa := range a.forks {
		for _, fb := range b.forks {
			if fa.at == fb.at && fa.branch != fb.branch {
				return true
			}
		}
	}
	return false
}

// loopAmiss says whether some loop names no earlier stage of its file:
// flow refuses that chart (validate.go owns the loop-target rule), and
// its message, not one about order, is the one to read.
func (d *defs) loopAmiss() bool {
	for _, lp := range d.loops {
		if t := d.loopTarget(lp); t < 0 || t >= lp.pre {
			return true
		}
	}
	return false
}

// loopTarget is the preorder number of the earliest stage a loop's to
// could name in its file, -1 for none.
func (d *defs) loopTarget(lp *placed) int {
	target := -1
	for _, t := range d.byStage[lp.st.Pos.File+"\x00"+lp.st.Loop.To] {
		if target < 0 || t.pre < target {
			target = t.pre
		}
	}
	return target
}

// loopsBack says whether a loop could take a run from writer w back to
// reader r: a loop after w whose target is at or before r. A target the
// loader cannot place counts as reaching back.
func (d *defs) loopsBack(r, w *placed) bool {
	for _, lp := range d.loops {
		if lp.pre <= w.pre {
			continue
		}
		if target := d.loopTarget(lp); target < 0 || target <= r.pre {
			return true
		}
	}
	return false
}

// laterError refuses a read of name at pos that only later stages write.
func (l *loader) laterError(pos Pos, stage, what, name string, ws []*placed) {
	who := make([]string, len(ws))
	for i, w := range ws {
		who[i] = fmt.Sprintf("stage %q (line %d)", w.st.ID, w.st.Pos.Line)
	}
	writes, it, runs := "writes", "it runs", fmt.Sprintf("stage %q", ws[0].st.ID)
	if len(ws) > 1 {
		writes, it, runs = "write", "they run", "one of them"
	}
	l.errf(pos, stage, "%s reads %s, which only %s %s, and %s after this stage on every path (no loop leads back): no run has written %s when this stage reads it; read it in a stage after %s, or give it a value earlier (an input, a var or an earlier stage)",
		what, name, list(who), writes, it, name, runs)
}

// list joins words as "a", "a and b", "a, b and c".
func list(words []string) string {
	if len(words) <= 1 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// rootKey is the top-level key a filter condition's path reads, as the
// rules package splits the path (it asks its Env for exactly that key);
// false for a path that does not parse.
type rootKey struct {
	key   string
	asked bool
}

func (r *rootKey) Get(key string) (any, bool) {
	if !r.asked {
		r.key, r.asked = key, true
	}
	return nil, false
}

// checkFilter holds a filter-form condition's key to the same name check
// as an expression: its root key must be defined, and not only by later
// stages.
func (l *loader) checkFilter(d *defs, f filterRead, known []string) {
	var root rootKey
	rules.Resolve(&root, f.key)
	if !root.asked {
		return // NewFilter refused it already
	}
	what := fmt.Sprintf("rule %d when: filter key %q", f.rule, f.key)
	if !d.names[root.key] {
		l.errf(f.pos, f.at.st.ID, "%s reads %s, which no input, var, stage key, foreach as or index defines%s",
			what, root.key, nearest(root.key, known))
		return
	}
	if ws := d.laterWriters(f.at, root.key); ws != nil {
		l.laterError(f.pos, f.at.st.ID, what, root.key, ws)
	}
}

// plainWord is an unquoted word a filter condition compares with: its
// stage, rule, condition and where it was written.
type plainWord struct {
	stage, what, key, op, word string
	item                       bool // an item of an in/notIn list
	pos                        Pos
}

// checkFilterWords refuses a filter condition's unquoted value that spells
// a name the chart defines. A filter's value is a literal, so
// `{v.Avail: {lt: minFree}}` compared df -h's "6.5G" with the text
// "minFree" (by character: "6" before "m"), every filesystem was low and
// the standing Consistent, minFree never read; `{m.fstype: {in:
// [wanted]}}` was a plain no over every mount. The author meant the
// name's value: an expression reads it. A quoted word is text as
// written, and passes.
func (l *loader) checkFilterWords(d *defs) {
	for _, w := range l.s.plainWords {
		if !d.names[w.word] {
			continue
		}
		kind := "the key"
		if d.early[w.word] {
			kind = "the input or var"
		}
		l.errf(w.pos, w.stage, "%s when: condition on %q (%s) compares with the text %q, not with the value of %s %s: a filter's value is a literal; to compare with %s write the rule as an expression (when: %s), or quote the word (%s: %q) if the text is meant",
			w.what, w.key, w.op, w.word, kind, w.word, w.word, exprOf(w), w.op, w.word)
	}
}

// exprOf is a filter condition written as the expression that reads its
// value as a name.
func exprOf(w plainWord) string {
	list := w.word
	if w.item {
		list = "[" + w.word + "]"
	}
	switch w.op {
	case "in":
		return fmt.Sprintf("%s in %s", w.key, list)
	case "notIn":
		return fmt.Sprintf("%s not in %s", w.key, list)
	}
	sign := map[string]string{"eq": "==", "ne": "!=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<="}
	if s, ok := sign[w.op]; ok {
		return fmt.Sprintf("%s %s %s", w.key, s, w.word)
	}
	return fmt.Sprintf("%s %s %s", w.key, w.op, w.word)
}

// check reports each name c's expression reads that nothing defines, and
// each that only stages after at write (laterWriters); at is the stage the
// expression sits in, nil when not known.
func (c compiled) check(d *defs, at *placed, known []string) {
	names := d.names
	src := []rune(c.x.String())
	covered := -1 // the rune offset up to which a dashed key was reported
	for _, id := range c.x.Idents() {
		if id.Offset < covered {
			continue // a part of the dashed word already reported
		}
		defined := func(n string) bool {
			if c.only != nil {
				return c.only[n]
			}
			return names[n]
		}
		joins := dashJoins(src, id.Offset)
		if j, ok := readsDashedKey(joins, defined); ok {
			c.dashError(src, id, j, defined)
			covered = j.end
			continue
		}
		if defined(id.Name) {
			if ws := d.laterWriters(at, id.Name); c.only == nil && ws != nil {
				pos := c.l.exprPos(c.e, &rules.CompileError{Line: id.Line, Column: id.Column})
				c.l.laterError(pos, c.stage, fmt.Sprintf("%s: expression %q", c.what, string(src)), id.Name, ws)
			}
			continue
		}
		pos := c.l.exprPos(c.e, &rules.CompileError{Line: id.Line, Column: id.Column})
		if c.only != nil {
			c.l.errf(pos, c.stage, "%s: expression %q reads %s, which is not %s%s",
				c.what, string(src), id.Name, c.onlyWhat, nearest(id.Name, sortedKeys(c.only)))
			continue
		}
		name, hint := id.Name, ""
		if len(joins) > 0 && !joins[len(joins)-1].spaced {
			// at-risk, per-volum.rows: a word spelled with '-', read as a
			// subtraction of names nobody defines.
			w := joins[len(joins)-1]
			name = fmt.Sprintf("%s (as %s)", w.word, strings.Join(w.parts, " minus "))
			covered = w.end
			hint = nearest(w.word, known)
			if hint == "" && strings.TrimSpace(string(src)) == w.word {
				hint = literalHint(w.word)
			}
		}
		if b, ok := yamlOneOneBools[strings.ToLower(id.Name)]; ok && hint == "" && strings.TrimSpace(string(src)) == id.Name {
			// yes, no, on, off: YAML 1.1's booleans, a name here.
			hint = fmt.Sprintf(" (%s is no boolean here, as it was in YAML 1.1: write %t for the boolean, or '%q' for the text)", id.Name, b, id.Name)
		}
		if hint == "" && nilWords[id.Name] {
			// null, NULL, None: expr's word for no value is nil.
			hint = "; an expression writes no value as nil (use nil, not " + id.Name + ")"
		}
		if hint == "" {
			hint = d.setStageHint(id.Name, memberAfter(src, id.Offset+utf8.RuneCountInString(id.Name)))
		}
		if hint == "" {
			hint = nearest(id.Name, known)
		}
		if hint == "" && strings.TrimSpace(string(src)) == id.Name {
			hint = literalHint(id.Name)
			if c.part {
				hint = fmt.Sprintf(" (a tool's own ${%s}, as dpkg-query -f writes its fields, is written $${%s}: a ${…} part is an expression over the chart's names)", id.Name, id.Name)
			}
		}
		c.l.errf(pos, c.stage, "%s: expression %q reads %s, which no input, var, stage key, foreach as or index defines%s",
			c.what, string(src), name, hint)
	}
	if !c.part {
		c.checkTemplateText(src, names)
	}
	if c.only == nil {
		c.checkResultMembers(d, string(src))
	}
}

// templateInText finds `${NAME` in an expression's source: `${` is no
// expression syntax, so it stands inside a quoted text. foreignTemplate
// finds another tool's `{{NAME` there (foreigntemplate.go).
var templateInText = regexp.MustCompile(`\$\{\s*([A-Za-z_][A-Za-z0-9_]*)`)

// checkTemplateText refuses an expression whose quoted text holds a
// template part reading a name the chart defines: `${…}` is read only in
// an exec command item or a timeout, so in an expression it is those
// characters. `# contains "${app}"` counted the lines holding the text
// ${app}, none, and a log full of the app's errors stood Consistent under
// its "few" row (TestTemplateInsideExpressionTextIsRefused). A rule's
// when: that reads nothing else is refused earlier (readsNothing); a
// ${WORD} nothing defines is left alone, as text meant for a tool.
func (c compiled) checkTemplateText(src []rune, names map[string]bool) {
	text := string(src)
	found := templateInText.FindAllStringSubmatchIndex(text, -1)
	foreign := len(found)
	found = append(found, foreignTemplate.FindAllStringSubmatchIndex(text, -1)...)
	for i, m := range found {
		name, part := text[m[2]:m[3]], text[m[0]:m[1]]
		closer := "}"
		if i >= foreign {
			closer = "}}"
		}
		if end := strings.Index(text[m[0]:], closer); end > 0 {
			part = text[m[0] : m[0]+end+len(closer)]
		}
		defined := names[name]
		if c.only != nil {
			defined = c.only[name]
		}
		if !defined {
			continue
		}
		off := utf8.RuneCountInString(text[:m[0]])
		line, col := 1, 1
		for _, r := range src[:off] {
			if r == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		pos := c.l.exprPos(c.e, &rules.CompileError{Line: line, Column: col})
		what := "${…} is a template only in an exec command item or a timeout"
		if i >= foreign {
			what = "{{…}} is another tool's template (Jinja, Ansible, Helm), which runbook does not read"
		}
		c.l.errf(pos, c.stage, "%s: expression %q holds %s inside a quoted text: %s, so here it is those characters, never the value of %s; write the name bare, outside the quotes (# contains %s, \"/var/log/\" + %s + \".log\")",
			c.what, text, part, what, name, name, name)
		return
	}
}

// yamlOneOneBools are YAML 1.1's words for a boolean, which YAML 1.2 and
// an expression read as text and a name (TestYesNoInAnExpressionSaysBoolean).
var yamlOneOneBools = map[string]bool{"yes": true, "y": true, "on": true, "no": false, "n": false, "off": false}

// nilWords are the other languages' words for no value, which expr reads
// as names.
var nilWords = map[string]bool{"null": true, "NULL": true, "Null": true, "None": true, "undefined": true}

func literalHint(word string) string {
	return fmt.Sprintf(" (a literal string is quoted inside the expression: '%q')", word)
}

// join is a run of names joined by '-' from an identifier on: its parts,
// the word they spell with the minuses and nothing else (`df-out`), where
// it ends (a rune offset), and whether spaces stood around a minus
// (`df - out`).
type join struct {
	parts  []string
	word   string
	end    int
	spaced bool
}

// dashJoins lists the joins starting at offset, shortest first: for
// `per-volume-x.rows` at 0, per-volume then per-volume-x. Only names joined
// by '-' count: `a - 1` and `a.b-c` end at the minus.
func dashJoins(src []rune, offset int) []join {
	name := func(i int) int {
		for i < len(src) && isNameRune(src[i]) {
			i++
		}
		return i
	}
	skip := func(i int) int {
		for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
		return i
	}
	end := name(offset)
	if end == offset {
		return nil
	}
	parts := []string{string(src[offset:end])}
	spaced := false
	var out []join
	for {
		i := skip(end)
		if i >= len(src) || src[i] != '-' {
			return out
		}
		j := skip(i + 1)
		k := name(j)
		if k == j || unicode.IsDigit(src[j]) {
			return out
		}
		spaced = spaced || i != end || j != i+1
		parts = append(parts, string(src[j:k]))
		end = k
		out = append(out, join{parts: slices.Clone(parts), word: strings.Join(parts, "-"), end: end, spaced: spaced})
	}
}

// readsDashedKey picks the longest join that spells a defined key and is
// read as a subtraction: written without spaces (`per-volume`) always; with
// spaces (`df - out`) only when one of its parts is defined nowhere, since
// then it cannot be the subtraction it looks like.
func readsDashedKey(joins []join, defined func(string) bool) (join, bool) {
	for i := len(joins) - 1; i >= 0; i-- {
		j := joins[i]
		if !defined(j.word) {
			continue
		}
		if j.spaced && !slices.ContainsFunc(j.parts, func(p string) bool { return !defined(p) }) {
			return join{}, false // a - b with a, b and a-b all defined: a subtraction as written
		}
		return j, true
	}
	return join{}, false
}

// dashError refuses a key spelled with '-' read as a subtraction, saying
// how to read it.
func (c compiled) dashError(src []rune, id rules.Ident, j join, defined func(string) bool) {
	read := fmt.Sprintf("$env[%s]", strconv.Quote(j.word))
	fixed := string(src[:id.Offset]) + read + string(src[j.end:])
	subtract := ""
	if !j.spaced && !slices.ContainsFunc(j.parts, func(p string) bool { return !defined(p) }) {
		subtract = fmt.Sprintf("; to subtract, put spaces around the minus: %s", strings.Join(j.parts, " - "))
	}
	pos := c.l.exprPos(c.e, &rules.CompileError{Line: id.Line, Column: id.Column})
	c.l.errf(pos, c.stage, "%s: expression %q reads the key %s as %s: read a key spelled with '-' through $env, as in %s%s",
		c.what, string(src), j.word, strings.Join(j.parts, " minus "), fixed, subtract)
}

func isNameRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func nearest(name string, known []string) string {
	if near := suggest.Nearest(name, known); near != "" {
		if !ident.IsName(near) {
			return fmt.Sprintf("; did you mean %q? (read it as $env[%s])", near, strconv.Quote(near))
		}
		return fmt.Sprintf("; did you mean %q?", near)
	}
	return ""
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Undefined says whether no input, var, stage key, foreach as or index of
// spec (or of a chart it mounts) defines name — the rule checkNames holds
// every expression's names to — and, when none does, the nearest name
// that is defined ("; did you mean …?", or ""). It is asked of names read
// from the scope by code the loader cannot see, a stage plugin's declared
// Reads (runbook.PluginChecker): a key no run can ever write.
func (s *Spec) Undefined(name string) (bool, string) {
	d := newDefs()
	d.chart(s, place{})
	if d.names[name] {
		return false, ""
	}
	return true, nearest(name, sortedKeys(d.names))
}
