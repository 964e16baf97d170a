package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestAideOverNoEntryIsNoAnswer: AIDE 0.18.3's check over a database of
// no entry (its config selects no path there is: a path misspelt) prints
// `AIDE found NO differences between database and filesystem. Looks
// okay!!` and `Number of entries:	0` on stdout and exits 0, and a check
// under `exitCodes: {0: clean, …}` said `OK - no verdict rows`,
// Consistent, exit 0, over no file compared
// (testdata/wave-integrity/aide). Now a not-checked item
// (searched-nothing) quoting the line: Not sure, UNKNOWN. A database of 6
// entries that all match is still OK.
func TestAideOverNoEntryIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	report := func(n int) string {
		return fmt.Sprintf("Start timestamp: 2026-12-07 14:29:13 +0000 (AIDE 0.18.3)\nAIDE found NO differences between database and filesystem. Looks okay!!\n\nNumber of entries:\t%d\n\n---------------------------------------------------\n", n)
	}
	tool := func(name, stdout string) string {
		return fakeTool(t, filepath.Join(dir, name), stdout, "", 0)
	}
	for _, tc := range []struct {
		name, aide, status string
		code               int
		said               string
	}{
		{"no entry", tool("aide-none", report(0)), "aide UNKNOWN - 1 stage did not check everything (check), no verdict rows", 3,
			`it said in its report that its database holds no entry, so it compared no file though it exited 0, which the chart declares the answer "clean"`},
		{"six entries", tool("aide-six", report(6)), "aide OK - no verdict rows", 0, "Consistent"},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: aide
result: {kind: verdict/file, empty: answer, nagios: {critical: [changed]}}
stages:
  - id: check
    exec:
      command: [`+tc.aide+`, --check]
      exitCodes: {0: clean, 4: changed}
      parse: lines
  - id: per
    foreach:
      items: 'filter(check.stdout, # startsWith "f > ")'
      as: line
      maxBranches: 100
      stages:
        - {id: c, verdict: {subject: line, verdict: '"changed"'}}
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}

// TestAideReportElsewhereIsNoAnswerOfNone: aide 0.18.3 with
// `report_url=file:/var/log/aide/aide.log` (a config that sends its report
// to a file, syslog or mail) prints nothing on stdout and exits 7 over
// entries added, removed and changed; a chart of its summary lines under
// `exitCodes: {0: clean, 1…7: found}` and `result.empty: answer` said `OK
// - no verdict rows`, Consistent, exit 0, over what it found
// (testdata/wave-integrity/aide). Now a not-checked item
// (finding-elsewhere): Not sure, UNKNOWN. A report on stdout is read.
func TestAideReportElsewhereIsNoAnswerOfNone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tool := func(name, stdout string, code int) string {
		return fakeTool(t, filepath.Join(dir, name, "aide"), stdout, "", code)
	}
	for _, tc := range []struct {
		name, aide, status string
		code               int
		said               string
	}{
		{"a report sent to a file", tool("file", "", 7), "aide UNKNOWN - 1 stage did not check everything (check), no verdict rows", 3,
			`it exited 7, which exitCodes: declares the answer "found", aide's code for entries it found`},
		{"a report on stdout", tool("stdout", "AIDE found differences between database and filesystem!!\n\nf > ... mc..H.. . : /etc/app.conf\n", 4),
			"aide CRITICAL - 1 changed (f > ... mc..H.. . : /etc/app.conf)", 2, "Consistent"},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: aide
result: {kind: verdict/file, empty: answer, nagios: {critical: [changed]}}
stages:
  - id: check
    exec:
      command: [`+tc.aide+`, --check]
      exitCodes: {0: clean, 1: found, 2: found, 3: found, 4: found, 5: found, 6: found, 7: found}
      parse: lines
  - id: per
    foreach:
      items: 'filter(check.stdout, # startsWith "f > ")'
      as: line
      maxBranches: 100
      stages:
        - {id: c, verdict: {subject: line, verdict: '"changed"'}}
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}
