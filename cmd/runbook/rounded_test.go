package main

import (
	"strings"
	"testing"
)

// TestRoundedNumberIsNoAnswer: jq 1.6 reads every number as a float64,
// and prints systemd's "no limit", 18446744073709551615 (u64 max), as
// 18446744073709552000. A chart asking which services run with no
// memory limit (`string(u.MemoryMax) == "18446744073709551615"`) said
// `memlimit OK - 1 limited`, Consistent, over a service with none. A
// whole number past 2^53 that is a float64's print and no float64
// exactly is a not-checked item now (kind rounded): Not sure, UNKNOWN.
// The number written whole is read as it is, and not flagged.
func TestRoundedNumberIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct{ name, max, said string }{
		{"through jq 1.6", "18446744073709552000", `stage "s" did not check its output (it holds 18446744073709552000, a whole number past 2^53 written as a float64 prints it, the digits past its 17th the float's zeros: it was rounded before it was printed`},
		{"as systemd writes it", "18446744073709551615", ""},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: memlimit
result: {kind: verdict/limit, decider: Limit, nagios: {warning: [unlimited], ok: [limited]}}
stages:
  - id: s
    exec:
      parse: json
      shell: |
        printf '[{"name": "app", "MemoryMax": `+tc.max+`}]\n'
  - id: per
    foreach:
      items: s.stdout
      as: u
      maxBranches: 10
      stages:
        - id: l
          name: Limit
          decide:
            rules:
              - {when: 'string(u.MemoryMax) == "18446744073709551615"', then: unlimited, label: no memory limit}
            default: {branch: limited, label: a memory limit is set}
          branches:
            unlimited: [{id: a, verdict: {subject: u.name, verdict: '"unlimited"'}}]
            limited: [{id: b, verdict: {subject: u.name, verdict: '"limited"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if tc.said == "" {
			if r.code != 1 || strings.Contains(r.stdout, "did not check") {
				t.Errorf("%s: exit %d; want 1 (no limit), nothing flagged:\n%s%s", tc.name, r.code, r.stdout, r.stderr)
			}
			continue
		}
		if r.code != 3 || !strings.HasPrefix(r.stdout, "memlimit UNKNOWN") || !strings.Contains(r.stdout, tc.said) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %s:\n%s%s", tc.name, r.code, tc.said, r.stdout, r.stderr)
		}
	}
}
