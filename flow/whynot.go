package flow

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/internal/suggest"
)

// Why this file is long (~620 lines): why-not is one idea — index the
// chart, walk every way a key or verdict could have come about, and say
// which step did not happen — and its parts share one chartIndex; split
// across files, each part would only be read beside the others.

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

// Locator finds, in a chart's static structure, the node a stage
// execution ran: the one walk of a commit's scope steps (Commit.Scope,
// Commit.Stage) through foreach bodies and mounted subflows, which the
// explainer and the record's ledger both ask. Each chart it meets is
// indexed once, on first use, so a locator asked about every item of a
// foreach walks the body once. It never reads a log.
type Locator struct {
	st     *Structure
	charts map[*Structure]*chartIndex
}

// NewLocator is a locator over st (nil: it finds nothing).
func NewLocator(st *Structure) *Locator {
	return &Locator{st: st, charts: map[*Structure]*chartIndex{}}
}

// Node is the node an execution of node in scope ran, or false when the
// structure has no such place.
func (x *Locator) Node(scope []ScopeStep, node string) (*NodeInfo, bool) {
	n, _, ok := x.locate(scope, node)
	return n, ok
}

func (x *Locator) index(s *Structure) *chartIndex {
	if ci, ok := x.charts[s]; ok {
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
	x.charts[s] = ci
	return ci
}

// locate finds the node an execution in scope ran, and its ancestry in
// its own chart, by walking the scope's steps through the structure.
func (x *Locator) locate(scope []ScopeStep, node string) (*NodeInfo, []ancStep, bool) {
	if x.st == nil {
		return nil, nil, false
	}
	chart := x.st
	for _, st := range scope {
		n := x.index(chart).nodes[st.Node]
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
	ci := x.index(chart)
	n := ci.nodes[node]
	if n == nil {
		return nil, nil, false
	}
	return n, ci.anc[n.ID], true
}

func (e *Explainer) index(s *Structure) *chartIndex { return e.loc.index(s) }

func (e *Explainer) locate(scope []ScopeStep, node string) (*NodeInfo, []ancStep, bool) {
	return e.loc.locate(scope, node)
}

// WhyNot is why a stage or a branch did not run: per place it could have
// run (the root, or each foreach branch), the decision that routed around
// it with every rule it evaluated, or what ended the run or the branch
// first. Where it did run is listed in Ran, never as a reason.
type WhyNot struct {
	Target string `json:"target"`
	// Kind is "stage" or "branch".
	Kind string `json:"kind"`
	// Decider is the id of the decider a branch belongs to ("a, b" when
	// the name is a branch of several and the answer is for each).
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
	BecauseCut        = "cut"         // items past the foreach's maxBranches never ran
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

	steps []ScopeStep // Scope as steps, for matching a path prefix
	cut   string      // BecauseCut: the foreach's id
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
// `per-volume~3/mark-risk`) or a branch name. A path prefix says where:
// the scope steps before the id (`area-disk/critical`, `per-volume~3/m`;
// for a branch, the decider's id may end it: `disk-level/critical`) pick
// the places in the chart it leads to, and the runs of them it names (an
// item, a fork branch). A prefix that leads nowhere in the chart is an
// error naming the places that exist, never an answer about another one.
func (e *Explainer) WhyNot(target string) (*WhyNot, error) {
	pos, err := ParsePath(target)
	if err != nil {
		return nil, fmt.Errorf("explain: why not %q: %w", target, err)
	}
	id, want := pos.Node, pos.Scope
	wn := &WhyNot{Target: target, Kind: "stage"}
	if e.st == nil {
		e.whyNotFromLog(wn, id, want)
		return wn, nil
	}
	routes, isBranch, known := e.routesTo(id)
	if len(routes) == 0 {
		return nil, noSuchTarget(id, e.st.Name, known)
	}
	wants := make([][]ScopeStep, len(routes))
	if len(want) > 0 {
		var kept [][]routeStep
		for _, r := range routes {
			if w, ok := routeUnder(r, want, isBranch); ok {
				kept = append(kept, r)
				wants[len(kept)-1] = w
			}
		}
		if len(kept) == 0 {
			return nil, e.unknownPlace(target, id, want, routes, isBranch)
		}
		routes, wants = kept, wants[:len(kept)]
	}
	if len(routes) > 1 {
		wn.Notes = append(wn.Notes, fmt.Sprintf("%q names %d places in the chart (%s); this answers for each: give its path to ask for one", id, len(routes), strings.Join(placesOf(routes, isBranch), ", ")))
	}
	var deciders []string
	for ri, route := range routes {
		if isBranch {
			deciders = append(deciders, route[len(route)-1].node.ID)
		}
		e.whyNotAlong(wn, route, wants[ri], isBranch)
	}
	if isBranch {
		wn.Kind, wn.Decider = "branch", strings.Join(slices.Compact(deciders), ", ")
	}
	wn.Notes = append(wn.Notes, e.damaged...)
	return wn, nil
}

// whyNotAlong answers along one static way down to the target, in the
// places want names (every place when want is empty).
func (e *Explainer) whyNotAlong(wn *WhyNot, route []routeStep, want []ScopeStep, isBranch bool) {
	reasons, ran := len(wn.Reasons), len(wn.Ran)
	scopes := [][]ScopeStep{nil}
	for si, step := range route {
		last := si == len(route)-1
		if last && !isBranch {
			break
		}
		var next [][]ScopeStep
		for _, s := range scopes {
			next = append(next, e.descend(wn, step, s, last)...)
		}
		scopes = next
	}
	if !isBranch {
		target := route[len(route)-1].node
		for _, s := range scopes {
			if !matches(s, want) {
				continue
			}
			ran := false
			for i := range e.cs {
				c := &e.cs[i]
				if c.Stage == target.ID && sameScope(c.Scope, s) {
					wn.Ran = append(wn.Ran, Ran{Index: i, Path: c.Path, Err: c.Err, Discarded: c.Discarded})
					ran = true
				}
			}
			if !ran {
				wn.Reasons = append(wn.Reasons, e.notReached(target, s))
			}
		}
	}
	if len(want) > 0 {
		// What happened in other places is not an answer for this one; what
		// happened around it (a decision routing around the foreach) is.
		kept := wn.Reasons[:reasons]
		for _, r := range wn.Reasons[reasons:] {
			if r.cut != "" && namesItemOf(want, len(r.steps), r.cut) {
				continue // an item asked about by number: noSuchItem says whether the cut left it out
			}
			if matches(r.steps, want) || around(r.steps, want) {
				kept = append(kept, r)
			}
		}
		wn.Reasons = kept
		keptRan := wn.Ran[:ran]
		for _, r := range wn.Ran[ran:] {
			if matches(e.cs[r.Index].Scope, want) {
				keptRan = append(keptRan, r)
			}
		}
		wn.Ran = keptRan
		if len(wn.Reasons) == reasons && len(wn.Ran) == ran {
			// Nothing happened in the place asked about, nor around it:
			// the place was not in the run at all (an item past the
			// foreach's last), which is not "nothing kept it from running".
			if r, ok := e.noSuchItem(want); ok {
				wn.Reasons = append(wn.Reasons, r)
			}
		}
	}
}

// noSuchItem is why a place asked about by item (`per-volume~9/…`) never
// ran: the first item step of want that no commit of the log is in, said
// with the items that foreach did run there.
func (e *Explainer) noSuchItem(want []ScopeStep) (NotRun, bool) {
	for k, w := range want {
		if w.Item == nil {
			continue
		}
		var items []int
		found := false
		for i := range e.cs {
			c := &e.cs[i]
			if len(c.Scope) <= k || !matches(c.Scope, want[:k]) || c.Scope[k].Node != w.Node || c.Scope[k].Item == nil {
				continue
			}
			if *c.Scope[k].Item == *w.Item {
				found = true
				break
			}
			if !slices.Contains(items, *c.Scope[k].Item) {
				items = append(items, *c.Scope[k].Item)
			}
		}
		if found {
			continue
		}
		slices.Sort(items)
		ran := "and none of its items"
		if len(items) > 0 {
			names := make([]string, len(items))
			for i, it := range items {
				names[i] = ScopeString(append(slices.Clip(want[:k]), ScopeStep{Node: w.Node, Item: &it}))
			}
			if len(names) > 5 { // a wide foreach: its ends and its count
				names = append(names[:3:3], "…", names[len(names)-1])
			}
			word := "items"
			if len(items) == 1 {
				word = "item"
			}
			ran = fmt.Sprintf("only %d %s (%s)", len(items), word, strings.Join(names, ", "))
		}
		path := w.Node
		if k > 0 {
			path = ScopeString(want[:k]) + "/" + w.Node
		}
		if t, ok := e.cuts[path]; ok && *w.Item >= t.MaxBranches && *w.Item < t.Items {
			return NotRun{Scope: ScopeString(want[:k]), steps: want[:k], Because: BecauseCut,
				Message: fmt.Sprintf("item %d of %s never ran: %s ran %d of its %d items (maxBranches is %d), so nothing of it is judged", *w.Item, w.Node, w.Node, t.MaxBranches, t.Items, t.MaxBranches)}, true
		}
		return NotRun{Scope: ScopeString(want[:k]), steps: want[:k], Because: BecauseNoItems,
			Message: fmt.Sprintf("the log holds no item %d of %s, %s", *w.Item, w.Node, ran)}, true
	}
	return NotRun{}, false
}

// matches says whether scope s is one of the places a prefix names: want's
// steps lead s's way, each naming the same node, and the same item or fork
// branch when it names one (`per-volume` matches every item of it).
func matches(s, want []ScopeStep) bool {
	if len(want) > len(s) {
		return false
	}
	for k, w := range want {
		if !stepMatches(s[k], w) {
			return false
		}
	}
	return true
}

// around says whether scope s is outside the place want names (a step of
// the way to it), where what ended or routed around the place happened.
// namesItemOf says whether want's step at k is foreach id with an item.
func namesItemOf(want []ScopeStep, k int, id string) bool {
	return k < len(want) && want[k].Node == id && want[k].Item != nil
}

func around(s, want []ScopeStep) bool {
	return len(s) < len(want) && matches(s, want[:len(s)])
}

// stepMatches says whether a run's (or the chart's) step s is the step w a
// person wrote. A step written without an item or branch stands for every
// one of them; the chart's own foreach step (item -1) for every item. A
// fork branch named all in digits is written like an item: the display
// path cannot tell them apart, so either is taken.
func stepMatches(s, w ScopeStep) bool {
	if s.Node != w.Node {
		return false
	}
	switch {
	case w.Item != nil && s.Item != nil:
		return *s.Item < 0 || *s.Item == *w.Item
	case w.Item != nil:
		return s.Branch == strconv.Itoa(*w.Item)
	case w.Branch != "":
		return s.Branch == w.Branch
	}
	return true
}

// staticScope is the scope steps a route opens on its way down, as the
// chart knows them: a foreach's step stands for every item (-1).
func staticScope(route []routeStep) []ScopeStep {
	var out []ScopeStep
	for si, step := range route {
		if si == len(route)-1 {
			break // the target itself (or, for a branch, its decider)
		}
		switch step.node.Kind {
		case KindSelect, KindParallel:
			out = append(out, ScopeStep{Node: step.node.ID, Branch: step.branch})
		case KindSubflow:
			out = append(out, ScopeStep{Node: step.node.ID})
		case KindForEach:
			out = append(out, ScopeStep{Node: step.node.ID, Item: &anyItem})
		}
	}
	return out
}

// anyItem marks the chart's foreach step, which every item of it matches.
var anyItem = -1

// routeUnder says whether a route leads through the place a prefix names,
// and the prefix without the decider's id (`disk-level/critical`).
func routeUnder(route []routeStep, want []ScopeStep, isBranch bool) ([]ScopeStep, bool) {
	static := staticScope(route)
	if isBranch {
		last := want[len(want)-1]
		if d := route[len(route)-1].node; last.Node == d.ID && last.Branch == "" && last.Item == nil && matches(static, want[:len(want)-1]) {
			return want[:len(want)-1], true
		}
	}
	for k, w := range want {
		if k >= len(static) || !stepMatches(static[k], w) {
			return nil, false
		}
	}
	return want, true
}

// staticString is a chart place's display path: a foreach's step is its
// id alone (`per-volume`, any item).
func staticString(scope []ScopeStep) string {
	out := slices.Clone(scope)
	for k := range out {
		if out[k].Item != nil && *out[k].Item < 0 {
			out[k].Item = nil
		}
	}
	return ScopeString(out)
}

// placesOf is each route's place as a person would write it: the scope
// steps to the target and, for a branch, its decider
// (`area-disk/disk-level`).
func placesOf(routes [][]routeStep, isBranch bool) []string {
	var out []string
	for _, r := range routes {
		p := staticString(staticScope(r))
		last := r[len(r)-1].node.ID
		if p != "" {
			last = p + "/" + last
		}
		out = append(out, last)
	}
	return out
}

// unknownPlace is the error for a prefix that leads to none of the places
// the id names: the places there are, and the nearest of them.
func (e *Explainer) unknownPlace(target, id string, want []ScopeStep, routes [][]routeStep, isBranch bool) error {
	places := placesOf(routes, isBranch)
	var asks []string
	for _, r := range routes {
		p := staticString(staticScope(r))
		if p == "" {
			asks = append(asks, id)
		} else {
			asks = append(asks, p+"/"+id)
		}
	}
	what := "stage " + strconv.Quote(id) + " is at"
	if isBranch {
		what = strconv.Quote(id) + " is a branch of"
	}
	msg := fmt.Sprintf("explain: why not %q: no %q under %q in chart %s; %s %s", target, id, ScopeString(want), e.st.Name, what, strings.Join(places, ", "))
	if near := suggest.Nearest(target, slices.Concat(asks, places)); near != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", near)
	}
	return errors.New(msg)
}

// descend takes one routing step in scope s: the scopes the flow went on
// in, reasons for those it did not. last marks a branch target's decider.
func (e *Explainer) descend(wn *WhyNot, step routeStep, s []ScopeStep, last bool) [][]ScopeStep {
	n := step.node
	var runs []int
	for i := range e.cs {
		c := &e.cs[i]
		if c.Stage != n.ID || !sameScope(c.Scope, s) || c.Discarded {
			continue
		}
		if (n.Kind == KindDecide || n.Kind == KindSelect) && !c.Decided() {
			continue
		}
		runs = append(runs, i)
	}
	into := func(st ScopeStep) []ScopeStep { return append(slices.Clip(s), st) }
	if len(runs) == 0 {
		// A foreach's own commit follows its branches' in the log: a log
		// cut between them (a damaged record) holds items that ran.
		if n.Kind == KindForEach {
			if out := e.itemScopes(n, s, into); len(out) > 0 {
				return out
			}
		}
		wn.Reasons = append(wn.Reasons, e.notReached(n, s))
		return nil
	}
	switch n.Kind {
	case KindDecide, KindSelect:
		took := false
		for _, i := range runs {
			c := &e.cs[i]
			chosen := c.Evidence().Chosen
			if slices.Contains(chosen, step.branch) {
				took = true
				if last {
					wn.Ran = append(wn.Ran, Ran{Index: i, Path: c.Path})
				}
				continue
			}
			wn.Reasons = append(wn.Reasons, NotRun{Scope: ScopeString(s), steps: s, Because: BecauseRouted, Path: c.Path,
				Decision: e.routedAround(i, n, step.branch),
				Message:  choseNot(nameOr(n), chosen, step.branch)})
		}
		if !took || last {
			return nil
		}
		if n.Kind == KindSelect {
			return [][]ScopeStep{into(ScopeStep{Node: n.ID, Branch: step.branch})}
		}
		return [][]ScopeStep{s}
	case KindParallel:
		return [][]ScopeStep{into(ScopeStep{Node: n.ID, Branch: step.branch})}
	case KindSubflow:
		return [][]ScopeStep{into(ScopeStep{Node: n.ID})}
	case KindForEach:
		out := e.itemScopes(n, s, into)
		c := &e.cs[runs[len(runs)-1]]
		if len(out) == 0 {
			msg := fmt.Sprintf("%s ran over no items: no branch of it ran", nameOr(n))
			if c.Err != "" {
				msg = fmt.Sprintf("%s failed before any branch ran: %s", nameOr(n), c.Err)
			}
			wn.Reasons = append(wn.Reasons, NotRun{Scope: ScopeString(s), steps: s, Because: BecauseNoItems, Path: c.Path, Message: msg})
		}
		if t, ok := e.cutAt(n, s); ok {
			wn.Reasons = append(wn.Reasons, NotRun{Scope: ScopeString(s), steps: s, Because: BecauseCut, Path: c.Path, cut: n.ID,
				Message: fmt.Sprintf("%s ran %d of its %d items: %s never ran (maxBranches is %d), so nothing of %s is judged here", nameOr(n), t.MaxBranches, t.Items, cutItems(t), t.MaxBranches, cutPronoun(t))})
		}
		return out
	}
	return [][]ScopeStep{s}
}

// cutAt is the maxBranches cut of foreach n run in scope s, if it had one.
func (e *Explainer) cutAt(n *NodeInfo, s []ScopeStep) (Truncation, bool) {
	if len(e.cuts) == 0 {
		return Truncation{}, false
	}
	path := n.ID
	if len(s) > 0 {
		path = ScopeString(s) + "/" + n.ID
	}
	t, ok := e.cuts[path]
	return t, ok
}

// cutItems names the items a cut left out: "item 3", "items 2 to 9".
func cutItems(t Truncation) string {
	if t.Items-t.MaxBranches == 1 {
		return fmt.Sprintf("item %d", t.MaxBranches)
	}
	return fmt.Sprintf("items %d to %d", t.MaxBranches, t.Items-1)
}

func cutPronoun(t Truncation) string {
	if t.Items-t.MaxBranches == 1 {
		return "it"
	}
	return "them"
}

// itemScopes are the scopes of foreach n's items that have commits in
// the log, under scope s, in item order.
func (e *Explainer) itemScopes(n *NodeInfo, s []ScopeStep, into func(ScopeStep) []ScopeStep) [][]ScopeStep {
	items := map[int]bool{}
	for i := range e.cs {
		if k, ok := ItemStep(e.cs[i].Scope, s, n.ID); ok {
			items[k] = true
		}
	}
	var out [][]ScopeStep
	for _, k := range slices.Sorted(maps.Keys(items)) {
		out = append(out, into(ScopeStep{Node: n.ID, Item: &k}))
	}
	return out
}

// routedAround is the evidence of decision i that did not take wanted.
func (e *Explainer) routedAround(i int, n *NodeInfo, wanted string) *RoutedAround {
	c := &e.cs[i]
	ev := c.Evidence()
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
func (e *Explainer) notReached(n *NodeInfo, s []ScopeStep) NotRun {
	for i := range e.cs {
		c := &e.cs[i]
		if c.Err != "" && !c.Discarded && (within(s, c.Scope) || within(c.Scope, s)) && c.Stage != n.ID {
			if len(s) != 0 && len(c.Scope) == 0 {
				continue // a root failure ends the run: said below
			}
			return NotRun{Scope: ScopeString(s), steps: s, Because: BecauseFailed, Path: c.Path,
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
		return NotRun{Scope: ScopeString(s), steps: s, Because: BecauseEnded, Path: e.end.Path, Message: msg}
	}
	return NotRun{Scope: ScopeString(s), steps: s, Because: BecauseNotReached, Message: fmt.Sprintf("%s never ran here, and the log does not say why", nameOr(n))}
}

// routesTo finds the static ways down to a stage id (or name), or failing
// that to a decide or select with a branch of that name.
func (e *Explainer) routesTo(id string) (routes [][]routeStep, isBranch bool, known targets) {
	var byID, byName, byBranch [][]routeStep
	var walk func(s *Structure, prefix []routeStep)
	walk = func(s *Structure, prefix []routeStep) {
		ci := e.index(s)
		for k := range s.Nodes {
			var visit func(n *NodeInfo, pre []routeStep)
			visit = func(n *NodeInfo, pre []routeStep) {
				here := append(slices.Clip(pre), routeStep{node: n})
				known.stages = append(known.stages, n.ID)
				if n.Name != "" && n.Name != n.ID {
					known.stages = append(known.stages, n.Name)
				}
				if n.ID == id {
					byID = append(byID, here)
				} else if n.Name == id {
					byName = append(byName, here)
				}
				for b := range n.Branches {
					br := &n.Branches[b]
					if n.Kind == KindDecide || n.Kind == KindSelect {
						known.branches = append(known.branches, br.Name)
					}
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
		return byID, false, known
	case len(byName) > 0:
		return byName, false, known
	}
	return byBranch, len(byBranch) > 0, known
}

// targets are the words --why-not may name in a chart: its stages' ids and
// names, and its decide and select branches' names, in chart order.
type targets struct{ stages, branches []string }

// noSuchTarget is the error for a target the chart does not have: the
// nearest word it has, and its branches (what --why-not is mostly asked
// of), so a misspelled "critcal" is one look from "critical".
func noSuchTarget(id, chart string, known targets) error {
	msg := fmt.Sprintf("explain: no stage or branch %q in chart %s", id, chart)
	if near := suggest.Nearest(id, append(slices.Clone(known.branches), known.stages...)); near != "" {
		msg += fmt.Sprintf("; did you mean %q?", near)
	}
	if len(known.branches) > 0 {
		bs := slices.Clone(known.branches)
		slices.Sort(bs)
		msg += " (its decide branches: " + strings.Join(slices.Compact(bs), ", ") + ")"
	}
	return errors.New(msg)
}

// whyNotFromLog answers without the chart's structure: what ran, or the
// decisions whose rules name the target as a branch.
func (e *Explainer) whyNotFromLog(wn *WhyNot, id string, want []ScopeStep) {
	wn.Notes = append(wn.Notes, "the record holds no chart structure: only what the log itself names is shown")
	for i := range e.cs {
		c := &e.cs[i]
		if c.Stage == id && matches(c.Scope, want) {
			wn.Ran = append(wn.Ran, Ran{Index: i, Path: c.Path, Err: c.Err, Discarded: c.Discarded})
		}
	}
	if len(wn.Ran) > 0 {
		return
	}
	for i := range e.cs {
		c := &e.cs[i]
		ev := c.Evidence()
		if ev == nil || !namesBranch(ev, id) || !matches(c.Scope, want) && !deciderIs(c, want) {
			continue
		}
		wn.Kind, wn.Decider = "branch", c.Stage
		if slices.Contains(ev.Chosen, id) {
			wn.Ran = append(wn.Ran, Ran{Index: i, Path: c.Path})
			continue
		}
		wn.Reasons = append(wn.Reasons, NotRun{Scope: ScopeString(c.Scope), steps: c.Scope, Because: BecauseRouted, Path: c.Path,
			Decision: e.routedAround(i, nil, id), Message: choseNot(c.Stage, ev.Chosen, id)})
	}
	if len(wn.Ran)+len(wn.Reasons) == 0 {
		n := &NodeInfo{ID: id, Name: id}
		wn.Reasons = append(wn.Reasons, e.notReached(n, nil))
	}
	wn.Notes = append(wn.Notes, e.damaged...)
}

// deciderIs says whether want names decision c's place and c itself
// (`disk-level/critical` asks of the decider disk-level).
func deciderIs(c *Commit, want []ScopeStep) bool {
	if len(want) == 0 {
		return false
	}
	last := want[len(want)-1]
	return last.Node == c.Stage && last.Branch == "" && last.Item == nil && matches(c.Scope, want[:len(want)-1])
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

// choseNot says what a decision chose instead of want. A select no rule
// matched chose nothing, which is said in words: the list joined bare read
// "pick chose , not mid", a choice of a branch with no name.
func choseNot(decider string, chosen []string, want string) string {
	if len(chosen) == 0 {
		return fmt.Sprintf("%s chose no branch (no rule matched), not %s", decider, want)
	}
	return fmt.Sprintf("%s chose %s, not %s", decider, strings.Join(chosen, ", "), want)
}
