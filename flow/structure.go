package flow

import (
	"github.com/openrunbook/runbook/decide"
)

// Structure is a built chart's static description: what `runbook graph`
// prints and what the verdict meanings read (honesty.md §3). It is plain
// data, safe to marshal as JSON, and the same for every call on a chart.
type Structure struct {
	Name        string     `json:"name"`
	Description string     `json:"description,omitempty"`
	Nodes       []NodeInfo `json:"nodes"`
}

// NodeInfo describes one node. Fields that do not apply to the node's kind
// are empty.
type NodeInfo struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Kind        Kind   `json:"kind"`
	// Type is the node's finer kind for display ("exec", "plugin"); the
	// kind itself when none was given.
	Type string `json:"type"`
	// Feeds are the keys the stage hands on to what it runs as its data
	// (an exec stage's stdin: Feeds).
	Feeds []string `json:"feeds,omitempty"`

	// GoDecider is true for a decider written in Go (Builder.DecideFunc):
	// its rules and default are not known statically, and any branch may
	// be taken.
	GoDecider bool `json:"goDecider,omitempty"`
	// Rules are a decider's or selector's rules, in order.
	Rules []RuleInfo `json:"rules,omitempty"`
	// Default is a declarative decider's default branch and its label.
	Default *decide.Default `json:"default,omitempty"`
	// Branches of a decide, select or parallel node, in declaration order.
	Branches []BranchInfo `json:"branches,omitempty"`

	// ForEach describes a foreach node and its body.
	ForEach *ForEachInfo `json:"foreach,omitempty"`

	// Subflow is a mounted chart's own structure, nested; its ids are
	// scoped to it. Inputs and Outputs are the mount's bindings.
	Subflow *Structure    `json:"subflow,omitempty"`
	Inputs  []BindingInfo `json:"inputs,omitempty"`
	Outputs []BindingInfo `json:"outputs,omitempty"`

	// LoopTo, LoopMax and LoopWhile describe a loop node. LoopRef is true
	// on every loop node: its target is a REFERENCE to an earlier node, a
	// back edge that a walker never follows (the target is described where
	// it sits).
	LoopTo    string `json:"loopTo,omitempty"`
	LoopMax   int    `json:"loopMax,omitempty"`
	LoopWhile string `json:"loopWhile,omitempty"`
	LoopRef   bool   `json:"loopRef,omitempty"`

	// Retry is the stage's retry policy, if any.
	Retry *RetryInfo `json:"retry,omitempty"`
	// Timeout bounds one execution ("30s"); empty when none.
	Timeout string `json:"timeout,omitempty"`
}

// RuleInfo is one rule as declared.
type RuleInfo struct {
	// Index is the rule's place among its node's rules, 0-based as in
	// decision evidence.
	Index int    `json:"index"`
	Label string `json:"label,omitempty"`
	Then  string `json:"then"`
	// When is the predicate's source as written (its String()).
	When string `json:"when"`
}

// BranchInfo is one branch: its name (the branch's id), its declared
// meaning, and its stages.
type BranchInfo struct {
	Name        string     `json:"name"`
	Description string     `json:"description,omitempty"`
	Nodes       []NodeInfo `json:"nodes,omitempty"`
}

// ForEachInfo describes a foreach: its key names, its bound and its body,
// a chart of its own.
type ForEachInfo struct {
	As          string    `json:"as"`
	MaxBranches int       `json:"maxBranches"`
	Into        string    `json:"into,omitempty"`
	Body        Structure `json:"body"`
}

// BindingInfo is one subflow binding: the key written and the source of
// the value written there.
type BindingInfo struct {
	Key  string `json:"key"`
	From string `json:"from"`
}

// RetryInfo is a stage's retry policy as declared. Durations are in Go's
// duration syntax ("200ms"); empty when zero.
type RetryInfo struct {
	Attempts   int    `json:"attempts"`
	Backoff    string `json:"backoff,omitempty"`
	MaxBackoff string `json:"maxBackoff,omitempty"`
	Jitter     bool   `json:"jitter,omitempty"`
}

// Describe returns the chart's static structure: every node in chart order
// with its branches, foreach bodies and subflows nested. It costs one walk
// of the chart (and of each mounted chart, once per mount) per call.
func (c *Chart) Describe() Structure {
	return Structure{Name: c.name, Description: c.description, Nodes: describeSeq(c.root)}
}

func describeSeq(seq *sequence) []NodeInfo {
	if seq == nil || len(seq.nodes) == 0 {
		return nil
	}
	out := make([]NodeInfo, 0, len(seq.nodes))
	for _, n := range seq.nodes {
		out = append(out, describeNode(n))
	}
	return out
}

func describeNode(n *node) NodeInfo {
	ni := NodeInfo{ID: n.id, Name: n.name, Description: n.description, Kind: n.kind, Type: n.typ, Feeds: n.feeds}
	if n.kind == KindDecide && n.decideFn != nil && n.def == nil && len(n.rules) == 0 {
		ni.GoDecider = true
	}
	for i, r := range n.rules {
		ri := RuleInfo{Index: i, Label: r.Label, Then: r.Then}
		if r.When != nil {
			ri.When = r.When.String()
		}
		ni.Rules = append(ni.Rules, ri)
	}
	if n.def != nil {
		d := *n.def
		ni.Default = &d
	}
	for _, br := range n.branches {
		ni.Branches = append(ni.Branches, BranchInfo{Name: br.name, Description: br.description, Nodes: describeSeq(br.seq)})
	}
	if fe := n.forEach; fe != nil {
		fi := &ForEachInfo{As: fe.as, MaxBranches: fe.maxBranches, Into: fe.into}
		if fe.body != nil {
			fi.Body = fe.body.Describe()
		}
		ni.ForEach = fi
	}
	if n.subflow != nil {
		s := n.subflow.Describe()
		ni.Subflow = &s
		ni.Inputs = describeBindings(n.mount.Inputs)
		ni.Outputs = describeBindings(n.mount.Outputs)
	}
	if l := n.loop; l != nil {
		ni.LoopTo, ni.LoopMax, ni.LoopRef = l.To, l.Max, true
		if l.While != nil {
			ni.LoopWhile = l.While.String()
		}
	}
	if r := n.retry; r != nil {
		ri := &RetryInfo{Attempts: r.Attempts, Jitter: r.Jitter}
		if r.Backoff != 0 {
			ri.Backoff = r.Backoff.String()
		}
		if r.MaxBackoff != 0 {
			ri.MaxBackoff = r.MaxBackoff.String()
		}
		ni.Retry = ri
	}
	if n.timeout != 0 {
		ni.Timeout = n.timeout.String()
	}
	return ni
}

func describeBindings(bs []Binding) []BindingInfo {
	if len(bs) == 0 {
		return nil
	}
	out := make([]BindingInfo, len(bs))
	for i, b := range bs {
		out[i] = BindingInfo{Key: b.Key}
		if b.From != nil {
			out[i].From = b.From.String()
		}
	}
	return out
}

// DeciderInfo is a decider found by the static walk, with what it declares.
type DeciderInfo struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Path is the node ids from the chart's root to the decider, joined by
	// "/": the mount ids of the subflows it sits in, then its own id
	// (`check/posture`). Branches add no segment (ids are unique in a
	// chart). A foreach body's segment is `<foreachId>~*`, the `*` standing
	// for any item's index (at run time: `per-volume~3/posture`).
	Path string `json:"path"`
	// Branches are the decider's declared branches, in declaration order,
	// with their descriptions; Nodes is left empty (see Describe).
	Branches []BranchInfo `json:"branches"`
}

// Declared maps each branch name to its declared meaning: the branch's
// description, or its name when it has none (honesty.md §3 (a)).
func (d DeciderInfo) Declared() map[string]string {
	m := make(map[string]string, len(d.Branches))
	for _, br := range d.Branches {
		if br.Description != "" {
			m[br.Name] = br.Description
		} else {
			m[br.Name] = br.Name
		}
	}
	return m
}

// FindDecider finds a decide node by id or by name with a static walk
// (honesty.md §3), and owns the walk's order:
//
//  1. the chart's root, in chart order, each node before its branches,
//     each branch's nodes before the node after the branching node;
//  2. a statically mounted subflow is walked where it is mounted, the
//     same way (its own subflows in turn);
//  3. loop nodes are references, skipped before any match: a loop's
//     target is never followed, so nothing is visited twice;
//  4. only then foreach bodies, in the order step 1–2 met them, each
//     walked by the same rules (its own foreach bodies after it).
//
// Foreach bodies come last because their branches are generated at run
// time (`per-volume~3`); a Go-built or YAML-loaded body is nevertheless a
// static chart, so its deciders can be found. The first node whose id or
// name equals nameOrID wins. Only decide nodes match (not select).
func (c *Chart) FindDecider(nameOrID string) (DeciderInfo, bool) {
	type pending struct {
		c      *Chart
		prefix string
	}
	queue := []pending{{c, ""}}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		var found *node
		var foundPath string
		var walkChart func(ch *Chart, prefix string)
		walkChart = func(ch *Chart, prefix string) {
			var walk func(seq *sequence)
			walk = func(seq *sequence) {
				for _, n := range seq.nodes {
					if found != nil {
						return
					}
					if n.kind == KindLoop {
						continue // a reference: never followed, never matched
					}
					if n.kind == KindDecide && (n.id == nameOrID || n.name == nameOrID) {
						found, foundPath = n, prefix+n.id
						return
					}
					for _, br := range n.branches {
						walk(br.seq)
					}
					if n.subflow != nil {
						walkChart(n.subflow, prefix+n.id+"/")
					}
					if n.forEach != nil && n.forEach.body != nil {
						queue = append(queue, pending{n.forEach.body, prefix + n.id + "~*/"})
					}
				}
			}
			if ch != nil && ch.root != nil {
				walk(ch.root)
			}
		}
		walkChart(p.c, p.prefix)
		if found != nil {
			d := DeciderInfo{ID: found.id, Name: found.name, Path: foundPath, Branches: []BranchInfo{}}
			for _, br := range found.branches {
				d.Branches = append(d.Branches, BranchInfo{Name: br.name, Description: br.description})
			}
			return d, true
		}
	}
	return DeciderInfo{}, false
}
