package flow

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/decide"
)

// chartIndex is one chart's nodes by id, each with its ancestry: the
// branching nodes (and their branch) it sits in, outermost first.
type chartIndex struct {
	nodes map[string]*NodeInfo
	anc   map[string][]ancStep
}

type ancStep struct {
	node   *NodeInfo
	branch string
}

func (e *Explainer) index(s *Structure) *chartIndex {
	if ci, ok := e.charts[s]; ok {
		return ci
	}
	ci := &chartIndex{nodes: map[string]*NodeInfo{}, anc: map[string][]ancStep{}}
	var walk func(nodes []NodeInfo, anc []ancStep)
	walk = func(nodes []NodeInfo, anc []ancStep) {
		for k := range nodes {
			n := &nodes[k]
			if _, dup := ci.nodes[n.ID]; dup {
				continue
			}
			ci.nodes[n.ID] = n
			ci.anc[n.ID] = anc
			for b := range n.Branches {
				walk(n.Branches[b].Nodes, append(slices.Clip(anc), ancStep{n, n.Branches[b].Name}))
			}
		}
	}
	walk(s.Nodes, nil)
	e.charts[s] = ci
	return ci
}

// locate finds the node a runtime path executed, and its ancestry in its
// own chart, by walking the path's segments through the structure.
func (e *Explainer) locate(path string) (*NodeInfo, []ancStep, bool) {
	if e.st == nil {
		return nil, nil, false
	}
	pos, err := ParsePath(path)
	if err != nil {
		return nil, nil, false
	}
	chart := e.st
	for _, st := range pos.Scope {
		n := e.index(chart).nodes[st.Node]
		if n == nil {
			return nil, nil, false
		}
		switch {
		case n.ForEach != nil:
			chart = &n.ForEach.Body
		case n.Subflow != nil:
			chart = n.Subflow
		}
	}
	ci := e.index(chart)
	n := ci.nodes[pos.Node]
	if n == nil {
		return nil, nil, false
	}
	return n, ci.anc[n.ID], true
}

// WhyNot is why a stage or a branch did not run: per place it could have
// run (the root, or each foreach branch), the decision that routed around
// it with every rule it evaluated, or what ended the run or the branch
// first. Where it did run is listed in Ran, never as a reason.
type WhyNot struct {
	Target string `json:"target"`
	// Kind is "stage" or "branch".
	Kind string `json:"kind"`
	// Decider is the id of the decider a branch belongs to.
	Decider string `json:"decider,omitempty"`
	// Ran lists the executions of the stage (for a branch: the decisions
	// that chose it).
	Ran     []Ran    `json:"ran,omitempty"`
	Reasons []NotRun `json:"reasons,omitempty"`
	Notes   []string `json:"notes,omitempty"`
}

// Ran is one execution of the target.
type Ran struct {
	Index int    `json:"index"`
	Path  string `json:"path"`
	Err   string `json:"error,omitempty"`
	// Discarded is a failed attempt that was retried.
	Discarded bool `json:"discarded,omitempty"`
}

// Why a target did not run in one place.
const (
	BecauseRouted     = "routed"      // a decide or select chose another branch
	BecauseFailed     = "failed"      // an earlier stage in the same place failed
	BecauseEnded      = "ended"       // the run failed, was cancelled or paused first
	BecauseNoItems    = "no-items"    // the foreach around it ran over no items
	BecauseNotReached = "not-reached" // the log does not say why
)

// NotRun is one place where the target did not run, and why.
type NotRun struct {
	// Scope is the place: "" for the chart's root, `per-volume~3` for a
	// foreach branch.
	Scope   string `json:"scope"`
	Because string `json:"because"`
	// Decision is the decision that routed around the target.
	Decision *RoutedAround `json:"decision,omitempty"`
	// Path is the stage that failed, ended the run, or the foreach.
	Path    string `json:"path,omitempty"`
	Message string `json:"message"`
}

// RoutedAround is a decision that chose other branches than the one that
// leads to the target, with every rule it evaluated.
type RoutedAround struct {
	Index  int         `json:"index"`
	Path   string      `json:"path"`
	Stage  string      `json:"stage"`
	Name   string      `json:"name,omitempty"`
	Kind   decide.Kind `json:"kind"`
	Chosen []string    `json:"chosen"`
	// Wanted is the branch that leads to the target.
	Wanted string `json:"wanted"`
	// Rules are the rules evaluated, in order, with their evidence.
	Rules []decide.RuleEvidence `json:"rules"`
	// NotEvaluated are the declared rules leading to Wanted that a
	// first-match decision never tried (an earlier rule matched).
	NotEvaluated []RuleInfo      `json:"notEvaluated,omitempty"`
	Default      *decide.Default `json:"default,omitempty"`
}

// routeStep is one level on the static way down to a target.
type routeStep struct {
	node   *NodeInfo
	branch string // decide/select/parallel branch taken; "" for foreach body or subflow
}

// WhyNot answers for a stage (id, name, or a record path like
// `per-volume~3/mark-risk`) or a branch name.
func (e *Explainer) WhyNot(target string) (*WhyNot, error) {
	q := StripCounter(target)
	scopeWant := ""
	id := q
	if i := strings.LastIndexByte(q, '/'); i >= 0 {
		scopeWant, id = q[:i], q[i+1:]
	}
	wn := &WhyNot{Target: target, Kind: "stage"}
	if e.st == nil {
		e.whyNotFromLog(wn, id)
		return wn, nil
	}
	routes, isBranch := e.routesTo(id)
	if len(routes) == 0 {
		return nil, fmt.Errorf("explain: no stage or branch %q in chart %s", id, e.st.Name)
	}
	route := routes[0]
	if len(routes) > 1 {
		wn.Notes = append(wn.Notes, fmt.Sprintf("%q names %d places in the chart; this answers for the first", id, len(routes)))
	}
	if isBranch {
		wn.Kind, wn.Decider = "branch", route[len(route)-1].node.ID
	}
	scopes := []string{""}
	for si, step := range route {
		last := si == len(route)-1
		if last && !isBranch {
			break
		}
		var next []string
		for _, s := range scopes {
			next = append(next, e.descend(wn, step, s, last)...)
		}
		scopes = next
	}
	if !isBranch {
		target := route[len(route)-1].node
		for _, s := range scopes {
			if scopeWant != "" && s != scopeWant {
				continue
			}
			ran := false
			for i := range e.log.Commits {
				c := &e.log.Commits[i]
				if c.Stage == target.ID && ScopeOf(c.Path) == s {
					wn.Ran = append(wn.Ran, Ran{Index: i, Path: c.Path, Err: c.Err, Discarded: c.Discarded})
					ran = true
				}
			}
			if !ran {
				wn.Reasons = append(wn.Reasons, e.notReached(target, s))
			}
		}
	}
	if scopeWant != "" {
		kept := wn.Reasons[:0]
		for _, r := range wn.Reasons {
			if r.Scope == scopeWant || visible(r.Scope, scopeWant) {
				kept = append(kept, r)
			}
		}
		wn.Reasons = kept
	}
	wn.Notes = append(wn.Notes, e.damaged...)
	return wn, nil
}

// descend takes one routing step in scope s: the scopes the flow went on
// in, reasons for those it did not. last marks a branch target's decider.
func (e *Explainer) descend(wn *WhyNot, step routeStep, s string, last bool) []string {
	n := step.node
	var runs []int
	for i := range e.log.Commits {
		c := &e.log.Commits[i]
		if c.Stage != n.ID || ScopeOf(c.Path) != s || c.Discarded {
			continue
		}
		if (n.Kind == KindDecide || n.Kind == KindSelect) && c.Decision == nil {
			continue
		}
		runs = append(runs, i)
	}
	if len(runs) == 0 {
		wn.Reasons = append(wn.Reasons, e.notReached(n, s))
		return nil
	}
	join := func(seg string) string {
		if s == "" {
			return seg
		}
		return s + "/" + seg
	}
	switch n.Kind {
	case KindDecide, KindSelect:
		took := false
		for _, i := range runs {
			c := &e.log.Commits[i]
			if slices.Contains(c.Decision.Chosen, step.branch) {
				took = true
				if last {
					wn.Ran = append(wn.Ran, Ran{Index: i, Path: c.Path})
				}
				continue
			}
			wn.Reasons = append(wn.Reasons, NotRun{Scope: s, Because: BecauseRouted, Path: c.Path,
				Decision: e.routedAround(i, n, step.branch),
				Message:  fmt.Sprintf("%s chose %s, not %s", nameOr(n), strings.Join(c.Decision.Chosen, ", "), step.branch)})
		}
		if !took || last {
			return nil
		}
		if n.Kind == KindSelect {
			return []string{join(n.ID + "~" + step.branch)}
		}
		return []string{s}
	case KindParallel:
		return []string{join(n.ID + "~" + step.branch)}
	case KindSubflow:
		return []string{join(n.ID)}
	case KindForEach:
		prefix := join(n.ID + "~")
		var out []string
		seen := map[string]bool{}
		for i := range e.log.Commits {
			p := e.log.Commits[i].Path
			if !strings.HasPrefix(p, prefix) {
				continue
			}
			k, _, _ := strings.Cut(p[len(prefix):], "/")
			if _, err := strconv.Atoi(k); err == nil && !seen[k] {
				seen[k] = true
				out = append(out, prefix+k)
			}
		}
		slices.SortFunc(out, func(a, b string) int {
			x, _ := strconv.Atoi(a[len(prefix):])
			y, _ := strconv.Atoi(b[len(prefix):])
			return x - y
		})
		if len(out) == 0 {
			c := &e.log.Commits[runs[len(runs)-1]]
			msg := fmt.Sprintf("%s ran over no items: no branch of it ran", nameOr(n))
			if c.Err != "" {
				msg = fmt.Sprintf("%s failed before any branch ran: %s", nameOr(n), c.Err)
			}
			wn.Reasons = append(wn.Reasons, NotRun{Scope: s, Because: BecauseNoItems, Path: c.Path, Message: msg})
		}
		return out
	}
	return []string{s}
}

// routedAround is the evidence of decision i that did not take wanted.
func (e *Explainer) routedAround(i int, n *NodeInfo, wanted string) *RoutedAround {
	c := &e.log.Commits[i]
	ev := c.Decision
	ra := &RoutedAround{Index: i, Path: c.Path, Stage: c.Stage, Kind: ev.Kind, Chosen: ev.Chosen, Wanted: wanted, Rules: ev.Rules, Default: ev.Default}
	if n != nil {
		if n.Name != n.ID {
			ra.Name = n.Name
		}
		tried := map[int]bool{}
		for _, r := range ev.Rules {
			tried[r.Index] = true
		}
		for _, r := range n.Rules {
			if r.Then == wanted && !tried[r.Index] {
				ra.NotEvaluated = append(ra.NotEvaluated, r)
			}
		}
	}
	return ra
}

// notReached says why node n never ran in scope s: a stage before it in
// that place failed, or the run ended first.
func (e *Explainer) notReached(n *NodeInfo, s string) NotRun {
	for i := range e.log.Commits {
		c := &e.log.Commits[i]
		if c.Err != "" && !c.Discarded && (ScopeOf(c.Path) == s || visible(s, ScopeOf(c.Path))) && c.Stage != n.ID {
			if s != "" && ScopeOf(c.Path) == "" {
				continue // a root failure ends the run: said below
			}
			return NotRun{Scope: s, Because: BecauseFailed, Path: c.Path,
				Message: fmt.Sprintf("%s never ran: %s failed first: %s", nameOr(n), c.Path, c.Err)}
		}
	}
	switch e.end.Status {
	case StatusFailed, StatusCancelled, StatusPaused:
		verb := map[Status]string{StatusFailed: "failed", StatusCancelled: "was cancelled", StatusPaused: "paused to ask a question"}[e.end.Status]
		msg := fmt.Sprintf("%s never ran: the run %s at %s", nameOr(n), verb, e.end.Path)
		if e.end.Message != "" {
			msg += ": " + e.end.Message
		}
		return NotRun{Scope: s, Because: BecauseEnded, Path: e.end.Path, Message: msg}
	}
	return NotRun{Scope: s, Because: BecauseNotReached, Message: fmt.Sprintf("%s never ran here, and the log does not say why", nameOr(n))}
}

// routesTo finds the static ways down to a stage id (or name), or failing
// that to a decide or select with a branch of that name.
func (e *Explainer) routesTo(id string) ([][]routeStep, bool) {
	var byID, byName, byBranch [][]routeStep
	var walk func(s *Structure, prefix []routeStep)
	walk = func(s *Structure, prefix []routeStep) {
		ci := e.index(s)
		for k := range s.Nodes {
			var visit func(n *NodeInfo, pre []routeStep)
			visit = func(n *NodeInfo, pre []routeStep) {
				here := append(slices.Clip(pre), routeStep{node: n})
				if n.ID == id {
					byID = append(byID, here)
				} else if n.Name == id {
					byName = append(byName, here)
				}
				for b := range n.Branches {
					br := &n.Branches[b]
					if br.Name == id && (n.Kind == KindDecide || n.Kind == KindSelect) {
						byBranch = append(byBranch, append(slices.Clip(pre), routeStep{node: n, branch: br.Name}))
					}
					for m := range br.Nodes {
						visit(&br.Nodes[m], append(slices.Clip(pre), routeStep{node: n, branch: br.Name}))
					}
				}
				if n.ForEach != nil {
					walk(&n.ForEach.Body, here)
				}
				if n.Subflow != nil {
					walk(n.Subflow, here)
				}
			}
			visit(&s.Nodes[k], prefix)
		}
		_ = ci
	}
	walk(e.st, nil)
	switch {
	case len(byID) > 0:
		return byID, false
	case len(byName) > 0:
		return byName, false
	}
	return byBranch, len(byBranch) > 0
}

// whyNotFromLog answers without the chart's structure: what ran, or the
// decisions whose rules name the target as a branch.
func (e *Explainer) whyNotFromLog(wn *WhyNot, id string) {
	wn.Notes = append(wn.Notes, "the record holds no chart structure: only what the log itself names is shown")
	for i := range e.log.Commits {
		c := &e.log.Commits[i]
		if c.Stage == id {
			wn.Ran = append(wn.Ran, Ran{Index: i, Path: c.Path, Err: c.Err, Discarded: c.Discarded})
		}
	}
	if len(wn.Ran) > 0 {
		return
	}
	for i := range e.log.Commits {
		c := &e.log.Commits[i]
		ev := c.Decision
		if ev == nil || !namesBranch(ev, id) {
			continue
		}
		wn.Kind, wn.Decider = "branch", c.Stage
		if slices.Contains(ev.Chosen, id) {
			wn.Ran = append(wn.Ran, Ran{Index: i, Path: c.Path})
			continue
		}
		wn.Reasons = append(wn.Reasons, NotRun{Scope: ScopeOf(c.Path), Because: BecauseRouted, Path: c.Path,
			Decision: e.routedAround(i, nil, id), Message: fmt.Sprintf("%s chose %s, not %s", c.Stage, strings.Join(ev.Chosen, ", "), id)})
	}
	if len(wn.Ran)+len(wn.Reasons) == 0 {
		n := &NodeInfo{ID: id, Name: id}
		wn.Reasons = append(wn.Reasons, e.notReached(n, ""))
	}
	wn.Notes = append(wn.Notes, e.damaged...)
}

func namesBranch(ev *decide.Evidence, b string) bool {
	if ev.Default != nil && ev.Default.Branch == b {
		return true
	}
	for _, r := range ev.Rules {
		if r.Then == b {
			return true
		}
	}
	return false
}

func nameOr(n *NodeInfo) string {
	if n.Name != "" && n.Name != n.ID {
		return fmt.Sprintf("%s (%s)", n.ID, n.Name)
	}
	return n.ID
}
