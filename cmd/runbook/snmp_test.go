package main

import (
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
		if err := writeExec(tool, []byte("#!/bin/sh\nprintf \"$OUT\"\n"), 0o755); err != nil {
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

// TestSNMPWalkOfNothingIsNoAnswer: a chart listing the interfaces that
// are down, whose rows are findings (empty: answer), walked ifTable with
// -v1 at an OID the agent has nothing under (a typo, a view that hides
// it): snmpwalk -v1 printed nothing and exited 0, and the check said
// `OK - no verdict rows`, Consistent. v2c's walk prints No Such Object
// there; v1's silence is the same reply now: Not sure, UNKNOWN. A
// shell: line's blank output may be a filter's, and is not judged so.
func TestSNMPWalkOfNothingIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, command string
		flagged       bool
	}{
		{"snmpwalk", `command: [` + filepath.Join(dir, "snmpwalk") + `, -v1, -On, -Oq, host, 1.3.6.1.2.1.2.2.9]`, true},
		{"snmpbulkwalk", `command: [` + filepath.Join(dir, "snmpbulkwalk") + `, -v2c, host, 1.3.6.1.2.1.2.2.9]`, true},
		{"a filter in a shell line", `shell: '` + filepath.Join(dir, "snmpwalk") + ` -v1 host 1.3.6.1.2.1.2.2.1.8 | { grep " 2$" || true; }'`, false},
		{"another tool", `command: [` + filepath.Join(dir, "othertool") + `]`, false},
	} {
		for _, n := range []string{"snmpwalk", "snmpbulkwalk", "othertool"} {
			if err := writeExec(filepath.Join(dir, n), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: ifdown
result: {kind: verdict/ifdown, decider: Link, empty: answer, nagios: {critical: down}}
stages:
  - id: walk
    exec: {`+tc.command+`, parse: {as: regex, pattern: '^\S+ (?P<value>\d+)$'}}
  - id: per
    foreach:
      items: 'filter(walk.stdout, #.value == 2)'
      as: i
      maxBranches: 100
      stages:
        - id: link
          name: Link
          decide:
            rules: [{when: 'i.value == 2', then: down, label: down}]
            default: {branch: down, label: down}
          branches:
            down: [{id: d, verdict: {subject: 'string(i.value)', verdict: '"down"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		const said = `stage "walk" did not check its output (it walked nothing: it printed no object though it exited 0`
		if !tc.flagged {
			if r.code != 0 || strings.Contains(r.stdout, "did not check") {
				t.Errorf("%s: exit %d; want 0, nothing flagged:\n%s", tc.name, r.code, r.stdout)
			}
			continue
		}
		if r.code != 3 || !strings.HasPrefix(r.stdout, "ifdown UNKNOWN") || !strings.Contains(r.stdout, said) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %s:\n%s", tc.name, r.code, said, r.stdout)
		}
	}
}

// TestSNMPWalkEndAfterRowsIsNoException: a walk of the last subtree an
// agent's view shows prints its rows, then `No more variables left in
// this MIB View` (v1: `End of MIB`), exit 0: the walk's end, not a value
// missing, and no item is filed over it.
func TestSNMPWalkEndAfterRowsIsNoException(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tool := filepath.Join(dir, "snmpwalk")
	if err := writeExec(tool, []byte("#!/bin/sh\nprintf \"$OUT\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{
		`.1.3.6.1.6.3.16.1.5.2.1.6.6 1\n.1.3.6.1.6.3.16.1.5.2.1.6.6 No more variables left in this MIB View (It is past the end of the MIB tree)\n`,
		`.1.3.6.1.6.3.16.1.5.2.1.6.6 1\nEnd of MIB\n`,
	} {
		chart := writeChart(t, dir, "end.yaml", `version: 1
runbook: end
result: {kind: verdict/end, decider: D, nagios: {ok: ok}}
stages:
  - id: walk
    exec: {command: [`+tool+`], env: {OUT: '`+out+`'}, parse: lines}
  - id: d
    name: D
    decide:
      rules: [{when: 'len(walk.stdout) == 0', then: ok, label: none}]
      default: {branch: ok, label: some}
    branches:
      ok: [{id: o, verdict: {subject: '"walk"', verdict: '"ok"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if r.code != 0 || strings.Contains(r.stdout, "did not check") {
			t.Errorf("%q: exit %d; want 0, nothing flagged:\n%s", out, r.code, r.stdout)
		}
	}
}
