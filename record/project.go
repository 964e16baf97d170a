package record

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
)

// Projection is what the verdict projection needs of a runbook, settled
// once when the runbook is built: the cap, the presentation, the key order
// of rows, and the decider whose branches give the meanings.
type Projection struct {
	// Key is the state key the rows are gathered under ("verdicts").
	Key string
	// MaxRows is the one cap on the rows and the table (≥ 1).
	MaxRows int
	// Panel is presentation: panel (no table; the host shows the rows).
	Panel bool
	// EmptyAnswer is result.empty: answer. Without it a set with no rows
	// is a gap in the ledger (ItemEmpty): no subject was judged.
	EmptyAnswer bool
	// Columns give rows their key order, by the set of keys a row has.
	Columns [][]string
	// Decider names the decider whose branches the verdict words are; ""
	// for none (no meanings). Spellings are every name it answers to (the
	// name given, its stage name and id) and Declared its branches'
	// declared meanings (description, else name), from the static
	// structure.
	Decider   string
	Spellings []string
	Declared  map[string]string
	// Words are, by a choice's name or id and its branch, the verdict
	// words the branch's verdict stages write when each writes one
	// literal word (chart.Spec.BranchWords): the meanings are said under
	// those words, not under the branch's name. A branch absent, or with
	// no words (one computes its word), is said under its name.
	Words map[string]map[string][]string
	// Structure is the chart's static structure: with it, each declined
	// row is traced to the decision that routed the stage that appended
	// it (declinedBy). Without it no row can be traced to a decision.
	Structure *flow.Structure
}

// Project is the rowset projection: the final state's verdict rows under
// THE ONE-NUMBER LAW (one cap for the rows and the table), the table, the
// note, the declined count and whose decision each decline was (read from
// log, the run's commit log), the dropped count and the generated
// meanings. Only rows that are objects with a string verdict are rows;
// every other entry of the list is counted as dropped, never passed over
// in silence, and so is a verdicts value that is not a list at all (one
// row a Go stage wrote without its list). Assemble hands it the list as
// the JSON the record writes (a Go stage's []Row of structs is rows).
//
// behind (nil: none) is what the run left that a row may rest on without
// being judged: each row that does is marked (UnjudgedRows, the table's
// NotJudgedMark), traced through log as declined rows are (rowTraces).
func (p *Projection) Project(state map[string]any, decisions []Harvested, log *flow.Log, behind *Behind) *VerdictSet {
	var rows []map[string]any
	var rowsAt []int     // each row's place in the state's list
	var declinedAt []int // each declined row's place among the rows
	dropped := 0
	if v, ok := state[p.Key]; ok && v != nil {
		if _, isList := v.([]any); !isList {
			dropped++ // a row not in a list (or no row at all) is no row, and not in silence
		}
	}
	if list, ok := state[p.Key].([]any); ok {
		for i, item := range list {
			m, ok := item.(map[string]any)
			if !ok {
				dropped++
				continue
			}
			if _, ok := m["verdict"].(string); ok {
				if m["verdict"] == DeclinedVerdict {
					declinedAt = append(declinedAt, len(rows))
				}
				rows = append(rows, m)
				rowsAt = append(rowsAt, i)
			} else {
				dropped++
			}
		}
	}
	vs := &VerdictSet{RowsTotal: len(rows), Rows: []Row{}, RowsDropped: dropped, Declined: len(declinedAt)}
	for _, row := range rows[:min(p.MaxRows, len(rows))] {
		vs.Rows = append(vs.Rows, p.Order(row))
	}
	vs.RowsShown, vs.RowsComplete = len(vs.Rows), len(vs.Rows) == vs.RowsTotal
	un := newUnjudging(behind)
	traceAll := un != nil || routesErred(decisions)
	if traceAll && un == nil {
		// a rule error alone: a row made from the row it routed rests on it
		un = &unjudging{byPath: map[string][]string{}}
	}
	var keep func(string) bool
	if un != nil {
		keep = un.keeps
	}
	traces, lineageOf := p.rowTraces(log, rowsAt, declinedAt, traceAll, keep)
	if len(declinedAt) > 0 {
		declined := make([]flow.RowTrace, len(declinedAt))
		for k, r := range declinedAt {
			declined[k] = traces[r]
		}
		vs.DeclinedBy = p.declinedBy(declined)
	}
	if traceAll {
		// In the rows' order, each row's lineage after the rows before
		// it are judged: a row made from the verdict rows (a cluster row
		// counting its nodes' rows) rests on each one not judged.
		for r, t := range traces {
			var behind rowLineage
			if lineageOf != nil {
				behind = lineageOf(r)
			}
			why := un.why(t, behind)
			if len(why) == 0 {
				continue
			}
			un.rowNotJudged(t.Path, r, rows[r]["subject"])
			if r >= vs.RowsShown {
				vs.UnjudgedNotShown++
				continue
			}
			u := UnjudgedRow{Row: r, Why: why}
			if sub, ok := rows[r]["subject"]; ok {
				u.Subject = sub
			}
			vs.UnjudgedRows = append(vs.UnjudgedRows, u)
		}
	}
	for _, row := range rows[len(vs.Rows):] {
		if vs.NotShown == nil {
			vs.NotShown = map[string]int{}
		}
		vs.NotShown[row["verdict"].(string)]++
	}
	if p.Panel {
		vs.RenderNote = PanelNote
	} else {
		vs.Table = RenderTable(vs.Rows, vs.UnjudgedRows)
		vs.RenderNote = ProseNote
	}
	vs.Meanings = p.meanings(decisions)
	return vs
}

// Order gives a row its declared key order: the columns (of a verdict
// stage, or WithColumns) whose keys are exactly the row's; otherwise the
// row's keys sorted.
func (p *Projection) Order(m map[string]any) Row {
	for _, cols := range p.Columns {
		if len(cols) != len(m) {
			continue
		}
		all := true
		for _, c := range cols {
			if _, ok := m[c]; !ok {
				all = false
				break
			}
		}
		if all {
			return Row{Keys: cols, Values: m}
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return Row{Keys: keys, Values: m}
}

// ordered keeps verdict rows' key order in the state the record shows.
func (p *Projection) ordered(rows []any) []any {
	out := make([]any, len(rows))
	for i, item := range rows {
		if m, ok := item.(map[string]any); ok {
			out[i] = p.Order(m)
		} else {
			out[i] = item
		}
	}
	return out
}

// meanings composes verdict word → meaning: the decider's declared
// branches, overlaid by what this run's evidence said — every evaluated
// rule's label and the default's label, of the decider and of every other
// decider that is the nearest choice above a verdict stage, for the
// branches that hold such a stage (meaningBranches) — harvested during the
// run and matched on the LAST "/" segment of the decider's path. Observed
// beats declared. Nil when neither said anything: never an empty map. No
// caller can supply one.
func (p *Projection) meanings(decisions []Harvested) map[string]string {
	if p.Decider == "" {
		return nil
	}
	// each branch's meaning first, observed beating declared, then said
	// under the words its rows have (wordsOf)
	type branchOf struct{ decider, branch string }
	meaning := map[branchOf]string{}
	var order []branchOf
	set := func(k branchOf, m string) {
		if _, ok := meaning[k]; !ok {
			order = append(order, k)
		}
		meaning[k] = m
	}
	for _, b := range slices.Sorted(maps.Keys(p.Declared)) {
		set(branchOf{p.Decider, b}, p.Declared[b])
	}
	branches := p.meaningBranches()
	spelled := p.spellings()
	observed := map[branchOf][]string{}
	var seen []branchOf
	note := func(words map[string]bool, decider, branch, label string) {
		k := branchOf{decider, branch}
		if label == "" || slices.Contains(observed[k], label) || (words != nil && !words[branch]) {
			return
		}
		if _, ok := observed[k]; !ok {
			seen = append(seen, k)
		}
		observed[k] = append(observed[k], label)
	}
	for _, d := range decisions {
		name := d.Name
		words, ok := branches[name]
		if !ok {
			name = flow.NodeOf(d.Path)
			words, ok = branches[name]
		}
		if !ok {
			continue
		}
		if spelled[name] {
			name = p.Decider // one decider, whichever name it was met by
		}
		for _, r := range d.Evidence.Rules {
			note(words, name, r.Then, r.Label)
		}
		if d.Evidence.Default != nil {
			note(words, name, d.Evidence.Default.Branch, d.Evidence.Default.Label)
		}
	}
	for _, k := range seen {
		set(k, strings.Join(observed[k], "; "))
	}
	out := map[string]string{}
	for _, k := range order {
		for _, w := range p.wordsOf(k.decider, k.branch) {
			m := meaning[k]
			if w != k.branch && m == k.branch {
				// only its declared name: said as the branch, which no
				// row's word is
				m = "branch " + k.branch
			}
			switch prev, ok := out[w]; {
			case !ok:
				out[w] = m
			case !slices.Contains(strings.Split(prev, "; "), m):
				out[w] = prev + "; " + m
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// wordsOf is the verdict words the rows a branch of a choice appends
// have: those its verdict stages write (Words), or the branch's name
// where they do not each write one literal word.
func (p *Projection) wordsOf(decider, branch string) []string {
	if ws := p.Words[decider][branch]; len(ws) > 0 {
		return ws
	}
	return []string{branch}
}

// spellings is the set of names the projection's decider answers to.
func (p *Projection) spellings() map[string]bool {
	out := map[string]bool{p.Decider: true}
	for _, s := range p.Spellings {
		out[s] = true
	}
	return out
}

// meaningBranches maps each name (stage name and id) of a decider whose
// labels are part of the verdict words' meanings to the branches whose
// words they are: every branch (nil) of the projection decider, and of
// every other decider or selector that is the nearest choice above a
// verdict stage in the structure, the branches that hold such a stage — a
// row such a stage appends has the word of that branch. Read from the
// projection decider alone, a chart with a decider a subject ("Kernel",
// "CPU", each with ok and bad) said "bad — OOM in the kernel log" over the
// cpu row that CPU's rule "CPU over 90% busy" put there. Read over every
// branch, a decider that routes a file to "unreadable" (a verdict) or to
// "each" (a foreach whose rows another decider words) listed "each —
// every certificate read" among the verdict words, though no row can have
// it (wave-pki).
func (p *Projection) meaningBranches() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	if p.Structure != nil {
		rowDeciders(p.Structure.Nodes, nil, "", out)
	}
	for name := range p.spellings() {
		out[name] = nil
	}
	return out
}

// rowDeciders adds to out, under the names of each decider or selector
// that is the nearest choice (inner) above a verdict stage among nodes,
// the branch of it (branch) that holds the stage, through branches,
// foreach bodies and mounted subflows.
func rowDeciders(nodes []flow.NodeInfo, inner *flow.NodeInfo, branch string, out map[string]map[string]bool) {
	for i := range nodes {
		n := &nodes[i]
		if n.Type == VerdictType && inner != nil {
			for _, name := range []string{inner.ID, inner.Name} {
				if name == "" {
					continue
				}
				if out[name] == nil {
					out[name] = map[string]bool{}
				}
				out[name][branch] = true
			}
		}
		for _, br := range n.Branches {
			if n.Kind == flow.KindDecide || n.Kind == flow.KindSelect {
				rowDeciders(br.Nodes, n, br.Name, out)
			} else {
				rowDeciders(br.Nodes, inner, branch, out)
			}
		}
		if n.ForEach != nil {
			rowDeciders(n.ForEach.Body.Nodes, inner, branch, out)
		}
		if n.Subflow != nil {
			rowDeciders(n.Subflow.Nodes, inner, branch, out)
		}
	}
}

// rowTraces traces the rows through the log (flow.Explainer.Rows): every
// row when all is set, else the declined ones alone (declinedAt, places
// among the rows); a row not traced has Origin -1. rowsAt are the rows'
// places in the state's list. One explainer, one pass of the log to index
// it; the rows not asked about cost nothing. With all and keep, each
// row's lineage too (flow.Lineage: the commits keep holds that what it
// read was made from), asked by row; else lineage is nil.
func (p *Projection) rowTraces(log *flow.Log, rowsAt, declinedAt []int, all bool, keep func(string) bool) (traces []flow.RowTrace, lineage func(r int) rowLineage) {
	traces = make([]flow.RowTrace, len(rowsAt))
	for i := range traces {
		traces[i].Origin = -1
	}
	asked := declinedAt
	if all {
		asked = make([]int, len(rowsAt))
		for i := range asked {
			asked[i] = i
		}
	} else if p.Decider == "" {
		asked = nil // no decider: no decision of it declined a row
	}
	if len(asked) == 0 || log == nil || len(log.Commits()) == 0 {
		return traces, nil
	}
	var opts []flow.ExplainOption
	if p.Structure != nil {
		opts = append(opts, flow.WithStructure(*p.Structure))
	}
	at := make([]int, len(asked))
	for k, r := range asked {
		at[k] = rowsAt[r]
	}
	e := flow.NewExplainer(log, opts...)
	for k, t := range e.Rows(p.Key, at) {
		traces[asked[k]] = t
	}
	if all && keep != nil {
		// asked row by row, in order: keep learns of each row not judged
		// before a later row's walk may reach it (Projection.Project)
		l := e.Lineage(keep, computes)
		lineage = func(r int) (rl rowLineage) {
			rl.paths, rl.more = l.Of(traces[r], p.Key)
			return rl
		}
	}
	return traces, lineage
}

// declinedBy says whose decision each declined row was, exactly, from
// the run's evidence: each row traced through the log to the commit that
// appended it (rowTraces), and from there up the decisions that routed it
// into its branch (RowTrace.Routes), innermost first, to the projection
// decider's decision. That decision chose the declined branch by a rule
// (its label, "rule N" without one) or by its default. A row whose stage
// no decision of the decider routed into its declined branch (a stage
// wrote the word itself, or the log cannot trace it) has neither. Groups
// come in rule order, then the default, then the rows of neither, so the
// answer does not depend on the order parallel branches ran in.
//
// Cost: one trace per declined row, over the commits that row rests on;
// rows that are not declined cost nothing.
func (p *Projection) declinedBy(traces []flow.RowTrace) []DeclinedRows {
	if len(traces) == 0 {
		return nil
	}
	type group struct {
		index int // the rule's index; the default, then neither, sort after every rule
		DeclinedRows
	}
	const (
		defaultIndex = int(^uint(0)>>1) - 1
		neitherIndex = int(^uint(0) >> 1)
	)
	var groups []group
	count := func(index int, d DeclinedRows) {
		for i := range groups {
			if groups[i].index == index && groups[i].Rule == d.Rule {
				groups[i].Rows++
				return
			}
		}
		d.Rows = 1
		groups = append(groups, group{index: index, DeclinedRows: d})
	}
	spellings := p.spellings()
	for _, t := range traces {
		route := p.declinedRoute(t, spellings)
		switch {
		case route == nil:
			count(neitherIndex, DeclinedRows{})
		case route.Rule != nil:
			label := route.Rule.Label
			if label == "" {
				label = fmt.Sprintf("rule %d", decide.Number(route.Rule.Index))
			}
			count(route.Rule.Index, DeclinedRows{Rule: label})
		default:
			count(defaultIndex, DeclinedRows{Default: true})
		}
	}
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].index < groups[j].index })
	out := make([]DeclinedRows, len(groups))
	for i, g := range groups {
		out[i] = g.DeclinedRows
	}
	return out
}

// declinedRoute is the projection decider's route into its declined
// branch behind a row traced as t: nil when no such decision routed the
// stage that appended the row.
func (p *Projection) declinedRoute(t flow.RowTrace, spellings map[string]bool) *flow.Route {
	if p.Decider == "" || p.Structure == nil {
		return nil
	}
	for _, rb := range t.Routes {
		if spellings[rb.Stage] || (rb.Name != "" && spellings[rb.Name]) {
			if rb.Route.Branch != DeclinedVerdict || (rb.Route.Rule == nil && rb.Route.Default == nil) {
				return nil
			}
			return rb.Route
		}
	}
	return nil
}
