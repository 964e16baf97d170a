package chart

import (
	"path/filepath"
	"strings"

	"github.com/openrunbook/runbook/internal/suggest"
)

// subflow reads `subflow:`: a chart file (loaded here, relative to this
// file's directory) or inline stages (a chart of their own).
func (l *loader) subflow(e entry, sid string) *SubflowSpec {
	m, ok := l.block(e, sid, "subflow", subflowKeys)
	if !ok {
		return nil
	}
	sf := &SubflowSpec{}
	ce, hasChart := m.get("chart")
	se, hasStages := m.get("stages")
	switch {
	case hasChart && hasStages:
		l.errf(se.keyPos, sid, "subflow has both chart and stages: mount a chart file (chart: PATH) or write the stages inline (stages: [ … ]), not both")
	case hasChart:
		if p, ok := l.word(ce, sid, "subflow chart"); ok {
			sf.Chart = p
			sf.Spec = l.mount(p, ce.valPos, sid)
		}
	case hasStages:
		sf.Stages = l.stages(se, sid, "subflow stages")
	default:
		l.errf(e.keyPos, sid, "subflow has neither chart nor stages: give chart: PATH (relative to this file) or stages: [ … ]")
	}
	if ie, ok := m.get("inputs"); ok {
		sf.Inputs = l.assigns(ie, sid, "subflow input", false)
		if sf.Spec != nil {
			l.checkBindings(sf, ie, sid)
		}
	} else if sf.Spec != nil {
		l.checkBindings(sf, entry{keyPos: e.keyPos}, sid)
	}
	return sf
}

// checkBindings refuses a subflow input the mounted chart does not declare,
// and a required one it is not given.
func (l *loader) checkBindings(sf *SubflowSpec, ie entry, sid string) {
	declared := make([]string, len(sf.Spec.Inputs))
	for i, in := range sf.Spec.Inputs {
		declared[i] = in.Name
	}
	for _, a := range sf.Inputs {
		if contains(declared, a.Key) {
			continue
		}
		switch near := suggest.Nearest(a.Key, declared); {
		case near != "":
			l.errf(a.Pos, sid, "subflow input %q is not an input of chart %q; did you mean %q?", a.Key, sf.Chart, near)
		case len(declared) == 0:
			l.errf(a.Pos, sid, "subflow input %q is not an input of chart %q, which declares none", a.Key, sf.Chart)
		default:
			l.errf(a.Pos, sid, "subflow input %q is not an input of chart %q (its inputs: %s)", a.Key, sf.Chart, strings.Join(declared, ", "))
		}
	}
	for _, in := range sf.Spec.Inputs {
		if in.Required && !hasAssign(sf.Inputs, in.Name) {
			l.errf(ie.keyPos, sid, "subflow chart %q requires input %q: bind it under inputs: {%s: EXPR}", sf.Chart, in.Name, in.Name)
		}
	}
}

// mount loads a subflow's chart file, once per session, refusing a chart
// that mounts itself.
func (l *loader) mount(p string, at Pos, sid string) *Spec {
	path := p
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(l.file), p)
	}
	abs := resolved(path)
	if !l.s.inside(abs) {
		l.errf(at, sid, "subflow chart %q is outside %s: a subflow chart must be in the root chart's folder or below it (symlinks resolved); move it there, or allow its folder with runbook --allow-chart-path DIR (chart.AllowDir)",
			p, l.s.rootWords())
		return nil
	}
	for i, f := range l.stack {
		if f.abs == abs {
			chain := make([]string, 0, len(l.stack)-i+1)
			for _, g := range l.stack[i:] {
				chain = append(chain, g.name)
			}
			chain = append(chain, path)
			l.errf(at, sid, "subflow chart %q mounts a chart that is already mounting it (%s): a chart cannot mount itself, directly or through others",
				p, strings.Join(chain, " → "))
			return nil
		}
	}
	if len(l.stack) > MaxSubflowDepth {
		l.errf(at, sid, "subflow chart %q would be mounted %d deep (charts mounting charts), past the bound of %d: flatten the chain, or write the innermost ones inline (subflow: {stages: [ … ]})",
			p, len(l.stack), MaxSubflowDepth)
		return nil
	}
	if l.s.done[abs] {
		return l.s.cache[abs]
	}
	l.s.done[abs] = true
	spec := l.s.loadFile(path, p, at, sid, l.stack)
	l.s.cache[abs] = spec
	return spec
}
