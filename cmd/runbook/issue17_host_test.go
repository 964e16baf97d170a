package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIssue17RelativePluginDirFlagsAndEnvRunTheDirectorysPlugin: with a
// same-named decoy earlier on $PATH, `runbook plugins --dir .`,
// `exec --plugin-dir .` and RUNBOOK_PLUGIN_DIR=. each use the plugin in
// the working directory (issue #17: a relative directory was joined to a
// bare name that exec looked up on $PATH).
func TestIssue17RelativePluginDirFlagsAndEnvRunTheDirectorysPlugin(t *testing.T) {
	t.Parallel()
	pd := pluginDir(t)
	here, decoys := t.TempDir(), t.TempDir()
	copyExec(t, filepath.Join(pd, "runbook-plugin-behave"), filepath.Join(here, "runbook-plugin-behave"))
	// The decoy is a real plugin under the same name: were it run, it
	// would be listed as file-age and answer without a "mode".
	copyExec(t, filepath.Join(pd, "runbook-plugin-file-age"), filepath.Join(decoys, "runbook-plugin-behave"))
	path := []string{"PATH=" + decoys + string(os.PathListSeparator) + os.Getenv("PATH")}
	chartDir := t.TempDir()
	chart := writeChart(t, chartDir, "chart.yaml", `
version: 1
runbook: relative
stages:
  - id: call
    plugin: {name: behave, args: {mode: '"ok"'}}
`)

	r := runCLIEnv(t, here, append(path, "RUNBOOK_PLUGIN_DIR="), "plugins", "--dir", ".")
	if r.code != 0 || !strings.Contains(r.stdout, "behave") || strings.Contains(r.stdout, "file-age") {
		t.Errorf("plugins --dir . (exit %d):\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for name, run := range map[string]func() result{
		"--plugin-dir .": func() result {
			return runCLIEnv(t, here, append(path, "RUNBOOK_PLUGIN_DIR="), "exec", chart, "--plugin-dir", ".", "--format", "json")
		},
		"RUNBOOK_PLUGIN_DIR=.": func() result {
			return runCLIEnv(t, here, append(path, "RUNBOOK_PLUGIN_DIR=."), "exec", chart, "--format", "json")
		},
	} {
		r := run()
		if r.code != 0 {
			t.Errorf("%s: exit %d\n%s", name, r.code, r.stderr)
			continue
		}
		rec := jsonRecord(t, r)
		if got := rec["state"].(map[string]any)["call"].(map[string]any)["mode"]; got != "ok" {
			t.Errorf("%s: the call answered %v; want behave's mode ok (the decoy ran?)", name, rec["state"])
		}
	}
}
