package flow

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/rules"
)

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
	c := &w.e.cs[i]
	n := &CauseNode{Kind: NodeCommit, Rel: rel, Key: key, Value: val, Index: i, Path: c.Path, Stage: c.Stage, Err: c.Err, Answer: c.Answer}
	if ni, _, ok := w.e.locate(c.Scope, c.Stage); ok && ni.Name != "" && ni.Name != ni.ID {
		n.Name = ni.Name
	}
	return n
}

// commit is a commit node explaining its write of key (all its reads when
// key is "" or not written there), with its causes.
func (w *walk) commit(i int, rel, key string, val any, depth int) *CauseNode {
	return w.node(i, rel, key, val, "", depth)
}

// node is commit with its route's branch: a select's decision routes
// each branch it took by its own rule, so its route into one branch is not
// "explained above" by its route into another (whose rule and conditions
// were all that was said there).
func (w *walk) node(i int, rel, key string, val any, branch string, depth int) *CauseNode {
	n := w.commitShallow(i, rel, key, val)
	c := &w.e.cs[i]
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
	if branch != "" {
		id += "\x00" + branch
	}
	n.id = id
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
		dn := w.node(d, RelRouted, "", nil, route.Branch, depth+1)
		dn.Route = route
		causes = append(causes, dn)
	}
	// The loop whose jump back ran this stage again.
	if l, ok := w.e.looper(i); ok {
		ln := w.commit(l, RelLooped, "", nil, depth+1)
		if ni, _, ok := w.e.locate(w.e.cs[l].Scope, w.e.cs[l].Stage); ok {
			ln.While = ni.LoopWhile
		}
		causes = append(causes, ln)
	}
	// The question an answer answers.
	if c.Answer != nil && c.Answer.Asked != "" {
		if q, ok := resolve(w.e.byPath, c.Answer.Asked, i); ok {
			causes = append(causes, w.commit(q, RelAsked, "", nil, depth+1))
		} else {
			causes = append(causes, &CauseNode{Kind: NodeUnknown, Rel: RelAsked, Index: -1, Path: c.Answer.Asked})
		}
	}
	// A foreach's gathered list is explained row by row (each row's own
	// branch commit), not as one join of every branch.
	var wr *Write
	if wkey != "" {
		wr = writeOf(c, wkey)
	}
	rows := wr != nil && !isRow && slices.Contains(w.e.gather, key) && w.e.isForEach(i)
	if rows {
		if list, ok := wr.Value.([]any); ok {
			for r := range list {
				if o, _, ok := w.e.rowOrigin(i, key, r, 0); ok && o != i {
					rowNodes = append(rowNodes, w.commit(o, RelRow, fmt.Sprintf("%s[%d]", key, r), list[r], depth+1))
				}
			}
		}
	}
	// A foreach's into list holds each item's final scope: an element
	// rests on the branch commits that last wrote its members.
	if wr != nil && !rows {
		if list, ok := w.e.intoList(i, wkey); ok {
			for r := range list {
				// key is the list, an element (out[1]) or one member of it (out[1].y)
				elem, member := fmt.Sprintf("%s[%d]", wkey, r), ""
				if isRow && key != elem {
					m, ok := strings.CutPrefix(key, elem+".")
					if !ok {
						continue
					}
					member = m
				}
				el, _ := list[r].(map[string]any)
				for _, f := range w.e.intoFinals(i, r) {
					if _, in := el[f.member]; !in || member != "" && f.member != member {
						continue // a gathered key or a deleted one is not in the element
					}
					rowNodes = append(rowNodes, w.commit(f.index, RelJoined, f.member, nil, depth+1))
				}
			}
		}
	}
	var leaves []*CauseNode
	dcs := w.e.log.dataCauses(i, wkey)
	if roots, ok := w.e.boundFrom(i, wkey); ok {
		dcs = slices.DeleteFunc(dcs, func(dc dataCause) bool { return dc.read != nil && !slices.Contains(roots, dc.read.Key) })
	}
	for _, dc := range dcs {
		if dc.read == nil {
			if rows {
				continue
			}
			if j, ok := resolve(w.e.byPath, dc.writer, i); ok {
				causes = append(causes, w.commit(j, RelJoined, w.e.joinedKey(i, j, key, wkey, dc.key), nil, depth+1))
			} else {
				causes = append(causes, &CauseNode{Kind: NodeUnknown, Rel: RelJoined, Key: dc.key, Index: -1, Path: dc.writer})
			}
			continue
		}
		r := dc.read
		if isRow && r.Key == wkey {
			continue
		}
		if r.Missing {
			leaves = append(leaves, &CauseNode{Kind: NodeMissing, Rel: RelRead, Key: r.Key, Index: -1})
			continue
		}
		if r.Writer == "" {
			leaves = append(leaves, w.e.inputLeaf(RelRead, r.Key, r.Key, r.Value))
			continue
		}
		j, ok := i, true
		if !dc.self {
			j, ok = resolve(w.e.byPath, r.Writer, i)
		}
		if !ok {
			leaves = append(leaves, &CauseNode{Kind: NodeUnknown, Rel: RelRead, Key: r.Key, Value: r.Value, Index: -1, Path: r.Writer})
			continue
		}
		if k, isItem := w.e.itemOf(j, i); isItem {
			leaves = append(leaves, &CauseNode{Kind: NodeItem, Rel: RelRead, Key: r.Key, Value: r.Value, Index: -1, ItemOf: w.e.cs[j].Path, ItemIndex: k})
			continue
		}
		causes = append(causes, w.commit(j, RelRead, r.Key, r.Value, depth+1))
	}
	slices.SortStableFunc(causes, func(a, b *CauseNode) int { return b.Index - a.Index })
	n.Causes = append(append(rowNodes, causes...), leaves...)
	return n
}

// boundFrom is the keys the mount's input binding of key read, when commit
// i is a subflow's mount and binds key: the subflow sees only its bindings,
// and the mount's commit holds the reads of all of them, so `h: host` would
// otherwise rest on `limit` that `lim: limit` read. ok is false when the
// binding's expression cannot say what it reads (it reads the whole scope,
// or is not an expression: a Go chart's own Valuer): every read stands then.
func (e *Explainer) boundFrom(i int, key string) ([]string, bool) {
	c := &e.cs[i]
	if key == "" || writeOf(c, key) != nil {
		return nil, false
	}
	ni, _, ok := e.locate(c.Scope, c.Stage)
	if !ok || ni.Kind != KindSubflow {
		return nil, false
	}
	for _, b := range ni.Inputs {
		if b.Key != key {
			continue
		}
		x, err := rules.Compile(b.From)
		if err != nil || x.ReadsWholeScope() {
			return nil, false
		}
		return x.Roots(), true
	}
	return nil, false
}

// joinedKey is the key asked of branch commit j that join commit i took
// dckey from: an element or member asked of the join (`outs[1].y`) is
// asked of the branch too when the join took the branch's list whole, so a
// foreach's into list joined out of a select, parallel or subflow still
// rests on the one item that wrote it, not on every item.
func (e *Explainer) joinedKey(i, j int, key, wkey, dckey string) string {
	if key == wkey || dckey != wkey || !e.joinedWhole(i, j, wkey) {
		return dckey
	}
	return key
}

// joinedWhole says join commit i's write of key is branch commit j's,
// value for value. A gathered key's rows are renumbered at each join, so
// its index in the join is not its index in the branch: never whole.
func (e *Explainer) joinedWhole(i, j int, key string) bool {
	if slices.Contains(e.gather, key) {
		return false
	}
	mine, theirs := writeOf(&e.cs[i], key), writeOf(&e.cs[j], key)
	return mine != nil && theirs != nil && rules.Equal(mine.Value, theirs.Value)
}

// intoBehind says commit i's write of key is a foreach's into list, its
// own or one joined whole through selects, parallels and subflows, so a
// member of an element can be asked of it (`outs[1].y`).
func (e *Explainer) intoBehind(i int, key string, depth int) bool {
	if _, ok := e.intoList(i, key); ok {
		return true
	}
	wr := writeOf(&e.cs[i], key)
	if wr == nil || depth >= e.maxDepth {
		return false
	}
	for _, from := range wr.From {
		if j, ok := resolve(e.byPath, from, i); ok && e.joinedWhole(i, j, key) && e.intoBehind(j, key, depth+1) {
			return true
		}
	}
	return false
}

// settleSeen makes every "explained elsewhere" point back up the page.
// The walk explains a commit in full where it first meets it, depth first,
// but causes are then put newest first, so the full explanation may land
// below a mention of it. In the order the tree is read (a node, then its
// causes in order), the first mention of each (commit, key) takes the
// causes and every later one becomes Seen.
func settleSeen(root *CauseNode) {
	full := map[string]*CauseNode{}
	var collect func(n *CauseNode)
	collect = func(n *CauseNode) {
		if n.id != "" && !n.Seen {
			full[n.id] = n
		}
		for _, c := range n.Causes {
			collect(c)
		}
	}
	collect(root)
	read := map[string]bool{}
	var settle func(n *CauseNode)
	settle = func(n *CauseNode) {
		if n.id != "" {
			if read[n.id] {
				n.Seen, n.Cut, n.Causes = true, false, nil
				return
			}
			read[n.id] = true
			if f := full[n.id]; f != nil && f != n {
				n.Causes, n.Cut, n.Seen = f.Causes, f.Cut, false
			}
		}
		for _, c := range n.Causes {
			settle(c)
		}
	}
	settle(root)
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
	c := &e.cs[ci]
	wr := writeOf(c, key)
	if wr == nil {
		return -1, nil, false
	}
	list, _ := wr.Value.([]any)
	if row < 0 || row >= len(list) {
		return -1, nil, false
	}
	if len(wr.From) == 0 && !e.isForEach(ci) {
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
			j, ok := resolve(e.byPath, r.Writer, ci)
			if !ok {
				return -1, nil, false
			}
			o, hops, ok := e.rowOrigin(j, key, row, depth+1)
			return o, hops, ok
		}
		return ci, nil, true
	}
	// A gathering commit: the rows its scope had, then each branch's own.
	g := e.gathering(ci, key)
	if g.bad {
		return -1, nil, false
	}
	if row < g.base {
		if g.baseWriter < 0 {
			return -1, nil, false
		}
		return e.rowOrigin(g.baseWriter, key, row, depth+1)
	}
	off := row - g.base
	// The first branch whose rows end past off holds it.
	bi, _ := slices.BinarySearch(g.ends, off+1)
	if bi == len(g.ends) {
		return -1, nil, false
	}
	start := 0
	if bi > 0 {
		start = g.ends[bi-1]
	}
	j := g.branches[bi]
	o, hops, ok := e.rowOrigin(j, key, g.from+off-start, depth+1)
	return o, append([]rowHop{{index: ci, row: row, branch: ScopeString(e.cs[j].Scope)}}, hops...), ok
}

// gathered is where a gathering commit's list rows came from: the first
// base rows from what its scope held before (baseWriter's write, or the
// inputs when baseWriter < 0), then each branch's rows past base, in
// order. Only branches that added rows are kept; ends[i] is the offset
// past base where branch i's rows end. from is where a branch's own rows
// begin in its list: base, or 0 for an isolated mount's subflow, which
// began with none of its parent's rows (isolatedMount).
type gathered struct {
	bad        bool // a branch path that does not resolve: untraceable
	base       int
	baseWriter int
	from       int
	branches   []int
	ends       []int
}

type gatherKey struct {
	commit int
	key    string
}

// gathering is the gathered of commit ci's list key, worked out once per
// commit and key: explaining every row of a foreach asks it once per row,
// and working it out each time made explain quadratic in the foreach's
// width (issue #18).
func (e *Explainer) gathering(ci int, key string) *gathered {
	gk := gatherKey{ci, key}
	if g, ok := e.gathers[gk]; ok {
		return g
	}
	g := &gathered{baseWriter: -1}
	if e.gathers == nil {
		e.gathers = map[gatherKey]*gathered{}
	}
	e.gathers[gk] = g
	c := &e.cs[ci]
	var branches []int
	if wr := writeOf(c, key); wr != nil && len(wr.From) > 0 {
		for _, p := range wr.From {
			j, ok := resolve(e.byPath, p, ci)
			if !ok {
				g.bad = true
				return g
			}
			branches = append(branches, j)
		}
	} else {
		branches = e.forEachFinals(ci, key)
	}
	if j, ok := e.log.lastWriter(c.Scope, key, ci); ok {
		if bw := writeOf(&e.cs[j], key); bw != nil {
			l, _ := bw.Value.([]any)
			g.base, g.baseWriter = len(l), j
		}
	} else if l, ok := e.log.Inputs[key].([]any); ok && len(c.Scope) == 0 {
		g.base = len(l)
	}
	g.from = g.base
	if e.isolatedMount(ci, branches, key) {
		g.from = 0
	}
	end := 0
	for _, j := range branches {
		bw := writeOf(&e.cs[j], key)
		if bw == nil {
			continue
		}
		l, _ := bw.Value.([]any)
		if n := len(l) - g.from; n > 0 {
			end += n
			g.branches = append(g.branches, j)
			g.ends = append(g.ends, end)
		}
	}
	return g
}

// isolatedMount says whether gathering commit ci joins the subflow of a
// mount with input bindings, which runs with none of its parent's keys:
// its rows are all its own (flow's gather). The structure says it; a log
// without one, when the subflow's first read of key found none though
// the rows before it were there.
func (e *Explainer) isolatedMount(ci int, branches []int, key string) bool {
	c := &e.cs[ci]
	if ni, _, ok := e.locate(c.Scope, c.Stage); ok {
		return ni.Kind == KindSubflow && len(ni.Inputs) > 0
	}
	if len(branches) == 0 {
		return false
	}
	j, ok := e.log.lastWriter(c.Scope, key, ci)
	if !ok {
		return false // no rows before it: they begin at 0 either way
	}
	if bw := writeOf(&e.cs[j], key); bw == nil {
		return false
	} else if l, _ := bw.Value.([]any); len(l) == 0 {
		return false
	}
	inner := func(k int) bool {
		sc := e.cs[k].Scope
		return len(sc) > len(c.Scope) && sc[len(c.Scope)].Node == c.Stage && sc[len(c.Scope)].Item == nil && sc[len(c.Scope)].Branch == ""
	}
	first := -1 // the subflow's first commit that read key
	for k := branches[0]; k > j && k >= 0; k-- {
		if !inner(k) {
			continue
		}
		for _, r := range e.cs[k].Reads {
			if r.Key == key {
				first = k
			}
		}
	}
	if first < 0 {
		return false
	}
	for _, r := range e.cs[first].Reads {
		if r.Key == key {
			return r.Missing
		}
	}
	return false
}

// intoList is foreach commit ci's write of its into key: one element per
// item, in item order, each the item's final scope. ok is false for any
// other write (a gathered list carries From, or is asked for by WithGathered).
func (e *Explainer) intoList(ci int, key string) ([]any, bool) {
	if !e.isForEach(ci) || slices.Contains(e.gather, key) {
		return nil, false
	}
	wr := writeOf(&e.cs[ci], key)
	if wr == nil || len(wr.From) > 0 {
		return nil, false
	}
	list, ok := wr.Value.([]any)
	return list, ok
}

// intoFinal is the branch commit that last wrote one member of an item's
// final scope.
type intoFinal struct {
	member string
	index  int
}

// intoFinals are, for item `item` of the foreach commit ci, the commits in
// the item's own scope that last wrote each key, by key. A member no
// branch commit wrote (the item itself and its index) has none: it is the
// item. Deeper scopes reach the branch through their own joins. Every
// item's are worked out in one pass over the branches, once per commit:
// explaining the whole list asks for each item.
func (e *Explainer) intoFinals(ci, item int) []intoFinal {
	all, ok := e.intos[ci]
	if !ok {
		all = e.allIntoFinals(ci)
		if e.intos == nil {
			e.intos = map[int][][]intoFinal{}
		}
		e.intos[ci] = all
	}
	if item < 0 || item >= len(all) {
		return nil
	}
	return all[item]
}

func (e *Explainer) allIntoFinals(ci int) [][]intoFinal {
	fe := &e.cs[ci]
	var all [][]intoFinal
	seen := map[int]map[string]bool{}
	for j := ci - 1; j >= 0; j-- {
		cj := &e.cs[j]
		it, ok := ItemStep(cj.Scope, fe.Scope, fe.Stage)
		if !ok {
			break
		}
		if len(cj.Scope) != len(fe.Scope)+1 || cj.Discarded || it < 0 {
			continue
		}
		for len(all) <= it {
			all = append(all, nil)
		}
		if seen[it] == nil {
			seen[it] = map[string]bool{}
		}
		for _, w := range cj.Writes {
			if !seen[it][w.Key] {
				seen[it][w.Key] = true
				all[it] = append(all[it], intoFinal{member: w.Key, index: j})
			}
		}
	}
	for _, fs := range all {
		slices.SortFunc(fs, func(a, b intoFinal) int { return strings.Compare(a.member, b.member) })
	}
	return all
}

// isForEach says whether commit ci is a foreach's commit with branch
// commits spliced right before it (a scope step of its own node with an
// item, under its scope).
func (e *Explainer) isForEach(ci int) bool {
	if ci == 0 {
		return false
	}
	c := &e.cs[ci]
	_, ok := ItemStep(e.cs[ci-1].Scope, c.Scope, c.Stage)
	return ok
}

// forEachFinals returns, for the foreach commit ci, each branch's last
// commit writing key in the branch's own scope, in item order.
func (e *Explainer) forEachFinals(ci int, key string) []int {
	fe := &e.cs[ci]
	last := map[int]int{}
	var order []int
	for j := ci - 1; j >= 0; j-- {
		cj := &e.cs[j]
		item, ok := ItemStep(cj.Scope, fe.Scope, fe.Stage)
		if !ok {
			break
		}
		if len(cj.Scope) != len(fe.Scope)+1 || cj.Discarded {
			continue // deeper scopes reach the branch through their own joins
		}
		if _, done := last[item]; done || writeOf(cj, key) == nil {
			continue
		}
		last[item] = j
		order = append(order, item)
	}
	slices.Sort(order)
	out := make([]int, len(order))
	for i, item := range order {
		out[i] = last[item]
	}
	return out
}

// itemOf says whether the value read by commit reader, written by commit
// writer, is a foreach item: the writer is a foreach commit (after the
// reader in the log) and the reader runs in one of its branches. It
// returns the branch's item index.
func (e *Explainer) itemOf(writer, reader int) (int, bool) {
	if writer <= reader {
		return 0, false
	}
	w := &e.cs[writer]
	return ItemStep(e.cs[reader].Scope, w.Scope, w.Stage)
}

// The causal walk's two questions, asked by the explainer and by
// Log.Chain and Log.LastWriter alike: who last wrote a key as seen from a
// scope (lastWriter), and what a commit's write of a key rested on
// (dataCauses); resolve turns the writer a read names back into a commit.

// dataCause is one data link behind a commit's write: a read of a value
// (read set; writer is the commit that wrote it, "" for an input or a
// missing key; self when it read the commit's own earlier write, as a
// set: stage's `trail: n` after `n: n + 1` does), or a join's take of a
// branch commit's write (read nil).
type dataCause struct {
	key    string
	writer string
	read   *Read
	self   bool // the read was of commit i's own earlier write of key
}

// dataCauses are what commit i's write of key rested on: the reads made
// before it first wrote key (Write.ReadsBefore; with Write.ReadKeys, only
// its own expression's, and a key the stage had already written is its
// own write, not the scope's), then the branch commits that write was
// joined from (Write.From). For key "", or a key it did not
// write, every read and then every write's joins.
func (l *Log) dataCauses(i int, key string) []dataCause {
	c := &l.Commits()[i]
	reads, writes := c.Reads, c.Writes
	var selfReads []Read
	for k := range c.Writes {
		if wr := &c.Writes[k]; key != "" && wr.Key == key {
			if wr.ReadsBefore >= 0 && wr.ReadsBefore <= len(reads) {
				reads = reads[:wr.ReadsBefore]
			}
			if wr.ReadKeys != nil {
				// Credited to its own expression's reads, not the stage's.
				// A key the stage had already written read that write
				// (a stage reads its own staged value), not the scope's.
				var own []Read
				for _, r := range reads {
					if slices.Contains(*wr.ReadKeys, r.Key) && wroteBefore(c, k, r.Key) == nil {
						own = append(own, r)
					}
				}
				reads = own
				for _, rk := range *wr.ReadKeys {
					if w := wroteBefore(c, k, rk); w != nil {
						selfReads = append(selfReads, Read{Key: rk, Value: w.Value, Writer: c.Path})
					}
				}
			}
			writes = c.Writes[k : k+1]
			break
		}
	}
	var out []dataCause
	for k := range reads {
		out = append(out, dataCause{key: reads[k].Key, writer: reads[k].Writer, read: &reads[k]})
	}
	for k := range selfReads {
		out = append(out, dataCause{key: selfReads[k].Key, writer: c.Path, read: &selfReads[k], self: true})
	}
	for _, w := range writes {
		for _, from := range w.From {
			out = append(out, dataCause{key: w.Key, writer: from})
		}
	}
	return out
}

// wroteBefore is commit c's write of key among its writes before the k-th,
// or nil.
func wroteBefore(c *Commit, k int, key string) *Write {
	for m := range c.Writes[:k] {
		if c.Writes[m].Key == key {
			return &c.Writes[m]
		}
	}
	return nil
}

// lastWriter is the last commit before `before` that wrote key in scope
// `in` or a scope it was forked or mounted from; a discarded attempt wrote
// nothing.
func (l *Log) lastWriter(in []ScopeStep, key string, before int) (int, bool) {
	cs := l.Commits()
	for j := min(before, len(cs)) - 1; j >= 0; j-- {
		c := &cs[j]
		if c.Discarded || !within(in, c.Scope) {
			continue
		}
		if writeOf(c, key) != nil {
			return j, true
		}
	}
	return -1, false
}

// indexPaths maps each runtime path to its commits, in log order.
func indexPaths(l *Log) map[string][]int {
	cs := l.Commits()
	byPath := make(map[string][]int, len(cs))
	for i := range cs {
		byPath[cs[i].Path] = append(byPath[cs[i].Path], i)
	}
	return byPath
}

// resolve finds the commit at a runtime path nearest before `near` (the
// same path may recur when a loop re-runs a foreach), else nearest after
// (a foreach item's writer commits after its branches).
func resolve(byPath map[string][]int, path string, near int) (int, bool) {
	is := byPath[path]
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

// router finds the decision that routed commit i into its branch: the
// innermost decide or select around its stage in the structure, and that
// decider's last decision before i in a scope i can see.
func (e *Explainer) router(i int) (int, *Route, bool) {
	c := &e.cs[i]
	_, anc, ok := e.locate(c.Scope, c.Stage)
	if !ok {
		return -1, nil, false
	}
	for a := len(anc) - 1; a >= 0; a-- {
		st := anc[a]
		if st.node.Kind != KindDecide && st.node.Kind != KindSelect {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			d := &e.cs[j]
			if d.Stage != st.node.ID || !d.Decided() || !within(c.Scope, d.Scope) {
				continue
			}
			return j, routeOf(d.Evidence(), st.branch), true
		}
		return -1, nil, false
	}
	return -1, nil, false
}

// looper finds the loop whose jump back ran commit i: a pass of a loop
// runs because the loop's while held, as a branch runs because its
// decision chose it. Walking back from i through the sequences around it,
// the last execution of each loop before i is looked at, innermost
// (latest) first; one that jumped (the next thing its sequence ran was its
// target) ran i again, since everything between its jump and its next
// execution is the pass it started. A loop that did not jump ended before
// i and ran nothing of it.
func (e *Explainer) looper(i int) (int, bool) {
	if l, ok := e.loops[i]; ok {
		return l, l >= 0
	}
	l := e.findLooper(i)
	if e.loops == nil {
		e.loops = map[int]int{}
	}
	e.loops[i] = l
	return l, l >= 0
}

func (e *Explainer) findLooper(i int) int {
	c := &e.cs[i]
	seen := map[string]bool{}
	// Only a loop's commits can have jumped: walk back over those alone,
	// not the whole log before i (a 10k-item foreach with no loop took
	// explain from 0.65 s to 3.5 s, each row walking back to the start).
	lcs := e.loopCommits()
	for k := sort.SearchInts(lcs, i) - 1; k >= 0; k-- {
		j := lcs[k]
		d := &e.cs[j]
		if d.Discarded || !within(c.Scope, d.Scope) {
			continue
		}
		ni, _, ok := e.locate(d.Scope, d.Stage)
		if !ok || !ni.LoopRef {
			continue
		}
		place := ScopeString(d.Scope) + "/" + d.Stage
		if seen[place] {
			continue
		}
		seen[place] = true
		if e.jumped(j, ni.LoopTo) {
			return j
		}
	}
	return -1
}

// loopCommits are the indexes of the log's loop commits (a structure
// node with a loop target), in log order: found once, in one pass.
func (e *Explainer) loopCommits() []int {
	if e.loopIdx != nil {
		return e.loopIdx
	}
	e.loopIdx = []int{}
	for j := range e.cs {
		d := &e.cs[j]
		if ni, _, ok := e.locate(d.Scope, d.Stage); ok && ni.LoopRef {
			e.loopIdx = append(e.loopIdx, j)
		}
	}
	return e.loopIdx
}

// jumped says loop commit j jumped back to target: the next commit of its
// sequence (or of a scope under it, named by its step there) is target's.
func (e *Explainer) jumped(j int, target string) bool {
	d := &e.cs[j]
	for k := j + 1; k < len(e.cs); k++ {
		n := &e.cs[k]
		if n.Discarded || !within(n.Scope, d.Scope) {
			continue
		}
		if len(n.Scope) == len(d.Scope) {
			return n.Stage == target
		}
		return n.Scope[len(d.Scope)].Node == target
	}
	return false
}

// routeOf says why evidence chose branch. A decide's rules that errored
// before it decided are said too: "no rule matched" of a rule that could
// not be evaluated would hide why the default (or a later rule) decided.
// A select's other rules do not bear on this branch.
func routeOf(ev *decide.Evidence, branch string) *Route {
	r := &Route{Kind: ev.Kind, Branch: branch}
	var errored []decide.RuleEvidence
	for k := range ev.Rules {
		rule := ev.Rules[k]
		if rule.Matched && rule.Then == branch {
			r.Rule = &rule
			if ev.Kind != decide.KindSelect {
				r.Errored = errored
			}
			return r
		}
		if rule.Errored() {
			errored = append(errored, rule)
		}
	}
	if ev.Default != nil && ev.Default.Branch == branch {
		d := *ev.Default
		r.Default, r.Errored = &d, errored
	}
	return r
}

// choiceOf is what evidence chose, each branch routed as a decision that
// routed a stage into it is (routeOf).
func choiceOf(ev *decide.Evidence) *Choice {
	if ev == nil {
		return nil
	}
	ch := &Choice{Kind: ev.Kind, Routes: []*Route{}}
	for _, b := range ev.Chosen {
		ch.Routes = append(ch.Routes, routeOf(ev, b))
	}
	return ch
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
