package runbook

import (
	"slices"

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
	in, err := rb.resolveInputs(given)
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
