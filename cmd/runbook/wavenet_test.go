package main

import (
	"strings"
	"testing"
)

// portChart connects to nothing: it writes the port it was given as its
// row, so a test reads what a run would have connected to.
const portChart = `
version: 1
runbook: port
inputs:
  port: {type: number, required: true}
  pin: {type: number, secret: true, default: 1}
result: {kind: verdict/port}
stages:
  - {id: v, verdict: {subject: '"localhost"', verdict: '"seen"', port: string(port)}}
`

// TestInputsFileLeadingZeroIsRefused: an --inputs file's `port: 0443` was
// read by the YAML parser as octal, 291, and a TCP check connected to port
// 291, Consistent, while `--input port=0443` gave 443. It is refused,
// exit 2, at its line and column, without quoting the number (a PIN 0123
// may be a secret's value); a chart test's inputs are refused the same way.
func TestInputsFileLeadingZeroIsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", portChart)
	writeChart(t, dir, "in.yaml", "pin: 735119\nport: 0443\n")
	r := runCLI(t, dir, "exec", "--inputs", "in.yaml", "chart.yaml")
	want := "runbook: --inputs in.yaml:2:7: the YAML parser reads this number, written with a leading zero, as an octal number, where a person and YAML 1.2 read it as decimal"
	if r.code != 2 || !strings.Contains(r.stderr, want) || strings.Contains(r.stderr+r.stdout, "0443") || strings.Contains(r.stdout, "291") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q, the number not quoted", r.code, r.stdout, r.stderr, want)
	}
	writeChart(t, dir, "in.yaml", "port: 443\n")
	if r := runCLI(t, dir, "exec", "--inputs", "in.yaml", "chart.yaml"); r.code != 0 || !strings.Contains(r.stdout, "| localhost | seen | 443 |") {
		t.Errorf("port: 443: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	writeChart(t, dir, "chart_test.yaml", `
version: 1
chart: chart.yaml
cases:
  - name: octal port
    inputs: {port: 0443}
    expect: {verdicts: [{subject: localhost, verdict: seen, port: "443"}]}
`)
	r = runCLI(t, dir, "test", "chart_test.yaml")
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "chart_test.yaml:5:20: the YAML parser reads 0443, a number with a leading zero, as an octal number (291)") {
		t.Errorf("runbook test: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestInputsFileIPv6InAFlowListSaysQuoteIt: an --inputs file's `site:
// {hosts: [::1, 127.0.0.1]}` was refused with "the file is neither JSON nor
// valid YAML here", which does not say what to write: the YAML parser
// takes the address's leading ":" for a map's. It says to quote it now,
// at the value, without quoting the value.
func TestInputsFileIPv6InAFlowListSaysQuoteIt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", "version: 1\nrunbook: hosts\ninputs:\n  site: {type: object, required: true}\nstages:\n  - id: n\n    set: {n: len(site.hosts)}\n")
	writeChart(t, dir, "in.yaml", "site: {hosts: [::1, 127.0.0.1]}\n")
	r := runCLI(t, dir, "exec", "--inputs", "in.yaml", "chart.yaml")
	want := `runbook: --inputs in.yaml:1:16: the YAML parser reads this value, a text with a ":" inside a [...] list within {...} (a URL with a port, an IPv6 address), as a map, not the text written; quote it`
	if r.code != 2 || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and %s", r.code, r.stderr, want)
	}
	writeChart(t, dir, "in.yaml", "site: {hosts: [\"::1\", 127.0.0.1]}\n")
	if r := runCLI(t, dir, "exec", "--inputs", "in.yaml", "chart.yaml"); r.code != 0 {
		t.Errorf("quoted: exit %d, stderr %s", r.code, r.stderr)
	}
}
