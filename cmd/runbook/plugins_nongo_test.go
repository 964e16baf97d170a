package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// greetChart calls the non-Go examples' greet plugin.
const greetChart = `version: 1
runbook: greet-nongo
result: {kind: verdict/greeting}
stages:
  - id: greet
    plugin: {name: greet, args: {name: '"world"'}, into: greet}
  - id: said
    verdict: {subject: '"world"', verdict: '"greeted"', message: greet.message}
`

// checkAndRun runs `runbook plugins check` on the plugin at bin and a
// chart calling it, and holds both to what the examples promise.
func checkAndRun(t *testing.T, bin string) {
	t.Helper()
	dir := filepath.Dir(bin)
	r := runCLI(t, dir, "plugins", "check", bin)
	if r.code != 0 || !strings.Contains(r.stdout, "PASS: all 6 steps") {
		t.Errorf("plugins check: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	chart := writeChart(t, dir, "chart.yaml", greetChart)
	r = runCLI(t, dir, "exec", chart, "--plugin-dir", dir, "--format", "json")
	if r.code != 0 {
		t.Fatalf("exec: exit %d: %s", r.code, r.stderr)
	}
	rec := jsonRecord(t, r)
	rows := rec["verdicts"].(map[string]any)["rows"].([]any)
	if m := rows[0].(map[string]any)["message"]; m != "hello, world" {
		t.Errorf("message %v", m)
	}
	line := rec["assessment"].(map[string]any)["line"].(string)
	if !strings.Contains(line, `greeting = "hello" was assumed by greet`) {
		t.Errorf("standing line %q: the plugin's default must be reported as assumed", line)
	}
}

// wrapper writes dir/runbook-plugin-greet, a script starting the example
// with the environment it needs (the host passes a plugin almost none).
func wrapper(t *testing.T, dir, body string) string {
	t.Helper()
	bin := filepath.Join(dir, "runbook-plugin-greet")
	if err := writeExec(bin, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestIssue17NodePlugin: the Node example (examples/plugins/node) passes
// the conformance check and serves a chart; its packages are installed
// from the committed package-lock.json into a temp dir.
func TestIssue17NodePlugin(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed")
	}
	src, err := filepath.Abs("../../examples/plugins/node")
	if err != nil {
		t.Fatal(err)
	}
	mods := t.TempDir()
	for _, f := range []string{"package.json", "package-lock.json"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mods, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts")
	cmd.Dir = mods
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci: %v\n%s", err, out)
	}
	bin := wrapper(t, t.TempDir(), fmt.Sprintf("NODE_PATH=%s exec %s %s", filepath.Join(mods, "node_modules"), node, filepath.Join(src, "plugin.js")))
	checkAndRun(t, bin)
}

// TestIssue17PythonPlugin: the Python example (examples/plugins/python)
// passes the conformance check and serves a chart, with the first python3
// that has grpcio and protobuf (skipped, saying so, when none has).
func TestIssue17PythonPlugin(t *testing.T) {
	t.Parallel()
	var python string
	for _, cand := range []string{"python3", "/usr/bin/python3"} {
		p, err := exec.LookPath(cand)
		if err != nil {
			continue
		}
		if exec.Command(p, "-c", "import grpc, google.protobuf").Run() == nil {
			python = p
			break
		}
	}
	if python == "" {
		t.Skip("no python3 with grpcio and protobuf (pip install grpcio protobuf, or apt-get install python3-grpcio)")
	}
	src, err := filepath.Abs("../../examples/plugins/python/plugin.py")
	if err != nil {
		t.Fatal(err)
	}
	checkAndRun(t, wrapper(t, t.TempDir(), fmt.Sprintf("exec %s %s", python, src)))
}
