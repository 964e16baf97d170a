package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFilesSavedWithAByteOrderMarkAreRead: Windows Notepad's "UTF-8 with
// BOM" and PowerShell's Set-Content -Encoding UTF8 begin a file with
// U+FEFF, and with CRLF line ends. A chart so saved was refused as
// `unknown key "\ufeffversion" in the chart; did you mean "version"?`,
// an --inputs JSON file as `not JSON (invalid character 'ï' …)`, a YAML
// one as `input "\ufeffwant": is not an input`, and a chart test as `a
// test file needs version: 1`. Each is read past its mark now
// (parse.WithoutBOM, the one home); a mark elsewhere is content.
func TestFilesSavedWithAByteOrderMarkAreRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	win := func(s string) []byte { return []byte("\ufeff" + strings.ReplaceAll(s, "\n", "\r\n")) }
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	chart := write("svc.yaml", win(`version: 1
runbook: svc
inputs:
  want: {type: string, default: active}
result: {kind: verdict/state, decider: State}
stages:
  - id: state
    exec: {command: [echo, active], parse: lines}
  - id: judge
    name: State
    decide:
      rules:
        - {when: 'state.stdout[0] == want', then: up, label: as wanted}
      default: {branch: down, label: not as wanted}
    branches:
      up: [{id: u, verdict: {subject: '"svc"', verdict: '"up"'}}]
      down: [{id: d, verdict: {subject: '"svc"', verdict: '"down"'}}]
`))
	write("svc_test.yaml", win(`version: 1
chart: svc.yaml
cases:
  - name: up
    inputs: {want: active}
    stubs:
      state: {stdout: "active\n"}
    expect:
      verdicts: [{subject: svc, verdict: up}]
`))
	jsonIn := write("in.json", win(`{"want": "active"}`+"\n"))
	yamlIn := write("in.yaml", win("want: active\n"))
	for _, args := range [][]string{
		{"exec", chart},
		{"exec", chart, "--inputs", jsonIn},
		{"exec", chart, "--inputs", yamlIn},
	} {
		r := runCLI(t, dir, args...)
		if r.code != 0 || !strings.Contains(r.stdout, "| svc | up |") {
			t.Errorf("%v: exit %d, want 0 and svc up:\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
	if r := runCLI(t, dir, "test", filepath.Join(dir, "svc_test.yaml")); r.code != 0 || !strings.Contains(r.stdout, "1 passed") {
		t.Errorf("test: exit %d, want 0 and 1 passed:\n%s%s", r.code, r.stdout, r.stderr)
	}
	mid := write("mid.yaml", []byte("version: 1\n\ufeffrunbook: mid\nstages: []\n"))
	if r := runCLI(t, dir, "validate", mid); r.code == 0 {
		t.Errorf("a mark inside the chart is content, want a refusal:\n%s%s", r.stdout, r.stderr)
	}
}
