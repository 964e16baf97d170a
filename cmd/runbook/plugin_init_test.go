package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestIssue17PluginInitBuildsAndTests: `runbook plugin init NAME DIR`
// writes a module whose tests — one in-process, one through the real host
// (sdktest) — pass as generated, and whose binary passes `runbook plugins
// check`. The module is pointed at this checkout (--replace).
func TestIssue17PluginInitBuildsAndTests(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module: not in -short")
	}
	t.Parallel()
	checkout, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "probe")
	r := runCLI(t, t.TempDir(), "plugin", "init", "http-probe", dir, "--replace", checkout)
	if r.code != 0 {
		t.Fatalf("plugin init: exit %d: %s", r.code, r.stderr)
	}
	for _, f := range []string{"go.mod", "main.go", "main_test.go", "README.md"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	gomod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	if !strings.Contains(string(gomod), "replace github.com/openrunbook/runbook => "+checkout) {
		t.Errorf("go.mod:\n%s", gomod)
	}
	goCmd := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	goCmd("test", "-count=1", "./...")
	goCmd("build", "-o", "runbook-plugin-http-probe", ".")
	r = runCLI(t, dir, "plugins", "check", "./runbook-plugin-http-probe")
	if r.code != 0 || !strings.Contains(r.stdout, "PASS: all 6 steps") {
		t.Errorf("plugins check on the generated plugin: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// It never overwrites.
	if r := runCLI(t, t.TempDir(), "plugin", "init", "http-probe", dir); r.code != 2 || !strings.Contains(r.stderr, "already exists") {
		t.Errorf("second init: exit %d: %s", r.code, r.stderr)
	}
	if r := runCLI(t, t.TempDir(), "plugin", "init", "Bad_Name"); r.code != 2 || !strings.Contains(r.stderr, "lower-case letters") {
		t.Errorf("bad name: exit %d: %s", r.code, r.stderr)
	}
}
