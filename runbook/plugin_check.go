package runbook

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/internal/secret"
	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/host"
	"github.com/openrunbook/runbook/rules"
)

// PluginChecker judges a chart's plugin stages before a run, as `runbook
// validate` and `runbook plan` do (issue #17): it starts each plugin the
// chart uses once — found where a run would find it, its pin and version
// constraint held — asks it to describe itself, and holds the stage's
// arguments to the description by the host's own rules
// (plugins.CheckArgs). No stage runs: a plugin is asked only what it
// takes. Close stops every process it started.
type PluginChecker struct {
	m    *host.Manager
	hint string
	// secrets are the chart's secret inputs: a plugin that reads one the
	// stage does not pass it is refused by the run (pluginStage).
	secrets []string
	// sensitive holds each value Check saw given to a sensitive argument:
	// a run masks it from the moment the stage runs, so what prints a
	// plan must hide it too (Mask).
	sensitive secret.Set
	// spec is the chart, whose names a plugin's declared Reads are held
	// to (chart.Spec.Undefined). A runbook built in Go has no plugin:
	// stage for Check to be asked of.
	spec *chart.Spec
}

// NewPluginChecker is a checker finding plugins as a run would: the
// chart's plugins: map, then dir. hint is what a "not found" error tells
// a user with no dir (the CLI: "--plugin-dir or RUNBOOK_PLUGIN_DIR").
func (rb *Runbook) NewPluginChecker(dir, hint string, opts ...host.Option) *PluginChecker {
	c := &PluginChecker{m: host.NewManager(rb.pluginSources(), dir, opts...), hint: hint, sensitive: secret.New(), spec: rb.spec}
	for _, in := range rb.Inputs() {
		if in.Secret {
			c.secrets = append(c.secrets, in.Name)
		}
	}
	return c
}

// Check judges one plugin stage. env, when not nil, holds the values the
// stage's argument expressions may read before a run (plan: the inputs
// and vars); an argument read from anything else — a stage's output, an
// item — is known only when the stage runs, so only its name is judged.
// Each problem is a *chart.LoadError at the stage (a start or a missing
// argument) or at the argument, naming the stage by path.
func (c *PluginChecker) Check(ctx context.Context, path string, st *chart.StageSpec, env rules.Env) chart.LoadErrors {
	sp := st.Plugin
	if env == nil {
		env = noValues{}
	}
	s, err := c.m.Stage(ctx, sp.Name)
	if err != nil {
		var nf *host.NotFoundError
		if errors.As(err, &nf) && nf.Dir == "" && nf.Hint == "" && c.hint != "" {
			cp := *nf
			cp.Hint = c.hint
			err = &cp
		}
		return chart.LoadErrors{{Pos: st.Pos, Stage: path, Msg: err.Error()}}
	}
	given := make(map[string]any, len(sp.Args))
	var later []string
	at := make(map[string]chart.Pos, len(sp.Args))
	for _, a := range sp.Args {
		at[a.Key] = a.Pos
		if !knownBeforeRun(a.Expr, env) {
			later = append(later, a.Key)
			continue
		}
		v, _, err := a.Expr.Value(env)
		if err != nil {
			later = append(later, a.Key) // the run will say what is wrong
			continue
		}
		given[a.Key] = v
		if sensitive(s.Description(), a.Key) {
			c.sensitive.Add(v)
		}
	}
	var out chart.LoadErrors
	for _, k := range s.Description().Reads {
		passed := slices.ContainsFunc(sp.Args, func(a chart.Assign) bool { return strings.TrimSpace(a.Src) == k })
		if slices.Contains(c.secrets, k) && !passed {
			out = append(out, &chart.LoadError{Pos: st.Pos, Stage: path, Msg: readsSecretError(sp.Name, k).Error()})
		}
		if c.spec != nil {
			if undefined, hint := c.spec.Undefined(k); undefined {
				out = append(out, &chart.LoadError{Pos: st.Pos, Stage: path, Msg: fmt.Sprintf(
					"plugin %q declares it reads %s from the scope, which no input, var, stage key, foreach as or index of the chart defines: every call would go without it%s", sp.Name, k, hint)})
			}
		}
	}
	errs := plugins.CheckArgs(s.Description(), given, later)
	// In the order the chart reads: the arguments as written, then the
	// ones it lacks.
	slices.SortStableFunc(errs, func(a, b *plugins.ArgError) int {
		pa, oka := at[a.Arg]
		pb, okb := at[b.Arg]
		switch {
		case oka != okb && oka:
			return -1
		case oka != okb:
			return 1
		case pa.Line != pb.Line:
			return cmp.Compare(pa.Line, pb.Line)
		}
		return cmp.Compare(pa.Col, pb.Col)
	})
	for _, e := range errs {
		pos, ok := at[e.Arg]
		if !ok {
			pos = st.Pos
		}
		msg := e.Error()
		if e.Problem == plugins.WrongType {
			for _, a := range sp.Args {
				if a.Key == e.Arg {
					msg += fmt.Sprintf(" (the stage gives %s)", a.Src)
				}
			}
		}
		out = append(out, &chart.LoadError{Pos: pos, Stage: path, Msg: msg})
	}
	return out
}

// Mask is s with every value Check saw given to a sensitive argument
// hidden, in every form (internal/secret): an input the chart does not
// call secret is one once it reaches such an argument, as in a run.
func (c *PluginChecker) Mask(s string) string { return c.sensitive.Text(s) }

// Close stops every plugin the checker started and waits until they are
// gone.
func (c *PluginChecker) Close() { c.m.Close() }

// knownBeforeRun says whether v's value is known before the run starts:
// a literal, a key env holds (a key it lacks fails its Value), or an
// expression reading nothing env lacks — expr would read a name it lacks
// as null, which is not what the run will pass.
func knownBeforeRun(v rules.Valuer, env rules.Env) bool {
	e, ok := v.(*rules.Expr)
	if !ok {
		return true
	}
	if e.ReadsWholeEnv() {
		return false
	}
	for _, r := range e.Roots() {
		if _, ok := env.Get(r); !ok {
			return false
		}
	}
	return true
}

// noValues is the environment before a run with no inputs: it holds
// nothing, so only literals are known.
type noValues struct{}

func (noValues) Get(string) (any, bool) { return nil, false }

// CheckPlugins starts every plugin the chart's plugin stages use, once
// each, and judges every plugin stage (PluginChecker.Check, without
// inputs): what `runbook validate` adds to a chart's load. It returns
// every problem, in the order the stages are written.
func (rb *Runbook) CheckPlugins(ctx context.Context, dir, hint string, opts ...host.Option) chart.LoadErrors {
	var out chart.LoadErrors
	c := rb.NewPluginChecker(dir, hint, opts...)
	defer c.Close()
	rb.WalkStages(func(v StageVisit) {
		if v.Stage.Kind == "plugin" {
			out = append(out, c.Check(ctx, v.Path, v.Stage, nil)...)
		}
	})
	return out
}
