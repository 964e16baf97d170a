package runbook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/openrunbook/runbook/flow"
)

// DeclinedVerdict is the verdict for "no classification was reached".
// Declined rows are counted into the coverage ledger as not-checked ground.
const DeclinedVerdict = "declined"

// NotesVersion is bumped whenever a word of the render notes changes.
const NotesVersion = 1

// ProseNote goes beside a pre-rendered table (presentation: prose).
const ProseNote = "The table above is pre-rendered over exactly these rows. Output it verbatim; do not retype, reorder, round or summarise its cells."

// PanelNote goes instead of a table when the host shows the rows itself
// (presentation: panel).
const PanelNote = "The host already shows these rows to the reader. Do not reproduce them in any form; when a finding is about a row, quote that row's values byte for byte."

// EmptySet is the table of a projection with no rows.
const EmptySet = "The projected set is empty: the run produced no verdict rows."

// project is the rowset projection: the final state's verdict rows under
// THE ONE-NUMBER LAW (one cap for the rows and the table), the table, the
// note, the declined count and the generated meanings.
func (rb *Runbook) project(state map[string]any, h *harvest) *VerdictSet {
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
	vs := &VerdictSet{RowsTotal: len(rows), Rows: []Row{}}
	for _, row := range rows {
		if row["verdict"] == DeclinedVerdict {
			vs.Declined++
		}
	}
	shown := rows[:min(max, len(rows))]
	for _, row := range shown {
		vs.Rows = append(vs.Rows, rb.orderRow(row))
	}
	vs.RowsShown, vs.RowsComplete = len(vs.Rows), len(vs.Rows) == vs.RowsTotal
	if r.Presentation == "panel" {
		vs.RenderNote = PanelNote
	} else {
		vs.Table = RenderTable(vs.Rows)
		vs.RenderNote = ProseNote
	}
	vs.Meanings = rb.meanings(h)
	return vs
}

// orderRow gives a row its declared key order: the columns of the verdict
// stage (or WithColumns list) whose keys are exactly the row's; otherwise
// the row's keys sorted.
func (rb *Runbook) orderRow(m map[string]any) Row {
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

// MarshalJSON writes the row as an object with its keys in order.
func (r Row) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range r.Keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		vb, err := json.Marshal(r.Values[k])
		if err != nil {
			return nil, fmt.Errorf("row key %q: %w", k, err)
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads a row keeping its keys' order (a saved record).
func (r *Row) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("a verdict row is a JSON object")
	}
	r.Keys, r.Values = nil, map[string]any{}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		k, _ := kt.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			return err
		}
		if _, dup := r.Values[k]; !dup {
			r.Keys = append(r.Keys, k)
		}
		r.Values[k] = v
	}
	_, err = dec.Token()
	return err
}

// RenderTable is THE render law for verdict rows: a markdown table whose
// columns are the FIRST row's keys in order; a null, missing or empty cell
// prints "—" (a blank reads as zero, a dash as not reported); booleans
// print yes/no; "|" is escaped and a newline becomes a space. Keys only
// later rows have are not columns. No rows: EmptySet.
func RenderTable(rows []Row) string {
	if len(rows) == 0 {
		return EmptySet
	}
	cols := rows[0].Keys
	var b strings.Builder
	b.WriteString("|")
	for _, c := range cols {
		b.WriteString(" " + cell(c) + " |")
	}
	b.WriteString("\n|")
	for range cols {
		b.WriteString("---|")
	}
	for _, r := range rows {
		b.WriteString("\n|")
		for _, c := range cols {
			v, ok := r.Values[c]
			if !ok {
				v = nil
			}
			b.WriteString(" " + cellValue(v) + " |")
		}
	}
	return b.String()
}

func cellValue(v any) string {
	switch t := v.(type) {
	case nil:
		return "—"
	case string:
		if t == "" {
			return "—"
		}
		return cell(t)
	case bool:
		if t {
			return "yes"
		}
		return "no"
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return cell(fmt.Sprint(v))
	}
	return cell(strings.TrimSuffix(buf.String(), "\n"))
}

func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\r\n", " ")
	return strings.NewReplacer("\n", " ", "\r", " ").Replace(s)
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
