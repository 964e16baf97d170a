package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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

// readsSecret: behave declares it reads the scope key seed, and answers
// with what it read; here seed is a secret input the chart never passes
// it (the first stage), then does (the second, as an argument).
const readsSecret = `
version: 1
runbook: reads-secret
inputs:
  seed: {type: string, secret: true}
stages:
  - id: STAGE
    plugin: {name: behave, args: ARGS}
`

// A plugin's declared Reads never hand it a secret the chart did not
// give it: the stage fails before the call, naming the key, and the
// plugin never sees the value (a number derived from it is no gift of
// the secret either). Given as an argument, the secret is the chart's
// choice and the call goes on.
func TestPluginReadsNoSecretTheChartDidNotGive(t *testing.T) {
	t.Parallel()
	pd := pluginDir(t)
	dir := t.TempDir()
	const value = "s3cr3t-seed-VALUE"
	for _, tc := range []struct {
		args   string
		status string
	}{
		{`{mode: '"ok"'}`, "failed"},
		{`{mode: '"ok"', n: 'len(seed)'}`, "failed"},
		{`{mode: '"ok"', pidfile: seed}`, "completed"},
	} {
		chart := writeChart(t, dir, "c.yaml", strings.NewReplacer("STAGE", "call", "ARGS", tc.args).Replace(readsSecret))
		r := runCLI(t, dir, "exec", chart, "--plugin-dir", pd, "--input", "seed="+value, "--format", "json")
		rec := jsonRecord(t, r)
		if rec["status"] != tc.status {
			t.Errorf("args %s: status %v, want %s", tc.args, rec["status"], tc.status)
			continue
		}
		e, _ := rec["error"].(map[string]any)
		if msg, _ := e["message"].(string); tc.status == "failed" && (!strings.Contains(msg, `reads seed from the scope`) || !strings.Contains(msg, "secret")) {
			t.Errorf("args %s: error %q: want it to name the key and say it is a secret", tc.args, msg)
		}
		if strings.Contains(r.stdout+r.stderr, value) {
			t.Errorf("args %s: the secret's value is in the output", tc.args)
		}
	}
}

// A plugin that leaves a child in a process group of its own (setsid)
// fails the check's last step: "nothing of process group N is left" was
// true and PASSed, while the child went on running after the plugin was
// stopped.
func TestPluginsCheckSeesAChildOutsideTheGroup(t *testing.T) {
	t.Parallel()
	dir := buildPlugins(t, map[string]string{"escapes": "github.com/openrunbook/runbook/plugins/internal/testplugin/escapes"})
	tmp := t.TempDir()
	t.Cleanup(func() {
		if b, err := os.ReadFile(filepath.Join(tmp, "escapes.pid")); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	r := runCLIEnv(t, dir, []string{"TMPDIR=" + tmp}, "plugins", "check", "./runbook-plugin-escapes")
	if r.code != 1 || !strings.Contains(r.stdout, "FAIL  no process") || !strings.Contains(r.stdout, "sleep") {
		t.Errorf("exit %d, want 1 and the no process step failed naming the child:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// validate and plan say before any run what the run will refuse: a
// plugin that reads a secret input the chart does not pass it.
func TestValidateSaysAPluginReadsASecret(t *testing.T) {
	t.Parallel()
	pd := pluginDir(t)
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", strings.NewReplacer("STAGE", "call", "ARGS", `{mode: '"ok"'}`).Replace(readsSecret))
	for _, args := range [][]string{{"validate", chart}, {"plan", chart, "--input", "seed=x"}} {
		r := runCLI(t, dir, append(args, "--plugin-dir", pd)...)
		if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "declares it reads seed from the scope, which holds a secret the chart did not give it") {
			t.Errorf("%s: exit %d, want a failure naming the read:\n%s%s", args[0], r.code, r.stdout, r.stderr)
		}
	}
	given := writeChart(t, dir, "g.yaml", strings.NewReplacer("STAGE", "call", "ARGS", `{mode: '"ok"', pidfile: seed}`).Replace(readsSecret))
	if r := runCLI(t, dir, "validate", given, "--plugin-dir", pd); r.code != 0 {
		t.Errorf("validate, the secret given as an argument: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
