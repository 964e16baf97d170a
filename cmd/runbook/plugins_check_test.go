package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildPlugins builds each main package into dir as runbook-plugin-NAME.
func buildPlugins(t *testing.T, pkgs map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, pkg := range pkgs {
		if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "runbook-plugin-"+name), pkg).CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", name, err, out)
		}
	}
	return dir
}

// TestIssue17PluginsCheck: `runbook plugins check PATH` passes a sound
// plugin at every step and fails each faulty one at the step that shows
// its fault, naming it, with exit 1.
func TestIssue17PluginsCheck(t *testing.T) {
	t.Parallel()
	const tp = "github.com/openrunbook/runbook/plugins/internal/testplugin/"
	dir := buildPlugins(t, map[string]string{
		"file-age": "github.com/openrunbook/runbook/examples/plugins/file-age",
		"junk":     tp + "junk",
		"proto2":   tp + "proto2",
		"crashes":  tp + "crashes",
		"panics":   tp + "panics",
	})
	tests := []struct {
		plugin string
		code   int
		want   []string
	}{
		{"file-age", 0, []string{"PASS  handshake", "PASS  describe      file-age 1.0.0", "PASS  call", "PASS  bad argument", "PASS  shutdown", "PASS  no process", "PASS: all 6 steps"}},
		{"panics", 0, []string{"PASS  call          answered with its own error (a sound answer to sample values): plugin panicked: asked to panic", "PASS: all 6 steps"}},
		{"junk", 1, []string{"FAIL  handshake", "wrote to stdout before the handshake", "SKIP  describe", "FAIL: 1 of 6 steps failed; first: handshake"}},
		{"proto2", 1, []string{"FAIL  handshake", "speaks plugin protocol 2, but this runbook speaks protocol 1"}},
		{"crashes", 1, []string{"PASS  describe", "FAIL  call", "exit status 3", "exiting mid-call on purpose", "PASS  no process", "first: call"}},
	}
	for _, tc := range tests {
		t.Run(tc.plugin, func(t *testing.T) {
			t.Parallel()
			r := runCLI(t, dir, "plugins", "check", "./runbook-plugin-"+tc.plugin)
			if r.code != tc.code {
				t.Errorf("exit %d, want %d", r.code, tc.code)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("output lacks %q:\n%s%s", w, r.stdout, r.stderr)
				}
			}
		})
	}
}
