package charttest

import (
	"context"
	"strings"
	"testing"
)

// hostsChart writes one row per host by a decider's default; a host whose
// script exits 255 leaves the rule reading its answer in error.
const hostsChart = `version: 1
runbook: hosts
inputs:
  hosts: {type: list, required: true}
result: {kind: verdict/hosts, decider: State}
stages:
  - id: per
    foreach:
      items: hosts
      as: host
      maxBranches: 5
      stages:
        - id: st
          exec:
            command: [ssh, "${host}", "pgrep -x sshd"]
            exitCodes: {0: running, 1: stopped}
        - id: judge
          name: State
          decide:
            rules:
              - {when: 'st.status == "stopped"', then: stopped, label: Stopped}
            default: {branch: ok, label: Runs}
          branches:
            stopped: [{id: vs, verdict: {subject: host, verdict: '"stopped"'}}]
            ok: [{id: vo, verdict: {subject: host, verdict: '"ok"'}}]
`

// TestExpectUnjudgedRowsNamesTheMarkedRows: expect unjudgedRows: holds the
// shown rows that rest on what the run did not judge, by subject, in row
// order; a case that expects none fails over a marked row, saying why it
// is marked; and --update writes the list wherever a row is marked, so a
// case pinning a host's "ok" pins that it rests on nothing too.
func TestExpectUnjudgedRowsNamesTheMarkedRows(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "chart.yaml", hostsChart)
	stubs := "    stubs:\n      per~0/st: {exitCode: 0}\n      per~1/st: {exitCode: 255, stderr: \"ssh: connect to host gone port 22: Connection refused\\n\"}\n"
	text := "version: 1\nchart: chart.yaml\ncases:\n" +
		"  - name: marked\n    inputs: {hosts: [web1, gone]}\n" + stubs + "    expect:\n      unjudgedRows: [gone]\n" +
		"  - name: none expected\n    inputs: {hosts: [web1, gone]}\n" + stubs + "    expect:\n      unjudgedRows: []\n" +
		"  - name: to update\n    inputs: {hosts: [web1, gone]}\n" + stubs + "    expect:\n      verdicts: []\n"
	f, err := Load(writeFile(t, dir, "hosts_test.yaml", text))
	if err != nil {
		t.Fatal(err)
	}
	res := f.Run(context.Background())
	if !res.Cases[0].Passed() {
		t.Errorf("marked: %v", res.Cases[0].Failures)
	}
	fl := res.Cases[1].Failures
	if len(fl) != 1 || fl[0].Key != "unjudgedRows" || !strings.Contains(fl[0].Msg, "row 2 (gone) is not judged: script per~1/st completed with failure, exit 255") {
		t.Errorf("none expected: %+v", fl)
	}
	if up := string(f.Update(res)); !strings.Contains(up, "      unjudgedRows: [gone]\n      standing: not-sure") || strings.Count(up, "unjudgedRows: [gone]") != 3 {
		t.Errorf("--update wrote\n%s", up)
	}
}
