package charttest

import (
	"context"
	"strings"
	"testing"
)

// TestStubNeverUsedFailsTheCase: an exec stub, by stage id or by record
// path, that no execution of the case took fails the case, naming it: the
// run never reached that stage, so the case tests nothing of what the stub
// says. Before, a case "b says bad" stubbing b with exit 1 passed over a
// chart whose decider routed around b: its author believed b's failure
// was covered.
func TestStubNeverUsedFailsTheCase(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "chart.yaml", `version: 1
runbook: u
result: {kind: verdict/x}
stages:
  - id: a
    exec: {command: ["true"], parse: text}
  - id: pick
    decide:
      rules: [{when: 'a.stdout == "deep"', then: deep}]
      default: shallow
    branches:
      deep: [{id: b, exec: {command: ["true"], parse: text}}, {id: vd, verdict: {subject: '"s"', verdict: '"bad"'}}]
      shallow: [{id: vs, verdict: {subject: '"s"', verdict: '"ok"'}}]
`)
	f, err := Load(writeFile(t, dir, "u_test.yaml", `version: 1
chart: chart.yaml
cases:
  - name: b never reached
    stubs:
      a: {stdout: "x"}
      b: {stdout: "bad", exitCode: 1}
    expect:
      verdicts: [{subject: s}]
  - name: b reached
    stubs:
      a: {stdout: "deep"}
      b: {stdout: "bad"}
    expect:
      verdicts: [{subject: s, verdict: bad}]
`))
	if err != nil {
		t.Fatal(err)
	}
	res := f.Run(context.Background())
	c := res.Cases[0]
	said := false
	for _, fl := range c.Failures {
		said = said || strings.Contains(fl.String(), `stub "b" was never used: the run did not reach that stage`)
	}
	if c.Passed() || !said {
		t.Errorf("a stub never used: passed %v, failures %v", c.Passed(), c.Failures)
	}
	if c := res.Cases[1]; !c.Passed() {
		t.Errorf("every stub used: %v", c.Failures)
	}
}
