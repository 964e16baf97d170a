package charttest

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/internal/gate"
	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/record"
)

// compare holds a case's run to each key its expect gives, in expect's
// order of keys (expectKeys).
func compare(c *Case, res *CaseResult) []Failure {
	e, rec := c.Expect, res.Record
	var out []Failure
	fail := func(key string, want, got any, msg string) {
		out = append(out, Failure{Key: key, Pos: e.At[key], Expected: want, Actual: got, Msg: msg})
	}
	unstubbed := slices.ContainsFunc(res.Failures, func(f Failure) bool { return f.Key == "stub" })
	broke := rec.Status == "failed" || rec.Status == "cancelled"
	asked := rec.Status == "paused" && e.Standing == nil
	if e.Status == nil && e.Exit == nil && (broke || asked) && !unstubbed {
		// A case that does not say how the run ends expects it to finish:
		// its rows ([] most of all), standing and state are of a run that
		// broke, or stopped at a question the case did not answer, and
		// would pass over a chart that cannot run. (A stage reached with
		// no stub has said why already; standing: ask expects the pause.)
		msg := "the case does not expect the run to end " + rec.Status + "; expect status: " + rec.Status + " to hold a run that breaks"
		switch {
		case rec.Error != nil:
			msg = fmt.Sprintf("the run %s at %s: %s; %s", rec.Status, rec.Error.Stage, trimmed(rec.Error.Message), msg)
		case rec.Pause != nil:
			msg = fmt.Sprintf("the run paused at %s, asking %q, and the case gives no answer it expects (%s); answer it under answers:, or expect status: paused", rec.Pause.Stage, trimmed(rec.Pause.Question), strings.Join(sortedKeys(rec.Pause.Expects), ", "))
		}
		pos := c.expectKey
		if pos.Line == 0 {
			pos = c.Pos
		}
		out = append(out, Failure{Key: "status", Pos: pos, Expected: "completed", Actual: rec.Status, Msg: msg})
	}
	if e.Status != nil && *e.Status != rec.Status {
		msg := ""
		if rec.Error != nil {
			msg = fmt.Sprintf("the run %s at %s: %s", rec.Status, rec.Error.Stage, trimmed(rec.Error.Message))
		}
		fail("status", *e.Status, rec.Status, msg)
	}
	if e.Exit != nil && *e.Exit != res.Exit {
		msg := ""
		if held := gate.Held(rec, e.conds); len(held) > 0 {
			msg = "failOn held: " + strings.Join(held, ", ")
		}
		fail("exit", *e.Exit, res.Exit, msg)
	}
	if e.Verdicts != nil {
		if diff, ok := rowDiff(e.Verdicts, rowsOf(rec)); !ok {
			out = append(out, Failure{Key: "verdicts", Pos: e.At["verdicts"], Rows: diff, Msg: rowsDiffer(e.Verdicts, rowsOf(rec))})
		}
	}
	if e.RowsTotal != nil {
		got := 0
		if rec.Verdicts != nil {
			got = rec.Verdicts.RowsTotal
		}
		if got != *e.RowsTotal {
			fail("rowsTotal", *e.RowsTotal, got, "")
		}
	}
	if e.UnjudgedRows != nil {
		if got := unjudgedRowsOf(rec); !slices.Equal(e.UnjudgedRows, got) {
			msg := ""
			if rec.Verdicts != nil {
				for _, u := range rec.Verdicts.UnjudgedRows {
					msg += "; " + u.Said()
				}
			}
			fail("unjudgedRows", e.UnjudgedRows, got, strings.TrimPrefix(msg, "; "))
		}
	}
	if e.Standing != nil && *e.Standing != standingOf(rec) {
		fail("standing", *e.Standing, standingOf(rec), lineOf(rec))
	}
	if e.Reasons != nil {
		got := reasonsOf(rec)
		if !sameSet(e.Reasons, got) {
			fail("reasons", e.Reasons, got, "")
		}
	}
	for _, path := range sortedKeys(e.Decisions) {
		want := e.Decisions[path]
		all := chosen(rec, path)
		if len(all) == 0 {
			fail("decisions", map[string]any{path: want}, nil, fmt.Sprintf("no decision was made at %s (decided: %s)", path, decided(rec)))
			continue
		}
		if len(all) > 1 {
			// A loop decides at one place each time round: no one of
			// them is "the" decision there, so none is compared.
			each := make([]string, len(all))
			for i, c := range all {
				each[i] = Format(c)
			}
			fail("decisions", map[string]any{path: want}, nil, fmt.Sprintf("%s was decided %d times: %s; a place decided more than once (a loop) has no one decision to expect: hold the outcome with state:", path, len(all), strings.Join(each, ", ")))
			continue
		}
		if got := all[0]; !slices.Equal(want, got) {
			fail("decisions", map[string]any{path: want}, map[string]any{path: got}, "")
		}
	}
	items := coverageItems(rec)
	for _, want := range e.Coverage {
		if !slices.ContainsFunc(items, func(it map[string]any) bool { return subset(want, it) }) {
			fail("coverage", want, nil, "no coverage item of the run is this one (the run's: "+compact(items)+")")
		}
	}
	state := jsonValue(rec.State)
	for _, k := range sortedKeys(e.State) {
		got, ok := dotted(state, k)
		if !ok {
			fail("state", map[string]any{k: e.State[k]}, nil, fmt.Sprintf("the run's state has no %s", k))
			continue
		}
		if !jsonv.Equal(e.State[k], got) {
			fail("state", map[string]any{k: e.State[k]}, map[string]any{k: got}, "")
		}
	}
	if e.Line != nil && *e.Line != lineOf(rec) {
		fail("line", *e.Line, lineOf(rec), "")
	}
	if e.Nagios != nil && *e.Nagios != res.Nagios {
		fail("nagios", *e.Nagios, res.Nagios, "")
	}
	return out
}

// unjudgedRowsOf names the shown rows that rest on what the run did not
// judge as an expect unjudgedRows: does, each by its subject's cell text,
// "row N" (from 1) for a row with none, in row order; never nil.
func unjudgedRowsOf(rec *record.Record) []string {
	out := []string{}
	if rec.Verdicts == nil {
		return out
	}
	for _, u := range rec.Verdicts.UnjudgedRows {
		name := fmt.Sprintf("row %d", u.Row+1)
		if u.Subject != nil && u.Subject != "" {
			name = record.CellText(u.Subject)
		}
		out = append(out, name)
	}
	return out
}

// rowsOf are the record's shown verdict rows, their values as JSON reads
// them back (so they compare with a test file's).
func rowsOf(rec *record.Record) []record.Row {
	if rec.Verdicts == nil {
		return nil
	}
	out := make([]record.Row, len(rec.Verdicts.Rows))
	for i, r := range rec.Verdicts.Rows {
		vals := make(map[string]any, len(r.Values))
		for k, v := range r.Values {
			vals[k] = jsonValue(v)
		}
		out[i] = record.Row{Keys: r.Keys, Values: vals}
	}
	return out
}

// rowMatches: every key the expected row gives is in the actual row, equal.
func rowMatches(want, got record.Row) bool {
	for _, k := range want.Keys {
		v, ok := got.Values[k]
		if !ok || !jsonv.Equal(want.Values[k], v) {
			return false
		}
	}
	return true
}

// rowsDiffer says how the rows differ: a count that is not the expected
// one, or, the count right, which rows are not the expected ones.
func rowsDiffer(want, got []record.Row) string {
	if len(want) != len(got) {
		noun := "rows"
		if len(want) == 1 {
			noun = "row"
		}
		return fmt.Sprintf("expected %d %s, got %d", len(want), noun, len(got))
	}
	var differ []string
	for i := range want {
		if !rowMatches(want[i], got[i]) {
			differ = append(differ, strconv.Itoa(i+1))
		}
	}
	if len(differ) == 1 {
		return fmt.Sprintf("row %s of %d differs", differ[0], len(want))
	}
	return fmt.Sprintf("rows %s of %d differ", strings.Join(differ, ", "), len(want))
}

// rowDiff lines expected rows up with actual ones, in order; ok when each
// matches its row and the counts agree.
func rowDiff(want, got []record.Row) ([]RowDiff, bool) {
	var out []RowDiff
	ok := len(want) == len(got)
	for i := range max(len(want), len(got)) {
		switch {
		case i < len(want) && i < len(got) && rowMatches(want[i], got[i]):
			out = append(out, RowDiff{Op: ' ', Row: want[i]})
		default:
			ok = false
			if i < len(want) {
				out = append(out, RowDiff{Op: '-', Row: want[i]})
			}
			if i < len(got) {
				out = append(out, RowDiff{Op: '+', Row: got[i]})
			}
		}
	}
	return out, ok
}

func standingOf(rec *record.Record) string {
	if rec.Assessment == nil {
		return ""
	}
	return string(rec.Assessment.Standing)
}

func lineOf(rec *record.Record) string {
	if rec.Assessment == nil {
		return ""
	}
	return rec.Assessment.Line
}

func reasonsOf(rec *record.Record) []string {
	out := []string{}
	if rec.Assessment != nil {
		for _, r := range rec.Assessment.Reasons {
			out = append(out, string(r))
		}
	}
	return out
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	sort.Strings(a)
	sort.Strings(b)
	return slices.Equal(a, b)
}

// chosen is what each decision at the record path chose, in log order.
func chosen(rec *record.Record, path string) [][]string {
	var out [][]string
	for _, d := range rec.Decisions {
		if d.Path == path {
			out = append(out, d.Chosen)
		}
	}
	return out
}

func decided(rec *record.Record) string {
	var ps []string
	for _, d := range rec.Decisions {
		ps = append(ps, d.Path)
	}
	if len(ps) == 0 {
		return "none"
	}
	return strings.Join(ps, ", ")
}

// coverageItems flattens the run's coverage ledger into the items a test
// names: {path, kind, what, why}, kind one of checked, not-checked,
// cannot-cover, in-progress, or absence (what it looked for).
func coverageItems(rec *record.Record) []map[string]any {
	var out []map[string]any
	add := func(path, kind string, its []coverage.Item) {
		for _, it := range its {
			m := map[string]any{"path": path, "kind": kind, "what": it.What}
			if it.Why != "" {
				m["why"] = it.Why
			}
			out = append(out, m)
		}
	}
	for _, e := range rec.Coverage {
		if e.Kind == coverage.KindAbsence {
			out = append(out, map[string]any{"path": e.Path, "kind": "absence", "what": e.LookedFor})
		}
		add(e.Path, "checked", e.Checked)
		add(e.Path, "not-checked", e.NotChecked)
		add(e.Path, "cannot-cover", e.CannotCover)
		for _, ip := range e.InProgress {
			b, _ := json.Marshal(ip)
			var m map[string]any
			_ = json.Unmarshal(b, &m)
			m["path"], m["kind"] = e.Path, "in-progress"
			out = append(out, m)
		}
	}
	return out
}

// subset: every key of want is in got, equal.
func subset(want, got map[string]any) bool {
	for k, v := range want {
		if g, ok := got[k]; !ok || !jsonv.Equal(v, g) {
			return false
		}
	}
	return true
}

// dotted reads `df.exitCode` (and `df.stdout.0` for a list's item).
func dotted(v any, key string) (any, bool) {
	if m, ok := v.(map[string]any); ok {
		if x, ok := m[key]; ok {
			return x, true // a key that holds a dot itself
		}
	}
	for _, part := range strings.Split(key, ".") {
		switch t := v.(type) {
		case map[string]any:
			x, ok := t[part]
			if !ok {
				return nil, false
			}
			v = x
		case []any:
			var i int
			if _, err := fmt.Sscanf(part, "%d", &i); err != nil || i < 0 || i >= len(t) {
				return nil, false
			}
			v = t[i]
		default:
			return nil, false
		}
	}
	return v, true
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// compact is a value as short JSON, for a message.
func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// String is the failure as `runbook test` prints it: where the key was
// written, what was expected and what the run gave, then any detail (the
// row diff, the run's words) on lines of their own, indented.
func (f Failure) String() string {
	var b strings.Builder
	if f.Pos.Line > 0 {
		fmt.Fprintf(&b, "%s:%d:%d: ", f.Pos.File, f.Pos.Line, f.Pos.Col)
	}
	switch {
	case f.Key == "stub" || f.Key == "run" || f.Key == "answers":
		b.WriteString(f.Msg)
		return b.String()
	case f.Rows != nil:
		fmt.Fprintf(&b, "%s: %s", f.Key, f.Msg)
		for _, d := range f.Rows {
			fmt.Fprintf(&b, "\n    %c %s", d.Op, yamlRow(d.Row))
		}
		return b.String()
	}
	fmt.Fprintf(&b, "%s: expected %s, got %s", f.Key, Format(f.Expected), Format(f.Actual))
	if f.Msg != "" {
		b.WriteString("\n    " + f.Msg)
	}
	return b.String()
}

// Format is a value as a test file writes it (YAML flow style): how
// failures show expected and actual values.
func Format(v any) string {
	switch t := v.(type) {
	case nil:
		return "nothing"
	case []string:
		return yamlFlow(anyList(t))
	case int:
		return strconv.Itoa(t)
	case map[string]any:
		return yamlFlow(jsonValue(t))
	}
	return yamlFlow(v)
}

// RowText is a verdict row as a test file writes it.
func RowText(r record.Row) string { return yamlRow(r) }
