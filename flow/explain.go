package flow

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/decide"
)

// Explainer answers "why" over a finished run's log, or a saved one: why a
// value is what it is (Key), what a stage's execution rested on (Stage),
// why a stage or branch did not run (WhyNot), and what the state was at any
// commit (StateAt). It reads nothing but the log and, when given, the
// chart's static structure and how the run ended; it never runs anything.
//
// It owns the causal walk, one rule read in one order:
//
//	a commit's causes      the decision that routed the flow into its branch (the
//	                       innermost decide or select around it), then the commits that
//	                       wrote what it read BEFORE its write of the key asked about
//	                       (Write.ReadsBefore), each followed the same way
//	a join's write         the branch commit it came from (Write.From)
//	a gathered row         (verdicts[i] of a foreach or join) the commit that appended it,
//	                       found by walking the branches' commits in log order (below)
//	an answer              the commit that asked the question
//	a leaf                 an input (given or assumed), a foreach item (`volume` of
//	                       branch per-volume~3: the chain stops there), a key that was
//	                       missing, or a writer the log does not hold (a damaged record)
//	order                  a gathered list's rows first, in row order; then newest
//	                       cause first; leaves last; each commit is explained once,
//	                       later mentions say Seen
//
// Row provenance (verdicts[i]) is derived, never stored: a gathering commit
// (a foreach, or a join whose write carries From) holds the rows that were
// there before it (the list its scope saw: the last visible writer's) then
// each branch's appended rows in branch order; a branch's rows are those of
// the last commit in that branch's scope that wrote the key, past the base.
// A plain commit that read the list and wrote it longer appended the rows
// past what it read.
//
// Example:
//
//	ex := flow.NewExplainer(&res.Log, flow.WithStructure(chart.Describe()))
//	e, err := ex.Key("verdicts[3].verdict", -1)
//	// e.Root: the foreach commit; its cause: per-volume~3/mark-risk#1, routed
//	// by per-volume~3/posture#0 (rule "Nearly full" and the values it read),
//	// resting on the item `volume` of branch per-volume~3.
type Explainer struct {
	log      *Log
	st       *Structure
	end      End
	inputs   map[string]string
	maxDepth int
	gather   []string

	byPath  map[string][]int
	charts  map[*Structure]*chartIndex
	damaged []string
}

// ExplainVersion is bumped when a word or the shape of an explanation
// changes (the CLI's text is built from these words).
const ExplainVersion = 1

// DefaultExplainDepth bounds a causal tree's depth (a loop's passes chain
// one under the other); deeper causes are cut with a note.
const DefaultExplainDepth = 200

// End is how a run ended, for WhyNot: a stage after a failure, a
// cancellation or a pause never ran because of it.
type End struct {
	// Status is completed, failed, cancelled or paused.
	Status Status `json:"status"`
	// Path is the runtime (or record) path of the stage that failed, was
	// running when the run was cancelled, or asked.
	Path    string `json:"path,omitempty"`
	Message string `json:"message,omitempty"`
}

// ExplainOption configures an Explainer.
type ExplainOption func(*Explainer)

// WithStructure gives the chart's static structure: without it a chain
// cannot name the decision that routed a stage into its branch, nor can
// WhyNot say where a stage that never ran sits.
func WithStructure(s Structure) ExplainOption {
	return func(e *Explainer) { e.st = &s }
}

// WithGathered names the keys the run gathered (WithGather): a foreach's
// write of one is explained row by row, each row from its own branch.
func WithGathered(keys ...string) ExplainOption {
	return func(e *Explainer) { e.gather = append(e.gather, keys...) }
}

// WithEnd says how the run ended.
func WithEnd(end End) ExplainOption { return func(e *Explainer) { e.end = end } }

// WithInputKinds says, per input key, how it came in ("given" or
// "assumed"); input leaves carry it.
func WithInputKinds(kinds map[string]string) ExplainOption {
	return func(e *Explainer) { e.inputs = kinds }
}

// WithExplainDepth bounds the trees' depth (default DefaultExplainDepth).
func WithExplainDepth(n int) ExplainOption { return func(e *Explainer) { e.maxDepth = n } }

// NewExplainer indexes the log once (one pass over its commits).
func NewExplainer(l *Log, opts ...ExplainOption) *Explainer {
	e := &Explainer{log: l, maxDepth: DefaultExplainDepth, byPath: make(map[string][]int, len(l.Commits)), charts: map[*Structure]*chartIndex{}}
	for _, o := range opts {
		o(e)
	}
	for i := range l.Commits {
		e.byPath[l.Commits[i].Path] = append(e.byPath[l.Commits[i].Path], i)
		if l.Commits[i].Index != i && len(e.damaged) < 1 {
			e.damaged = append(e.damaged, fmt.Sprintf("commit %d (%s) says it is commit %d: commit numbers below are positions in the log", i, l.Commits[i].Path, l.Commits[i].Index))
		}
	}
	return e
}

// Relations: how a cause relates to the node it is under.
const (
	RelWrote  = "wrote"  // the root: the commit that wrote the value asked about
	RelRead   = "read"   // the parent read Key, written here
	RelRouted = "routed" // this decision routed the parent into its branch
	RelJoined = "joined" // the parent (a join) took Key from this branch commit
	RelRow    = "row"    // the parent's row Key was appended here
	RelAsked  = "asked"  // the parent wrote an answer to the question asked here
)

// Node kinds.
const (
	NodeCommit  = "commit"  // a stage execution in the log
	NodeInput   = "input"   // a value the run started with
	NodeItem    = "item"    // a foreach item (or index) of a branch: the branch's input
	NodeMissing = "missing" // the key did not exist when read
	NodeUnknown = "unknown" // the writer named is not in the log (a damaged record)
	NodeState   = "state"   // the whole state (All): one cause per key
)

// Explanation is the answer to one query: a tree of causes under Root.
type Explanation struct {
	// Query is what was asked, as given.
	Query string `json:"query"`
	// At is the commit the query was answered as of (the last when not given).
	At int `json:"at"`
	// Value is the value asked about (absent for a stage query).
	Value any `json:"value,omitempty"`
	// Root is the commit that wrote it (or the input it came in as).
	Root *CauseNode `json:"root"`
	// Notes are what the explainer could not do: no structure, a damaged
	// log, causes cut at the depth bound.
	Notes []string `json:"notes,omitempty"`
}

// CauseNode is one node of a causal tree. (Cause, in log.go, is one link
// of the flat Chain; a CauseNode has its own causes under it.)
type CauseNode struct {
	Kind string `json:"kind"`
	// Rel is how this node relates to the one above it.
	Rel string `json:"rel"`
	// Key is the key (or row, `verdicts[3]`) this node supplied; for a
	// decision, empty.
	Key   string `json:"key,omitempty"`
	Value any    `json:"value,omitempty"`
	// Index, Path and Stage locate a commit (Index is -1 for leaves).
	Index int    `json:"index"`
	Path  string `json:"path,omitempty"`
	Stage string `json:"stage,omitempty"`
	// Name is the stage's name, when the structure gives one that differs
	// from its id.
	Name string `json:"name,omitempty"`
	// Err is the commit's failure.
	Err string `json:"error,omitempty"`
	// Input is "given" or "assumed" for an input leaf, when known.
	Input string `json:"input,omitempty"`
	// ItemOf and ItemIndex name the foreach commit and the branch an item
	// leaf belongs to.
	ItemOf    string `json:"itemOf,omitempty"`
	ItemIndex int    `json:"itemIndex,omitempty"`
	// Route is set on a routing decision: the branch it chose into the
	// node above, and why.
	Route *Route `json:"route,omitempty"`
	// Answer is set on a commit that wrote a person's answer.
	Answer *Answer `json:"answer,omitempty"`
	// Gathered says, on a gathering commit, which branch a row came from.
	Gathered string `json:"gathered,omitempty"`
	// Seen is true when this commit is explained elsewhere in the tree.
	Seen bool `json:"seen,omitempty"`
	// Cut is true when the depth bound stopped the walk here.
	Cut    bool         `json:"cut,omitempty"`
	Causes []*CauseNode `json:"causes,omitempty"`
}

// Route is why a decision sent the flow into a branch.
type Route struct {
	Kind   decide.Kind `json:"kind"`
	Branch string      `json:"branch"`
	// Rule is the rule that chose the branch; nil when the default did.
	Rule *decide.RuleEvidence `json:"rule,omitempty"`
	// Default is set when the default branch was taken.
	Default *decide.Default `json:"default,omitempty"`
}

// StateAt is the root scope's state as of commit n (n < 0: the inputs; past
// the end: the final state) and the commit it names.
func (e *Explainer) StateAt(n int) (map[string]any, *Commit) {
	if n >= len(e.log.Commits) {
		n = len(e.log.Commits) - 1
	}
	var c *Commit
	if n >= 0 {
		c = &e.log.Commits[n]
	}
	return e.log.StateAt(n), c
}

// Key explains the value at key as of commit at (at < 0: the end of the
// run). key is a root scope key, optionally followed by a path into its
// value: `df.stdout[2].usedPct`, `verdicts[3].verdict`. A gathered row
// (`verdicts[3]`) is followed to the branch commit that appended it.
func (e *Explainer) Key(key string, at int) (*Explanation, error) {
	if at < 0 || at >= len(e.log.Commits) {
		at = len(e.log.Commits) - 1
	}
	state := e.log.StateAt(at)
	root, path, err := splitKey(key, state)
	if err != nil {
		return nil, err
	}
	ex := &Explanation{Query: key, At: at}
	w := &walk{e: e, seen: map[string]bool{}}
	wi, ok := e.lastWriterIn("", root, at+1)
	if !ok {
		v, in := e.log.Inputs[root]
		if !in {
			return nil, fmt.Errorf("explain: %q was never written and is not an input (as of commit %d)", root, at)
		}
		val, vok := valueAt(v, path)
		if !vok {
			return nil, fmt.Errorf("explain: %q: input %s has no %s", key, root, pathString(path))
		}
		ex.Value = val
		ex.Root = &CauseNode{Kind: NodeInput, Rel: RelWrote, Key: key, Value: val, Index: -1, Input: e.inputs[root]}
		ex.Notes = w.notes(e)
		return ex, nil
	}
	c := &e.log.Commits[wi]
	wr := writeOf(c, root)
	if wr.Deleted {
		ex.Root = w.commit(wi, RelWrote, root, nil, 0)
		ex.Notes = append(w.notes(e), fmt.Sprintf("%s deleted %s", c.Path, root))
		return ex, nil
	}
	val, vok := valueAt(wr.Value, path)
	if !vok {
		return nil, fmt.Errorf("explain: %q: %s (written by %s) has no %s", key, root, c.Path, pathString(path))
	}
	ex.Value = val
	if len(path) > 0 {
		if row, isRow := path[0].(int); isRow {
			if origin, hops, ok := e.rowOrigin(wi, root, row, 0); ok && origin != wi {
				// The gathering commit, then each hop down to the commit that
				// appended the row.
				node := w.commitShallow(wi, RelWrote, key, val)
				cur := node
				for k, h := range hops {
					if k > 0 {
						next := w.commitShallow(h.index, RelRow, fmt.Sprintf("%s[%d]", root, h.row), nil)
						cur.Causes = append(cur.Causes, next)
						cur = next
					}
					cur.Gathered = h.branch
				}
				cur.Causes = append(cur.Causes, w.commit(origin, RelRow, fmt.Sprintf("%s[%d]", root, row), nil, 1))
				ex.Root = node
				ex.Notes = w.notes(e)
				return ex, nil
			}
		}
	}
	wkey := root
	if len(path) > 0 {
		if row, isRow := path[0].(int); isRow {
			wkey = fmt.Sprintf("%s[%d]", root, row) // the list it appended to is not a cause
		}
	}
	ex.Root = w.commit(wi, RelWrote, wkey, nil, 0)
	ex.Root.Key, ex.Root.Value = key, val
	ex.Notes = w.notes(e)
	return ex, nil
}

// All explains every root key of the state as of commit at (at < 0: the
// end): the root is a node of kind "state" with one cause per key, in key
// order.
func (e *Explainer) All(at int) (*Explanation, error) {
	if at < 0 || at >= len(e.log.Commits) {
		at = len(e.log.Commits) - 1
	}
	state := e.log.StateAt(at)
	ex := &Explanation{Query: "", At: at, Root: &CauseNode{Kind: NodeState, Rel: RelWrote, Index: at}}
	w := &walk{e: e, seen: map[string]bool{}}
	keys := make([]string, 0, len(state))
	for k := range state {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if wi, ok := e.lastWriterIn("", k, at+1); ok {
			ex.Root.Causes = append(ex.Root.Causes, w.commit(wi, RelWrote, k, nil, 1))
		} else {
			ex.Root.Causes = append(ex.Root.Causes, &CauseNode{Kind: NodeInput, Rel: RelWrote, Key: k, Value: state[k], Index: -1, Input: e.inputs[k]})
		}
	}
	ex.Notes = w.notes(e)
	return ex, nil
}

// NotRanError is an explanation asked of a stage that never ran at Path.
// A caller may point the asker at why it did not (the CLI's --why-not).
type NotRanError struct{ Path string }

func (e *NotRanError) Error() string { return fmt.Sprintf("explain: no stage ran at %q", e.Path) }

// Stage explains one stage execution: everything it read, the decision
// that routed the flow to it, transitively. path is a runtime path
// (`per-volume~3/posture#2`), or one without the counter or a bare stage
// id, meaning its last execution.
func (e *Explainer) Stage(path string) (*Explanation, error) {
	i, ok := e.findStage(path)
	if !ok {
		return nil, &NotRanError{Path: path}
	}
	w := &walk{e: e, seen: map[string]bool{}}
	ex := &Explanation{Query: path, At: i}
	ex.Root = w.commit(i, RelWrote, "", nil, 0)
	ex.Notes = w.notes(e)
	return ex, nil
}

// findStage resolves a stage query to a commit: an exact runtime path, the
// last commit whose path without its counter is path, or the last
// execution of a stage id.
func (e *Explainer) findStage(path string) (int, bool) {
	if is := e.byPath[path]; len(is) > 0 {
		return is[len(is)-1], true
	}
	for i := len(e.log.Commits) - 1; i >= 0; i-- {
		if stripCounter(e.log.Commits[i].Path) == path {
			return i, true
		}
	}
	for i := len(e.log.Commits) - 1; i >= 0; i-- {
		if e.log.Commits[i].Stage == path {
			return i, true
		}
	}
	return -1, false
}

// walk builds one tree; seen keeps each (commit, key) explained once.
type walk struct {
	e    *Explainer
	seen map[string]bool
	cut  bool
}

func (w *walk) notes(e *Explainer) []string {
	notes := slices.Clone(e.damaged)
	if e.st == nil {
		notes = append(notes, "the record holds no chart structure: the decisions that routed stages into their branches are not shown")
	}
	if w.cut {
		notes = append(notes, fmt.Sprintf("causes deeper than %d levels are cut", e.maxDepth))
	}
	return notes
}

// commitShallow is a commit node without its causes.
func (w *walk) commitShallow(i int, rel, key string, val any) *CauseNode {
	c := &w.e.log.Commits[i]
	n := &CauseNode{Kind: NodeCommit, Rel: rel, Key: key, Value: val, Index: i, Path: c.Path, Stage: c.Stage, Err: c.Err, Answer: c.Answer}
	if ni, _, ok := w.e.locate(c.Path); ok && ni.Name != "" && ni.Name != ni.ID {
		n.Name = ni.Name
	}
	return n
}

// commit is a commit node explaining its write of key (all its reads when
// key is "" or not written there), with its causes.
func (w *walk) commit(i int, rel, key string, val any, depth int) *CauseNode {
	n := w.commitShallow(i, rel, key, val)
	c := &w.e.log.Commits[i]
	// A row (`verdicts[3]`) is explained as the write of its list, minus
	// the read of the list it appended to: the rows before it are not its
	// causes.
	wkey, isRow := key, false
	if b := strings.IndexByte(key, '['); b > 0 {
		wkey, isRow = key[:b], true
	}
	if val == nil && key != "" && !isRow {
		if wr := writeOf(c, key); wr != nil {
			n.Value = wr.Value
		}
	}
	id := strconv.Itoa(i) + "\x00" + key
	if w.seen[id] {
		n.Seen = true
		return n
	}
	w.seen[id] = true
	if depth >= w.e.maxDepth {
		n.Cut, w.cut = true, true
		return n
	}
	var causes, rowNodes []*CauseNode
	// The decision that routed the flow here.
	if d, route, ok := w.e.router(i); ok {
		dn := w.commit(d, RelRouted, "", nil, depth+1)
		dn.Route = route
		causes = append(causes, dn)
	}
	// The question an answer answers.
	if c.Answer != nil && c.Answer.Asked != "" {
		if q, ok := w.e.resolve(c.Answer.Asked, i); ok {
			causes = append(causes, w.commit(q, RelAsked, "", nil, depth+1))
		} else {
			causes = append(causes, &CauseNode{Kind: NodeUnknown, Rel: RelAsked, Index: -1, Path: c.Answer.Asked})
		}
	}
	reads := c.Reads
	wr := (*Write)(nil)
	if wkey != "" {
		wr = writeOf(c, wkey)
	}
	if wr != nil {
		if wr.ReadsBefore >= 0 && wr.ReadsBefore <= len(reads) {
			reads = reads[:wr.ReadsBefore]
		}
		// A foreach's gathered list is explained row by row (each row's
		// own branch commit), not as one join of every branch.
		rows := !isRow && slices.Contains(w.e.gather, key) && w.e.isForEach(i)
		for _, from := range splitPaths(wr.From) {
			if rows {
				break
			}
			if j, ok := w.e.resolve(from, i); ok {
				causes = append(causes, w.commit(j, RelJoined, key, nil, depth+1))
			} else {
				causes = append(causes, &CauseNode{Kind: NodeUnknown, Rel: RelJoined, Key: key, Index: -1, Path: from})
			}
		}
		if rows {
			// A gathered list: one cause per row, in row order.
			if list, ok := wr.Value.([]any); ok {
				for r := range list {
					if o, _, ok := w.e.rowOrigin(i, key, r, 0); ok && o != i {
						rowNodes = append(rowNodes, w.commit(o, RelRow, fmt.Sprintf("%s[%d]", key, r), list[r], depth+1))
					}
				}
			}
		}
	}
	var leaves []*CauseNode
	for _, r := range reads {
		if isRow && r.Key == wkey {
			continue
		}
		if r.Missing {
			leaves = append(leaves, &CauseNode{Kind: NodeMissing, Rel: RelRead, Key: r.Key, Index: -1})
			continue
		}
		if r.Writer == "" {
			leaves = append(leaves, &CauseNode{Kind: NodeInput, Rel: RelRead, Key: r.Key, Value: r.Value, Index: -1, Input: w.e.inputs[r.Key]})
			continue
		}
		j, ok := w.e.resolve(r.Writer, i)
		if !ok {
			leaves = append(leaves, &CauseNode{Kind: NodeUnknown, Rel: RelRead, Key: r.Key, Value: r.Value, Index: -1, Path: r.Writer})
			continue
		}
		if k, isItem := w.e.itemOf(j, i); isItem {
			leaves = append(leaves, &CauseNode{Kind: NodeItem, Rel: RelRead, Key: r.Key, Value: r.Value, Index: -1, ItemOf: w.e.log.Commits[j].Path, ItemIndex: k})
			continue
		}
		causes = append(causes, w.commit(j, RelRead, r.Key, r.Value, depth+1))
	}
	slices.SortStableFunc(causes, func(a, b *CauseNode) int { return b.Index - a.Index })
	n.Causes = append(append(rowNodes, causes...), leaves...)
	return n
}

// rowHop is one gathering step on the way to a row's origin.
type rowHop struct {
	index  int    // the commit holding the row
	row    int    // its place in that commit's list
	branch string // the branch scope it came from (on a gathering step)
}

// rowOrigin finds the commit that appended row `row` of the list key as
// written by commit ci, and the commits the row passed through. ok is
// false when the row came with the inputs or cannot be traced.
func (e *Explainer) rowOrigin(ci int, key string, row, depth int) (int, []rowHop, bool) {
	if depth > e.maxDepth {
		return -1, nil, false
	}
	c := &e.log.Commits[ci]
	wr := writeOf(c, key)
	if wr == nil {
		return -1, nil, false
	}
	list, _ := wr.Value.([]any)
	if row < 0 || row >= len(list) {
		return -1, nil, false
	}
	var branches []int
	var names []string
	switch {
	case wr.From != "":
		for _, p := range splitPaths(wr.From) {
			j, ok := e.resolve(p, ci)
			if !ok {
				return -1, nil, false
			}
			branches = append(branches, j)
			names = append(names, ScopeOf(e.log.Commits[j].Path))
		}
	case e.isForEach(ci):
		branches, names = e.forEachFinals(ci, key)
	default:
		// A plain stage appended the rows past what it read.
		for _, r := range c.Reads {
			if r.Key != key {
				continue
			}
			prev, _ := r.Value.([]any)
			if r.Missing || row >= len(prev) {
				return ci, nil, true
			}
			if r.Writer == "" {
				return -1, nil, false
			}
			j, ok := e.resolve(r.Writer, ci)
			if !ok {
				return -1, nil, false
			}
			o, hops, ok := e.rowOrigin(j, key, row, depth+1)
			return o, hops, ok
		}
		return ci, nil, true
	}
	// A gathering commit: the rows its scope had, then each branch's own.
	base := 0
	if j, ok := e.lastWriterIn(ScopeOf(c.Path), key, ci); ok {
		if bw := writeOf(&e.log.Commits[j], key); bw != nil {
			l, _ := bw.Value.([]any)
			base = len(l)
			if row < base {
				return e.rowOrigin(j, key, row, depth+1)
			}
		}
	} else if l, ok := e.log.Inputs[key].([]any); ok && ScopeOf(c.Path) == "" {
		base = len(l)
		if row < base {
			return -1, nil, false
		}
	}
	off := row - base
	for bi, j := range branches {
		bw := writeOf(&e.log.Commits[j], key)
		if bw == nil {
			continue
		}
		l, _ := bw.Value.([]any)
		n := len(l) - base
		if off < n {
			o, hops, ok := e.rowOrigin(j, key, base+off, depth+1)
			return o, append([]rowHop{{index: ci, row: row, branch: names[bi]}}, hops...), ok
		}
		off -= max(n, 0)
	}
	return -1, nil, false
}

// isForEach says whether commit ci is a foreach's commit with branch
// commits spliced right before it (`<stage>~<k>/…` in its scope).
func (e *Explainer) isForEach(ci int) bool {
	if ci == 0 {
		return false
	}
	c := &e.log.Commits[ci]
	prefix := childPrefix(c)
	prev := &e.log.Commits[ci-1]
	if !strings.HasPrefix(prev.Path, prefix) {
		return false
	}
	k, _, _ := strings.Cut(prev.Path[len(prefix):], "/")
	_, err := strconv.Atoi(k)
	return err == nil
}

// childPrefix is the path prefix of a foreach commit's branches:
// `[scope/]<stage>~`.
func childPrefix(c *Commit) string {
	if s := ScopeOf(c.Path); s != "" {
		return s + "/" + c.Stage + "~"
	}
	return c.Stage + "~"
}

// forEachFinals returns, for the foreach commit ci, each branch's last
// commit writing key in the branch's own scope, in item order.
func (e *Explainer) forEachFinals(ci int, key string) ([]int, []string) {
	prefix := childPrefix(&e.log.Commits[ci])
	last := map[int]int{}
	var order []int
	for j := ci - 1; j >= 0; j-- {
		p := e.log.Commits[j].Path
		if !strings.HasPrefix(p, prefix) {
			break
		}
		k, rest, _ := strings.Cut(p[len(prefix):], "/")
		item, err := strconv.Atoi(k)
		if err != nil || strings.Contains(rest, "/") || e.log.Commits[j].Discarded {
			continue // deeper scopes reach the branch through their own joins
		}
		if _, done := last[item]; done || writeOf(&e.log.Commits[j], key) == nil {
			continue
		}
		last[item] = j
		order = append(order, item)
	}
	slices.Sort(order)
	out := make([]int, len(order))
	names := make([]string, len(order))
	for i, item := range order {
		out[i] = last[item]
		names[i] = prefix + strconv.Itoa(item)
	}
	return out, names
}

// itemOf says whether the value read by commit reader, written by commit
// writer, is a foreach item: the writer is a foreach commit (after the
// reader in the log) and the reader runs in one of its branches. It
// returns the branch's item index.
func (e *Explainer) itemOf(writer, reader int) (int, bool) {
	if writer <= reader {
		return 0, false
	}
	prefix := childPrefix(&e.log.Commits[writer])
	p := e.log.Commits[reader].Path
	if !strings.HasPrefix(p, prefix) {
		return 0, false
	}
	k, _, _ := strings.Cut(p[len(prefix):], "/")
	item, err := strconv.Atoi(k)
	return item, err == nil
}

// resolve finds the commit at a runtime path nearest before `near` (the
// same path may recur when a loop re-runs a foreach), else nearest after
// (a foreach item's writer commits after its branches).
func (e *Explainer) resolve(path string, near int) (int, bool) {
	is := e.byPath[path]
	if len(is) == 0 {
		return -1, false
	}
	best := -1
	for _, i := range is {
		if i < near {
			best = i
		}
	}
	if best >= 0 {
		return best, true
	}
	for _, i := range is {
		if i > near {
			return i, true
		}
	}
	return -1, false
}

// lastWriterIn is the last commit before `before` that wrote key in scope
// `in` or a scope it was forked or mounted from.
func (e *Explainer) lastWriterIn(in, key string, before int) (int, bool) {
	for j := min(before, len(e.log.Commits)) - 1; j >= 0; j-- {
		c := &e.log.Commits[j]
		if c.Discarded || !visible(ScopeOf(c.Path), in) {
			continue
		}
		if writeOf(c, key) != nil {
			return j, true
		}
	}
	return -1, false
}

// router finds the decision that routed commit i into its branch: the
// innermost decide or select around its stage in the structure, and that
// decider's last decision before i in a scope i can see.
func (e *Explainer) router(i int) (int, *Route, bool) {
	c := &e.log.Commits[i]
	_, anc, ok := e.locate(c.Path)
	if !ok {
		return -1, nil, false
	}
	for a := len(anc) - 1; a >= 0; a-- {
		st := anc[a]
		if st.node.Kind != KindDecide && st.node.Kind != KindSelect {
			continue
		}
		in := ScopeOf(c.Path)
		for j := i - 1; j >= 0; j-- {
			d := &e.log.Commits[j]
			if d.Stage != st.node.ID || d.Decision == nil || !visible(ScopeOf(d.Path), in) {
				continue
			}
			return j, routeOf(d.Decision, st.branch), true
		}
		return -1, nil, false
	}
	return -1, nil, false
}

// routeOf says why evidence chose branch.
func routeOf(ev *decide.Evidence, branch string) *Route {
	r := &Route{Kind: ev.Kind, Branch: branch}
	for k := range ev.Rules {
		rule := ev.Rules[k]
		if rule.Matched && rule.Then == branch {
			r.Rule = &rule
			return r
		}
	}
	if ev.Default != nil && ev.Default.Branch == branch {
		d := *ev.Default
		r.Default = &d
	}
	return r
}

// writeOf returns commit c's write of key, or nil.
func writeOf(c *Commit, key string) *Write {
	for k := range c.Writes {
		if c.Writes[k].Key == key {
			return &c.Writes[k]
		}
	}
	return nil
}

func stripCounter(path string) string {
	if i := strings.LastIndexByte(path, '#'); i >= 0 && i > strings.LastIndexByte(path, '/') {
		return path[:i]
	}
	return path
}

// splitKey splits `verdicts[3].verdict` into the scope key and the path
// into its value. The longest prefix that is a key of state wins (keys may
// hold dots); a key not in state is taken up to the first '.' or '['.
func splitKey(q string, state map[string]any) (string, []any, error) {
	if q == "" {
		return "", nil, fmt.Errorf("explain: empty key")
	}
	if _, ok := state[q]; ok {
		return q, nil, nil
	}
	cut := -1
	for i := len(q) - 1; i > 0; i-- {
		if q[i] == '.' || q[i] == '[' {
			if _, ok := state[q[:i]]; ok {
				cut = i
				break
			}
		}
	}
	if cut < 0 {
		cut = strings.IndexAny(q, ".[")
		if cut < 0 {
			return q, nil, nil
		}
	}
	path, err := parsePath(q[cut:])
	if err != nil {
		return "", nil, fmt.Errorf("explain: key %q: %w", q, err)
	}
	return q[:cut], path, nil
}

// parsePath reads `.a[3].b` into ["a", 3, "b"].
func parsePath(s string) ([]any, error) {
	var out []any
	for s != "" {
		switch s[0] {
		case '.':
			end := strings.IndexAny(s[1:], ".[")
			if end < 0 {
				end = len(s) - 1
			}
			name := s[1 : 1+end]
			if name == "" {
				return nil, fmt.Errorf("an empty name after '.'")
			}
			out = append(out, name)
			s = s[1+end:]
		case '[':
			end := strings.IndexByte(s, ']')
			if end < 0 {
				return nil, fmt.Errorf("'[' without ']'")
			}
			inner := s[1:end]
			if n, err := strconv.Atoi(inner); err == nil {
				out = append(out, n)
			} else if uq, err := strconv.Unquote(inner); err == nil {
				out = append(out, uq)
			} else {
				return nil, fmt.Errorf("[%s]: want a list index or a quoted name", inner)
			}
			s = s[end+1:]
		default:
			return nil, fmt.Errorf("unexpected %q", s)
		}
	}
	return out, nil
}

func pathString(path []any) string {
	var b strings.Builder
	for _, p := range path {
		switch t := p.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", t)
		default:
			fmt.Fprintf(&b, ".%v", t)
		}
	}
	return b.String()
}

// valueAt follows path into v. Maps may be map[string]any or carry their
// keys in another form (a verdict row): anything with an index method is
// not known here, so only plain JSON shapes are followed.
func valueAt(v any, path []any) (any, bool) {
	for _, p := range path {
		switch k := p.(type) {
		case int:
			l, ok := v.([]any)
			if !ok || k < 0 || k >= len(l) {
				return nil, false
			}
			v = l[k]
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			if v, ok = m[k]; !ok {
				return nil, false
			}
		}
	}
	return v, true
}

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
	segs := strings.Split(stripCounter(path), "/")
	chart := e.st
	for _, seg := range segs[:len(segs)-1] {
		id, _, _ := strings.Cut(seg, "~")
		n := e.index(chart).nodes[id]
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
	n := ci.nodes[segs[len(segs)-1]]
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
	q := stripCounter(target)
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
