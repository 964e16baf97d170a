package record

import (
	"fmt"
	"slices"
	"sort"
	"strings"

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
}

// Project is the rowset projection: the final state's verdict rows under
// THE ONE-NUMBER LAW (one cap for the rows and the table), the table, the
// note, the declined count and whose decision each decline was, the
// dropped count and the generated meanings. Only rows that are objects
// with a string verdict are rows; every other entry of the list is
// counted as dropped, never passed over in silence.
func (p *Projection) Project(state map[string]any, decisions []Harvested) *VerdictSet {
	var rows []map[string]any
	dropped := 0
	if list, ok := state[p.Key].([]any); ok {
		for _, item := range list {
			m, ok := item.(map[string]any)
			if !ok {
				dropped++
				continue
			}
			if _, ok := m["verdict"].(string); ok {
				rows = append(rows, m)
			} else {
				dropped++
			}
		}
	}
	vs := &VerdictSet{RowsTotal: len(rows), Rows: []Row{}, RowsDropped: dropped}
	for _, row := range rows {
		if row["verdict"] == DeclinedVerdict {
			vs.Declined++
		}
	}
	vs.DeclinedBy = p.declinedBy(vs.Declined, decisions)
	for _, row := range rows[:min(p.MaxRows, len(rows))] {
		vs.Rows = append(vs.Rows, p.Order(row))
	}
	vs.RowsShown, vs.RowsComplete = len(vs.Rows), len(vs.Rows) == vs.RowsTotal
	if p.Panel {
		vs.RenderNote = PanelNote
	} else {
		vs.Table = RenderTable(vs.Rows)
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
// rule's label and the default's label — harvested during the run and
// matched on the LAST "/" segment of the decider's path. Observed beats
// declared. Nil when neither said anything: never an empty map. No caller
// can supply one.
func (p *Projection) meanings(decisions []Harvested) map[string]string {
	if p.Decider == "" {
		return nil
	}
	out := map[string]string{}
	for branch, meaning := range p.Declared {
		out[branch] = meaning
	}
	spellings := p.spellings()
	observed := map[string][]string{}
	var order []string
	note := func(branch, label string) {
		if label == "" || slices.Contains(observed[branch], label) {
			return
		}
		if _, seen := observed[branch]; !seen {
			order = append(order, branch)
		}
		observed[branch] = append(observed[branch], label)
	}
	for _, d := range decisions {
		if !p.decidedBy(d, spellings) {
			continue
		}
		for _, r := range d.Evidence.Rules {
			note(r.Then, r.Label)
		}
		if d.Evidence.Default != nil {
			note(d.Evidence.Default.Branch, d.Evidence.Default.Label)
		}
	}
	for _, branch := range order {
		out[branch] = strings.Join(observed[branch], "; ")
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// spellings is the set of names the projection's decider answers to.
func (p *Projection) spellings() map[string]bool {
	out := map[string]bool{p.Decider: true}
	for _, s := range p.Spellings {
		out[s] = true
	}
	return out
}

// decidedBy says whether d is a decision of the projection's decider,
// matched on the deciding stage's name or its node id.
func (p *Projection) decidedBy(d Harvested, spellings map[string]bool) bool {
	return spellings[d.Name] || spellings[flow.NodeOf(d.Path)]
}

// declinedBy says whose decision the declined rows were. Each decision of
// the decider that chose the declined branch accounts for one row: the
// rule that matched it there, or the default when no rule did. The branch
// word is the verdict word, as the meanings read it. Groups come in rule
// order, then the default, so the answer does not depend on the order
// parallel branches decided in; they account for at most declined rows,
// and rows no decision accounts for (a stage wrote "declined" itself) are
// the last group, with neither Rule nor Default.
func (p *Projection) declinedBy(declined int, decisions []Harvested) []DeclinedRows {
	if declined == 0 {
		return nil
	}
	type group struct {
		index int // the rule's index; the default sorts after every rule
		DeclinedRows
	}
	const defaultIndex = int(^uint(0) >> 1)
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
	if p.Decider != "" {
		spellings := p.spellings()
		for _, d := range decisions {
			ev := d.Evidence
			if ev == nil || !slices.Contains(ev.Chosen, DeclinedVerdict) || !p.decidedBy(d, spellings) {
				continue
			}
			byRule := false
			for _, r := range ev.Rules {
				if r.Matched && r.Then == DeclinedVerdict {
					label := r.Label
					if label == "" {
						label = fmt.Sprintf("rule %d", r.Index+1)
					}
					count(r.Index, DeclinedRows{Rule: label})
					byRule = true
					break
				}
			}
			if !byRule {
				count(defaultIndex, DeclinedRows{Default: true})
			}
		}
	}
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].index < groups[j].index })
	var out []DeclinedRows
	left := declined
	for _, g := range groups {
		if left == 0 {
			break
		}
		g.Rows = min(g.Rows, left)
		left -= g.Rows
		out = append(out, g.DeclinedRows)
	}
	if left > 0 {
		out = append(out, DeclinedRows{Rows: left})
	}
	return out
}
