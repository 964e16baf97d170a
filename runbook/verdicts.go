package runbook

import (
	"slices"
	"strings"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/record"
)

// project is the rowset projection: the final state's verdict rows under
// THE ONE-NUMBER LAW (one cap for the rows and the table), the table, the
// note, the declined count and the generated meanings.
func (rb *Runbook) project(state map[string]any, h *harvest) *record.VerdictSet {
	r := rb.spec.Result
	max := r.MaxRows
	if max <= 0 {
		max = DefaultMaxRows
	}
	var rows []map[string]any
	if list, ok := state[flow.VerdictsKey].([]any); ok {
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
	vs := &record.VerdictSet{RowsTotal: len(rows), Rows: []record.Row{}}
	for _, row := range rows {
		if row["verdict"] == record.DeclinedVerdict {
			vs.Declined++
		}
	}
	shown := rows[:min(max, len(rows))]
	for _, row := range shown {
		vs.Rows = append(vs.Rows, rb.orderRow(row))
	}
	vs.RowsShown, vs.RowsComplete = len(vs.Rows), len(vs.Rows) == vs.RowsTotal
	if r.Presentation == "panel" {
		vs.RenderNote = record.PanelNote
	} else {
		vs.Table = record.RenderTable(vs.Rows)
		vs.RenderNote = record.ProseNote
	}
	vs.Meanings = rb.meanings(h)
	return vs
}

// orderRow gives a row its declared key order: the columns of the verdict
// stage (or WithColumns list) whose keys are exactly the row's; otherwise
// the row's keys sorted.
func (rb *Runbook) orderRow(m map[string]any) record.Row {
	for _, cols := range rb.columns {
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
			return record.Row{Keys: cols, Values: m}
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return record.Row{Keys: keys, Values: m}
}

// orderedRows keeps verdict rows' key order in the state the record shows.
func (rb *Runbook) orderedRows(rows []any) []any {
	out := make([]any, len(rows))
	for i, item := range rows {
		if m, ok := item.(map[string]any); ok {
			out[i] = rb.orderRow(m)
		} else {
			out[i] = item
		}
	}
	return out
}

// meanings composes verdict word → meaning: the named decider's declared
// branches (description, else name) from the chart's static structure,
// overlaid by what this run's evidence said — every evaluated rule's label
// and the default's label — harvested during the run and matched on the
// LAST "/" segment of the decider's path. Observed beats declared. Nil when
// neither said anything: never an empty map. No caller can supply one.
func (rb *Runbook) meanings(h *harvest) map[string]string {
	name := rb.spec.Result.Decider
	if name == "" {
		return nil
	}
	out := map[string]string{}
	spellings := map[string]bool{name: true}
	if d, ok := rb.chart.FindDecider(name); ok {
		spellings[d.Name], spellings[d.ID] = true, true
		for branch, meaning := range d.Declared() {
			out[branch] = meaning
		}
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
	for _, d := range h.decisions {
		last := d.decider[strings.LastIndexByte(d.decider, '/')+1:]
		id := RecordPath(d.path)
		id = id[strings.LastIndexByte(id, '/')+1:]
		if !spellings[last] && !spellings[id] {
			continue
		}
		for _, r := range d.ev.Rules {
			note(r.Then, r.Label)
		}
		if d.ev.Default != nil {
			note(d.ev.Default.Branch, d.ev.Default.Label)
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
