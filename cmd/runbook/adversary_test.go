package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestUnreadCoverageDeclarationIsNotConsistent: a stage whose output
// declares its coverage in a form the coverage stage cannot read (a
// ledger's not_checked given as a string, an absence whose checked item
// has no what) declared something the record does not hold, so the
// standing is Not sure, naming the stage and the part, and --fail-on
// not-sure holds. Before, the part was left off with a warning on stderr
// and the run stood "Consistent with the run's record … none found a
// reason for doubt" (Nagios OK, exit 0) over a stage that had said it did
// not check the rotated logs. A well-formed declaration is read as before.
func TestUnreadCoverageDeclarationIsNotConsistent(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, out string
		code      int
		says      string
	}{
		{"not_checked a string", `{"af_coverage": {"checked": ["app.log"], "not_checked": "rotated logs"}, "result": [{"svc": "api"}]}`, 3,
			`Not sure — stage "scan" did not check what it declared at af_coverage.not_checked (must be a list, got a string; left off the record).`},
		{"absence with a bad checked item", `{"af_absent": true, "looked_for": "FATAL lines", "checked": [{"why": "no what"}]}`, 3,
			`Not sure — stage "scan" did not check what it declared at checked (item 0: what must be a non-empty string; the object is read as ordinary data, not an absence); the verdict table is empty: no subject was judged.`},
		{"well formed", `{"af_coverage": {"checked": ["app.log"]}, "result": [{"svc": "api"}]}`, 0,
			"Consistent with the run's record"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := execTempChart(t, `
version: 1
runbook: declared
result: {kind: verdict/service}
stages:
  - id: scan
    exec: {command: [printf, '%s\n', '`+tc.out+`'], parse: json}
  - id: per
    foreach:
      items: 'scan.stdout.result ?? []'
      maxBranches: 10
      stages:
        - {id: mark, verdict: {subject: item.svc, verdict: '"ok"'}}
`, "--fail-on", "not-sure")
			wantSaid(t, r, tc.code, tc.says)
		})
	}
}

// TestUnlabelledScriptIsNotKnown: a chart that turns the label honesty
// stage off (honesty: leaves label out) files no script row, so whether its
// command answered is on no record: the standing is Not sure, naming the
// stage, as a Nagios check of it is UNKNOWN (TestNagiosWithoutLabelIsNotOk).
// Before, a command that was not installed under honesty: [coverage,
// assessment] stood "Known — the 1 declared answer check passed.", exit 0
// under --fail-on not-sure. With the label stage on, the same run says
// what the script did, as before.
func TestUnlabelledScriptIsNotKnown(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, honesty, command string
		code                   int
		says                   string
	}{
		{"not installed, label off", "[coverage, assessment]", "/nonexistent/collector", 3,
			`Not sure — stage "collect" did not check how the code it ran ended (the chart's honesty: leaves out the label stage, so no script row holds it).`},
		{"answered, label off", "[assessment]", "true", 3,
			`Not sure — stage "collect" did not check how the code it ran ended`},
		{"not installed, label on", "[label, assessment]", "/nonexistent/collector", 3,
			`Not sure — the run recorded no outcome for script "collect" (outcome unknown: could not be started: /nonexistent/collector not found).`},
		{"answered, label on", "[label, assessment]", "true", 0,
			"Known — the 1 declared answer check passed."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := execTempChart(t, `
version: 1
runbook: unlabelled
honesty: `+tc.honesty+`
result:
  kind: verdict/service
  checks: ['len(verdicts) == 1']
stages:
  - id: collect
    onError: continue
    exec: {command: [`+tc.command+`], parse: lines}
  - {id: mark, verdict: {subject: '"units"', verdict: '"ok"', lines: 'string(len(collect.stdout ?? []))'}}
`, "--fail-on", "not-sure")
			wantSaid(t, r, tc.code, tc.says)
		})
	}
}

// TestMissingFileIsNotConsistent: a read: path whose file does not exist
// (a misspelled log path) declares that it looked and found none, so the
// standing is Not sure (declared-absent) and --fail-on not-sure holds, as
// for a glob that matches nothing (TestGlobMatchingNothingIsNotConsistent).
// Before, `log.content ?? []` read no lines, the foreach judged none, and
// the run stood "Consistent with the run's record" over a log nobody read.
// A log that exists, with no error in it, is Consistent as before.
func TestMissingFileIsNotConsistent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "app.log", "2026-12-06T05:01:00 INFO api ok\n")
	writeChart(t, dir, "chart.yaml", `
version: 1
runbook: log-errors
inputs:
  log: {type: string, required: true}
result: {kind: verdict/line, empty: answer}
stages:
  - id: log
    read: {path: log, parse: {as: regex, pattern: '^(?P<ts>\S+) (?P<level>\S+) (?P<svc>\S+)'}}
  - id: per
    foreach:
      items: 'filter(log.content ?? [], .level == "ERROR")'
      maxBranches: 100
      stages:
        - {id: mark, verdict: {subject: item.svc, verdict: '"critical"'}}
`)
	r := runCLI(t, dir, "exec", "chart.yaml", "--input", "log=app.lgo", "--fail-on", "not-sure")
	want := `Not sure — stage "log" looked for the file "app.lgo" and declared it found none.`
	if r.code != 3 || !strings.Contains(r.stdout, want) {
		t.Errorf("missing: exit %d, want 3; stdout:\n%s\nwant it to say %q; stderr: %s", r.code, r.stdout, want, r.stderr)
	}
	r = runCLI(t, dir, "exec", "chart.yaml", "--input", "log=app.log", "--fail-on", "not-sure")
	if r.code != 0 || !strings.Contains(r.stdout, "Consistent with the run's record") {
		t.Errorf("present: exit %d, want 0; stdout:\n%s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
}

// TestFailOnVerdictOfAChartWithoutRowsIsRefused: --fail-on verdict=WORD
// for a chart whose result.kind projects no verdict rows (no result:, or a
// kind not verdict/…) is bad usage, exit 2, before anything runs: its
// verdict stages' rows stay in the state and no gate judges them. Before,
// a chart whose verdict stage wrote "critical" ran under --fail-on
// verdict=critical, printed no table, stood Consistent and exited 0.
func TestFailOnVerdictOfAChartWithoutRowsIsRefused(t *testing.T) {
	t.Parallel()
	const chart = `
version: 1
runbook: no-result
stages:
  - {id: mark, verdict: {subject: '"/"', verdict: '"critical"'}}
`
	r := execTempChart(t, chart, "--fail-on", "verdict=critical")
	want := "--fail-on verdict=critical: the chart projects no verdict rows (its result.kind does not start with verdict/), so no row is judged and the condition would never hold"
	if r.code != 2 || !strings.Contains(r.stderr, want) || r.stdout != "" {
		t.Errorf("exit %d, want 2; stderr %q, want it to hold %q; stdout %q", r.code, r.stderr, want, r.stdout)
	}
	// A standing condition is no such refusal; it holds, since the row
	// the run wrote is shown by nothing (TestVerdictRowsWithNoResultAreNoAnswer).
	if r := execTempChart(t, chart, "--fail-on", "not-sure"); r.code != 3 {
		t.Errorf("a standing condition: exit %d, want 3; stderr %s", r.code, r.stderr)
	}
}

// execTempChart runs `runbook exec chart.yaml ARGS…` over chart, written
// into a folder of its own.
func execTempChart(t *testing.T, chart string, args ...string) result {
	t.Helper()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", chart)
	return runCLI(t, dir, append([]string{"exec", "chart.yaml"}, args...)...)
}

// wantSaid holds r to an exit code and to words on stdout.
func wantSaid(t *testing.T, r result, code int, says string) {
	t.Helper()
	if r.code != code || !strings.Contains(r.stdout, says) {
		t.Errorf("exit %d, want %d; stdout:\n%s\nwant it to say %q; stderr: %s", r.code, code, r.stdout, says, r.stderr)
	}
}

// selectChart is a foreach of three volumes whose select has no rule for
// 80 % used: /srv matches none and writes no row. rule2 is the select's
// second rule, so a case can give it one for every volume.
const selectChart = `version: 1
runbook: vols
result: {kind: verdict/space, nagios: {critical: full, ok: roomy}}
stages:
  - id: vols
    set: {vols: '[{"m": "/", "p": 95}, {"m": "/srv", "p": 80}, {"m": "/home", "p": 50}]'}
  - id: each
    foreach:
      items: vols
      as: v
      maxBranches: 10
      stages:
        - id: space
          select:
            rules:
              - {when: v.p >= 90, then: full, label: Ninety or more}
              - {when: %s, then: roomy, label: The rest}
          branches:
            full: [{id: mark-full, verdict: {subject: v.m, verdict: '"full"'}}]
            roomy: [{id: mark-roomy, verdict: {subject: v.m, verdict: '"roomy"'}}]
`

// TestItemWithoutARowIsNotConsistent: a foreach item whose select matched
// no rule wrote no verdict row, and the table of the other two read as the
// whole answer: "Consistent … none found a reason for doubt", and a Nagios
// check of only the others (trial: /srv at 80 % was in neither). Now the
// ledger names the item, the standing is Not sure and the check says
// UNKNOWN for it; with a rule for every volume nothing is said.
func TestItemWithoutARowIsNotConsistent(t *testing.T) {
	t.Parallel()
	said := "did not check 1 of its 3 items (each~1) (it ran and wrote no verdict row where the others did"
	r := execTempChart(t, fmt.Sprintf(selectChart, "v.p < 70"))
	wantSaid(t, r, 0, "Not sure — stage \"each\" "+said)
	r = execTempChart(t, fmt.Sprintf(selectChart, "v.p < 70"), "--format", "nagios")
	wantSaid(t, r, 2, "UNKNOWN: each did not check 1 of its 3 items (each~1)")
	r = execTempChart(t, fmt.Sprintf(selectChart, "v.p < 90"))
	if wantSaid(t, r, 0, "Consistent with the run's record"); strings.Contains(r.stdout, "wrote no verdict row") {
		t.Errorf("every item wrote a row, and the ledger says one did not:\n%s", r.stdout)
	}
}
