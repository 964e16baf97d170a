package chart

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"
	"github.com/openrunbook/runbook/internal/ident"
	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/rules"
)

// The words a chart's keys may hold, in the order chart-yaml.md lists them.
var (
	topKeys         = []string{"version", "runbook", "description", "inputs", "vars", "result", "honesty", "plugins", "stages"}
	inputKeys       = []string{"type", "required", "default", "secret", "description"}
	resultKeys      = []string{"kind", "decider", "maxRows", "presentation", "checks", "standingLine", "nagios", "perfdata", "empty"}
	presentations   = []string{"prose", "panel"}
	standingLines   = []string{"always", "unless-consistent", "not-sure-or-ask"}
	empties         = []string{EmptyGap, EmptyAnswer}
	honestyStages   = []string{HonestyLabel, HonestyCoverage, HonestyAssessment}
	pluginEntryKeys = []string{"command", "sha256", "version"}
)

// top reads the chart's top-level map.
func (l *loader) top(root ast.Node) *Spec {
	start := Pos{File: l.file, Line: 1, Col: 1}
	m, ok := l.asMap(root, start, "", "the chart")
	if !ok {
		return nil
	}
	if e, ok := m.get("chart"); ok && m.has("cases") && !m.has("stages") {
		// A chart test file (runbook/charttest): said once, with the
		// command that runs it, not as a chart missing its keys.
		of := "its chart"
		if s, ok := l.text(e, "", "chart"); ok {
			of = s
		}
		file := l.file
		if file == "" || file == "<stdin>" {
			file = "FILE" // runbook test reads files, not stdin
		}
		l.errf(start, "", "this is a test file of %s, not a chart: run it with runbook test %s", of, file)
		return nil
	}
	errsBefore := len(l.s.errs)
	spec := &Spec{File: l.file, Pos: l.pos(root)}
	l.known(m, "", "the chart", topKeys...)

	if e, ok := m.get("version"); !ok {
		l.missing(m, "version", spec.Pos, "", "version is missing: write version: 1 at the top of the chart")
	} else if n, isInt := intValue(e.val); !isInt || n != 1 {
		l.errf(e.valPos, "", "version is %s: this runtime reads charts of version 1; write version: 1", versionText(l, e.val))
	} else {
		spec.Version = 1
	}
	if e, ok := m.get("runbook"); !ok {
		l.missing(m, "runbook", spec.Pos, "", "runbook is missing: name the chart, such as runbook: disk-triage")
	} else if name, ok := l.word(e, "", "runbook"); ok {
		if msg := ident.Problem(name); msg != "" {
			l.errf(e.valPos, "", "runbook %q (the chart's name, also its root stage path) %s", name, msg)
		}
		spec.Name = name
	}
	if e, ok := m.get("description"); ok {
		spec.Description, _ = l.text(e, "", "description")
	}
	if e, ok := m.get("inputs"); ok {
		spec.Inputs = l.inputs(e)
	}
	if e, ok := m.get("vars"); ok {
		spec.Vars = l.vars(e, spec.Inputs)
	}
	l.named = map[string]string{}
	for _, in := range spec.Inputs {
		l.named[in.Name] = "input"
	}
	for _, v := range spec.Vars {
		l.named[v.Key] = "var"
	}
	if e, ok := m.get("result"); ok {
		spec.Result = l.result(e)
	}
	if e, ok := m.get("honesty"); ok {
		spec.Honesty = l.honesty(e)
	}
	if e, ok := m.get("plugins"); ok {
		spec.Plugins = l.plugins(e)
	}
	if e, ok := m.get("stages"); !ok {
		l.missing(m, "stages", spec.Pos, "", "stages is missing: a chart needs a list of stages to run, top to bottom")
	} else {
		spec.Stages = l.stages(e, "", "stages")
	}
	l.checkTemplateSecrets(spec)             // templates.go
	l.checkAskPlaces(spec, len(l.stack) > 1) // read_ask.go
	if len(l.stack) == 1 && len(l.s.errs) == 0 {
		l.checkNames(spec) // the root, once every mounted chart is read
	}
	if len(l.s.errs) > errsBefore {
		return nil
	}
	return spec
}

func versionText(l *loader, n ast.Node) string {
	switch n.(type) {
	case *ast.IntegerNode, *ast.FloatNode:
		return n.GetToken().Value
	}
	return l.describe(n)
}

// inputs reads `inputs:`, in written order.
func (l *loader) inputs(e entry) []InputSpec {
	m, ok := l.asMap(e.val, e.keyPos, "", "inputs")
	if !ok {
		return nil
	}
	out := make([]InputSpec, 0, len(m.entries))
	for _, ie := range m.entries {
		in := InputSpec{Name: ie.key, Pos: ie.keyPos}
		what := fmt.Sprintf("input %q", ie.key)
		im, ok := l.asMap(ie.val, ie.keyPos, "", what)
		if !ok {
			continue
		}
		l.known(im, "", what, inputKeys...)
		if te, ok := im.get("type"); !ok {
			l.missing(im, "type", ie.keyPos, "", "%s has no type: give it one of %s", what, strings.Join(InputTypes, ", "))
		} else {
			in.Type, _ = l.oneOf(te, "", what+" type", InputTypes...)
		}
		if re, ok := im.get("required"); ok {
			in.Required, _ = l.boolean(re, "", what+" required")
		}
		if se, ok := im.get("secret"); ok {
			in.Secret, _ = l.boolean(se, "", what+" secret")
		}
		if de, ok := im.get("description"); ok {
			in.Description, _ = l.text(de, "", what+" description")
		}
		if de, ok := im.get("default"); ok {
			if in.Required {
				l.errf(de.keyPos, "", "%s is required and has a default, which could never be used: drop one of them", what)
			}
			if in.Type != "" {
				in.Default, in.HasDefault = l.inputDefault(de, what, in.Type, in.Secret)
			}
		}
		out = append(out, in)
	}
	return out
}

// inputDefault checks a default against its input's type and returns it as
// a plain value (a duration stays the string written, once it parses). A
// secret input's refused default is not repeated, as a given secret's
// value is not (runbook's input check): the chart file may be shared where
// its errors are shown.
func (l *loader) inputDefault(e entry, what, typ string, secret bool) (any, bool) {
	const hidden = "(value hidden: the input is secret)"
	n := e.val
	fits := false
	switch typ {
	case "string":
		_, s := n.(*ast.StringNode)
		_, b := n.(*ast.LiteralNode)
		fits = s || b
	case "number":
		switch n.(type) {
		case *ast.IntegerNode, *ast.FloatNode:
			fits = true
		}
	case "bool":
		_, fits = n.(*ast.BoolNode)
	case "list":
		_, fits = n.(*ast.SequenceNode)
	case "object":
		switch n.(type) {
		case *ast.MappingNode, *ast.MappingValueNode:
			fits = true
		}
	case "duration":
		if s, ok := n.(*ast.StringNode); ok {
			if _, err := time.ParseDuration(s.Value); err != nil && secret {
				l.errf(e.valPos, "", "%s default is not a duration %s: write a number with a unit, such as 500ms, 10s, 2m or 1h30m", what, hidden)
				return nil, false
			} else if err != nil {
				l.errf(e.valPos, "", "%s default %q is not a duration: write a number with a unit, such as 500ms, 10s, 2m or 1h30m%s", what, s.Value, rules.DurationHint(s.Value))
				return nil, false
			}
			return s.Value, true
		}
	}
	if !fits && secret {
		l.errf(e.valPos, "", "%s default is not %s %s", what, typeWants[typ], hidden)
		return nil, false
	}
	if !fits {
		l.errf(e.valPos, "", "%s default is %s: an input of type %s needs %s", what, l.describe(n), typ, typeWants[typ])
		return nil, false
	}
	return l.value(n, "", 0)
}

var typeWants = map[string]string{
	"string":   "text",
	"number":   "a number",
	"bool":     "true or false",
	"list":     "a list",
	"object":   "a map",
	"duration": "a duration such as \"2h\"",
}

// vars reads `vars:`, the chart's constants, in written order. Each is an
// EXPR that may read the inputs and the vars before it (checkNames holds
// it to them). A mounted chart's vars are refused: only the root chart's
// are evaluated before the run.
func (l *loader) vars(e entry, inputs []InputSpec) []Assign {
	m, ok := l.asMap(e.val, e.keyPos, "", "vars")
	if !ok {
		return nil
	}
	if len(l.stack) > 1 {
		l.errf(e.keyPos, "", "vars: a mounted chart's constants are never evaluated (only the chart run names its vars): bind the values under the subflow's inputs: instead")
		return nil
	}
	may := map[string]bool{}
	for _, in := range inputs {
		may[in.Name] = true
	}
	out := make([]Assign, 0, len(m.entries))
	for _, ve := range m.entries {
		what := fmt.Sprintf("var %q", ve.key)
		if may[ve.key] {
			l.errf(ve.keyPos, "", "%s is also an input: a name is the chart's constant or the caller's input, not both; rename one", what)
			continue
		}
		n := len(l.s.compiled)
		if a, ok := l.valuer(ve, "", what, ve.key); ok {
			l.onlyVars(n, may)
			out = append(out, a)
		}
		may[ve.key] = true
	}
	return out
}

// result reads `result:`.
func (l *loader) result(e entry) *ResultSpec {
	m, ok := l.block(e, "", "result", resultKeys)
	if !ok {
		return nil
	}
	r := &ResultSpec{Pos: e.keyPos}
	if ke, ok := m.get("kind"); !ok {
		l.missing(m, "kind", e.keyPos, "", "result has no kind: write one, such as kind: verdict/posture (a kind starting with verdict/ projects the verdict rows)")
	} else {
		r.Kind, _ = l.word(ke, "", "result kind")
		if msg := kindProblem(r.Kind); msg != "" {
			l.errf(ke.valPos, "", "%s", msg)
		}
	}
	if de, ok := m.get("decider"); ok {
		r.Decider, _ = l.word(de, "", "result decider")
		r.DeciderPos = de.valPos
		if r.Kind != "" && r.Decider != "" && !strings.HasPrefix(r.Kind, "verdict/") && kindProblem(r.Kind) == "" {
			l.errf(de.keyPos, "", "%s", deciderKindProblem(r.Kind))
		}
	}
	if me, ok := m.get("maxRows"); ok {
		r.MaxRows, _ = l.whole(me, "", "result maxRows", 1)
	}
	if pe, ok := m.get("presentation"); ok {
		r.Presentation, _ = l.oneOf(pe, "", "result presentation", presentations...)
	}
	if se, ok := m.get("standingLine"); ok {
		r.StandingLine, _ = l.oneOf(se, "", "result standingLine", standingLines...)
	}
	if ne, ok := m.get("nagios"); ok {
		r.Nagios, r.NagiosPos = l.nagios(ne, r.Kind)
	}
	if pe, ok := m.get("perfdata"); ok {
		if r.Kind != "" && !strings.HasPrefix(r.Kind, "verdict/") {
			l.errf(pe.keyPos, "", "result perfdata is written by --format nagios beside its verdict counts, but kind %q projects no verdict rows: use a kind starting with verdict/, such as verdict/%s", r.Kind, r.Kind)
		} else if x, src, ok := l.compile(pe, "", "result perfdata"); ok {
			r.Perfdata = &Check{Src: src, Expr: x, Pos: pe.valPos}
		}
	}
	if ee, ok := m.get("empty"); ok {
		if r.Empty, ok = l.oneOf(ee, "", "result empty", empties...); ok && r.Kind != "" && !strings.HasPrefix(r.Kind, "verdict/") {
			l.errf(ee.keyPos, "", "result empty says what a verdict table with no rows is, but kind %q projects no verdict rows: use a kind starting with verdict/, such as verdict/%s", r.Kind, r.Kind)
		}
	}
	if ce, ok := m.get("checks"); ok {
		items, _ := l.list(ce, "", "result checks")
		for i, n := range items {
			ie := entry{key: "checks", keyPos: ce.keyPos, val: n, valPos: l.pos(n)}
			if x, src, ok := l.compile(ie, "", fmt.Sprintf("result check %d", i+1)); ok {
				r.Checks = append(r.Checks, Check{Src: src, Expr: x, Pos: ie.valPos})
			}
		}
	}
	return r
}

// nagios reads `result.nagios:`, written state → verdict words (a word or
// a list of words), into verdict word → state, and where each word is
// written (checkNagiosWords holds them to the chart's verdict words). A state that is not one of
// NagiosStates, or a word listed under two states, is an error at its
// place: the check's state would otherwise depend on a typo.
func (l *loader) nagios(e entry, kind string) (map[string]string, map[string]Pos) {
	m, ok := l.asMap(e.val, e.keyPos, "", "result nagios")
	if !ok {
		return nil, nil
	}
	if kind != "" && !strings.HasPrefix(kind, "verdict/") {
		l.errf(e.keyPos, "", "result nagios maps verdict words, but kind %q projects no verdict rows: use a kind starting with verdict/, such as verdict/%s", kind, kind)
	}
	out, at := map[string]string{}, map[string]Pos{}
	for _, se := range m.entries {
		if !contains(NagiosStates, se.key) {
			if s, ok := se.val.(*ast.StringNode); ok && contains(NagiosStates, s.Value) {
				// Written the other way round: verdict → state.
				l.errf(se.keyPos, "", "result nagios is written state → verdicts: write %s: [%s] instead of %s: %s", s.Value, se.key, se.key, s.Value)
				continue
			}
			l.errf(se.keyPos, "", "result nagios: %s", notAState(se.key))
			continue
		}
		what := fmt.Sprintf("result nagios %s", se.key)
		var items []entry
		if _, isList := se.val.(*ast.SequenceNode); isList {
			nodes, _ := l.list(se, "", what)
			for _, n := range nodes {
				items = append(items, entry{key: se.key, keyPos: se.keyPos, val: n, valPos: l.pos(n)})
			}
		} else {
			items = append(items, se)
		}
		for _, ie := range items {
			word, ok := l.word(ie, "", what+" verdict")
			if !ok {
				continue
			}
			if msg := stateWordElsewhere(word, se.key); msg != "" {
				l.errf(ie.valPos, "", "%s", msg)
				continue
			}
			if was, dup := out[word]; dup {
				if was == se.key {
					l.errf(ie.valPos, "", "%s lists verdict %q twice: list it once", what, word)
				} else {
					l.errf(ie.valPos, "", "result nagios lists verdict %q under both %s and %s: a verdict has one state; list it under one", word, was, se.key)
				}
				continue
			}
			out[word], at[word] = se.key, ie.valPos
		}
	}
	return out, at
}

// honesty reads `honesty:`: a subset of label, coverage, assessment. An
// empty list turns them off; a null is as if not written (all three).
func (l *loader) honesty(e entry) []string {
	if isNull(e.val) {
		return nil
	}
	items, ok := l.list(e, "", "honesty")
	if !ok {
		return nil
	}
	out := []string{}
	for _, n := range items {
		ie := entry{key: "honesty", keyPos: e.keyPos, val: n, valPos: l.pos(n)}
		s, ok := l.oneOf(ie, "", "honesty stage", honestyStages...)
		if !ok {
			continue
		}
		if contains(out, s) {
			l.errf(ie.valPos, "", "honesty stage %q is listed twice: list it once", s)
			continue
		}
		out = append(out, s)
	}
	return out
}

// plugins reads `plugins:`, in written order.
func (l *loader) plugins(e entry) []PluginSpec {
	m, ok := l.asMap(e.val, e.keyPos, "", "plugins")
	if !ok {
		return nil
	}
	var out []PluginSpec
	for _, pe := range m.entries {
		what := fmt.Sprintf("plugin %q", pe.key)
		pm, ok := l.asMap(pe.val, pe.keyPos, "", what)
		if !ok {
			continue
		}
		l.known(pm, "", what, pluginEntryKeys...)
		p := PluginSpec{Name: pe.key, Pos: pe.keyPos}
		if ce, ok := pm.get("command"); !ok {
			l.missing(pm, "command", pe.keyPos, "", "%s has no command: give the path of its executable, such as command: ./bin/runbook-plugin-%s", what, pe.key)
		} else {
			p.Command, _ = l.word(ce, "", what+" command")
		}
		if se, ok := pm.get("sha256"); ok {
			p.SHA256 = l.pluginPin(se, what)
		}
		if ve, ok := pm.get("version"); ok {
			if s, ok := l.word(ve, "", what+" version"); ok {
				if err := plugins.CheckConstraint(s); err != nil {
					l.errf(ve.valPos, "", "%s version: %v", what, err)
				} else {
					p.Version = s
				}
			}
		}
		out = append(out, p)
	}
	return out
}

// pluginPin reads a plugin's `sha256:`: one digest, or a digest per
// platform (`linux/amd64: …`), of which the one this process runs on is
// the pin. A per-platform map without this platform is a load error, not
// an unpinned start: whoever pinned every platform they listed meant the
// binary to be checked, and this one would run unchecked.
func (l *loader) pluginPin(se entry, what string) string {
	digest := func(e entry, what string) string {
		s, ok := l.word(e, "", what)
		if !ok {
			return ""
		}
		if !isHex64(s) {
			l.errf(e.valPos, "", "%s %q is not a SHA-256 digest: write 64 hexadecimal digits (sha256sum prints them)", what, s)
			return ""
		}
		return strings.ToLower(s)
	}
	if _, isMap := l.deref(se.val, "").(*ast.MappingNode); !isMap {
		if _, isOne := l.deref(se.val, "").(*ast.MappingValueNode); !isOne {
			return digest(se, what+" sha256")
		}
	}
	m, ok := l.asMap(se.val, se.keyPos, "", what+" sha256")
	if !ok {
		return ""
	}
	here := runtime.GOOS + "/" + runtime.GOARCH
	pin := ""
	var platforms []string
	for _, pe := range m.entries {
		os, arch, ok := strings.Cut(pe.key, "/")
		if !ok || os == "" || arch == "" || strings.ContainsAny(arch, "/ ") {
			l.errf(pe.keyPos, "", "%s sha256 platform %q: write GOOS/GOARCH, such as linux/amd64 or darwin/arm64", what, pe.key)
			continue
		}
		platforms = append(platforms, pe.key)
		if d := digest(pe, fmt.Sprintf("%s sha256 for %s", what, pe.key)); pe.key == here {
			pin = d
		}
	}
	if pin == "" && len(platforms) > 0 && !slices.Contains(platforms, here) {
		l.errf(se.keyPos, "", "%s sha256 pins %s but not %s, the platform this runs on: add a %s: digest (sha256sum of the binary built for it)", what, strings.Join(platforms, ", "), here, here)
	}
	return pin
}

func isHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return false
		}
	}
	return true
}
