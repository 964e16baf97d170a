package flow

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/decide"
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
		for _, from := range wr.From {
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
	case len(wr.From) > 0:
		for _, p := range wr.From {
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
