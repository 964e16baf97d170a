package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A development build of runbook (v0.0.0: no released module to require)
// writes a go.mod that `go mod tidy` cannot satisfy; its next steps say
// so and give the replace that makes them work, before go mod tidy, never
// a list of steps whose first one fails with a 404 from the proxy.
func TestPluginInitDevBuildSaysHowToReachTheSDK(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "p")
	r := runCLI(t, t.TempDir(), "plugin", "init", "greet", dir)
	if r.code != 0 {
		t.Fatalf("plugin init: exit %d: %s", r.code, r.stderr)
	}
	next := r.stdout[strings.Index(r.stdout, "next:"):]
	edit := strings.Index(next, "go mod edit -replace github.com/openrunbook/runbook=")
	if !strings.Contains(r.stdout, "development build") || edit < 0 || edit > strings.Index(next, "go mod tidy") {
		t.Errorf("stdout:\n%s\nwant it to say this is a development build and give the replace before go mod tidy", r.stdout)
	}
	checkout, _ := filepath.Abs("../..")
	r = runCLI(t, t.TempDir(), "plugin", "init", "greet", filepath.Join(t.TempDir(), "q"), "--replace", checkout)
	if r.code != 0 || strings.Contains(r.stdout, "go mod edit") || strings.Contains(r.stdout, "development build") {
		t.Errorf("with --replace: exit %d, stdout:\n%s\nwant the plain next steps", r.code, r.stdout)
	}
}

// twoLineFail is a chart whose run fails with a message of two lines, as
// a plugin's recovered panic does (its first line, then the stack).
const twoLineFail = "version: 1\nrunbook: twoline\nstages:\n  - id: boom\n    fail: '\"plugin panicked: boom\\n\\npanic: boom\\ngoroutine 7 [running]:\"'\n"

// Where one line says why a run failed — exec's `run failed at`, a Nagios
// summary, a tool call's text — it gives the error's first line and says
// where the whole is; a plugin's panic put its whole stack on that line.
func TestRunErrorLineIsTheErrorsHeadline(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "chart.yaml"), []byte(twoLineFail), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, dir, "exec", "chart.yaml")
	if r.code != 1 || !strings.Contains(r.stderr, "run failed at boom: plugin panicked: boom (its first line;") || strings.Contains(r.stderr, "goroutine") {
		t.Errorf("exec: exit %d, stderr %q: want the first line and where the whole is", r.code, r.stderr)
	}
	r = runCLI(t, dir, "exec", "chart.yaml", "--format", "nagios")
	if first, _, _ := strings.Cut(r.stdout, "\n"); !strings.Contains(first, "the run failed at boom: plugin panicked: boom") || strings.Contains(first, "goroutine") {
		t.Errorf("nagios: first line %q: want the error's first line only", first)
	}
	m := newMCPTest(t, "", nil, filepath.Join(dir, "chart.yaml"))
	res := m.call(t, "twoline", nil)
	text := textOf(t, res)
	if !strings.Contains(text, "The run failed at boom: plugin panicked: boom (its first line;") || strings.Contains(text, "goroutine") {
		t.Errorf("mcp text %q: want the first line and where the whole is", text)
	}
	if e, _ := structured(t, res)["error"].(map[string]any); e == nil || !strings.Contains(e["message"].(string), "goroutine 7") {
		t.Errorf("mcp structuredContent error %v: want the whole message", e)
	}
}
