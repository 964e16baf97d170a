package charttest

import (
	"context"
	"strings"
	"testing"
)

// waitReadyChart polls a service's state until it says ready, and retries
// a flaky restart: the executions a list stub answers one by one.
const waitReadyChart = `version: 1
runbook: wait-ready
stages:
  - id: seed
    set: {n: 0}
  - id: restart
    exec: {command: [systemctl, restart, web]}
    retry: {attempts: 3}
  - id: probe
    exec: {command: [cat, /run/web.state]}
  - id: count
    set: {n: n + 1, state: 'trim(probe.stdout)'}
  - id: again
    loop: {to: probe, while: 'state != "ready"', max: 10}
  - id: done
    set: {polls: n, restartOk: restart.ok}
`

// TestListStubAnswersEachExecutionInTurn: one stub answered every pass of
// a loop and every attempt of a retry alike, so a chart that polls until
// a service is ready could not be tested past its first pass (the stub
// said "starting" for ever, or "ready" at once), nor a retry that fails
// and then succeeds. A stub written as a list answers the executions at
// its place in turn; an execution past its last fails the case, naming
// the stage, the count and the place.
func TestListStubAnswersEachExecutionInTurn(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "chart.yaml", waitReadyChart)
	text := `version: 1
chart: chart.yaml
cases:
  - name: ready on the third poll, restarted on the second attempt
    stubs:
      restart: [{exitCode: 1}, {exitCode: 0}]
      probe: [{stdout: "starting\n"}, {stdout: "starting\n"}, {stdout: "ready\n"}]
    expect:
      status: completed
      state: {polls: 3, restartOk: true}
  - name: a list shorter than the loop
    stubs:
      restart: {exitCode: 0}
      probe: [{stdout: "starting\n"}, {stdout: "starting\n"}]
    expect:
      status: completed
  - name: a list longer than the loop
    stubs:
      restart: {exitCode: 0}
      probe: [{stdout: "ready\n"}, {stdout: "ready\n"}]
    expect:
      status: completed
      state: {polls: 1}
`
	f, err := Load(writeFile(t, dir, "w_test.yaml", text))
	if err != nil {
		t.Fatal(err)
	}
	res := f.Run(context.Background())
	if c := res.Cases[0]; !c.Passed() {
		t.Errorf("case %q failed: %v", c.Case.Name, c.Failures)
	}
	c := res.Cases[1]
	var said bool
	for _, fl := range c.Failures {
		said = said || strings.Contains(fl.String(), `stage "probe" ran 3 times at probe, and its stub lists 2`)
	}
	if c.Passed() || !said {
		t.Errorf("case %q: passed %v, failures %v; want it failed, naming the third execution of probe", c.Case.Name, c.Passed(), c.Failures)
	}
	// The loop stopped at its first pass, where the author expected two:
	// a case that says nothing of it passed, the list's second item unread.
	c = res.Cases[2]
	if c.Passed() || len(c.Failures) != 1 || !strings.Contains(c.Failures[0].String(), "the stage at probe ran once, and its stub lists 2") {
		t.Errorf("case %q: passed %v, failures %v; want it failed, naming the item the run never reached", c.Case.Name, c.Passed(), c.Failures)
	}
}

// An empty list is refused where it is written.
func TestListStubEmptyIsAnError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "chart.yaml", waitReadyChart)
	text := "version: 1\nchart: chart.yaml\ncases:\n  - name: empty\n    stubs:\n      probe: []\n      restart: [{exitCode: 0, timedOut: true}]\n"
	_, err := Load(writeFile(t, dir, "e_test.yaml", text))
	if err == nil || !strings.Contains(err.Error(), `e_test.yaml:6:14: case "empty": stub probe: the list is empty`) || !strings.Contains(err.Error(), "stub restart: execution 1: give one of exitCode, timedOut") {
		t.Errorf("err = %v, want the empty list and the bad item named where they are", err)
	}
}
