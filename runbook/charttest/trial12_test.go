package charttest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/record"
)

// bigChart writes a number past 2^53, which a float64 cannot hold: a test
// expecting its neighbour must fail, as the record says 9007199254740993.
const bigChart = `version: 1
runbook: big
result: {kind: verdict/x}
stages:
  - id: s
    set: {big: 9007199254740993}
  - id: v
    verdict: {subject: '"a"', verdict: '"ok"', n: big}
`

// A wrong number past 2^53 fails its case: expectations compare as the
// record's JSON does, exactly, never through a float64 that rounds both
// sides onto one value; and --update writes the number the run produced.
func TestTrialWideNumbersCompareExactly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "chart.yaml", bigChart)
	text := "version: 1\nchart: chart.yaml\ncases:\n" +
		"  - name: off by one\n    expect:\n      verdicts:\n        - {subject: a, n: 9007199254740992}\n      state: {big: 9007199254740992}\n" +
		"  - name: exact\n    expect:\n      verdicts:\n        - {subject: a, n: 9007199254740993}\n      state: {big: 9007199254740993}\n" +
		"  - name: to update\n    expect:\n      verdicts: []\n"
	f, err := Load(writeFile(t, dir, "big_test.yaml", text))
	if err != nil {
		t.Fatal(err)
	}
	res := f.Run(context.Background())
	var keys []string
	for _, fl := range res.Cases[0].Failures {
		keys = append(keys, fl.Key)
	}
	if got := strings.Join(keys, ","); got != "verdicts,state" {
		t.Errorf("off by one: failures on %q, want verdicts,state (%v)", got, res.Cases[0].Failures)
	}
	if !res.Cases[1].Passed() {
		t.Errorf("exact: %v", res.Cases[1].Failures)
	}
	if up := string(f.Update(res)); !strings.Contains(up, "- {subject: a, verdict: ok, \"n\": 9007199254740993}") {
		t.Errorf("--update wrote\n%s\nwant the row with n: 9007199254740993", up)
	}
}

// A test file that is not valid YAML is an error at the line and column
// the parser stopped at, as a chart's is, never at 1:1.
func TestTrialTestFileYAMLErrorAtItsLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	copyChart(t, dir)
	_, err := Load(writeFile(t, dir, "y_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n  - name: x\n    stubs:\n      list: {stdout: \"a\n    expect: {status: completed}\n"))
	var les chart.LoadErrors
	if !errors.As(err, &les) || len(les) != 1 {
		t.Fatalf("err %v: want one load error", err)
	}
	if p := les[0].Pos; p.Line != 6 || !strings.Contains(les[0].Msg, "not valid YAML") {
		t.Errorf("error %v at %d:%d: want the YAML error at line 6, where the string opens", les[0].Msg, p.Line, p.Col)
	}
}

// A rule whose predicate could not be evaluated in any case that reached
// it is "errored", not "evaluated": coverage must not report a rule broken
// by a typo or a wrong type as one the tests exercised and saw not match.
// One case that evaluates it cleanly makes it "evaluated" again.
func TestTrialCoverageSaysARuleErrored(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	copyChart(t, dir)
	run := func(stdout string) *Coverage {
		text := "version: 1\nchart: chart.yaml\ncases:\n  - name: c\n    stubs:\n      list: {stdout: '" + stdout + "'}\n      probe: {exitCode: 0}\n"
		f, err := Load(writeFile(t, dir, "c_test.yaml", text))
		if err != nil {
			t.Fatal(err)
		}
		res := f.Run(context.Background())
		return CoverageOf("chart.yaml", f.Runbook().Chart().Describe(), []*record.Record{res.Cases[0].Record})
	}
	states := func(c *Coverage) string {
		var out []string
		for _, r := range c.Deciders[0].Rules {
			out = append(out, r.State)
		}
		return strings.Join(out, ",")
	}
	if got := states(run(`[{"name":"web","restarts":"many"}]`)); got != "evaluated,errored,errored,matched" {
		t.Errorf("restarts \"many\": rule states %s, want evaluated,errored,errored,matched", got)
	}
	cov := run(`[{"name":"web","restarts":"many"}]`)
	if r := cov.Deciders[0].Rules[1]; !strings.Contains(r.Err, "a number cannot be ordered with a text") {
		t.Errorf("rule 2's error %q: want the predicate's error", r.Err)
	}
	if got := states(run(`[{"name":"web","restarts":"many"},{"name":"db","restarts":1}]`)); got != "evaluated,evaluated,evaluated,matched" {
		t.Errorf("one clean evaluation: rule states %s, want evaluated,evaluated,evaluated,matched", got)
	}
}

// A verdicts failure says what differs: as many rows as expected, but not
// the rows expected, is "row 1 of 1 differs", never "expected 1 rows, got
// 1", which reads as though nothing were wrong.
func TestTrialVerdictsFailureSaysWhichRowsDiffer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "chart.yaml", bigChart)
	text := "version: 1\nchart: chart.yaml\ncases:\n" +
		"  - name: wrong word\n    expect:\n      verdicts:\n        - {subject: a, verdict: bad}\n" +
		"  - name: one too many\n    expect:\n      verdicts:\n        - {subject: a}\n        - {subject: b}\n"
	f, err := Load(writeFile(t, dir, "w_test.yaml", text))
	if err != nil {
		t.Fatal(err)
	}
	res := f.Run(context.Background())
	for i, want := range []string{"verdicts: row 1 of 1 differs", "verdicts: expected 2 rows, got 1"} {
		if got := res.Cases[i].Failures[0].String(); !strings.Contains(got, want) {
			t.Errorf("case %q: %q, want %q", res.Cases[i].Case.Name, got, want)
		}
	}
}

// A stage listed under real: and stubbed by its id is a contradiction the
// case would hide (the stub wins, the stage never runs for real): it is
// an error at the real: entry. A stub by one execution's path beside
// real: stays allowed (that execution stubbed, the others real).
func TestTrialRealAndStubbedByIDRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	copyChart(t, dir)
	head := "version: 1\nchart: chart.yaml\ncases:\n  - name: both\n"
	_, err := Load(writeFile(t, dir, "b_test.yaml", head+"    real: [list]\n    stubs:\n      list: {stdout: '[]'}\n"))
	var les chart.LoadErrors
	if !errors.As(err, &les) || len(les) != 1 || les[0].Pos.Line != 5 || !strings.Contains(les[0].Msg, `real "list"`) || !strings.Contains(les[0].Msg, "stubbed") {
		t.Fatalf("err %v: want one error at real: (line 5) naming the stage stubbed too", err)
	}
	if _, err := Load(writeFile(t, dir, "p_test.yaml", head+"    real: [probe]\n    stubs:\n      list: {stdout: '[]'}\n      per-svc~0/probe: {exitCode: 0}\n")); err != nil {
		t.Errorf("a stub by path beside real: %v", err)
	}
}

// loopChart decides at one place three times (a loop): waiting, waiting,
// done.
const loopChart = `version: 1
runbook: poller
stages:
  - id: seed
    set: {n: 0}
  - id: poll
    set: {n: n + 1}
  - id: check
    decide:
      rules:
        - {when: n >= 3, then: done, label: Ready}
      default: {branch: waiting, label: Not yet}
    branches:
      done: [{id: mark, set: {state: '"ready"'}}]
      waiting: [{id: wait, set: {state: '"waiting"'}}]
  - id: again
    loop: {to: poll, while: state == "waiting", max: 5}
`

// A place decided more than once (a loop's iterations) has no one
// decision: expect.decisions there fails, naming every choice, whatever
// it expects — it used to compare the first decision alone, so a case
// expecting [waiting] passed over a run that ended in done.
func TestTrialDecisionsAtALoopedPlaceSaySo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "chart.yaml", loopChart)
	text := "version: 1\nchart: chart.yaml\ncases:\n" +
		"  - name: first\n    expect:\n      decisions: {check: [waiting]}\n" +
		"  - name: last\n    expect:\n      decisions: {check: [done]}\n"
	f, err := Load(writeFile(t, dir, "l_test.yaml", text))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range f.Run(context.Background()).Cases {
		if c.Passed() || !strings.Contains(c.Failures[0].String(), "check was decided 3 times: [waiting], [waiting], [done]") {
			t.Errorf("case %q: passed %v, %v: want a failure naming the 3 decisions", c.Case.Name, c.Passed(), c.Failures)
		}
	}
}

// A stub keyed by a path with an execution counter (poll#0) would never
// be used (stubs are looked up by record path, which has none): it is an
// error at its key, not a stub the case silently goes without.
func TestTrialStubKeyWithCounterRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	copyChart(t, dir)
	_, err := Load(writeFile(t, dir, "k_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n  - name: c\n    stubs:\n      list#0: {stdout: '[]'}\n"))
	var les chart.LoadErrors
	if !errors.As(err, &les) || len(les) != 1 || les[0].Pos.Line != 6 || !strings.Contains(les[0].Msg, `stub "list#0"`) || !strings.Contains(les[0].Msg, "counter") {
		t.Fatalf("err %v: want one error at the key naming the counter", err)
	}
}

// An answer no ask: stage of the chart expects (a typo: whyy for why) is
// an error at its key with "did you mean", not an answer the case drops in
// silence.
func TestTrialAnswerNoAskExpectsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "chart.yaml", "version: 1\nrunbook: asks\nstages:\n  - id: q\n    ask: {question: '\"Go?\"', expects: {go: bool, why: string}}\n")
	_, err := Load(writeFile(t, dir, "a_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n  - name: a\n    answers: {go: true, why: x, whyy: y}\n"))
	var les chart.LoadErrors
	if !errors.As(err, &les) || len(les) != 1 || les[0].Pos.Line != 5 || !strings.Contains(les[0].Msg, `answer "whyy"`) || !strings.Contains(les[0].Msg, `did you mean "why"?`) {
		t.Fatalf("err %v: want one error at answers naming whyy, with did you mean", err)
	}
}

// No stubbed stage's retry waits out its backoff on the clock: not an exec
// stage's, which the stage waits itself (a case of three attempts 5 s
// apart took 15 s), nor a plugin stage's, which the engine waits
// (flow.WithSleep; it took 10 s, and on Temporal blocked the workflow's
// goroutine on the process's clock). With backoffs of an hour and the
// case given a minute, a wait on the clock ends the case cancelled; every
// attempt is on the record.
func TestStubbedRetriesDoNotSleep(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, stage, stub string
		// attempts counts them on the record: an exec stage's are script
		// rows of one execution, a plugin stage's executions of their own
		attempts func(*CaseResult) int
	}{
		{"exec", "    exec: {command: [probe]}\n", "    stubs:\n      probe: {timedOut: true}\n",
			func(c *CaseResult) int { return len(c.Record.Scripts) }},
		{"plugin", "    onError: continue\n    plugin: {name: probe, into: out}\n", "    plugins:\n      probe: {fail: down}\n",
			func(c *CaseResult) int { return c.Record.Stats.Stages }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeFile(t, dir, "chart.yaml", "version: 1\nrunbook: retry\nstages:\n  - id: probe\n    retry: {attempts: 3, backoff: 1h}\n"+tc.stage)
			f, err := Load(writeFile(t, dir, "r_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n  - name: down\n"+tc.stub+"    expect:\n      status: completed\n"))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			c := f.Run(ctx).Cases[0]
			if !c.Passed() || tc.attempts(c) != 3 {
				t.Errorf("passed %v (%v), %d attempts: want a pass and the 3 attempts on the record", c.Passed(), c.Failures, tc.attempts(c))
			}
		})
	}
}
