package charttest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/record"
)

// failingChart fails at "pct" when df's capacity column is not a number:
// int("abc") is a run-time error, the run's status failed.
const failingChart = `version: 1
runbook: disk
result: {kind: verdict/disk}
stages:
  - id: df
    exec: {command: [df, -P], parse: {as: columns, last: rest}}
  - id: per-fs
    foreach:
      items: df.stdout
      as: fs
      maxBranches: 10
      stages:
        - id: pct
          set: {used: 'int(trimSuffix(fs.Capacity, "%"))'}
        - id: v
          verdict: {subject: 'fs["Mounted on"]', verdict: '"ok"', used: used}
`

// TestCaseFailsWhenTheRunBreaksUnexpected: a case that does not say how
// its run ends (no status:, no exit:) fails when the run failed, naming
// the stage and the error at the case's expect; one that expects the
// failure passes. Before, "verdicts: []" and a standing held over a run
// that broke at its first item, so a chart that cannot run passed its
// test: `ok  e_test.yaml  run fails, rows expected empty`.
func TestCaseFailsWhenTheRunBreaksUnexpected(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "chart.yaml", failingChart)
	stub := "    stubs:\n      df: {stdout: \"Filesystem 1024-blocks Used Available Capacity Mounted on\\n/dev/vda1 100 95 5 abc /\\n\"}\n"
	text := "version: 1\nchart: chart.yaml\ncases:\n" +
		"  - name: rows only\n" + stub + "    expect:\n      verdicts: []\n      standing: not-sure\n" +
		"  - name: no expect\n" + stub +
		"  - name: failure expected\n" + stub + "    expect:\n      status: failed\n      verdicts: []\n" +
		"  - name: exit expected\n" + stub + "    expect:\n      exit: 1\n"
	f, err := Load(writeFile(t, dir, "e_test.yaml", text))
	if err != nil {
		t.Fatal(err)
	}
	res := f.Run(context.Background())
	want := []bool{false, false, true, true}
	for i, c := range res.Cases {
		if c.Passed() != want[i] {
			t.Errorf("case %q: passed %v, want %v (failures %v)", c.Case.Name, c.Passed(), want[i], c.Failures)
		}
	}
	got := res.Cases[0].Failures
	if len(got) != 1 || got[0].Key != "status" || got[0].Pos.Line != 7 {
		t.Fatalf("rows only: failures %+v; want one, on status, at the expect (line 7)", got)
	}
	if s := got[0].String(); !strings.Contains(s, "e_test.yaml:7:5: status: expected completed, got failed") ||
		!strings.Contains(s, "the run failed at per-fs~0/pct: set used:") || !strings.Contains(s, "expect status: failed") {
		t.Errorf("rows only: %q; want the place, the stage, the error and the fix", s)
	}
	if got := res.Cases[1].Failures; len(got) != 1 || got[0].Pos.Line != 10 {
		t.Errorf("no expect: failures %+v; want one, at the case (line 10)", got)
	}
}

// TestUnstubbedStageIsTheOneFailure: a run broken by a stage reached with
// no stub fails its case once, naming the stage, not again as a status
// the case did not expect.
func TestUnstubbedStageIsTheOneFailure(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "chart.yaml", failingChart)
	f, err := Load(writeFile(t, dir, "u_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n  - name: df not stubbed\n    expect:\n      verdicts: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := f.Run(context.Background()).Cases[0].Failures
	if len(got) != 1 || got[0].Key != "stub" || !strings.Contains(got[0].Msg, `stage "df" was reached with no stub`) {
		t.Errorf("failures %+v; want one, the stub's", got)
	}
}

// memChart decides on a number read by parse: kv from a stubbed file,
// rule 1 in the filter form, rule 2 an expression.
func memChart(filterKey string) string {
	return `version: 1
runbook: mem
result: {kind: verdict/mem}
stages:
  - id: mi
    read: {path: '"/proc/meminfo"', parse: kv}
  - id: m
    decide:
      rules:
        - {when: {` + filterKey + `: {lt: 100000}}, then: critical, label: low}
        - {when: 'mi.content.MemAvailable < 500000', then: warning, label: lowish}
      default: {branch: ok, label: fine}
    branches:
      critical: [{id: c, verdict: {subject: '"mem"', verdict: '"critical"'}}]
      warning: [{id: w, verdict: {subject: '"mem"', verdict: '"warning"'}}]
      ok: [{id: o, verdict: {subject: '"mem"', verdict: '"ok"'}}]
`
}

// TestCoverageSaysAFilterRuleErrored: a filter rule no case could judge
// is "errored", as an expression's error is: a condition that could not
// judge its value (`lt` over "50 kB"), or a key no decision of any case
// found (MemAvailabel). Before, both read "evaluated", a rule the tests
// exercised and saw not match, while each run's standing said rule-error.
// A key one case finds makes the rule "evaluated" again.
func TestCoverageSaysAFilterRuleErrored(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, key string
		contents  []string
		state     string
		err       string
	}{
		{"text", "mi.content.MemAvailable", []string{"MemAvailable: 50 kB\n", "MemAvailable: 900000 kB\n"}, Errored,
			"its condition on mi.content.MemAvailable (lt) could not judge the value it read"},
		{"misspelled key", "mi.content.MemAvailabel", []string{"MemAvailable: 50\n", "MemAvailable: 900000\n"}, Errored,
			`its condition on mi.content.MemAvailabel (lt) read no value: mi.content has no member "MemAvailabel"; did you mean "MemAvailable"?`},
		{"key found once", "mi.content.Swap", []string{"MemAvailable: 900000\n", "MemAvailable: 900000\nSwap: 200000\n"}, Evaluated, ""},
	}
	for _, tc := range cases {
		dir := t.TempDir()
		writeFile(t, dir, "chart.yaml", memChart(tc.key))
		text := "version: 1\nchart: chart.yaml\ncases:\n"
		for i, c := range tc.contents {
			text += fmt.Sprintf("  - name: c%d\n    files: {/proc/meminfo: {content: %q}}\n", i, c)
		}
		f, err := Load(writeFile(t, dir, "m_test.yaml", text))
		if err != nil {
			t.Fatal(err)
		}
		var recs []*record.Record
		for _, c := range f.Run(context.Background()).Cases {
			recs = append(recs, c.Record)
		}
		r := CoverageOf("chart.yaml", f.Runbook().Chart().Describe(), recs).Deciders[0].Rules[0]
		if r.State != tc.state || !strings.Contains(r.Err, tc.err) || (tc.err == "") != (r.Err == "") {
			t.Errorf("%s: rule 1 %s (%q); want %s (%q)", tc.name, r.State, r.Err, tc.state, tc.err)
		}
	}
}

// TestMisspelledReasonIsALoadError: a reason no standing can have and a
// coverage kind that does not exist are errors at their file:line:col
// with "did you mean", as a misspelled status or standing is. Before, a
// reason was taken as written, and its case failed with "reasons:
// expected [coverage-gapp], got [coverage-gap]" after a run, as though the
// chart were wrong; a kind had no "did you mean".
func TestMisspelledReasonIsALoadError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "chart.yaml", failingChart)
	_, err := Load(writeFile(t, dir, "r_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n  - name: r\n    expect:\n      reasons: [argument-assumed, coverage-gapp]\n      coverage: [{kind: absense}]\n"))
	if err == nil {
		t.Fatal("loaded")
	}
	for _, want := range []string{
		`r_test.yaml:6:35: case "r": expect: reason "coverage-gapp" is not one of argument-assumed,`,
		`; did you mean "coverage-gap"?`,
		`r_test.yaml:7:19: case "r": expect: coverage item kind "absense" is not one of checked, not-checked, cannot-cover, in-progress, absence; did you mean "absence"?`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error:\n%v\nwant it to hold %q", err, want)
		}
	}
}

// TestFailOnThatCanNeverHoldIsALoadError: a case's failOn is held to the
// chart as exec's --fail-on is (gate.CheckWords): a verdict word no row
// can have is an error at its place, with "did you mean". Before, a case
// `failOn: [verdict=ful], exit: 0` passed on every run, whatever the
// chart's rows, an expectation that could not fail.
func TestFailOnThatCanNeverHoldIsALoadError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "chart.yaml", memChart("mi.content.MemAvailable"))
	_, err := Load(writeFile(t, dir, "g_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n  - name: gate\n    expect: {failOn: ['verdict=critcal'], exit: 0}\n"))
	want := `g_test.yaml:5:22: case "gate": expect: failOn: verdict=critcal: no row of this chart can have the verdict "critcal", so the condition would never hold; did you mean "critical"?`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v; want it to hold %q", err, want)
	}
}

// psChart lists a user's processes (the argv rendered from an input),
// then reads each one's status file (the argv rendered from the item).
const psChart = `version: 1
runbook: procs
inputs:
  user: {type: string, default: root}
result: {kind: verdict/proc}
stages:
  - id: ps
    exec:
      command: [ps, -u, "${user}", -o, "pid,comm", --no-headers]
      parse: {as: columns, header: false, names: [pid, comm]}
  - id: per
    foreach:
      items: ps.stdout
      as: p
      maxBranches: 5
      stages:
        - id: status
          exec: {command: [cat, "/proc/${p.pid}/status"], parse: kv}
        - id: v
          verdict: {subject: p.comm, verdict: 'status.stdout.State startsWith "Z" ? "zombie" : "alive"'}
  - id: sh
    exec: {shell: 'echo done'}
`

// TestStubArgvHoldsWhatTheRunStarts: a stub's argv: is the argv the run
// must start its stage with, each foreach item's by its path: a run that
// renders another fails the case at the argv, expected against actual,
// and a shell: stage given one says it has no argv. Before, a stub
// answered whatever the chart rendered (ps -u nobody for a case about
// root's processes passed), and TESTING.md's "a test can read what WOULD
// have run" held only for a Go test.
func TestStubArgvHoldsWhatTheRunStarts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "chart.yaml", psChart)
	stubs := func(user, second string) string {
		return "    stubs:\n" +
			"      ps: {stdout: \"1 init\\n2 zomb\\n\", argv: [ps, -u, " + user + ", -o, \"pid,comm\", --no-headers]}\n" +
			"      per~0/status: {stdout: \"State: S\\n\", argv: [cat, /proc/1/status]}\n" +
			"      per~1/status: {stdout: \"State: Z\\n\", argv: [cat, " + second + "]}\n" +
			"      sh: {stdout: \"done\\n\"}\n"
	}
	text := "version: 1\nchart: chart.yaml\ncases:\n" +
		"  - name: right\n    inputs: {user: root}\n" + stubs("root", "/proc/2/status") + "    expect: {verdicts: [{subject: init, verdict: alive}, {subject: zomb, verdict: zombie}]}\n" +
		"  - name: wrong user, wrong pid\n    inputs: {user: nobody}\n" + stubs("root", "/proc/3/status") + "    expect: {verdicts: [{subject: init, verdict: alive}, {subject: zomb, verdict: zombie}]}\n" +
		"  - name: shell\n    stubs:\n      ps: {stdout: \"\"}\n      sh: {stdout: \"done\\n\", argv: [echo, done]}\n"
	f, err := Load(writeFile(t, dir, "a_test.yaml", text))
	if err != nil {
		t.Fatal(err)
	}
	res := f.Run(context.Background())
	if !res.Cases[0].Passed() {
		t.Errorf("right: %v", res.Cases[0].Failures)
	}
	var got []string
	for _, fl := range res.Cases[1].Failures {
		got = append(got, fl.String())
	}
	want := []string{
		`a_test.yaml:15:40: argv: expected [ps, "-u", root, "-o", "pid,comm", "--no-headers"], got [ps, "-u", nobody, "-o", "pid,comm", "--no-headers"]` + "\n    the run started ps with another argv than its stub's",
		"a_test.yaml:17:44: argv: expected [cat, /proc/3/status], got [cat, /proc/2/status]\n    the run started per~1/status with another argv than its stub's",
	}
	if len(got) != len(want) {
		t.Fatalf("wrong user, wrong pid: failures\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i := range want {
		if !strings.HasSuffix(got[i], want[i]) {
			t.Errorf("failure %d:\n%s\nwant it to end\n%s", i, got[i], want[i])
		}
	}
	if fl := res.Cases[2].Failures; len(fl) != 1 || !strings.Contains(fl[0].Msg, "sh runs a shell: script, not an argv") {
		t.Errorf("shell: failures %v", fl)
	}
}

// askChart asks before it writes its one row.
const askChart = `version: 1
runbook: ask
result: {kind: verdict/x}
stages:
  - id: q
    ask: {question: '"Restart web?"', expects: {restart: bool}}
  - id: v
    verdict: {subject: '"web"', verdict: 'restart ? "restarted" : "left"'}
`

// TestCaseFailsWhenTheRunStopsAtAQuestionUnexpected: a case that does not
// say how its run ends fails when the run paused at a question it did not
// answer, naming the question and the answers it expects; one that
// expects the pause (status: paused, standing: ask) or answers passes.
// Before, "verdicts: []" passed over a run that stopped at its first
// stage.
func TestCaseFailsWhenTheRunStopsAtAQuestionUnexpected(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "chart.yaml", askChart)
	text := "version: 1\nchart: chart.yaml\ncases:\n" +
		"  - name: rows only\n    expect: {verdicts: []}\n" +
		"  - name: status paused\n    expect: {status: paused, verdicts: []}\n" +
		"  - name: standing ask\n    expect: {standing: ask}\n" +
		"  - name: answered\n    answers: {restart: true}\n    expect: {verdicts: [{subject: web, verdict: restarted}]}\n"
	f, err := Load(writeFile(t, dir, "q_test.yaml", text))
	if err != nil {
		t.Fatal(err)
	}
	res := f.Run(context.Background())
	for i, want := range []bool{false, true, true, true} {
		if c := res.Cases[i]; c.Passed() != want {
			t.Errorf("case %q: passed %v, want %v (failures %v)", c.Case.Name, c.Passed(), want, c.Failures)
		}
	}
	fl := res.Cases[0].Failures
	if len(fl) != 1 || !strings.Contains(fl[0].String(), `q_test.yaml:5:5: status: expected completed, got paused`) ||
		!strings.Contains(fl[0].Msg, `the run paused at q, asking "Restart web?", and the case gives no answer it expects (restart)`) {
		t.Errorf("rows only: failures %v", fl)
	}
}
