package flow

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dominikbraun/graph"

	"github.com/openrunbook/runbook/decide"

	"github.com/openrunbook/runbook/internal/ident"
	"github.com/openrunbook/runbook/internal/suggest"
)

// The forward graph's markers: where a chart starts and where it ends. They
// hold a `/`, which no valid stage id may, so they never collide with one.
const (
	graphStart = "/start"
	graphEnd   = "/end"
)

// validate returns every build-time refusal of engine.md §1, each a
// *NodeError naming the node and saying what would be right, in the order
// the nodes sit in the chart (chart-wide problems first). It is the one
// home of the chart's structural rules: the YAML loader checks only shape
// and points these refusals at file:line:col through NodeError.Field.
//
// It owns one rule per node kind:
//
//	every id        non-empty; letters, digits, '-', '_', '.'; never '~' or '/';
//	                unique in the chart, branch stages included
//	stage           a function
//	decide          branches, each named once; rules with a condition whose
//	                then names a branch; a default naming a branch (rules
//	                form); every branch reachable by a rule or the default
//	                (asked only when the rules are sound); or a Go decide
//	                function
//	select          as decide, without a default
//	parallel        branches, each named once
//	foreach         items, a body, maxBranches ≥ 1, as an identifier ≠ IndexKey
//	subflow         a chart that does not mount (transitively) this one
//	loop            a target EARLIER in its own sequence or in one enclosing
//	                it through decide branches (never leaving a parallel or
//	                select branch, a foreach body or a subflow); max ≥ 0
//
//	retry, timeout  attempts ≥ 1, backoff ≥ 0, timeout ≥ 0
//
// The messages are written in the chart format's words, so the loader's
// refusals read the same whether a chart came from YAML or from Go
// (validate_test.go holds each to its testdata/bad/*.golden line).
//
// It also builds the forward graph (loops excluded; see forwardGraph)
// and refuses a cycle that is not a declared loop and a node the start
// cannot reach. The graph is not kept: nothing after validation reads it,
// and the chart keeping it held four fifths of a 500-stage chart's memory
// (1.06 of 1.29 MB), which every collection of every run then marked.
func (c *Chart) validate() []error {
	v := &validator{c: c, pos: map[*node]int{}, nth: map[*node]int{}}
	if len(c.root.nodes) == 0 {
		v.add(nil, "stages", "stages is an empty list: give it at least one stage")
	}
	held := map[string]int{}
	c.preorder(func(n *node) {
		v.pos[n], v.nth[n] = len(v.pos), held[n.id]
		held[n.id]++
	})
	c.preorder(v.node)
	_, gerrs := c.forwardGraph(!v.idsUnique())
	v.errs = append(v.errs, gerrs...)
	sort.SliceStable(v.errs, func(i, j int) bool { return v.errs[i].pos < v.errs[j].pos })
	out := make([]error, len(v.errs))
	for i, e := range v.errs {
		out[i] = e.err
	}
	return out
}

// preorder visits every node of the chart in chart order: a node, then its
// branches' nodes, then the node after it. Foreach bodies and subflows are
// charts of their own and are not visited.
func (c *Chart) preorder(visit func(*node)) {
	var walk func(seq *sequence)
	walk = func(seq *sequence) {
		for _, n := range seq.nodes {
			visit(n)
			for _, br := range n.branches {
				walk(br.seq)
			}
		}
	}
	walk(c.root)
}

type validator struct {
	c    *Chart
	pos  map[*node]int // chart order
	nth  map[*node]int // NodeError.Nth
	errs []posErr
}

type posErr struct {
	pos int
	err error
}

// add records a refusal of node n (nil: the chart as a whole) about its
// key field (see NodeError for the fields).
func (v *validator) add(n *node, field, format string, args ...any) {
	e := &NodeError{Field: field, Msg: fmt.Sprintf(format, args...)}
	p := -1
	if n != nil {
		e.Node, e.Nth, p = n.id, v.nth[n], v.pos[n]
	}
	v.errs = append(v.errs, posErr{p, e})
}

// idsUnique says whether every node has its own non-empty id, so that the
// forward graph (keyed by id) is faithful.
func (v *validator) idsUnique() bool {
	seen := map[string]bool{}
	ok := true
	v.c.preorder(func(n *node) {
		if n.id == "" || seen[n.id] {
			ok = false
		}
		seen[n.id] = true
	})
	return ok
}

func (v *validator) node(n *node) {
	v.id(n)
	switch n.kind {
	case KindStage:
		if n.fn == nil {
			v.add(n, "", "stage has no function: give it a StageFunc")
		}
	case KindDecide, KindSelect:
		v.branches(n)
		v.decider(n)
	case KindParallel:
		v.branches(n)
	case KindForEach:
		v.forEach(n)
	case KindSubflow:
		v.subflow(n)
	case KindLoop:
		v.loop(n)
	default:
		v.add(n, "", "unknown node kind %q (one of: stage, decide, select, parallel, foreach, subflow, loop)", n.kind)
	}
	if r := n.retry; r != nil {
		if r.Attempts < 1 {
			v.add(n, "retry.attempts", "retry attempts is %d: it must be a whole number ≥ 1", r.Attempts)
		}
		if r.Backoff < 0 {
			v.add(n, "retry.backoff", "retry backoff is %s: it must be ≥ 0", r.Backoff)
		}
		if r.MaxBackoff < 0 {
			v.add(n, "retry.maxBackoff", "retry maxBackoff is %s: it must be ≥ 0 (0: no cap)", r.MaxBackoff)
		}
	}
	if n.timeout < 0 {
		v.add(n, "timeout", "timeout %q is negative: it must be ≥ 0", n.timeout.String())
	}
}

// id refuses an empty id, any character outside letters, digits, '-', '_'
// and '.' ('~' and '/' are named as reserved for runtime paths), and an id
// a node earlier in the chart already has (link indexed the first).
func (v *validator) id(n *node) {
	if n.id == "" {
		v.add(n, "id", "stage %d has no id: every stage needs one (letters, digits, '-', '_', '.')", n.index+1)
		return
	}
	if msg := ident.Problem(n.id); msg != "" {
		v.add(n, "id", "id %q %s", n.id, msg)
		return
	}
	if first := v.c.byID[n.id]; first != nil && first != n {
		v.add(n, "id", "id %q is used twice in this chart: ids are unique in a chart, branch stages included", n.id)
	}
}

// branches checks that a branching node has branches, each with its own
// non-empty name.
func (v *validator) branches(n *node) {
	if len(n.branches) == 0 {
		if n.kind == KindParallel {
			v.add(n, "branches", "parallel is an empty map: declare at least one branch, NAME: [stages]")
		} else {
			v.add(n, "branches", "%s has no branches: add branches: {NAME: [stages], …} beside %s:", n.kind, n.kind)
		}
		return
	}
	seen := map[string]bool{}
	for i, br := range n.branches {
		switch {
		case br.name == "":
			v.add(n, fmt.Sprintf("branches[%d]", i), "branch %d has an empty name: every branch needs a name", i+1)
		case seen[br.name]:
			v.add(n, "branches."+br.name, "branch %q is declared twice: branch names must be unique within a %s", br.name, n.kind)
		}
		seen[br.name] = true
	}
}

// decider checks a decide or select node's rules, default and branch reach.
func (v *validator) decider(n *node) {
	goDecider := n.kind == KindDecide && n.def == nil && len(n.rules) == 0
	if goDecider {
		if n.decideFn == nil {
			v.add(n, "", "decide has neither rules nor a decide function: give it rules and a default, or a DecideFunc")
		}
		return // a Go decider may reach any branch
	}
	names := branchNames(n)
	has := map[string]bool{}
	for _, name := range names {
		has[name] = true
	}
	list := strings.Join(names, ", ")
	before := len(v.errs)
	for i, r := range n.rules {
		if r.When == nil {
			v.add(n, ruleField(n, i, "when"), "rule %d has no when: give it a condition, an expression (when: used > 90) or a filter (when: {used: {gt: 90}})", i+1)
		}
		if len(names) > 0 && !has[r.Then] { // with no branches, "no branches" says it
			v.add(n, ruleField(n, i, "then"), "rule %d: then %q names no branch (branches: %s)", i+1, r.Then, list)
		}
	}
	if n.kind == KindDecide {
		switch {
		case n.def == nil || n.def.Branch == "":
			v.add(n, "decide.default", "decide has no default: name the branch to take when no rule matches, such as default: declined (branches: %s)", list)
		case len(names) > 0 && !has[n.def.Branch]:
			v.add(n, "decide.default", "default %q names no branch (branches: %s)", n.def.Branch, list)
		}
	}
	if len(v.errs) > before || len(names) == 0 {
		return // a broken rule might have reached any branch: say nothing of reach
	}
	var def *decide.Default
	if n.kind == KindDecide {
		def = n.def
	}
	reached := map[string]bool{}
	for _, b := range decide.Branches(n.rules, def) {
		reached[b] = true
	}
	for _, name := range names {
		if name != "" && !reached[name] {
			if n.kind == KindDecide {
				v.add(n, "branches."+name, "branch %q can never be taken: no rule's then and not the default names it (add a rule for it, or remove it)", name)
			} else {
				v.add(n, "branches."+name, "branch %q can never be taken: no rule's then names it (add a rule for it, or remove it)", name)
			}
		}
	}
}

func (v *validator) forEach(n *node) {
	fe := n.forEach
	if fe == nil {
		v.add(n, "", "foreach has no spec: use Builder.ForEach")
		return
	}
	if fe.items == nil {
		v.add(n, "foreach.items", "foreach has no items: give it an expression giving the list, such as items: volumes")
	}
	switch {
	case fe.as == IndexKey:
		v.add(n, "foreach.as", "foreach as is %q, the key every branch already gets for its item's position: choose another name (default %q)", IndexKey, DefaultItemKey)
	case !ident.IsName(fe.as):
		v.add(n, "foreach.as", "foreach as %q is not a name an expression can read: use letters, digits and _, not starting with a digit", fe.as)
	}
	switch {
	case fe.maxBranches == 0:
		v.add(n, "foreach.maxBranches", "foreach has no maxBranches: it is required, the most branches this foreach may start (≥ 1); items past it do not run and the cut is recorded")
	case fe.maxBranches < 0:
		v.add(n, "foreach.maxBranches", "foreach maxBranches is %d: it must be a whole number ≥ 1", fe.maxBranches)
	}
	if fe.body == nil && !fe.bodyRefused {
		v.add(n, "foreach.stages", "foreach has no stages: give it the stages each item runs")
	}
}

func (v *validator) subflow(n *node) {
	if n.subflow == nil {
		v.add(n, "subflow", "subflow has no chart: mount a built *Chart")
		return
	}
	path, ok := mountsChart(n.subflow, v.c, map[*Chart]bool{}, true)
	switch {
	case !ok:
	case len(path) == 1:
		v.add(n, "subflow", "subflow mounts chart %q, the chart being built (same name): a chart cannot mount itself; mount another chart or rename one", v.c.name)
	default:
		v.add(n, "subflow", "subflow mounts chart %q, the chart being built (via %s): a chart cannot mount itself, even through other charts", v.c.name, strings.Join(path, " → "))
	}
}

// mountsChart reports whether sub is target, or a chart mounted as a subflow
// with target's name, or mounts such a chart (through subflows and foreach
// bodies), with the chart names on the way. A foreach body is named after
// its foreach's id, so only a subflow's name is compared.
func mountsChart(sub, target *Chart, seen map[*Chart]bool, bySubflow bool) ([]string, bool) {
	if sub == nil || seen[sub] {
		return nil, false
	}
	seen[sub] = true
	if sub == target || (bySubflow && sub.name == target.name) {
		return []string{sub.name}, true
	}
	var path []string
	found := false
	sub.preorder(func(n *node) {
		if found {
			return
		}
		var p []string
		var ok bool
		switch {
		case n.subflow != nil:
			p, ok = mountsChart(n.subflow, target, seen, true)
		case n.forEach != nil:
			p, ok = mountsChart(n.forEach.body, target, seen, false)
		}
		if ok {
			path, found = append([]string{sub.name}, p...), true
		}
	})
	return path, found
}

// loop checks a loop's bound and its target, and resolves the target (the
// node the run jumps to): an earlier stage of the loop's own sequence, or
// of an enclosing one, never leaving a parallel or select branch (those run
// beside each other; a jump out of one has nowhere to land). It is the one
// home of the loop-target rule: the run only follows n.loopTarget.
func (v *validator) loop(n *node) {
	l := n.loop
	if l == nil {
		v.add(n, "", "loop has no spec: use Builder.Loop")
		return
	}
	if l.Max < 0 {
		v.add(n, "loop.max", "loop max is %d: it must be ≥ 0 (0: the default, %d)", l.Max, DefaultLoopMax)
	}
	allowed := loopTargets(n)
	cands := make([]string, 0, len(allowed))
	for _, t := range allowed { // nearest first: the nearest of a repeated id wins
		cands = append(cands, t.id)
		if t.id == l.To && n.loopTarget == nil {
			n.loopTarget = t
		}
	}
	if n.loopTarget != nil {
		return
	}
	// The messages are the YAML loader's words (it points at loop.to).
	cl := loopCandidates(cands)
	target := v.c.byID[l.To]
	switch {
	case l.To == "":
		v.add(n, "loop.to", "loop has no to: name the earlier stage to jump back to")
	case l.To == n.id:
		v.add(n, "loop.to", "loop targets itself: a loop jumps back to an earlier stage (%s)", cl)
	case target == nil:
		if near := suggest.Nearest(l.To, chartOrder(cands)); near != "" {
			v.add(n, "loop.to", "loop to %q names no stage of this chart; did you mean %q? (%s)", l.To, near, cl)
		} else {
			v.add(n, "loop.to", "loop to %q names no stage of this chart; a foreach body or a subflow is a chart of its own and a loop cannot leave it (%s)", l.To, cl)
		}
	case v.pos[target] > v.pos[n]:
		v.add(n, "loop.to", "loop to %q names a later stage: a loop jumps back to an earlier one (%s)", l.To, cl)
	default:
		v.add(n, "loop.to", "loop to %q names a stage in a branch the loop is not in, or across a parallel or select branch: a loop may jump only to an earlier stage of its own sequence or of one enclosing it through decide branches (%s)", l.To, cl)
	}
}

// loopTargets lists, nearest first, the stages a loop may jump to: the
// earlier nodes of its own sequence, then, through each decide branch it
// sits in, the decider and the nodes before it. A parallel or select branch
// stops the walk (its branches run beside each other; a jump out of one has
// nowhere to land).
func loopTargets(n *node) []*node {
	var allowed []*node
	seq, last := n.seq, n.index-1 // not the loop itself
	for seq != nil {
		for j := last; j >= 0; j-- {
			allowed = append(allowed, seq.nodes[j])
		}
		p := seq.parent
		if p == nil || p.kind != KindDecide {
			break
		}
		seq, last = p.seq, p.index
	}
	return allowed
}

// chartOrder reverses a nearest-first list of loop targets into chart order.
func chartOrder(ids []string) []string {
	rev := make([]string, len(ids))
	for i, id := range ids {
		rev[len(ids)-1-i] = id
	}
	return rev
}

// loopCandidates lists a loop's targets (nearest first) in chart order.
func loopCandidates(ids []string) string {
	if len(ids) == 0 {
		return "there is no earlier stage it could jump to"
	}
	return "earlier stages it may jump to: " + strings.Join(chartOrder(ids), ", ")
}

// ruleField is the Field of a decider's rule i (0-based): `decide.rules[1].then`.
func ruleField(n *node, i int, key string) string {
	return fmt.Sprintf("%s.rules[%d].%s", n.kind, i, key)
}

func branchNames(n *node) []string {
	names := make([]string, 0, len(n.branches))
	for _, br := range n.branches {
		names = append(names, br.name)
	}
	return names
}

// forwardGraph builds the chart's forward structure: a vertex per node id
// and the start/end markers; an edge from each node to the next in its
// sequence, from a branching node to the first node of each branch (edge
// attribute "branch" = the branch name; to the join when the branch is
// empty), from a selector to the join (zero selected is fine), and from the
// last node of a branch to the join. Loops are declared back edges and are
// left out, so the graph must be acyclic: a node on a cycle is refused, and
// so is a node the start cannot reach. With ids not unique (already
// refused), vertices merge and those two checks are skipped.
//
// Cost: linear in nodes and edges. The graph is built with the Acyclic
// trait and checked once with StronglyConnectedComponents (Tarjan), not with
// PreventCycles, whose check on every AddEdge is a graph walk (a
// 5000-stage chart took 2.4s to build that way; 65ms this way).
func (c *Chart) forwardGraph(idsMerged bool) (graph.Graph[string, string], []posErr) {
	g := graph.New(graph.StringHash, graph.Directed(), graph.Acyclic())
	var errs []posErr
	pos := map[string]int{}
	_ = g.AddVertex(graphStart)
	c.preorder(func(n *node) {
		if _, ok := pos[n.id]; !ok {
			pos[n.id] = len(pos)
		}
		_ = g.AddVertex(n.id, graph.VertexAttribute("kind", string(n.kind)))
	})
	_ = g.AddVertex(graphEnd)
	edge := func(from, to, label string) {
		var opts []func(*graph.EdgeProperties)
		if label != "" {
			opts = append(opts, graph.EdgeAttribute("branch", label))
		}
		_ = g.AddEdge(from, to, opts...) // ErrEdgeAlreadyExists: two ways to one join
	}
	var addSeq func(seq *sequence, exit string)
	addSeq = func(seq *sequence, exit string) {
		for i, n := range seq.nodes {
			next := exit
			if i+1 < len(seq.nodes) {
				next = seq.nodes[i+1].id
			}
			if len(n.branches) == 0 {
				edge(n.id, next, "")
				continue
			}
			for _, br := range n.branches {
				if len(br.seq.nodes) == 0 {
					edge(n.id, next, br.name)
					continue
				}
				edge(n.id, br.seq.nodes[0].id, br.name)
				addSeq(br.seq, next)
			}
			if n.kind == KindSelect {
				edge(n.id, next, "")
			}
		}
	}
	if len(c.root.nodes) == 0 {
		edge(graphStart, graphEnd, "")
	} else {
		edge(graphStart, c.root.nodes[0].id, "")
		addSeq(c.root, graphEnd)
	}
	if idsMerged {
		return g, errs
	}
	errs = append(errs, cycleErrors(g, pos)...)
	reached := map[string]bool{}
	_ = graph.BFS(g, graphStart, func(id string) bool { reached[id] = true; return false })
	c.preorder(func(n *node) {
		if !reached[n.id] {
			errs = append(errs, posErr{pos[n.id], &NodeError{Node: n.id,
				Msg: "the chart's start cannot reach this node: every node must sit in the root sequence or in a branch"}})
		}
	})
	return g, errs
}

// cycleErrors refuses every cycle of the forward graph, each named by its
// earliest node in chart order and listing the nodes on it in that order.
func cycleErrors(g graph.Graph[string, string], pos map[string]int) []posErr {
	comps, err := graph.StronglyConnectedComponents(g)
	if err != nil {
		return []posErr{{-1, &NodeError{Msg: "the chart's structure could not be checked for cycles: " + err.Error()}}}
	}
	adj, _ := g.AdjacencyMap()
	var errs []posErr
	for _, comp := range comps {
		if len(comp) == 1 {
			if _, self := adj[comp[0]][comp[0]]; !self {
				continue
			}
		}
		sort.Slice(comp, func(i, j int) bool { return pos[comp[i]] < pos[comp[j]] })
		errs = append(errs, posErr{pos[comp[0]], &NodeError{Node: comp[0],
			Msg: fmt.Sprintf("this node is on a cycle that is not a declared loop (nodes on it: %s): use a loop stage for a back edge",
				strings.Join(comp, ", "))}})
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].pos < errs[j].pos })
	return errs
}
