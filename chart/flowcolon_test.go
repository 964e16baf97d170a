package chart

import (
	"strings"
	"testing"
)

// TestURLWithPortInAFlowListSaysQuoteIt: `exec: {command: [curl, -s,
// http://127.0.0.1:8080/health]}` was refused with "exec command
// argument 3 must be text, not a map": the YAML parser splits a plain
// value at a ":" inside a [...] list within a {...} map, where YAML reads
// one text, and a plugin's list argument so written reached the plugin
// as maps. The error says so at the value and gives it quoted; quoted, or
// outside a {...} map, it is the URL.
func TestURLWithPortInAFlowListSaysQuoteIt(t *testing.T) {
	t.Parallel()
	src := "version: 1\nrunbook: c\nstages:\n  - id: probe\n    exec: {command: [curl, -s, http://127.0.0.1:8080/health]}\n"
	_, err := Parse("chart.yaml", []byte(src))
	want := `chart.yaml:5:32: the YAML parser reads http://127.0.0.1:8080/health inside this [...] list as a map ("http://127.0.0.1": 8080/health), not the text written: inside a {...} map it splits a plain value at a ":"; quote it: "http://127.0.0.1:8080/health"`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v\nwant it to hold %s", err, want)
	}
	if strings.Contains(err.Error(), "not a map") {
		t.Errorf("the error still names a map nobody wrote: %v", err)
	}
	args := "version: 1\nrunbook: c\nplugins: {probe: {command: ./p}}\nstages:\n  - id: p\n    plugin: {name: probe, args: {urls: [http://a:8080, 'http://b:8080']}}\n"
	_, err = Parse("chart.yaml", []byte(args))
	if err == nil || !strings.Contains(err.Error(), `quote it: "http://a:8080"`) || strings.Contains(err.Error(), "http://b") {
		t.Errorf("a plugin's list argument: %v", err)
	}
	for name, ok := range map[string]string{
		"quoted":             strings.Replace(src, "http://127.0.0.1:8080/health", `"http://127.0.0.1:8080/health"`, 1),
		"a block list":       "version: 1\nrunbook: c\nstages:\n  - id: probe\n    exec:\n      command: [curl, -s, http://127.0.0.1:8080/health]\n",
		"a map with a space": "version: 1\nrunbook: c\nplugins: {probe: {command: ./p}}\nstages:\n  - id: p\n    plugin: {name: probe, args: {hosts: [a: 1]}}\n",
	} {
		if _, err := Parse("chart.yaml", []byte(ok)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	spec, err := Parse("chart.yaml", []byte(strings.Replace(src, "http://127.0.0.1:8080/health", `"http://127.0.0.1:8080/health"`, 1)))
	if err != nil || spec.Stages[0].Exec == nil || strings.Join(spec.Stages[0].Exec.Command, " ") != "curl -s http://127.0.0.1:8080/health" {
		t.Errorf("quoted: %v", err)
	}
}
