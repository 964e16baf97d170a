package flow

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
