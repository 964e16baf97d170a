package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// authorMemChart reads a meminfo-like file with a real cat and decides
// by two rules over MemAvailable, which `parse: kv` leaves as the text
// "50 kB": neither rule can compare it with a number.
const authorMemChart = `version: 1
runbook: mem
result:
  kind: verdict/mem
stages:
  - id: mi
    exec: {command: [cat, meminfo.txt], parse: kv}
  - id: m
    decide:
      rules:
        - {when: {mi.stdout.MemAvailable: {lt: 100000}}, then: critical, label: low}
        - {when: 'mi.stdout.MemAvailable < 500000', then: warning, label: lowish}
      default: {branch: ok, label: fine}
    branches:
      critical: [{id: c, verdict: {subject: '"mem"', verdict: '"critical"'}}]
      warning: [{id: w, verdict: {subject: '"mem"', verdict: '"warning"'}}]
      ok: [{id: o, verdict: {subject: '"mem"', verdict: '"ok"'}}]
`

// TestNagiosRuleThatCouldNotBeEvaluatedIsNotOk: a check whose deciders
// could not evaluate a rule is UNKNOWN, naming the decider and each rule,
// with no perfdata. Before, a memory check whose "MemAvailable < 100000"
// rules could not compare the text "50 kB" took the default and said
// `mem OK - 1 ok | ok=1;;;0`, exit 0, over a machine nearly out of memory
// (the standing line said Not sure, the check's state did not).
func TestNagiosRuleThatCouldNotBeEvaluatedIsNotOk(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", authorMemChart)
	if err := os.WriteFile(filepath.Join(dir, "meminfo.txt"), []byte("MemTotal: 1000 kB\nMemAvailable: 50 kB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, dir, "exec", "chart.yaml", "-o", "nagios")
	first := strings.SplitN(r.stdout, "\n", 2)[0]
	if r.code != 3 || first != "mem UNKNOWN - 2 rules could not be evaluated (m), 1 ok" {
		t.Fatalf("exit %d, first line %q; want 3, mem UNKNOWN - 2 rules could not be evaluated (m), 1 ok\n%s%s", r.code, first, r.stdout, r.stderr)
	}
	for _, want := range []string{
		`UNKNOWN: decider "m" could not evaluate rule 1 ("low") and counted it as no match: its condition on mi.stdout.MemAvailable (lt) could not judge the value it read`,
		`UNKNOWN: decider "m" could not evaluate rule 2 ("lowish") and counted it as no match: invalid operation`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the long text does not say %q:\n%s", want, r.stdout)
		}
	}
}
