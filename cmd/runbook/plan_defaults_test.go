package main

import (
	"strings"
	"testing"
)

// TestPlanShowsDefaultsWhenARequiredInputIsMissing: plan of a chart run
// without its required input listed every input "(unset)", the defaults
// a run would start with too (wave-dba's finding). A default is shown as
// one (a secret's as <secret>) beside the missing input's check.
func TestPlanShowsDefaultsWhenARequiredInputIsMissing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", `version: 1
runbook: p
inputs:
  host: {type: string, required: true}
  port: {type: number, default: 5432}
  token: {type: string, secret: true, default: s3cr3t-default}
stages:
  - id: probe
    exec: {command: [echo, '${host}', '${port}']}
`)
	r := runCLI(t, dir, "plan", "chart.yaml")
	for _, want := range []string{
		"host           string   —  (unset)",
		"port           number   5432  (default)",
		"token          string   <secret>  (default)",
		`input "host": is required`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("plan does not say %q:\n%s", want, r.stdout)
		}
	}
	if r.code != 2 || strings.Contains(r.stdout+r.stderr, "s3cr3t-default") {
		t.Errorf("exit %d, want 2, and no secret default shown:\n%s%s", r.code, r.stdout, r.stderr)
	}
}
