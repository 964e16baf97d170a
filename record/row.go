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
// later rows have are not columns (OffTable says which). A row of
// unjudged (UnjudgedRow.Row, a place in rows) has NotJudgedMark after its
// verdict cell: its word is no answer of it. No rows: EmptySet.
func RenderTable(rows []Row, unjudged []UnjudgedRow) string {
	if len(rows) == 0 {
		return EmptySet
	}
	marked := make(map[int]bool, len(unjudged))
	for _, u := range unjudged {
		marked[u.Row] = true
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
	for i, r := range rows {
		b.WriteString("\n|")
		for _, c := range cols {
			v, ok := r.Values[c]
			if !ok {
				v = nil
			}
			mark := ""
			if c == "verdict" && marked[i] {
				mark = NotJudgedMark
			}
			b.WriteString(" " + cellValue(v) + mark + " |")
		}
	}
	return b.String()
}

// OffTable is what RenderTable leaves out, in words: each key only rows
// after the first hold, in the order first met, with the rows (1-based)
// that hold it — "changed (row 3), options (rows 2 and 5)"; "" when every
// row's keys are the first row's. The table law keeps the first row's
// keys as the columns, so a key a CRITICAL row alone carries (the date
// an account expired, the mount options that failed) was in no column of
// the text output and nothing said so; the renderers print this beside
// the table.
func OffTable(rows []Row) string {
	if len(rows) < 2 {
		return ""
	}
	cols := make(map[string]bool, len(rows[0].Keys))
	for _, k := range rows[0].Keys {
		cols[k] = true
	}
	var order []string
	at := map[string][]int{}
	for i, r := range rows[1:] {
		for _, k := range r.Keys {
			if cols[k] {
				continue
			}
			if at[k] == nil {
				order = append(order, k)
			}
			at[k] = append(at[k], i+2)
		}
	}
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = fmt.Sprintf("%s (%s)", cell(k), rowNumbers(at[k]))
	}
	return strings.Join(parts, ", ")
}

// rowNumbers is "row 3", "rows 2 and 5", "rows 2, 5 and 9", past eight
// "rows 2, 5, 9 … and 40 more".
func rowNumbers(ns []int) string {
	if len(ns) == 1 {
		return fmt.Sprintf("row %d", ns[0])
	}
	words := make([]string, 0, len(ns))
	for i, n := range ns {
		if i == 8 {
			return "rows " + strings.Join(words, ", ") + fmt.Sprintf(" … and %d more", len(ns)-8)
		}
		words = append(words, fmt.Sprint(n))
	}
	return "rows " + strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
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
