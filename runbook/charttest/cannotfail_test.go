package charttest

import (
	"strings"
	"testing"
)

// TestExpectationThatCannotFailIsRefused: `failOn: [verdict=full]` with
// no exit: passed over a run whose gate never fired (failOn is only the
// conditions exit: is judged under); `coverage: []`, `state: {}`,
// `decisions: {}` and a verdict row `{}` hold nothing a run could miss.
// Each is an error at its place; verdicts: [] and reasons: [] (no rows,
// no reason) and failOn with exit load.
func TestExpectationThatCannotFailIsRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, expect, err string
	}{
		{"failOn alone", `{failOn: [not-sure]}`, `g_test.yaml:5:14: case "c": expect: failOn alone expects nothing: it is the conditions exit: is judged under`},
		{"coverage", `{coverage: []}`, `case "c": expect: coverage holds no item, so it expects nothing`},
		{"state", `{state: {}}`, `expect: state holds no item`},
		{"decisions", `{decisions: {}}`, `expect: decisions holds no item`},
		{"a row of nothing", `{verdicts: [{subject: a}, {}]}`, `g_test.yaml:5:39: case "c": expect: a verdict row with no key matches every row`},
		{"no rows", `{verdicts: [], reasons: []}`, ""},
		{"failOn with exit", `{failOn: [not-sure], exit: 3}`, ""},
	} {
		dir := t.TempDir()
		writeFile(t, dir, "chart.yaml", memChart("mi.content.MemAvailable"))
		_, err := Load(writeFile(t, dir, "g_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n  - name: c\n    expect: "+tc.expect+"\n"))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v; want it to hold %q", tc.name, err, tc.err)
		}
	}
}
