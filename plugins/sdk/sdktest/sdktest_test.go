package sdktest_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/plugins/sdk"
	"github.com/openrunbook/runbook/plugins/sdk/sdktest"
)

// probe is a code-running plugin: it "runs" a check whose exit code is its
// `code` argument (default 0), and declares an absence when asked.
type probe struct{}

func (probe) Describe() sdk.Description {
	return sdk.Description{Name: "probe", Version: "1.0.0", RunsCode: true,
		Args: []sdk.Arg{
			{Name: "target", Type: "string", Required: true},
			{Name: "code", Type: "number", Default: 0, HasDefault: true},
			{Name: "absent", Type: "bool", Default: false, HasDefault: true},
		}}
}

func (probe) Run(_ context.Context, req sdk.Request) (sdk.Response, error) {
	if req.Args["target"] == "broken" {
		return sdk.Response{}, errors.New("the probe is broken")
	}
	if req.Args["absent"] == true {
		return sdk.Response{Result: sdk.Absent("target "+req.Args["target"].(string), "/here")}, nil
	}
	code := req.Args["code"].(int)
	return sdk.Response{Result: map[string]any{"up": code == 0, "pid": os.Getpid()}, Facts: sdk.Exited(code)}, nil
}

const chartYAML = `version: 1
runbook: probe-test
inputs:
  target: {type: string, default: web}
result:
  kind: verdict/probe
  decider: up
stages:
  - id: probe
    plugin:
      name: probe
      args: {target: target}
      into: probe
  - id: up
    decide:
      rules:
        - {when: probe.af_absent == true, then: gone, label: not there}
        - {when: probe.up == true, then: up, label: answered}
      default: {branch: down, label: did not answer}
    branches:
      gone: {stages: [{id: mark-gone, verdict: {subject: target, verdict: '"gone"'}}]}
      up: {stages: [{id: mark-up, verdict: {subject: target, verdict: '"up"', pid: probe.pid}}]}
      down: {stages: [{id: mark-down, verdict: {subject: target, verdict: '"down"'}}]}
`

func TestRunThroughTheRealHost(t *testing.T) {
	t.Parallel()
	res := sdktest.Run(t, chartYAML, sdktest.Plugin("probe", probe{}))
	res.ExpectStatus("completed")
	res.ExpectVerdict(map[string]any{"subject": "web", "verdict": "up"})
	res.ExpectScript("probe", "completed")
	// code and absent were the plugin's defaults: assumed, not given.
	res.ExpectAssumed("probe", "code")
	res.ExpectAssumed("probe", "absent")
	res.ExpectReason("argument-assumed")
	// The plugin ran as a process of its own, not in this one.
	if v := res.Verdicts(); len(v) != 1 || v[0]["pid"] == os.Getpid() || v[0]["pid"] == nil {
		t.Errorf("verdicts %v: the plugin did not run in a process of its own (this pid %d)", v, os.Getpid())
	}
}

// TestRunBinary serves a binary built beforehand.
func TestRunBinary(t *testing.T) {
	t.Parallel()
	bin := sdk.TestProcess(t, "github.com/openrunbook/runbook/plugins/sdk/internal/echo").Path()
	res := sdktest.Run(t, `version: 1
runbook: echo-test
result: {kind: verdict/echo}
stages:
  - id: e
    plugin: {name: echo, into: e}
  - id: v
    verdict: {subject: '"x"', verdict: '"ok"', x: e.x}
`, sdktest.Binary("echo", bin))
	res.ExpectStatus("completed")
	res.ExpectVerdict(map[string]any{"subject": "x", "x": 2.5})
	res.ExpectAssumed("echo", "x")
}

func TestRunGivenArgs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, args string
		check      func(*sdktest.Result)
	}{
		{"a failing check", "{target: target, code: 2, absent: false}", func(r *sdktest.Result) {
			r.ExpectVerdict(map[string]any{"verdict": "down"})
			r.ExpectScript("probe", "completed-with-failure")
			r.ExpectNoneAssumed("probe")
		}},
		{"an absence", "{target: target, code: 0, absent: true}", func(r *sdktest.Result) {
			r.ExpectVerdict(map[string]any{"verdict": "gone"})
			r.ExpectCoverage("probe", "absence", "target web")
		}},
		{"the plugin's own failure", `{target: '"broken"'}`, func(r *sdktest.Result) {
			r.ExpectStatus("failed")
			r.ExpectError("the probe is broken")
			r.ExpectScript("probe", "reported-failure")
		}},
		{"a wrongly typed argument is refused by the host", `{target: target, code: '"two"'}`, func(r *sdktest.Result) {
			r.ExpectStatus("failed")
			r.ExpectError(`argument "code"`)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			yaml := replaceArgs(chartYAML, tc.args)
			tc.check(sdktest.Run(t, yaml, sdktest.Plugin("probe", probe{}),
				sdktest.Inputs(map[string]any{"target": "web"})))
		})
	}
}

// TestExpectationsFail: each Expect reports a mismatch (a harness whose
// assertions cannot fail would prove nothing).
func TestExpectationsFail(t *testing.T) {
	t.Parallel()
	res := sdktest.Run(t, chartYAML, sdktest.Plugin("probe", probe{}))
	ft := &fakeT{TB: t}
	r := sdktest.Rebind(res, ft)
	checks := map[string]bool{
		"status":    r.ExpectStatus("failed"),
		"verdict":   r.ExpectVerdict(map[string]any{"verdict": "down"}),
		"script":    r.ExpectScript("probe", "outcome-unknown"),
		"no script": r.ExpectScript("nowhere", "completed"),
		"assumed":   r.ExpectAssumed("probe", "target"),
		"none":      r.ExpectNoneAssumed("probe"),
		"coverage":  r.ExpectCoverage("probe", "absence", "x"),
		"standing":  r.ExpectStanding("known"),
		"error":     r.ExpectError("x"),
	}
	for name, ok := range checks {
		if ok {
			t.Errorf("%s: matched, want a mismatch", name)
		}
	}
	if ft.errors != len(checks) {
		t.Errorf("%d errors reported, want %d", ft.errors, len(checks))
	}
}

type fakeT struct {
	testing.TB
	errors int
}

func (f *fakeT) Errorf(string, ...any) { f.errors++ }
func (f *fakeT) Helper()               {}

func replaceArgs(chart, args string) string {
	return strings.Replace(chart, "args: {target: target}", "args: "+args, 1)
}
