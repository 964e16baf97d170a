package parse

import (
	"strings"
	"testing"
)

// TestBlankTextIsNoTable: parse: columns over a text with no header row
// (the command printed nothing) read as a table of no rows, with no
// problem. `smartctl -A /dev/nvme0n1 | sed -n '/^ID#/,/^$/p'` cuts the
// ATA attribute table out of smartctl's output, and an NVMe disk has none
// (smartctl prints its health log instead), so a chart judging any()
// attribute failing called a worn NVMe disk (spare 3%, 104% used, 12 media
// errors) ok, Consistent. A table with no rows still prints its header
// (ps, df), so a text with no header row is a problem now; the value stays
// []. With header: false there is no header to miss, and a blank text is
// still no rows.
func TestBlankTextIsNoTable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		opts       map[string]any
	}{
		{"nothing printed", "", nil},
		{"blank lines", "\n  \n", nil},
		{"header row expected over names", "", map[string]any{"header": true, "names": []any{"a", "b"}}},
		{"every line skipped", "procs -----------memory----------\n", map[string]any{"skip": 1}},
	} {
		res, err := Parse(tc.text, Spec{Mode: "columns", Options: tc.opts})
		if err != nil {
			t.Fatal(err)
		}
		if l, ok := res.Value.([]any); !ok || len(l) != 0 || res.Problems != 1 || !strings.Contains(res.FirstProblem, "no header row") {
			t.Errorf("%s: value %#v, %d problems (%s); want [] and 1 problem saying there is no header row", tc.name, res.Value, res.Problems, res.FirstProblem)
		}
	}
	res, _ := Parse("", Spec{Mode: "columns", Options: map[string]any{"header": false, "names": []any{"a", "b"}}})
	if l, ok := res.Value.([]any); !ok || len(l) != 0 || res.Problems != 0 {
		t.Errorf("header: false over a blank text: value %#v, %d problems (%s); want [] and none", res.Value, res.Problems, res.FirstProblem)
	}
	res, _ = Parse("PID COMMAND\n", Spec{Mode: "columns"})
	if l, ok := res.Value.([]any); !ok || len(l) != 0 || res.Problems != 0 {
		t.Errorf("a header over no rows: value %#v, %d problems (%s); want [] and none", res.Value, res.Problems, res.FirstProblem)
	}
}
