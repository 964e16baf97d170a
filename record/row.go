package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openrunbook/runbook/internal/jsonv"
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

// EmptyAnswerSet is the table of a completed run's projection with no rows
// when the chart declares none its answer (result.empty: answer): the
// reader is told that no rows is the chart's claim, not the run's silence.
const EmptyAnswerSet = "The projected set is empty: the run produced no verdict rows, which the chart declares its answer (result.empty: answer): nothing to report."

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

// CellText is the words RenderTable prints for one cell's value v (the
// render law: "—" for null or empty, yes/no, "|" escaped), for a renderer
// that lays rows out other than as a table.
func CellText(v any) string { return cellValue(v) }

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
	b, err := jsonv.Marshal(v)
	if err != nil {
		return cell(fmt.Sprint(v))
	}
	return cell(string(b))
}

func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\r\n", " ")
	return strings.NewReplacer("\n", " ", "\r", " ").Replace(s)
}
