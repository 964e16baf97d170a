package main

import (
	"strings"
	"testing"
)

// readsSeed: behave declares it reads the scope key seed and answers with
// what it read; SEED is where the chart writes it, if anywhere.
const readsSeed = `
version: 1
runbook: reads-seed
result: {kind: verdict/seed}
stages:
SEED
  - id: call
    plugin: {name: behave, args: {mode: '"ok"', n: 1, pidfile: '""'}}
  - id: row
    verdict: {subject: '"seed"', verdict: 'call.seed == nil ? "ok" : "ok"'}
`

// A plugin that declares it reads a scope key the scope does not hold (a
// chart that names the key otherwise, or never writes it) is called
// without it, and what it answers rests on a value it never got: the
// standing was "Consistent with the run's record" over a plugin that
// counted the hosts of a list it was never given. It is Not sure now,
// naming the plugin and the key, and the Nagios state is no better than
// UNKNOWN; written before the stage, the key is read and the run stands
// as before.
func TestPluginReadOfAKeyTheScopeLacksIsNotSure(t *testing.T) {
	t.Parallel()
	pd := pluginDir(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		name, seed string
		want       string
	}{
		{"lacked", "", "not-sure"},
		{"written", `  - id: s
    set: {seed: '"abc"'}`, "consistent"},
	} {
		chart := writeChart(t, dir, tc.name+".yaml", strings.Replace(readsSeed, "SEED", tc.seed, 1))
		r := runCLI(t, dir, "exec", chart, "--plugin-dir", pd, "--format", "json")
		rec := jsonRecord(t, r)
		a, _ := rec["assessment"].(map[string]any)
		if a["standing"] != tc.want {
			t.Errorf("%s: standing %v (%v), want %s", tc.name, a["standing"], a["line"], tc.want)
		}
		line, _ := a["line"].(string)
		said := strings.Contains(line, `did not check what plugin "behave" answered (it declares it reads seed from the scope, and the scope held no seed`)
		if said != (tc.want == "not-sure") {
			t.Errorf("%s: line %q: want it to name the plugin and the key it lacked: %v", tc.name, line, tc.want == "not-sure")
		}
		r = runCLI(t, dir, "exec", chart, "--plugin-dir", pd, "--format", "nagios")
		if state := map[string]int{"not-sure": 3, "consistent": 0}[tc.want]; r.code != state {
			t.Errorf("%s: nagios exit %d, want %d: %s", tc.name, r.code, state, r.stdout)
		}
	}
}

// validate and plan say it before a run: a plugin's declared read of a
// key no input, var or stage of the chart writes is one no run can give
// it, named with the nearest name the chart does write.
func TestValidateSaysAPluginReadsAKeyTheChartNeverWrites(t *testing.T) {
	t.Parallel()
	pd := pluginDir(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		name, seed, want string
	}{
		{"never", "", "which no input, var, stage key, foreach as or index of the chart defines: every call would go without it"},
		{"misspelt", `  - id: s
    set: {sed: '"abc"'}`, `did you mean "sed"?`},
		{"written", `  - id: s
    set: {seed: '"abc"'}`, ""},
	} {
		chart := writeChart(t, dir, tc.name+".yaml", strings.Replace(readsSeed, "SEED", tc.seed, 1))
		for _, args := range [][]string{{"validate", chart}, {"plan", chart}} {
			r := runCLI(t, dir, append(args, "--plugin-dir", pd)...)
			said := strings.Contains(r.stdout+r.stderr, `plugin "behave" declares it reads seed from the scope`)
			if tc.want == "" {
				if r.code != 0 || said {
					t.Errorf("%s %s: exit %d: want it to pass:\n%s%s", args[0], tc.name, r.code, r.stdout, r.stderr)
				}
				continue
			}
			if r.code == 0 || !said || !strings.Contains(r.stdout+r.stderr, tc.want) {
				t.Errorf("%s %s: exit %d: want it to fail saying %q:\n%s%s", args[0], tc.name, r.code, tc.want, r.stdout, r.stderr)
			}
		}
	}
}

// `runbook explain RECORD STAGE` names the plugin build a stage called
// even when the call failed: it showed the build only under a commit a
// key's chain reached, so a plugin that crashed mid-call was explained
// without saying which binary, version or bytes had crashed.
func TestExplainOfAFailedPluginStageNamesTheBuild(t *testing.T) {
	t.Parallel()
	pd := pluginDir(t)
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", "version: 1\nrunbook: crashing\nstages:\n  - id: call\n    plugin: {name: behave, args: {mode: '\"crash\"'}}\n")
	if r := runCLI(t, dir, "exec", chart, "--plugin-dir", pd, "--record", "run.json"); r.code != 1 {
		t.Fatalf("exec: exit %d, want 1 (the plugin crashed): %s", r.code, r.stderr)
	}
	r := runCLI(t, dir, "explain", "run.json", "call")
	if !strings.Contains(r.stdout, "it failed: plugin \"behave\"") || !strings.Contains(r.stdout, "\n  plugin behave 0.0.1 (protocol 1): ") {
		t.Errorf("explain call:\n%s%s\nwant the failure and the plugin build it called", r.stdout, r.stderr)
	}
}

// A plugin file named runbook-plugin-NAME that declares another name is
// refused by every chart that finds it in a plugin directory by NAME (and
// one calling the declared name finds no file): `runbook plugins check`
// PASSed it and `runbook plugins` listed it under the declared name, a
// name no chart could call it by. Both say so now, in the host's words
// (host.NameMismatch).
func TestPluginFileNamedForAnotherNameIsRefusedByCheckAndList(t *testing.T) {
	t.Parallel()
	dir := buildPlugins(t, map[string]string{"other": "github.com/openrunbook/runbook/plugins/internal/testplugin/behave"})
	const says = `declares its name "behave", but its file is named for "other"`
	r := runCLI(t, dir, "plugins", "check", "./runbook-plugin-other")
	if r.code != 1 || !strings.Contains(r.stdout, "FAIL  describe      "+says) {
		t.Errorf("check: exit %d, want 1 and describe failed saying %q:\n%s%s", r.code, says, r.stdout, r.stderr)
	}
	r = runCLI(t, dir, "plugins", "--dir", ".")
	if r.code == 0 || !strings.Contains(r.stdout, "other") || !strings.Contains(r.stdout, "refused: "+says) || strings.Contains(r.stdout, "\nbehave ") {
		t.Errorf("plugins --dir: exit %d, want the file listed as other, refused:\n%s%s", r.code, r.stdout, r.stderr)
	}
}
