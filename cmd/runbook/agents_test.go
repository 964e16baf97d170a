package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// What programs and agents get from a run (mcp.md, cli.md "--format
// json"), held against the answers a reader would take for confident and
// wrong: each test here failed before its fix.

const agentsData = "testdata/agents"

// TestStoppedRunTableIsNotAnEmptySet: a run that failed, or paused,
// before it wrote a verdict row has judged nothing. Its record's table
// (what `exec -o json` prints and an MCP tool's structuredContent holds,
// beside a note saying to output it verbatim) and an MCP tool's text said
// "The projected set is empty: the run produced no verdict rows", which a
// model repeats as nothing found; the text format already said the run
// stopped. All three now say it, by record.NoRowsTable.
func TestStoppedRunTableIsNotAnEmptySet(t *testing.T) {
	t.Parallel()
	dir, _ := filepath.Abs(agentsData)
	for _, tc := range []struct {
		chart, tool, want string
		args              []string
	}{
		{"early.yaml", "early-fail", "No verdict rows: the run failed before it wrote any.", nil},
		{"ask.yaml", "ask-first", "No verdict rows yet: the run paused to ask a question before it wrote any.", []string{"--record", filepath.Join(t.TempDir(), "r.json")}},
	} {
		r := runCLI(t, dir, append([]string{"exec", tc.chart, "-o", "json"}, tc.args...)...)
		var rec struct {
			Status   string `json:"status"`
			Verdicts struct {
				Table string `json:"table"`
			} `json:"verdicts"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &rec); err != nil {
			t.Fatalf("%s: -o json: %v\n%s", tc.chart, err, r.stdout)
		}
		if rec.Verdicts.Table != tc.want {
			t.Errorf("%s (%s): -o json table %q, want %q", tc.chart, rec.Status, rec.Verdicts.Table, tc.want)
		}
		if txt := runCLI(t, dir, append([]string{"exec", tc.chart}, tc.args...)...); !strings.HasPrefix(txt.stdout, tc.want+"\n") {
			t.Errorf("%s: text:\n%s\nwant it to start %q", tc.chart, txt.stdout, tc.want)
		}

		m := newMCPTest(t, "", nil, filepath.Join(agentsData, tc.chart))
		res := m.call(t, tc.tool, nil)
		text := textOf(t, res)
		if !strings.HasPrefix(text, tc.want+"\n") || strings.Contains(text, "projected set is empty") {
			t.Errorf("%s: MCP text:\n%s\nwant it to start %q", tc.tool, text, tc.want)
		}
		vs, _ := structured(t, res)["verdicts"].(map[string]any)
		if vs["table"] != tc.want {
			t.Errorf("%s: structuredContent's table %q, want %q", tc.tool, vs["table"], tc.want)
		}
	}
}
