package flow

import (
	"errors"
	"fmt"
	"strings"

	"github.com/openrunbook/runbook/decide"
)

// Builder assembles a chart, or a sequence of stages for a branch or a
// foreach body. Methods chain; mistakes are collected and reported together
// by Build. A builder used after Build panics: reusing one would let two
// charts share nodes that are meant to be immutable.
type Builder struct {
	name        string
	description string
	root        bool
	nodes       []*node
	errs        []error
	built       bool
}

// New starts a chart. The name is the chart's name and the root of every
// runtime path.
func New(name string, opts ...ChartOption) *Builder {
	b := &Builder{name: name, root: true}
	for _, o := range opts {
		o(b)
	}
	return b
}

// Seq starts a sequence of stages for a branch or a foreach body.
func Seq() *Builder { return &Builder{} }

// ChartOption sets a chart's optional parts.
type ChartOption func(*Builder)

// ChartDescription says what the chart is for.
func ChartDescription(d string) ChartOption { return func(b *Builder) { b.description = d } }

func (b *Builder) add(n *node, opts []Option) *Builder {
	if b.built {
		panic(fmt.Sprintf("flow: builder for %q used after Build", b.name))
	}
	for _, o := range opts {
		o(n)
	}
	if n.name == "" {
		n.name = n.id
	}
	if n.typ == "" {
		n.typ = string(n.kind)
	}
	b.nodes = append(b.nodes, n)
	return b
}

// Stage adds a function stage.
func (b *Builder) Stage(id string, fn StageFunc, opts ...Option) *Builder {
	return b.add(&node{id: id, kind: KindStage, fn: fn}, opts)
}

// Decide adds a first-match decider: rules tried in order, def taken when
// none matches. Its label rides every decision's evidence.
func (b *Builder) Decide(id string, rs []decide.Rule, def decide.Default, branches []Branch, opts ...Option) *Builder {
	d := def
	return b.add(&node{id: id, kind: KindDecide, rules: rs, def: &d, plan: decide.NewCompactPlan(rs, d), branches: b.toBranches(branches)}, opts)
}

// DecideFunc adds a decider written in Go. Declare the default in the
// evidence the function returns; the branch it chooses is checked at run time.
func (b *Builder) DecideFunc(id string, fn DecideFunc, branches []Branch, opts ...Option) *Builder {
	return b.add(&node{id: id, kind: KindDecide, decideFn: fn, branches: b.toBranches(branches)}, opts)
}

// Select adds a selector: every rule is evaluated, every matching rule's
// branch runs, in parallel. Zero matches is fine.
func (b *Builder) Select(id string, rs []decide.Rule, branches []Branch, opts ...Option) *Builder {
	return b.add(&node{id: id, kind: KindSelect, rules: rs, branches: b.toBranches(branches)}, opts)
}

// Parallel adds fixed branches that all run, in parallel; their writes merge
// at the join in declaration order.
func (b *Builder) Parallel(id string, branches []Branch, opts ...Option) *Builder {
	return b.add(&node{id: id, kind: KindParallel, branches: b.toBranches(branches)}, opts)
}

// ForEach adds a generated fan-out, one branch per item.
func (b *Builder) ForEach(id string, spec ForEach, opts ...Option) *Builder {
	n := &node{id: id, kind: KindForEach}
	fe := &forEach{items: spec.Items, as: spec.As, maxBranches: spec.MaxBranches, into: spec.Into}
	if fe.as == "" {
		fe.as = DefaultItemKey
	}
	if spec.Body != nil {
		bodyName := id
		body := spec.Body
		body.name = bodyName
		body.root = true
		c, err := body.Build()
		if err != nil {
			ne := &NodeError{Node: id, Field: "foreach.stages", Msg: err.Error()}
			errors.As(err, &ne.Body)
			b.errs = append(b.errs, ne)
			fe.bodyRefused = true
		}
		fe.body = c
	}
	n.forEach = fe
	return b.add(n, opts)
}

// Subflow mounts a built chart as one node of this one.
func (b *Builder) Subflow(id string, chart *Chart, m Mount, opts ...Option) *Builder {
	return b.add(&node{id: id, kind: KindSubflow, subflow: chart, mount: m}, opts)
}

// Loop adds a bounded back edge to an earlier stage.
func (b *Builder) Loop(id string, spec Loop, opts ...Option) *Builder {
	l := spec
	if l.Max == 0 {
		l.Max = DefaultLoopMax
	}
	return b.add(&node{id: id, kind: KindLoop, loop: &l}, opts)
}

func (b *Builder) toBranches(bs []Branch) []*branch {
	out := make([]*branch, len(bs))
	for i, br := range bs {
		seq := &sequence{}
		if br.Steps != nil {
			if br.Steps.built {
				panic(fmt.Sprintf("flow: steps of branch %q used after Build", br.Name))
			}
			br.Steps.built = true
			seq.nodes = br.Steps.nodes
			for _, err := range br.Steps.errs {
				b.errs = append(b.errs, fmt.Errorf("branch %q: %w", br.Name, err))
			}
		}
		out[i] = &branch{name: br.Name, description: br.Description, seq: seq, nameSlice: [1]string{br.Name}}
	}
	return out
}

// Build validates the chart and freezes it. Every mistake is reported, not
// only the first (see BuildError).
func (b *Builder) Build() (*Chart, error) {
	if b.built {
		panic(fmt.Sprintf("flow: Build called twice on %q", b.name))
	}
	b.built = true
	if !b.root {
		return nil, fmt.Errorf("flow: Build called on a sequence; start a chart with flow.New")
	}
	c := &Chart{name: b.name, description: b.description, root: &sequence{nodes: b.nodes}}
	errs := append([]error(nil), b.errs...)
	errs = append(errs, c.link()...)
	if len(errs) > 0 {
		return nil, &BuildError{Chart: b.name, Errs: errs}
	}
	return c, nil
}

// BuildError lists every reason a chart was refused.
type BuildError struct {
	Chart string
	Errs  []error
}

func (e *BuildError) Error() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "chart %q was refused:", e.Chart)
	for _, err := range e.Errs {
		sb.WriteString("\n  ")
		sb.WriteString(err.Error())
	}
	return sb.String()
}

// Unwrap lets errors.As find a NodeError among the reasons.
func (e *BuildError) Unwrap() []error { return e.Errs }

// NodeError is one build-time refusal, naming the node it is about and the
// key of that node the refusal is about, so a front end that knows where
// each key was written (the YAML loader's file:line:col) can point there.
//
// Field is a path into the node in the chart format's words; list indices
// are 0-based (a message counts rules and branches from 1):
//
//	""                        the node as a whole (no function, no spec, on a cycle, unreachable)
//	"stages"                  the chart has no stages (Node is "")
//	"id"                      empty, a reserved or invalid character, or already used
//	"branches"                a branching node with no branches
//	"branches[2]"             its third branch, which has no name
//	"branches.NAME"           branch NAME: declared twice, or never taken
//	"decide.rules[1].when"    a rule with no condition (select.rules[…] for a selector)
//	"decide.rules[1].then"    a rule whose then names no branch
//	"decide.default"          no default, or one that names no branch
//	"foreach.items"           no items function
//	"foreach.as"              as is IndexKey
//	"foreach.maxBranches"     missing or < 1
//	"foreach.stages"          no body, or a body that was refused (Body holds why)
//	"subflow"                 no chart, or a chart that mounts this one
//	"loop.to"                 no target, or one the loop may not jump to
//	"loop.max"                negative
//	"retry.attempts", "retry.backoff", "retry.maxBackoff", "timeout"
//
// A parallel node's branches are "branches…" too (the YAML writes them
// under parallel:). A repeated id is refused at each later node holding it;
// Nth says which (0: the first node holding the id, in chart order).
// Msg never holds a file position: a front end that knows where Field was
// written adds it.
type NodeError struct {
	Node  string // the node id ("" for chart-wide problems)
	Field string // the node's key the refusal is about (the table above)
	Msg   string
	// Nth is which node holding the id Node this is about, 0 the first in
	// chart order (only a refused chart holds an id twice).
	Nth int
	// Body is a foreach body's own refusal (Field "foreach.stages"), so a
	// front end can point into the body's stages.
	Body *BuildError
}

// Unwrap reaches a refused foreach body's reasons.
func (e *NodeError) Unwrap() error {
	if e.Body == nil {
		return nil
	}
	return e.Body
}

func (e *NodeError) Error() string {
	if e.Node == "" {
		return e.Msg
	}
	return fmt.Sprintf("node %q: %s", e.Node, e.Msg)
}
