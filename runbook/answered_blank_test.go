package runbook_test

import (
	"strings"
	"testing"

	"github.com/openrunbook/runbook/internal/gate"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/record"
)

// TestDeclaredAnswerWithNoOutputIsThatAnswer: findmnt -J --mountpoint X
// exits 1 and prints nothing when nothing is mounted there; a chart that
// declared `exitCodes: {0: found, 1: none}` under parse: json stood Not
// sure, a Nagios check UNKNOWN, over a line 1 "not JSON", every run a
// watched mountpoint was absent. A non-zero exit the chart declared an
// answer, with a blank stdout, is that answer: no parse problem, no
// stderr-only gap. Exit 0 with a blank stdout is still a parse problem
// under json, and a Nagios plugin's blank output still is one whatever
// its exit.
func TestDeclaredAnswerWithNoOutputIsThatAnswer(t *testing.T) {
	t.Parallel()
	const chart = `version: 1
runbook: mounted
result: {kind: verdict/mount, empty: answer, nagios: {warning: [absent]}}
stages:
  - id: fm
    exec:
      shell: '{SCRIPT}'
      exitCodes: {0: found, 1: none}
      parse: {PARSE}
  - id: judge
    decide:
      rules:
        - {when: 'fm.status == "none"', then: absent, label: Nothing mounted there}
      default: {branch: present, label: Mounted}
    branches:
      absent: [{id: a, verdict: {subject: '"/srv"', verdict: '"absent"'}}]
      present: [{id: p, verdict: {subject: '"/srv"', verdict: '"ok"'}}]
`
	cases := []struct {
		name, script, parse string
		standing            assessment.Standing
		gap                 string // the ledger item kind filed, "" for none
	}{
		{"exit 1, json, nothing printed", "exit 1", "json", assessment.Consistent, ""},
		{"exit 1, lines, findings on stderr", "echo bad unit >&2; exit 1", "lines", assessment.Consistent, ""},
		{"exit 0, json, nothing printed", "exit 0", "json", assessment.NotSure, record.ItemUnparsed},
		{"exit 0, lines, only stderr", "echo denied >&2; exit 0", "lines", assessment.NotSure, record.ItemStderrOnly},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			src := strings.NewReplacer("{SCRIPT}", tc.script, "{PARSE}", tc.parse).Replace(chart)
			rb := parse(t, src)
			rec := exec(t, rb, nil)
			var kinds []string
			for _, e := range rec.Coverage {
				for _, it := range e.NotChecked {
					kinds = append(kinds, it.Kind)
				}
			}
			got := strings.Join(kinds, ",")
			if rec.Assessment.Standing != tc.standing || got != tc.gap {
				t.Errorf("standing %s, ledger items [%s]; want %s and [%s]: %s", rec.Assessment.Standing, got, tc.standing, tc.gap, rec.Assessment.Line)
			}
			if tc.gap == "" {
				if st := gate.Judge(rec, gate.MappingOf(rb.Spec())).State; st != gate.Warning {
					t.Errorf("check state %s, want WARNING (absent, mapped to warning): the declared answer", st)
				}
			}
		})
	}
}
