package flow

import "slices"

// RowTrace is what one gathered row (`verdicts[i]`) rests on, read off the
// log without building its causal tree: the commit that appended it, the
// decisions that routed that commit's stage into its branch, and the
// commits whose writes those read. It is the causal walk's own answer
// (Key's root, its RelRouted chain, their RelRead causes), so a caller
// that asks it of every row of a 10k-item foreach pays for each row's
// own commits only, never for the whole log again.
type RowTrace struct {
	// Origin is the index of the commit that appended the row (the
	// list's last writer when the log cannot trace it further, as Key
	// roots it); -1 when no commit wrote the list (every other field is
	// then empty).
	Origin int
	// Path is the origin commit's runtime path (`per-host~1/v-ok#7`),
	// Scope its scope steps (the branch that wrote the row).
	Path  string
	Scope []ScopeStep
	// Routes are the decisions that routed the origin's stage into its
	// branch, innermost first: a branch's decision, then the one that
	// routed that decision, up to the first stage no decision routed.
	Routes []RoutedBy
	// Read are the runtime paths of the commits whose writes the origin
	// and the routing decisions read, in the order read, each once: a
	// foreach item (the branch's input), an input and the list the row
	// was appended to are not among them.
	Read []string
}

// RoutedBy is one decision on a row's route.
type RoutedBy struct {
	Index int
	// Path is the decision's runtime path, Stage its stage id and Name
	// its stage name when the structure gives one that differs from it.
	Path, Stage, Name string
	// Route is the branch it chose into the stage below, and why (with
	// the rules it could not evaluate before it chose: Route.Errored).
	Route *Route
}

// Rows traces rows of the list key as the run ended (Key on `key[i]`
// for each i, without the tree): one RowTrace per row asked, in the
// order asked. Without the chart's structure (WithStructure) no route is
// known; a row is still traced to its origin.
//
// Cost: the list's last writer is found once; each row costs its own
// gathering hops (kept across rows), its route and its commits' reads.
func (e *Explainer) Rows(key string, rows []int) []RowTrace {
	out := make([]RowTrace, len(rows))
	wi, ok := e.log.lastWriter(nil, key, len(e.cs))
	for k, row := range rows {
		out[k] = RowTrace{Origin: -1}
		if !ok {
			continue
		}
		origin := wi // as Key roots a row it cannot trace: at the list's writer
		if o, _, traced := e.rowOrigin(wi, key, row, 0); traced {
			origin = o
		}
		out[k] = e.rowTrace(origin, key)
	}
	return out
}

// rowTrace is the trace of a row appended to key by commit origin.
func (e *Explainer) rowTrace(origin int, key string) RowTrace {
	c := &e.cs[origin]
	t := RowTrace{Origin: origin, Path: c.Path, Scope: c.Scope}
	seen := map[string]bool{}
	reads := func(i int, skip string) {
		for _, r := range e.cs[i].Reads {
			if r.Missing || r.Writer == "" || r.Key == skip || seen[r.Writer] {
				continue
			}
			if j, ok := resolve(e.byPath, r.Writer, i); ok {
				if _, isItem := e.itemOf(j, i); isItem {
					continue
				}
			}
			seen[r.Writer] = true
			t.Read = append(t.Read, r.Writer)
		}
	}
	reads(origin, key)
	for i, depth := origin, 0; depth < e.maxDepth; depth++ {
		d, route, ok := e.router(i)
		if !ok {
			break
		}
		dc := &e.cs[d]
		rb := RoutedBy{Index: d, Path: dc.Path, Stage: dc.Stage, Route: route}
		if ni, _, ok := e.locate(dc.Scope, dc.Stage); ok && ni.Name != "" && ni.Name != ni.ID {
			rb.Name = ni.Name
		}
		t.Routes = append(t.Routes, rb)
		reads(d, "")
		i = d
	}
	return t
}

// Lineage reports, of the commits a row rests on, those keep holds: past
// the commits whose writes it read (RowTrace.Read), what a foreach item
// it read was listed from (the foreach's reads: an item is an element of
// that value), and, through each stage `through` says computes its
// writes from what it read (runbook's set:), what those reads rest on,
// transitively, by the causal walk's links (dataCauses, resolve), a
// joined value's branch commits too, a foreach's into: list's (each
// item's last writes of its final scope, and the item), and a subflow
// mount's input binding (what its expression read, boundFrom: `names:
// files.stdout` rests on files, not on `most: limit`). A stage `through`
// does not pass is where the walk stops: it gathered a fact of its own
// (a command's output), whose gaps are its own, though it was given a
// listed item to ask about — save through the keys it Feeds what it runs
// (a listing given to jq on stdin: jq's count is made of it). So a listing the run did not judge whole
// reaches every row whose decision read one of its items, and a key
// set: from it every row that read the key.
//
// keep is asked of each commit's runtime path once, through of each
// stage's structure type (NodeInfo.Type; "" when the structure does not
// know it); each write's answer is kept, so rows sharing their roots (a
// foreach's items) cost one walk, and only what keep holds is kept: the
// first LineageMost of them, and whether there were more (a second pass
// over a list gathered from 2,000 items whose probes all failed held
// each failure behind every row: 13 s, 250 MB, and a line of 2,000
// phrases under each row).
type Lineage struct {
	e       *Explainer
	keep    func(path string) bool
	through func(typ string) bool
	memo    map[lineKey]trail
	busy    map[lineKey]bool
}

// LineageMost is the most commits a row's lineage names (Lineage.Of);
// past them it says only that there are more.
const LineageMost = 8

// trail is what one write rests on among the commits a Lineage keeps:
// at most LineageMost runtime paths, in walk order, and whether more
// were left off.
type trail struct {
	paths []string
	more  bool
}

// add puts u's paths in t, each once, up to LineageMost.
func (t *trail) add(u trail) {
	t.more = t.more || u.more
	for _, p := range u.paths {
		switch {
		case slices.Contains(t.paths, p):
		case len(t.paths) < LineageMost:
			t.paths = append(t.paths, p)
		default:
			t.more = true
		}
	}
}

// lineKey is one write walked: commit i's write of key; with item set,
// what foreach commit i read to list its items.
type lineKey struct {
	i    int
	key  string
	item bool
}

// Lineage starts a walk over e's log (Lineage.Of).
func (e *Explainer) Lineage(keep func(path string) bool, through func(typ string) bool) *Lineage {
	return &Lineage{e: e, keep: keep, through: through, memo: map[lineKey]trail{}, busy: map[lineKey]bool{}}
}

// Of is what row t, appended to list key, rests on among the commits l
// keeps: through what its origin and the decisions that routed it read
// (the list itself aside: earlier rows are not this row's ground), in
// walk order, each once, at most LineageMost of them; more says others
// were left off.
func (l *Lineage) Of(t RowTrace, key string) (paths []string, more bool) {
	if t.Origin < 0 {
		return nil, false
	}
	out := l.reads(t.Origin, key)
	for _, rb := range t.Routes {
		out.add(l.reads(rb.Index, ""))
	}
	return out.paths, out.more
}

// reads is what commit i's reads rest on (skip aside).
func (l *Lineage) reads(i int, skip string) trail {
	var out trail
	for _, r := range l.e.cs[i].Reads {
		if r.Missing || r.Writer == "" || r.Key == skip {
			continue
		}
		out.add(l.link(r.Writer, r.Key, i))
	}
	return out
}

// link walks the write of key by the commit at runtime path writer, as
// commit i sees it (a foreach item when writer is i's foreach).
func (l *Lineage) link(writer, key string, i int) trail {
	j, ok := resolve(l.e.byPath, writer, i)
	if !ok || j == i {
		return trail{}
	}
	if _, isItem := l.e.itemOf(j, i); isItem {
		return l.walk(lineKey{i: j, item: true})
	}
	return l.walk(lineKey{i: j, key: key})
}

// walk is what write k rests on among the commits l keeps: its own
// commit, and past it when its stage computes (through) or the write was
// joined; for an item, what the foreach read, the foreach aside (its own
// gaps, items it cut, are not an item's).
func (l *Lineage) walk(k lineKey) trail {
	if got, ok := l.memo[k]; ok {
		return got
	}
	if l.busy[k] {
		return trail{} // a link back to a write still being walked
	}
	l.busy[k] = true
	c := &l.e.cs[k.i]
	var out trail
	var causes []dataCause
	switch {
	case k.item:
		// the items came from what the foreach read, not from the lists
		// it gathered from its branches
		for _, dc := range l.e.log.dataCauses(k.i, "") {
			if dc.read != nil && !gatheredBy(c, dc.key) {
				causes = append(causes, dc)
			}
		}
	default:
		if l.keep(c.Path) {
			out.paths = append(out.paths, c.Path)
		}
		follow := false
		var feeds []string
		dcs := l.e.log.dataCauses(k.i, k.key)
		if ni, _, ok := l.e.locate(c.Scope, c.Stage); ok {
			follow, feeds = l.through(ni.Type), ni.Feeds
			if ni.Kind == KindSubflow && k.key != "" && writeOf(c, k.key) == nil {
				// a mount's input binding is made of what its expression
				// read, as a set: key is, whatever the layer's stage
				// types: the mount gathers nothing of its own
				follow = true
				if roots, ok := l.e.boundFrom(k.i, k.key); ok {
					dcs = slices.DeleteFunc(dcs, func(dc dataCause) bool { return dc.read != nil && !slices.Contains(roots, dc.read.Key) })
				}
			}
		}
		for _, dc := range dcs {
			// a join's take is always followed, and what the stage ran
			// was given to work over (jq given a listing on stdin)
			if follow || dc.read == nil || slices.Contains(feeds, dc.read.Key) {
				causes = append(causes, dc)
			}
		}
		if list, ok := l.e.intoList(k.i, k.key); ok {
			// a foreach's into: list holds each item's final scope: its
			// members rest on the item's last writes of them, and the
			// item itself on what the foreach listed it from
			for r := range list {
				for _, f := range l.e.intoFinals(k.i, r) {
					out.add(l.walk(lineKey{i: f.index, key: f.member}))
				}
			}
			out.add(l.walk(lineKey{i: k.i, item: true}))
		}
	}
	for _, dc := range causes {
		switch {
		case dc.self && dc.key != k.key:
			// a key the same stage wrote before this one (a set: key made
			// of its sibling, open of found): what that write read is
			// this one's ground too
			out.add(l.walk(lineKey{i: k.i, key: dc.key}))
		case dc.self || dc.writer == "":
		default:
			out.add(l.link(dc.writer, dc.key, k.i))
		}
	}
	delete(l.busy, k)
	l.memo[k] = out
	return out
}

// gatheredBy says whether commit c wrote key gathered from branches.
func gatheredBy(c *Commit, key string) bool {
	w := writeOf(c, key)
	return w != nil && len(w.From) > 0
}
