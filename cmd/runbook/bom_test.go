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

// TestChartThatIsNotUTF8IsRefused: a chart saved as Windows-1252
// (Notepad's "ANSI") holds "Caf\xe9", which the YAML reader read as
// "Caf\uFFFD" in silence: a rule `c.stdout[0] == "Café"` compared with a
// text no command prints, and `printf 'Café'` ran as `printf
// 'Caf\uFFFD'`, so the rule found what the chart's own command printed,
// Consistent, while a real "Café" would never match. A chart, a chart
// test and an --inputs file that are not UTF-8 are refused at the first
// byte that is not (chart.NotUTF8), exit 2, before anything runs.
func TestChartThatIsNotUTF8IsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const body = "version: 1\nrunbook: ansi\ninputs:\n  want: {type: string, default: x}\nstages:\n  - id: c\n    exec: {command: [printf, 'Caf\xe9'], parse: lines}\n"
	chart := write("ansi.yaml", []byte(body))
	good := write("good.yaml", []byte(strings.ReplaceAll(body, "\xe9", "é")))
	write("ansi_test.yaml", []byte("version: 1\nchart: good.yaml\ncases:\n  - name: caf\xe9\n    stubs: {c: {stdout: x}}\n"))
	yamlIn := write("in.yaml", []byte("want: caf\xe9\n"))
	jsonIn := write("in.json", []byte(`{"want": "caf`+"\xe9"+`"}`))
	const why = "the file is not UTF-8: byte 0xe9 here is no part of a UTF-8 character"
	for _, tc := range []struct {
		args  []string
		where string
	}{
		{[]string{"exec", chart}, "ansi.yaml:7:34: "},
		{[]string{"validate", chart}, "ansi.yaml:7:34: "},
		{[]string{"exec", good, "--inputs", yamlIn}, "in.yaml:1:10: "},
		{[]string{"exec", good, "--inputs", jsonIn}, "in.json:1:14: "},
		{[]string{"test", filepath.Join(dir, "ansi_test.yaml")}, "ansi_test.yaml:4:14: "},
	} {
		r := runCLI(t, dir, tc.args...)
		if r.code == 0 || !strings.Contains(r.stdout+r.stderr, tc.where+why) {
			t.Errorf("%v: exit %d; want a refusal at %s:\n%s%s", tc.args, r.code, tc.where, r.stdout, r.stderr)
		}
	}
	if r := runCLI(t, dir, "exec", good); r.code != 0 {
		t.Errorf("UTF-8: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
}
