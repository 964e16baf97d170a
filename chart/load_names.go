package chart

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"

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
// session compiled against the names the chart defines (chart-yaml.md,
// "Expressions: JSON-safe, and no silent subtraction"):
//
//	defined by     inputs and vars (of the chart and of every chart it mounts),
//	               what any stage writes (set keys, into of exec, plugin and
//	               foreach, ask answers, subflow input bindings, verdicts
//	               when a verdict stage exists), foreach as and index
//	not a name     member names after a dot, closure pointers, let
//	               variables, builtin calls, keys read through $env
//
// The check is flow-insensitive: a name any stage writes counts as defined
// everywhere, so it refuses only what no run could ever read, never a
// chart that works. A name that reads a key spelled with '-' as a
// subtraction (per-volume.rows where per-volume is a key) is refused with
// the way to read it. It runs once, from the root chart, when nothing else
// is wrong (an error elsewhere can hide a definition).
func (l *loader) checkNames(spec *Spec) {
	names := map[string]bool{}
	definitions(spec, names, map[*Spec]bool{})
	known := make([]string, 0, len(names))
	for n := range names {
		known = append(known, n)
	}
	slices.Sort(known)
	for _, c := range l.s.compiled {
		c.check(names, known)
	}
}

// definitions adds every name spec defines to names.
func definitions(spec *Spec, names map[string]bool, seen map[*Spec]bool) {
	if spec == nil || seen[spec] {
		return
	}
	seen[spec] = true
	for _, in := range spec.Inputs {
		names[in.Name] = true
	}
	for _, v := range spec.Vars {
		names[v.Key] = true
	}
	stageDefinitions(spec.Stages, names, seen)
}

// stageDefinitions adds every key the stages write. A stage kind that
// writes the scope names its keys here, or expressions reading them are
// refused.
func stageDefinitions(stages []StageSpec, names map[string]bool, seen map[*Spec]bool) {
	for i := range stages {
		st := &stages[i]
		for _, a := range st.Set {
			names[a.Key] = true
		}
		if len(st.Verdict) > 0 || st.Kind == "verdict" {
			names[VerdictsKey] = true
		}
		if st.Exec != nil && st.Exec.Into != "" {
			names[st.Exec.Into] = true
		}
		if st.Plugin != nil && st.Plugin.Into != "" {
			names[st.Plugin.Into] = true
		}
		if st.Read != nil && st.Read.Into != "" {
			names[st.Read.Into] = true
		}
		if st.Ask != nil {
			for _, x := range st.Ask.Expects {
				names[x.Name] = true
			}
		}
		if fe := st.ForEach; fe != nil {
			names[fe.As], names[indexKey] = true, true
			if fe.Into != "" {
				names[fe.Into] = true
			}
			stageDefinitions(fe.Stages, names, seen)
		}
		if sf := st.Subflow; sf != nil {
			for _, a := range sf.Inputs {
				names[a.Key] = true
			}
			stageDefinitions(sf.Stages, names, seen)
			definitions(sf.Spec, names, seen)
		}
		for _, brs := range [][]BranchSpec{st.Branches, st.Parallel} {
			for _, br := range brs {
				stageDefinitions(br.Stages, names, seen)
			}
		}
	}
}

// check reports each name c's expression reads that nothing defines.
func (c compiled) check(names map[string]bool, known []string) {
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
		if hint == "" {
			hint = nearest(id.Name, known)
		}
		if hint == "" && strings.TrimSpace(string(src)) == id.Name {
			hint = literalHint(id.Name)
		}
		c.l.errf(pos, c.stage, "%s: expression %q reads %s, which no input, var, stage key, foreach as or index defines%s",
			c.what, string(src), name, hint)
	}
}

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
