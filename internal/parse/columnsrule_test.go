package parse

import (
	"strings"
	"testing"
)

// TestRuleOfEqualsUnderTheHeaderIsNoRow: ntpq -p and chronyc sources draw
// a line of "=" under their header, and parse: columns filed it as a
// problem (`1 field, the table has 10 columns`), so every clock check
// over them stood Not sure, on every host, however its peers stood; the
// way round it (tail -n +3 with header: false) reads past the header
// unchecked. The rule directly under the header is passed over now; one
// anywhere else (a line between two tables) is still a problem, and so is
// psql's dashed rule, which says to read psql another way.
func TestRuleOfEqualsUnderTheHeaderIsNoRow(t *testing.T) {
	t.Parallel()
	ntpq := "     remote           refid      st t when poll reach   delay   offset  jitter\n" +
		"==============================================================================\n" +
		"*ntp1.example.or 192.0.2.10       2 u   33   64  377    0.512  -12.345   0.045\n"
	res, err := Parse(ntpq, Spec{Mode: "columns"})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := res.Value.([]any)
	if res.Problems != 0 || len(rows) != 1 || rows[0].(map[string]any)["offset"] != -12.345 {
		t.Errorf("ntpq -p: %d problems (%s), rows %#v; want none and the one peer", res.Problems, res.FirstProblem, rows)
	}
	for _, tc := range []struct{ name, text, want string }{
		{"a rule between two tables", "A B\n1 2\n=====\n3 4\n", "1 field"},
		{"psql's dashed rule", "relname\n-------\nt\n", "psql's rule"},
	} {
		res, _ := Parse(tc.text, Spec{Mode: "columns"})
		if res.Problems != 1 || !strings.Contains(res.FirstProblem, tc.want) {
			t.Errorf("%s: %d problems (%s); want 1 saying %q", tc.name, res.Problems, res.FirstProblem, tc.want)
		}
	}
}
