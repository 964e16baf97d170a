package runbook

import (
	"slices"
	"strings"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/secret"
	"github.com/openrunbook/runbook/plugins/host"
	"github.com/openrunbook/runbook/rules"
)

// PlannedInputs are the values a run given these inputs would start with,
// settled by the run's own rules (resolveInputs, evalVars) and nothing
// started: what `runbook plan` shows. Values holds the inputs and the
// chart's vars; it is an expression environment (rules.Env).
type PlannedInputs struct {
	Values  map[string]any
	Given   []string // inputs the caller gave
	Assumed []string // inputs filled from their declared defaults

	secretNames map[string]bool // secret inputs, and vars made from one
	secrets     secret.Set
}

// PlanInputs checks given against the chart's inputs exactly as Exec
// does (an InputErrors naming each refused input) and evaluates the
// chart's vars, without running a stage.
func (rb *Runbook) PlanInputs(given map[string]any) (*PlannedInputs, error) {
	in, err := rb.resolveInputs(given, nil, nil)
	if err != nil {
		return nil, err
	}
	p := &PlannedInputs{Values: in.values, Given: in.given, Assumed: in.assumed, secretNames: map[string]bool{}, secrets: in.secrets}
	for _, i := range rb.spec.Inputs {
		if i.Secret {
			p.secretNames[i.Name] = true
		}
	}
	for v, from := range in.varInputs {
		if slices.ContainsFunc(from, func(n string) bool { return p.secretNames[n] }) {
			p.secretNames[v] = true
		}
	}
	return p, nil
}

// Get implements rules.Env over the inputs and vars.
func (p *PlannedInputs) Get(k string) (any, bool) {
	v, ok := p.Values[k]
	return v, ok
}

// Secret says whether name is a secret input or a var made from one: its
// value is never shown.
func (p *PlannedInputs) Secret(name string) bool { return p.secretNames[name] }

// Mask is s with every form of every secret input's value hidden (the one
// masker, internal/secret): the last guard on what a plan prints.
func (p *PlannedInputs) Mask(s string) string { return p.secrets.Text(s) }

var _ rules.Env = (*PlannedInputs)(nil)

// FindPlugin is where a run would find the stage plugin called name: the
// chart's plugins: map (made absolute against the chart's folder), then
// dir (host.Resolve, the one home of that rule), with its pinned sha256.
// A plugin found nowhere is a *host.NotFoundError. Nothing is started.
func (rb *Runbook) FindPlugin(name, dir string) (host.Source, error) {
	return host.Resolve(name, rb.pluginSources(), dir)
}

// PlannedScope is what a plan may know, before anything runs, of the
// scope one stage runs in: the inputs and vars, save the names a stage
// may have written over before it (a set: of an input's name, an into, a
// foreach's item named as an input), which only the run knows; inside a
// subflow with inputs:, those inputs alone, each known when its
// expression is. It is a rules.Env: Get holds only what is known.
type PlannedScope struct {
	values  map[string]any  // nil: the chart's inputs and vars (in)
	secrets map[string]bool // with values: its secret names
	in      *PlannedInputs
	changed func(name string) bool
}

// Get implements rules.Env: a name's value when the plan knows it at this
// stage.
func (s *PlannedScope) Get(name string) (any, bool) {
	if s.changed(name) {
		return nil, false
	}
	if s.values != nil {
		v, ok := s.values[name]
		return v, ok
	}
	return s.in.Get(name)
}

// Secret says whether name holds a secret here (a secret input, a var
// made from one, a subflow input computed from one).
func (s *PlannedScope) Secret(name string) bool {
	if s.values != nil {
		return s.secrets[name]
	}
	return s.in.Secret(name)
}

// Known says whether a plan knows v's value at this stage, and whether it
// reads a secret: every name it reads is known here (or is a secret),
// and it does not read the whole scope.
func (s *PlannedScope) Known(v rules.Valuer) (known, secret bool) {
	x, ok := v.(*rules.Expr)
	if !ok {
		return true, false
	}
	known = !x.ReadsWholeEnv()
	for _, r := range x.Roots() {
		if s.Secret(r) && !s.changed(r) {
			return false, true
		}
		if _, ok := s.Get(r); !ok {
			known = false
		}
	}
	return known, false
}

var _ rules.Env = (*PlannedScope)(nil)

// plannedWrite is a key a stage writes, and the general scope it lands in.
type plannedWrite struct {
	key, scope string
	at         int // the writer's place in the walk
}

// WalkPlanned is WalkStages with each stage's PlannedScope: what a plan
// may render the stage's expressions over. A key a stage writes counts
// from that stage on, in the scope it lands in (a select's, parallel's or
// subflow's writes join the scope around them; a foreach item's stay in
// it), and before it too when a loop after the writer jumps back to the
// reader or before it.
func (p *PlannedInputs) WalkPlanned(rb *Runbook, fn func(StageVisit, *PlannedScope)) {
	type placed struct{ id, scope string }
	var (
		writes []plannedWrite
		stages []placed
		loops  [][2]int // each loop's place and its target's
	)
	rb.WalkStages(func(v StageVisit) {
		st, at, scope := v.Stage, len(stages), flow.GeneralScope(v.Scope)
		stages = append(stages, placed{st.ID, scope})
		for _, k := range st.Writes() {
			writes = append(writes, plannedWrite{key: k, scope: flow.GeneralScope(landing(v.Scope)), at: at})
		}
		if fe := st.ForEach; fe != nil {
			item := flow.GeneralScope(append(slices.Clip(v.Scope), flow.ScopeStep{Node: st.ID, Item: new(int)}))
			for _, k := range fe.ItemKeys() {
				writes = append(writes, plannedWrite{key: k, scope: item, at: at})
			}
		}
		if st.Loop != nil {
			target := 0 // a target not found: as if the chart's first stage
			for i := at - 1; i >= 0; i-- {
				if stages[i] == (placed{st.Loop.To, scope}) {
					target = i
					break
				}
			}
			loops = append(loops, [2]int{at, target})
		}
	})
	// before says whether a write at w may come before a read at r.
	before := func(w, r int) bool {
		if w < r {
			return true
		}
		for _, l := range loops {
			if l[0] > w && l[1] <= r {
				return true
			}
		}
		return false
	}
	frames := map[string]*PlannedScope{} // by the general scope of a subflow with inputs
	n := 0
	rb.WalkStages(func(v StageVisit) {
		at, scope := n, flow.GeneralScope(v.Scope)
		n++
		ps := &PlannedScope{in: p, changed: func(name string) bool {
			for _, w := range writes {
				if w.key == name && before(w.at, at) && within(scope, w.scope) {
					return true
				}
			}
			return false
		}}
		for i := len(v.Scope); i > 0; i-- {
			if f := frames[flow.GeneralScope(v.Scope[:i])]; f != nil {
				ps.values, ps.secrets = f.values, f.secrets
				break
			}
		}
		fn(v, ps)
		if sf := v.Stage.Subflow; sf != nil && len(sf.Inputs) > 0 {
			f := &PlannedScope{values: map[string]any{}, secrets: map[string]bool{}}
			for _, b := range sf.Inputs {
				known, secret := ps.Known(b.Expr)
				if secret {
					f.secrets[b.Key] = true
				}
				if !known {
					continue
				}
				if val, _, err := b.Expr.Value(ps); err == nil {
					f.values[b.Key] = val
				}
			}
			frames[flow.GeneralScope(append(slices.Clip(v.Scope), flow.ScopeStep{Node: v.Stage.ID}))] = f
		}
	})
}

// landing is the scope a stage's writes land in: a select's or parallel's
// branch and a subflow hand what they write to the scope around them
// (flow.Mount: every key a subflow wrote), a foreach item keeps its own.
func landing(scope []flow.ScopeStep) []flow.ScopeStep {
	for len(scope) > 0 && scope[len(scope)-1].Item == nil {
		scope = scope[:len(scope)-1]
	}
	return scope
}

// within says whether a stage in general scope s sees a key landed in
// scope w: w is s or encloses it.
func within(s, w string) bool {
	return w == "" || s == w || strings.HasPrefix(s, w+"/")
}
