package charttest

import (
	"context"
	"strings"
	"testing"
)

// nagiosChart wraps two plugins, one verdict row each from the plugin's
// answer, as a monitoring admin's check does.
const nagiosChart = `version: 1
runbook: two
result: {kind: verdict/plugin, nagios: {warning: [degraded]}}
stages:
  - id: users
    exec: {command: [check_users, -w, "5", -c, "10"], exitCodes: nagios, parse: nagios}
  - id: users-row
    verdict: {subject: '"users"', verdict: users.status}
  - id: load
    exec: {command: [check_load], exitCodes: nagios, parse: nagios}
  - id: load-row
    verdict: {subject: '"load"', verdict: 'load.status == "warning" ? "degraded" : load.status'}
`

// TestExpectNagiosIsTheCheckState: a chart test could hold a chart's
// rows, standing and exit, but not the state `runbook exec -o nagios`
// gives, which is what a monitoring admin's chart is for; expect nagios:
// is that state, judged by the one judgement exec asks (gate.CheckOf):
// result.nagios's words, a script that gave no answer, a run that stopped
// after a critical row. A word that is no state is an error at its place.
func TestExpectNagiosIsTheCheckState(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "chart.yaml", nagiosChart)
	cases := func(name, load, want string) string {
		return "  - name: " + name + "\n    stubs:\n" +
			"      users: {stdout: \"USERS CRITICAL - 12 users |users=12;5;10;0\\n\", exitCode: 2}\n" +
			"      load: " + load + "\n" +
			"    expect: {status: completed, nagios: " + want + "}\n"
	}
	text := "version: 1\nchart: chart.yaml\ncases:\n" +
		cases("critical", `{stdout: "LOAD WARNING\n", exitCode: 1}`, "critical") +
		cases("not warning", `{stdout: "LOAD WARNING\n", exitCode: 1}`, "warning") +
		cases("no answer", `{stdout: "", exitCode: 3}`, "critical")
	f, err := Load(writeFile(t, dir, "a_test.yaml", text))
	if err != nil {
		t.Fatal(err)
	}
	res := f.Run(context.Background())
	if !res.Cases[0].Passed() || !res.Cases[2].Passed() {
		t.Errorf("critical: %v; no answer beside a critical row: %v", res.Cases[0].Failures, res.Cases[2].Failures)
	}
	if fl := res.Cases[1].Failures; len(fl) != 1 || !strings.HasSuffix(fl[0].String(), "nagios: expected warning, got critical") {
		t.Errorf("warning: failures %v, want one: nagios expected warning, got critical", fl)
	}

	// A run stopped by a load plugin that timed out, after the users row:
	// the verdict stage over its null status fails the run.
	text = "version: 1\nchart: chart.yaml\ncases:\n  - name: timed out\n    stubs:\n" +
		"      users: {stdout: \"USERS CRITICAL - 12 users |users=12;5;10;0\\n\", exitCode: 2}\n" +
		"      load: {timedOut: true}\n" +
		"    expect: {status: failed, nagios: critical}\n"
	f, err = Load(writeFile(t, dir, "b_test.yaml", text))
	if err != nil {
		t.Fatal(err)
	}
	if res := f.Run(context.Background()); !res.Cases[0].Passed() {
		t.Errorf("timed out: %v", res.Cases[0].Failures)
	}

	_, err = Load(writeFile(t, dir, "c_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n  - name: x\n    expect: {nagios: CRITICAL}\n"))
	if want := `c_test.yaml:5:22: case "x": expect: nagios "CRITICAL" is not one of ok, warning, critical, unknown`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v; want it to hold %q", err, want)
	}
}
