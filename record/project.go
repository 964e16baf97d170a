package record

import (
	"slices"
	"strings"
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
// note, the declined count and the generated meanings. Only rows that are
// objects with a string verdict are rows.
func (p *Projection) Project(state map[string]any, decisions []Harvested) *VerdictSet {
	var rows []map[string]any
	if list, ok := state[p.Key].([]any); ok {
		for _, item := range list {
			m, ok := item.(map[string]any)
			if !ok {
				continue
			}
			if _, ok := m["verdict"].(string); ok {
				rows = append(rows, m)
			}
		}
	}
	vs := &VerdictSet{RowsTotal: len(rows), Rows: []Row{}}
	for _, row := range rows {
		if row["verdict"] == DeclinedVerdict {
			vs.Declined++
		}
	}
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
	spellings := map[string]bool{p.Decider: true}
	for _, s := range p.Spellings {
		spellings[s] = true
	}
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
		last := d.Decider[strings.LastIndexByte(d.Decider, '/')+1:]
		id := Path(d.Path)
		id = id[strings.LastIndexByte(id, '/')+1:]
		if !spellings[last] && !spellings[id] {
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
