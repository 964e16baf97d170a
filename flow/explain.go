package flow

import (
	"fmt"
	"slices"
	"strings"

	"github.com/openrunbook/runbook/decide"
)

// Explainer answers "why" over a finished run's log, or a saved one: why a
// value is what it is (Key; for many gathered rows at once, without their
// trees, Rows), what a stage's execution rested on (Stage),
// why a stage or branch did not run (WhyNot), and what the state was at any
// commit (StateAt). It reads nothing but the log and, when given, the
// chart's static structure and how the run ended; it never runs anything.
//
// It owns the causal walk, one rule read in one order:
//
//	a commit's causes      the decision that routed the flow into its branch (the
//	                       innermost decide or select around it, with the rules a
//	                       decide could not evaluate before it chose), then the commits that
//	                       wrote what it read BEFORE its write of the key asked about
//	                       (Write.ReadsBefore), each followed the same way
//	a join's write         the branch commit it came from (Write.From)
//	a foreach's into list  (out, out[i], out[i].k) each item's branch commits that last
//	                       wrote a member of its element (intoFinals)
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
//	// e.Root: per-volume~3/mark-risk#1, the commit that appended the row,
//	// gathered by the foreach commit (GatheredBy); its causes: routed by
//	// per-volume~3/posture#0 (rule "Nearly full" and the values it read),
//	// resting on the item `volume` of branch per-volume~3.
type Explainer struct {
	log *Log
	// cs is log's commits, read once (Log.Commits)
	cs     []Commit
	st     *Structure
	end    End
	inputs map[string]string
	// inputsFrom: for a value the run started with, the inputs it was
	// computed from (WithInputsFrom)
	inputsFrom map[string][]string
	maxDepth   int
	gather     []string

	byPath  map[string][]int
	loc     *Locator // over st
	damaged []string
	cuts    map[string]Truncation   // WithTruncations, by the foreach's record path
	gathers map[gatherKey]*gathered // rowOrigin's per-commit work, kept
	intos   map[int][][]intoFinal   // intoFinals' per-commit work, kept
	loops   map[int]int             // looper's per-commit work, kept (-1: none)
	loopIdx []int                   // loopCommits', found once
}

// ExplainVersion is bumped when a word or the shape of an explanation
// changes (the CLI's text is built from these words).
//
// 2: a row asked about is rooted at the branch commit that appended it,
// with the commits that gathered it in GatheredBy (1 rooted it at the
// gathering commit); script rows of what ran ride the CLI's output.
// 3: a route names the rules that could not be evaluated before it
// decided (Route.Errored).
// 4: a stage asked about that decided says what it chose, and why
// (Explanation.Choice).
// 5: a stage a loop ran again rests on the loop's jump (RelLooped, with
// the loop's While), as a branch rests on its decision.
// 6: WhyNot says of a foreach its maxBranches cut which items never ran
// (BecauseCut).
const ExplainVersion = 6

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

// WithTruncations are the run's foreach cuts (Result.Truncations: items
// past maxBranches that never ran), by the foreach's record path, so that
// WhyNot says which items did not run and why, not only what the items
// that ran chose.
func WithTruncations(ts []Truncation) ExplainOption {
	return func(e *Explainer) {
		for _, t := range ts {
			if e.cuts == nil {
				e.cuts = map[string]Truncation{}
			}
			e.cuts[StripCounter(t.Path)] = t
		}
	}
}

// WithInputKinds says, per input key, how it came in ("given" or
// "assumed"); input leaves carry it.
func WithInputKinds(kinds map[string]string) ExplainOption {
	return func(e *Explainer) { e.inputs = kinds }
}

// WithInputsFrom says, for a value the run started with that was computed
// from others (a runbook's var, from inputs), which: its leaf then rests
// on theirs, as the values it read.
func WithInputsFrom(from map[string][]string) ExplainOption {
	return func(e *Explainer) { e.inputsFrom = from }
}

// inputLeaf is the leaf of a value the run started with, key's root
// being root: an input, or a value computed from inputs before the first
// stage, which then rests on them (WithInputsFrom).
func (e *Explainer) inputLeaf(rel, key, root string, value any) *CauseNode {
	n := &CauseNode{Kind: NodeInput, Rel: rel, Key: key, Value: value, Index: -1, Input: e.inputs[root]}
	for _, k := range e.inputsFrom[root] {
		n.Causes = append(n.Causes, &CauseNode{Kind: NodeInput, Rel: RelRead, Key: k, Value: e.log.Inputs[k], Index: -1, Input: e.inputs[k]})
	}
	return n
}

// WithExplainDepth bounds the trees' depth (default DefaultExplainDepth).
func WithExplainDepth(n int) ExplainOption { return func(e *Explainer) { e.maxDepth = n } }

// NewExplainer indexes the log once (one pass over its commits).
func NewExplainer(l *Log, opts ...ExplainOption) *Explainer {
	e := &Explainer{log: l, cs: l.Commits(), maxDepth: DefaultExplainDepth, byPath: indexPaths(l)}
	for _, o := range opts {
		o(e)
	}
	e.loc = NewLocator(e.st)
	for i := range e.cs {
		if e.cs[i].Index != i && len(e.damaged) < 1 {
			e.damaged = append(e.damaged, fmt.Sprintf("commit %d (%s) says it is commit %d: commit numbers below are positions in the log", i, e.cs[i].Path, e.cs[i].Index))
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
	RelLooped = "looped" // this loop jumped back, so the parent ran again
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
	// Choice is set when a stage asked about (Stage) made a decision:
	// what it chose, and why.
	Choice *Choice `json:"choice,omitempty"`
	// Notes are what the explainer could not do: no structure, a damaged
	// log, causes cut at the depth bound.
	Notes []string `json:"notes,omitempty"`
}

// Choice is what a deciding stage chose: a route for every branch it took
// (a decide takes one; a select those whose rules matched, none when no
// rule did), each with the rule that chose it or the default.
type Choice struct {
	Kind   decide.Kind `json:"kind"`
	Routes []*Route    `json:"routes"`
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
	// While is set on a loop that jumped back (RelLooped): the condition
	// that held.
	While string `json:"while,omitempty"`
	// Answer is set on a commit that wrote a person's answer.
	Answer *Answer `json:"answer,omitempty"`
	// GatheredBy is set on the commit that appended a row asked about
	// (`verdicts[3]`) in a branch: the commits that gathered the row on its
	// way up to the state, innermost first. The last one's write is the
	// list the state holds; none of them wrote the row.
	GatheredBy []Gathering `json:"gatheredBy,omitempty"`
	// Seen is true when this commit is explained elsewhere in the tree.
	Seen bool `json:"seen,omitempty"`
	// Cut is true when the depth bound stopped the walk here.
	Cut    bool         `json:"cut,omitempty"`
	Causes []*CauseNode `json:"causes,omitempty"`

	id string // the walk's (commit, key), for settleSeen
}

// Gathering is one commit that gathered a branch's row into its own list
// (a foreach, or the join of parallel branches).
type Gathering struct {
	Index int    `json:"index"`
	Path  string `json:"path"`
	Stage string `json:"stage"`
	// Name is the stage's name, when it differs from its id.
	Name string `json:"name,omitempty"`
	// Key is the row in the gathering commit's list (`verdicts[3]`).
	Key string `json:"key"`
	// Branch is the branch scope the row came from (`per-volume~3`).
	Branch string `json:"branch"`
}

// Route is why a decision sent the flow into a branch.
type Route struct {
	Kind   decide.Kind `json:"kind"`
	Branch string      `json:"branch"`
	// Rule is the rule that chose the branch; nil when the default did.
	Rule *decide.RuleEvidence `json:"rule,omitempty"`
	// Default is set when the default branch was taken.
	Default *decide.Default `json:"default,omitempty"`
	// Errored are the rules a decide tried before the one that chose (all
	// of them, for the default) whose predicate could not be evaluated:
	// counted as no match, they are why a later rule or the default
	// decided.
	Errored []decide.RuleEvidence `json:"errored,omitempty"`
}

// pathMember is the member a path names in a list's element
// (`[1].y` → y).
func pathMember(path []any) (string, bool) {
	if len(path) < 2 {
		return "", false
	}
	m, ok := path[1].(string)
	return m, ok
}

// StateAt is the root scope's state as of commit n (n < 0: the inputs; past
// the end: the final state) and the commit it names.
func (e *Explainer) StateAt(n int) (map[string]any, *Commit) {
	if n >= len(e.cs) {
		n = len(e.cs) - 1
	}
	var c *Commit
	if n >= 0 {
		c = &e.cs[n]
	}
	return e.log.StateAt(n), c
}

// Key explains the value at key as of commit at (at < 0: the end of the
// run). key is a root scope key, optionally followed by a path into its
// value: `df.stdout[2].usedPct`, `verdicts[3].verdict`. A gathered row
// (`verdicts[3]`) is followed to the branch commit that appended it.
func (e *Explainer) Key(key string, at int) (*Explanation, error) {
	if at < 0 || at >= len(e.cs) {
		at = len(e.cs) - 1
	}
	state := e.log.StateAt(at)
	root, path, err := splitKey(key, state)
	if err != nil {
		return nil, err
	}
	ex := &Explanation{Query: key, At: at}
	w := &walk{e: e, seen: map[string]bool{}}
	wi, ok := e.log.lastWriter(nil, root, at+1)
	if !ok {
		v, in := e.log.Inputs[root]
		if !in {
			if where := e.writtenInBranches(root, at); where != "" {
				return nil, fmt.Errorf("explain: %q is not a key of the chart's state (as of commit %d): %s", root, at, where)
			}
			return nil, fmt.Errorf("explain: %q was never written and is not an input (as of commit %d)%s", root, at, rootHint(root, state, e.log.Inputs))
		}
		val, vok := valueAt(v, path)
		if !vok {
			return nil, fmt.Errorf("explain: %q: input %s has no %s%s", key, root, pathString(path), pathHint(root, v, path))
		}
		ex.Value = val
		ex.Root = e.inputLeaf(RelWrote, key, root, val)
		ex.Notes = w.notes(e)
		return ex, nil
	}
	c := &e.cs[wi]
	wr := writeOf(c, root)
	if wr.Deleted {
		ex.Root = w.commit(wi, RelWrote, root, nil, 0)
		settleSeen(ex.Root)
		ex.Notes = append(w.notes(e), fmt.Sprintf("%s deleted %s", c.Path, root))
		return ex, nil
	}
	val, vok := valueAt(wr.Value, path)
	if !vok {
		return nil, fmt.Errorf("explain: %q: %s (written by %s) has no %s%s", key, root, c.Path, pathString(path), pathHint(root, wr.Value, path))
	}
	ex.Value = val
	if len(path) > 0 {
		if row, isRow := path[0].(int); isRow {
			if origin, hops, ok := e.rowOrigin(wi, root, row, 0); ok && origin != wi {
				// The commit that appended the row wrote it: it is the root,
				// and the commits that gathered it up to the state say how it
				// got there, innermost first.
				node := w.commit(origin, RelWrote, fmt.Sprintf("%s[%d]", root, row), nil, 0)
				node.Key, node.Value = key, val
				for k := len(hops) - 1; k >= 0; k-- {
					g := w.commitShallow(hops[k].index, "", "", nil)
					node.GatheredBy = append(node.GatheredBy, Gathering{Index: g.Index, Path: g.Path, Stage: g.Stage, Name: g.Name,
						Key: fmt.Sprintf("%s[%d]", root, hops[k].row), Branch: hops[k].branch})
				}
				ex.Root = node
				settleSeen(ex.Root)
				ex.Notes = w.notes(e)
				return ex, nil
			}
		}
	}
	wkey := root
	if len(path) > 0 {
		if row, isRow := path[0].(int); isRow {
			wkey = fmt.Sprintf("%s[%d]", root, row) // the list it appended to is not a cause
			if m, ok := pathMember(path); ok {
				if e.intoBehind(wi, root, 0) {
					wkey += "." + m // one member of a foreach item's final scope
				}
			}
		}
	}
	ex.Root = w.commit(wi, RelWrote, wkey, nil, 0)
	ex.Root.Key, ex.Root.Value = key, val
	settleSeen(ex.Root)
	ex.Notes = w.notes(e)
	return ex, nil
}

// All explains every root key of the state as of commit at (at < 0: the
// end): the root is a node of kind "state" with one cause per key, in key
// order.
func (e *Explainer) All(at int) (*Explanation, error) {
	if at < 0 || at >= len(e.cs) {
		at = len(e.cs) - 1
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
		if wi, ok := e.log.lastWriter(nil, k, at+1); ok {
			ex.Root.Causes = append(ex.Root.Causes, w.commit(wi, RelWrote, k, nil, 1))
		} else {
			ex.Root.Causes = append(ex.Root.Causes, e.inputLeaf(RelWrote, k, k, state[k]))
		}
	}
	settleSeen(ex.Root)
	ex.Notes = w.notes(e)
	return ex, nil
}

// NotRanError is an explanation asked of a stage that never ran at Path.
// A caller may point the asker at why it did not (the CLI's --why-not).
type NotRanError struct{ Path string }

func (e *NotRanError) Error() string { return fmt.Sprintf("explain: no stage ran at %q", e.Path) }

// AmbiguousStageError is a stage query that names several places the
// stage ran in: the instances of a stage inside a foreach, or in the
// branches of a fork. One explanation is of one execution, so the query
// must say which; explain never picks one for it.
type AmbiguousStageError struct {
	Query string
	// Places are the paths a query can give instead, one per place, in
	// log order (`per-volume~0/posture`).
	Places []string
}

func (e *AmbiguousStageError) Error() string {
	shown := e.Places
	more := ""
	if len(shown) > maxPlacesShown {
		shown, more = shown[:maxPlacesShown], fmt.Sprintf(" … and %d more", len(e.Places)-maxPlacesShown)
	}
	return fmt.Sprintf("explain: %q ran in %d places; ask for one of them by its path: %s%s", e.Query, len(e.Places), strings.Join(shown, ", "), more)
}

// maxPlacesShown bounds the places an AmbiguousStageError's message lists
// (a foreach may have hundreds); Places holds them all.
const maxPlacesShown = 10

// Stage explains one stage execution: everything it read, the decision
// that routed the flow to it, transitively. path is a runtime path
// (`per-volume~3/posture#2`), or one without the counter, meaning its last
// execution there (a loop runs a stage in one place many times). A bare
// stage id, or a path whose scope leaves out an item or branch
// (`per-volume/posture`), must lead to one place: when it leads to several
// the error is an *AmbiguousStageError listing them.
func (e *Explainer) Stage(path string) (*Explanation, error) {
	i, err := e.findStage(path)
	if err != nil {
		return nil, err
	}
	w := &walk{e: e, seen: map[string]bool{}}
	ex := &Explanation{Query: path, At: i}
	ex.Root = w.commit(i, RelWrote, "", nil, 0)
	if c := &e.cs[i]; c.Decided() {
		ex.Choice = choiceOf(c.Evidence())
	}
	settleSeen(ex.Root)
	ex.Notes = w.notes(e)
	return ex, nil
}

// findStage resolves a stage query to a commit: an exact runtime path; the
// last commit at a path without its counter; else the last execution of
// the stage in the one place the query leads to.
func (e *Explainer) findStage(path string) (int, error) {
	if is := e.byPath[path]; len(is) > 0 {
		return is[len(is)-1], nil
	}
	for i := len(e.cs) - 1; i >= 0; i-- {
		if StripCounter(e.cs[i].Path) == path {
			return i, nil
		}
	}
	pos, err := ParsePath(path)
	if err != nil || pos.N >= 0 {
		return -1, &NotRanError{Path: path}
	}
	last, places := -1, []string(nil)
	seen := map[string]bool{}
	for i := range e.cs {
		c := &e.cs[i]
		if c.Stage != pos.Node || !matches(c.Scope, pos.Scope) {
			continue
		}
		last = i
		if p := StripCounter(c.Path); !seen[p] {
			seen[p] = true
			places = append(places, p)
		}
	}
	switch {
	case last < 0:
		return -1, &NotRanError{Path: path}
	case len(places) > 1:
		return -1, &AmbiguousStageError{Query: path, Places: places}
	}
	return last, nil
}
