package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSNMPExceptionIsNoAnswer: snmpget -Oqv of ifOperStatus.999 over an
// agent with no interface 999 printed `No Such Instance currently exists
// at this OID` on stdout and exited 0, and a chart reading "2" as down
// said `999: up`, Nagios OK, Consistent. snmpwalk of a subtree the agent
// lacks prints `OID = No Such Object available on this agent at this
// OID`, a walk past the end `No more variables left in this MIB View`
// (v1's `End of MIB`), all exit 0. Each is the agent's exception in
// place of a value, an error-reply item now: Not sure, UNKNOWN.
func TestSNMPExceptionIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, tool, out string
		flagged         bool
	}{
		{"no such instance under -Oqv", "snmpget", `No Such Instance currently exists at this OID\n`, true},
		{"no such object in a walk", "snmpwalk", `iso.3.6.1.2.1.99 = No Such Object available on this agent at this OID\n`, true},
		{"no such instance under -Oq", "snmpget", `.1.3.6.1.2.1.2.2.1.8.1 1\n.1.3.6.1.2.1.2.2.1.8.9 No Such Instance currently exists at this OID\n`, true},
		{"end of the MIB view", "snmpbulkwalk", `iso.3.6.1.6.3.20 = No more variables left in this MIB View (It is past the end of the MIB tree)\n`, true},
		{"v1 end of MIB", "snmpwalk", `End of MIB\n`, true},
		{"the status", "snmpget", `1\n`, false},
		{"a string holding the words", "snmpget", `STRING: "No Such Instance currently exists at this OID"\n`, false},
		{"the same text from another tool", "othertool", `No Such Instance currently exists at this OID\n`, false},
	} {
		tool := filepath.Join(dir, tc.tool)
		if err := os.WriteFile(tool, []byte("#!/bin/sh\nprintf \"$OUT\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: ifstatus
result: {kind: verdict/ifstatus, decider: Status, nagios: {ok: up, critical: down}}
stages:
  - id: get
    exec: {command: [`+tool+`], env: {OUT: '`+tc.out+`'}, parse: text}
  - id: status
    name: Status
    decide:
      rules:
        - {when: 'trim(get.stdout) == "2"', then: down, label: ifOperStatus down(2)}
      default: {branch: up, label: not down}
    branches:
      down: [{id: d, verdict: {subject: '"999"', verdict: '"down"'}}]
      up: [{id: u, verdict: {subject: '"999"', verdict: '"up"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		const said = `stage "get" did not check its output (it printed the SNMP agent's exception in place of a value though it exited 0`
		if !tc.flagged {
			if r.code != 0 || strings.Contains(r.stdout, "did not check") {
				t.Errorf("%s: exit %d; want 0, nothing flagged:\n%s", tc.name, r.code, r.stdout)
			}
			continue
		}
		if r.code != 3 || !strings.HasPrefix(r.stdout, "ifstatus UNKNOWN") || !strings.Contains(r.stdout, said) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %s:\n%s", tc.name, r.code, said, r.stdout)
		}
	}
}
