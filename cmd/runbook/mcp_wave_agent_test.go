package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPChartChangedOnDiskIsNotRun: the server loads its charts once. A
// chart whose file an operator then fixed (a limit lowered from 95 to 80)
// went on answering by the rule it was loaded with: the agent was told
// ok over a volume at 88% that `runbook exec` of the same file called
// at-risk, until the server was restarted. A call of a chart whose file
// changed now runs nothing and says so (the file is named in the log
// only), and so does a resume of a run paused before the change.
func TestMCPChartChangedOnDiskIsNotRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := filepath.Join(dir, "limit.yaml")
	text := `version: 1
runbook: limit
result: {kind: verdict/disk, decider: Headroom}
stages:
  - {id: seed, set: {used: 88}}
  - id: headroom
    name: Headroom
    decide:
      rules:
        - {when: used >= 95, then: at-risk, label: At or above the limit}
      default: {branch: ok, label: Under the limit}
    branches:
      at-risk: [{id: r, verdict: {subject: '"/"', verdict: '"at-risk"'}}]
      ok: [{id: o, verdict: {subject: '"/"', verdict: '"ok"'}}]
`
	if err := os.WriteFile(chart, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	ask := filepath.Join(dir, "ask.yaml")
	askText := `version: 1
runbook: ask
stages:
  - {id: q, ask: {question: '"go?"', expects: {ok: bool}}}
  - {id: after, set: {went: ok}}
`
	if err := os.WriteFile(ask, []byte(askText), 0o600); err != nil {
		t.Fatal(err)
	}
	m := newMCPTest(t, "", nil, chart, ask)
	if res := m.call(t, "limit", nil); res.IsError || !strings.Contains(textOf(t, res), "| / | ok |") {
		t.Fatalf("before the change: isError %v\n%s", res.IsError, textOf(t, res))
	}
	paused := structured(t, m.call(t, "ask", nil))
	if paused["status"] != "paused" {
		t.Fatalf("status %v", paused["status"])
	}

	if err := os.WriteFile(chart, []byte(strings.Replace(text, "used >= 95", "used >= 80", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ask, []byte(askText+"  - {id: more, set: {x: 1}}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res := m.call(t, "limit", nil)
	got := textOf(t, res)
	if !res.IsError || strings.Contains(got, "| ok |") || !strings.Contains(got, "nothing ran: the chart's file (or a chart it mounts) changed after this server loaded it") {
		t.Errorf("after the change: isError %v, want the call refused:\n%s", res.IsError, got)
	}
	if strings.Contains(got, dir) {
		t.Errorf("the refusal names the server's folder: %s", got)
	}
	if !strings.Contains(m.log.String(), chart) {
		t.Errorf("the log does not name the file that changed:\n%s", m.log.String())
	}
	r := m.call(t, toolResume, map[string]any{"runId": paused["runId"], "answers": map[string]any{"ok": true}})
	if !r.IsError || !strings.Contains(textOf(t, r), "nothing ran: the chart's file (or a chart it mounts) changed") {
		t.Errorf("a resume after the change: isError %v\n%s", r.IsError, textOf(t, r))
	}
}

// TestMCPFolderOfChartFoldersSaysWhereTheChartsAre: `runbook mcp examples`
// serves the *.yaml files in examples/, and its charts are one folder
// down (examples/disk/chart.yaml): the server said only "no chart loaded:
// there is nothing to serve". Its log now says the folder holds no chart
// of its own, names the charts in its folders and how to serve them.
func TestMCPFolderOfChartFoldersSaysWhereTheChartsAre(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, sub := range []string{"disk", "svc"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		chart := "version: 1\nrunbook: " + sub + "\nstages:\n  - {id: a, set: {x: 1}}\n"
		if err := os.WriteFile(filepath.Join(dir, sub, "chart.yaml"), []byte(chart), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	m := newMCPTest(t, "", nil, dir)
	want := dir + ": no chart in it: a folder serves the *.yaml files in it, not those in its folders; its folders hold 2 (" +
		filepath.Join(dir, "disk", "chart.yaml") + ", " + filepath.Join(dir, "svc", "chart.yaml") + "): name them, or their folders (runbook mcp " + filepath.Join(dir, "*") + ")"
	if !strings.Contains(m.log.String(), want) {
		t.Errorf("the log lacks\n%s\nin:\n%s", want, m.log.String())
	}
}
