package record_test

import (
	"testing"

	"github.com/openrunbook/runbook/record"
)

// TestOffTableNamesKeysOnlyLaterRowsHold: the table's columns are the first
// row's keys (the render law), so a key only a later row holds — the date
// the one expired account expired, the options of the one mount that
// failed — is in no column; OffTable names each, with the rows that hold
// it, so the text output says what the table leaves out (three waves of
// new users read a CRITICAL row without its evidence).
func TestOffTableNamesKeysOnlyLaterRowsHold(t *testing.T) {
	row := func(kv ...string) record.Row {
		r := record.Row{Values: map[string]any{}}
		for i := 0; i < len(kv); i += 2 {
			r.Keys = append(r.Keys, kv[i])
			r.Values[kv[i]] = kv[i+1]
		}
		return r
	}
	many := []record.Row{row("subject", "a", "verdict", "ok")}
	for range 10 {
		many = append(many, row("subject", "b", "verdict", "bad", "why", "x"))
	}
	for _, tc := range []struct {
		name string
		rows []record.Row
		want string
	}{
		{"none", nil, ""},
		{"one row", []record.Row{row("subject", "a", "extra", "x")}, ""},
		{"same keys", []record.Row{row("subject", "a", "verdict", "ok"), row("verdict", "bad", "subject", "b")}, ""},
		{"fewer keys later", []record.Row{row("subject", "a", "verdict", "ok", "note", "n"), row("subject", "b", "verdict", "bad")}, ""},
		{"one later key", []record.Row{row("subject", "a", "verdict", "ok"), row("subject", "b", "verdict", "ok"), row("subject", "c", "verdict", "expired", "changed", "2026-01-02")}, "changed (row 3)"},
		{"two keys, in order met", []record.Row{row("subject", "a", "verdict", "ok"), row("subject", "b", "verdict", "fail", "options", "rw"), row("subject", "c", "verdict", "fail", "why", "w", "options", "rw")}, "options (rows 2 and 3), why (row 3)"},
		{"a pipe in a key", []record.Row{row("subject", "a"), row("subject", "b", "a|b", "x")}, `a\|b (row 2)`},
		{"many rows", many, "why (rows 2, 3, 4, 5, 6, 7, 8, 9 … and 2 more)"},
	} {
		if got := record.OffTable(tc.rows); got != tc.want {
			t.Errorf("%s: OffTable = %q, want %q", tc.name, got, tc.want)
		}
	}
}
