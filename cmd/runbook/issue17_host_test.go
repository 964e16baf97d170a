package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
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

// TestIssue17RecordSaysWhichPluginRan: the record names each stage plugin
// that ran — name, declared version, protocol, absolute path, the sha256
// of its executable and the stages that called it — and `runbook explain`
// of a value a plugin stage gave shows it. Before, the record did not say
// which plugin (or which build of it) gave an answer.
func TestIssue17RecordSaysWhichPluginRan(t *testing.T) {
	t.Parallel()
	pd := pluginDir(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "runbook-plugin-behave")
	copyExec(t, filepath.Join(pd, "runbook-plugin-behave"), bin)
	chart := writeChart(t, dir, "chart.yaml", `
version: 1
runbook: provenance
stages:
  - id: call
    plugin: {name: behave, args: {mode: '"ok"'}}
  - id: after
    set: {m: call.mode}
`)
	r := runCLIEnv(t, dir, []string{"RUNBOOK_PLUGIN_DIR=" + dir}, "exec", chart, "--format", "json", "--record", "run.json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	sum := sha256.Sum256(readFile(t, bin))
	want := map[string]any{"name": "behave", "version": "0.0.1", "protocol": float64(1), "path": bin,
		"sha256": hex.EncodeToString(sum[:]), "stages": []any{"call"},
		// the defaults behave's description gives the arguments the chart left out
		"assumed": []any{map[string]any{"path": "call", "name": "n", "value": float64(1)}, map[string]any{"path": "call", "name": "pidfile", "value": ""}}}
	rec := jsonRecord(t, r)
	ps, _ := rec["plugins"].([]any)
	if len(ps) != 1 || !reflect.DeepEqual(ps[0], want) {
		t.Fatalf("record plugins = %#v\nwant [%#v]", rec["plugins"], want)
	}
	saved := map[string]any{}
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, "run.json")), &saved); err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(saved["result"].(map[string]any)["plugins"]); !strings.Contains(string(got), want["sha256"].(string)) {
		t.Errorf("saved record's plugins %s; want the provenance", got)
	}
	r = runCLI(t, dir, "explain", "run.json", "m")
	line := "plugin behave 0.0.1 (protocol 1): " + bin + ", sha256 " + want["sha256"].(string)
	if r.code != 0 || !strings.Contains(r.stdout, line) {
		t.Errorf("explain m (exit %d):\n%s\n%s\nwant a line %q", r.code, r.stdout, r.stderr, line)
	}
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestIssue17PluginVersionConstraint: a chart's plugins: map may say which
// versions of a plugin it was written for (version: ">= 1.2, < 2"); a
// plugin declaring another fails its start naming both, a constraint that
// does not parse is a load error at its line, and one that is met runs.
// Before, no constraint could be given (the key was refused).
func TestIssue17PluginVersionConstraint(t *testing.T) {
	t.Parallel()
	pd := pluginDir(t)
	dir := t.TempDir()
	copyExec(t, filepath.Join(pd, "runbook-plugin-behave"), filepath.Join(dir, "runbook-plugin-behave"))
	const chart = `
version: 1
runbook: pinned
plugins:
  behave: {command: ./runbook-plugin-behave, version: %q}
stages:
  - id: call
    plugin: {name: behave}
`
	for _, tc := range []struct {
		constraint string
		code       int
		says       string
	}{
		{">= 0.0.1, < 1", 0, ""},
		{">= 1.2, < 2", exitFailed, `plugin "behave": describe: declares version 0.0.1, but the chart's plugins: map wants >= 1.2, < 2`},
		{"newest please", exitUsage, `chart.yaml:4:`},
	} {
		p := writeChart(t, t.TempDir(), "chart.yaml", fmt.Sprintf(chart, tc.constraint))
		copyExec(t, filepath.Join(pd, "runbook-plugin-behave"), filepath.Join(filepath.Dir(p), "runbook-plugin-behave"))
		r := runCLI(t, dir, "exec", p)
		if r.code != tc.code || !strings.Contains(r.stdout+r.stderr, tc.says) {
			t.Errorf("version %q: exit %d\n%s\n%s\nwant exit %d saying %q", tc.constraint, r.code, r.stdout, r.stderr, tc.code, tc.says)
		}
	}
}
