package record_test

import (
	"strings"
	"testing"

	"github.com/openrunbook/runbook/record"
)

// TestCellWritesALineEndAsItsEscape: a file name may hold a newline (git
// status -z, find -print0 keep it whole), and a table cell wrote a space
// for it: the untracked file `build.log<newline>key.pem` was the row
// `build.log key.pem`, which is another file's name, one nobody has. A
// line end is written as its escape now, \n and \r, as the terminal's
// sanitizer writes a tab \t.
func TestCellWritesALineEndAsItsEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"build.log\nkey.pem", `build.log\nkey.pem`},
		{"a\r\nb", `a\r\nb`},
		{"build.log key.pem", "build.log key.pem"},
		{"été.txt", "été.txt"},
		{"a|b", `a\|b`},
		{"x|\ny", `x\|\ny`},
	} {
		if got := record.CellText(tc.in); got != tc.want {
			t.Errorf("%q: cell %q, want %q", tc.in, got, tc.want)
		}
	}
	table := record.RenderTable([]record.Row{{Keys: []string{"subject", "verdict"}, Values: map[string]any{"subject": "build.log\nkey.pem", "verdict": "untracked"}}}, nil)
	if !strings.Contains(table, `| build.log\nkey.pem | untracked |`) {
		t.Errorf("table:\n%s", table)
	}
}
