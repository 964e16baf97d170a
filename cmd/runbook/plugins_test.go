package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// pluginBins are the plugins the plugin tests use, built once per test
// binary: file-age (the example) and behave (misbehaves on request).
var (
	pluginBinsOnce sync.Once
	pluginBinsDir  string
	pluginBinsErr  error
)

func pluginDir(t *testing.T) string {
	t.Helper()
	pluginBinsOnce.Do(func() {
		pluginBinsDir, pluginBinsErr = os.MkdirTemp("", "runbook-e2e-plugins-")
		if pluginBinsErr != nil {
			return
		}
		for name, pkg := range map[string]string{
			"file-age": "github.com/openrunbook/runbook/examples/plugins/file-age",
			"behave":   "github.com/openrunbook/runbook/plugins/internal/testplugin/behave",
		} {
			out, err := exec.Command("go", "build", "-o", filepath.Join(pluginBinsDir, "runbook-plugin-"+name), pkg).CombinedOutput()
			if err != nil {
				pluginBinsErr = fmt.Errorf("building %s: %v\n%s", name, err, out)
				return
			}
		}
	})
	if pluginBinsErr != nil {
		t.Fatal(pluginBinsErr)
	}
	return pluginBinsDir
}

func jsonRecord(t *testing.T, r result) map[string]any {
	t.Helper()
	var rec map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &rec); err != nil {
		t.Fatalf("stdout is not a JSON record: %v\nstdout: %s\nstderr: %s", err, r.stdout, r.stderr)
	}
	return rec
}

func TestPluginExampleEndToEnd(t *testing.T) {
	t.Parallel()
	pd := pluginDir(t)
	dir := t.TempDir()
	chart, err := os.ReadFile("../../examples/plugins/file-age/chart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	copyExec(t, filepath.Join(pd, "runbook-plugin-file-age"), filepath.Join(dir, "runbook-plugin-file-age"))
	path := writeChart(t, dir, "chart.yaml", string(chart))

	r := runCLI(t, dir, "exec", path, "--input", "path=/no/such/file", "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	rec := jsonRecord(t, r)
	rows := rec["verdicts"].(map[string]any)["rows"].([]any)
	if v := rows[0].(map[string]any)["verdict"]; v != "missing" {
		t.Errorf("verdict %v", v)
	}
	cov, _ := json.Marshal(rec["coverage"])
	if !strings.Contains(string(cov), `"kind":"absence"`) || !strings.Contains(string(cov), `"/no/such"`) {
		t.Errorf("coverage %s", cov)
	}
	line := rec["assessment"].(map[string]any)["line"].(string)
	if !strings.Contains(line, `maxAge = "24h" was assumed by file-age`) {
		t.Errorf("standing line %q: the plugin's default must be reported as assumed", line)
	}

	r = runCLI(t, dir, "exec", path, "--input", "path="+path, "--format", "json")
	rec = jsonRecord(t, r)
	rows = rec["verdicts"].(map[string]any)["rows"].([]any)
	if v := rows[0].(map[string]any)["verdict"]; v != "fresh" {
		t.Errorf("verdict %v; stderr %s", v, r.stderr)
	}

	r = runCLI(t, dir, "plugins", "--dir", pd)
	if r.code != 0 || !regexp.MustCompile(`file-age\s+1\.0\.0\s+1\s+no\s+path string \(required\); maxAge duration = 24h`).MatchString(r.stdout) {
		t.Errorf("plugins listing (exit %d):\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

const faultChart = `
version: 1
runbook: faults
plugins:
  pinned: {command: %s, sha256: "%s"}
stages:
  - id: first
    plugin: {name: behave, args: {mode: '"ok"', n: 2}}
  - id: broken
    timeout: 700ms
    plugin: {name: %s, args: {mode: '"%s"'}}
  - id: after
    set: {x: 1}
`

func TestPluginFaultsFailTheStage(t *testing.T) {
	t.Parallel()
	pd := pluginDir(t)
	behave := filepath.Join(pd, "runbook-plugin-behave")
	tests := []struct {
		name, plugin, mode string
		want               []string
	}{
		{"crash", "behave", "crash", []string{`plugin "behave"`, "exit status 3", "about to crash on purpose"}},
		{"hang", "behave", "hang", []string{`plugin "behave"`, "no answer within ", "the time the call was given", "hanging on purpose"}},
		{"checksum", "pinned", "ok", []string{`plugin "pinned"`, "checksum mismatch", "refused before starting it"}},
		{"error", "behave", "error", []string{`plugin "behave": the thing it checks is broken`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			chart := writeChart(t, dir, "c.yaml", fmt.Sprintf(faultChart, behave, strings.Repeat("0", 64), tc.plugin, tc.mode))
			began := time.Now()
			r := runCLI(t, dir, "exec", chart, "--plugin-dir", pd, "--format", "json")
			if r.code != 1 {
				t.Fatalf("exit %d; stderr %s", r.code, r.stderr)
			}
			if d := time.Since(began); d > 8*time.Second {
				t.Errorf("took %s", d)
			}
			rec := jsonRecord(t, r)
			e := rec["error"].(map[string]any)
			if e["stage"] != "broken" {
				t.Errorf("error at %v", e["stage"])
			}
			for _, w := range tc.want {
				if !strings.Contains(e["message"].(string), w) {
					t.Errorf("message %q lacks %q", e["message"], w)
				}
			}
			// What came before is kept.
			first, _ := rec["state"].(map[string]any)["first"].(map[string]any)
			if first["n"] != 2.0 || first["mode"] != "ok" {
				t.Errorf("state.first = %v", rec["state"])
			}
			scripts, _ := rec["scripts"].([]any)
			got := false
			for _, s := range scripts {
				row := s.(map[string]any)
				got = got || row["path"] == "broken" && row["settlement"] == "threw" && row["label"] == "outcome-unknown"
			}
			if wantRow := tc.name != "error"; got != wantRow {
				t.Errorf("scripts %v (want an outcome-unknown row: %v)", scripts, wantRow)
			}
		})
	}
}

// TestRunTimeoutStopsAPluginInItsWords: a plugin stage that hangs under
// `exec --timeout 1s`, with a bound of its own far past it, files its row
// as stopped by the run's timeout. It said "timed out after 30s", a bound
// that never came; an exec stage stopped the same way said the run's.
func TestRunTimeoutStopsAPluginInItsWords(t *testing.T) {
	t.Parallel()
	pd := pluginDir(t)
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `
version: 1
runbook: hung
stages:
  - id: hang
    timeout: 30s
    plugin: {name: behave, args: {mode: '"hang"'}}
`)
	r := runCLI(t, dir, "exec", chart, "--plugin-dir", pd, "--timeout", "1s", "--format", "json")
	rec := jsonRecord(t, r)
	scripts, _ := rec["scripts"].([]any)
	if len(scripts) != 1 {
		t.Fatalf("scripts %v; stderr %s", scripts, r.stderr)
	}
	row := scripts[0].(map[string]any)
	if row["path"] != "hang" || row["label"] != "outcome-unknown" || row["cause"] != "cancelled when the run timed out" {
		t.Errorf("row %v, want hang outcome-unknown, cancelled when the run timed out", row)
	}
}

// TestResumeKeepsPluginAssumptions: a plugin argument its default filled
// before a pause is still assumed after the resume. The resumed run's
// standing said "Consistent with the run's record" where the same run
// without the pause says "Not sure — maxAge = "24h" was assumed by
// file-age": the runner's memory of the assumption was not in the record.
func TestResumeKeepsPluginAssumptions(t *testing.T) {
	t.Parallel()
	pd := pluginDir(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "watched")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	chart := writeChart(t, dir, "c.yaml", `
version: 1
runbook: fresh-ask
inputs:
  path: {type: string}
result:
  kind: verdict/freshness
  decider: Freshness
stages:
  - id: age
    plugin: {name: file-age, args: {path: path}, into: age}
  - id: ok
    ask: {question: '"go on?"', expects: {go: bool}}
  - id: freshness
    name: Freshness
    decide:
      rules:
        - {when: age.tooOld == true, then: stale, label: Older than the maximum age}
      default: {branch: fresh, label: Modified within the maximum age}
    branches:
      stale: [{id: mark-stale, verdict: {subject: path, verdict: '"stale"'}}]
      fresh: [{id: mark-fresh, verdict: {subject: path, verdict: '"fresh"'}}]
`)
	saved := filepath.Join(dir, "run.json")
	if r := runCLI(t, dir, "exec", chart, "--plugin-dir", pd, "--input", "path="+file, "--record", saved); r.code != 0 {
		t.Fatalf("exec: exit %d\n%s", r.code, r.stderr)
	}
	r := runCLI(t, dir, "resume", saved, "--plugin-dir", pd, "--input", "go=true", "--format", "json")
	a, _ := jsonRecord(t, r)["assessment"].(map[string]any)
	if a["standing"] != "not-sure" || !strings.Contains(fmt.Sprint(a["line"]), `maxAge = "24h" was assumed by file-age`) {
		t.Errorf("resumed standing %v: %v, want not-sure naming maxAge; stderr %s", a["standing"], a["line"], r.stderr)
	}
}

// TestHonestyProcessSameBytes runs every example chart with the honesty
// stages in-process and as a plugin process: the records are the same
// bytes, timings masked. Machine facts are fixed as in TestExamples (a
// stand-in df first on PATH, a captured /proc/net), so a difference can only
// come from where the honesty stages ran.
func TestHonestyProcessSameBytes(t *testing.T) {
	t.Parallel()
	charts, _ := filepath.Glob("../../examples/*/chart.yaml")
	if len(charts) == 0 {
		t.Fatal("no example charts")
	}
	fake, _ := filepath.Abs("testdata/examples/bin")
	procNet, _ := filepath.Abs("testdata/examples/proc-net")
	env := []string{"PATH=" + fake + ":" + os.Getenv("PATH")}
	mask := regexp.MustCompile(`"durationMs": [0-9.e+-]+`)
	for _, c := range charts {
		t.Run(filepath.Base(filepath.Dir(c)), func(t *testing.T) {
			dir, _ := filepath.Abs(filepath.Dir(c))
			// --record keeps a paused run's record out of the source tree.
			rec := filepath.Join(t.TempDir(), "rec.json")
			args := []string{"exec", "chart.yaml", "--format", "json", "--record", rec}
			switch filepath.Base(dir) {
			case "ports":
				args = append(args, "--input", "procNet="+procNet)
			case "linux-60s":
				args = append(args, "--input", "proc="+filepath.Join(filepath.Dir(procNet), "proc"))
			case "nagios":
				// check_swap has no stand-in: its row is not-run, the same both ways.
				args = append(args, "--input", "plugins="+fake)
			case "approval":
				// a folder of its own, not /tmp: the two runs found a
				// different count there when other tests came and went
				args = append(args, "--input", "dir="+oldFiles(t, 3))
			}
			ra := runCLIEnv(t, dir, env, append(args, "--honesty=inprocess")...)
			// A paused record is not written over: the second run's record
			// goes to a file of its own, which its resume command names.
			recB := filepath.Join(t.TempDir(), "rec.json")
			for i := range args {
				if args[i] == rec {
					args[i] = recB
				}
			}
			rb := runCLIEnv(t, dir, env, append(args, "--honesty=plugin")...)
			rb.stdout = strings.ReplaceAll(rb.stdout, recB, rec)
			if ra.code != rb.code {
				t.Fatalf("exit %d in-process, %d as a plugin: %s / %s", ra.code, rb.code, ra.stderr, rb.stderr)
			}
			a, b := mask.ReplaceAllString(ra.stdout, `"durationMs": 0`), mask.ReplaceAllString(rb.stdout, `"durationMs": 0`)
			if a != b {
				t.Fatalf("records differ:\n--- in-process\n%s\n--- plugin\n%s", a, b)
			}
		})
	}
}

// TestInterruptStopsPluginProcesses sends SIGINT to `runbook exec` while a
// stage plugin (with a child of its own) and an exec child run: it exits
// 130 and leaves no process behind.
func TestInterruptStopsPluginProcesses(t *testing.T) {
	t.Parallel()
	pd := pluginDir(t)
	dir := t.TempDir()
	pidfile := filepath.Join(dir, "pids")
	chart := writeChart(t, dir, "c.yaml", fmt.Sprintf(`
version: 1
runbook: busy
stages:
  - id: both
    parallel:
      plug:
        - id: spawn
          plugin: {name: behave, args: {mode: '"spawn"', pidfile: '"%s"'}}
      shell:
        - id: nap
          exec: {command: [sleep, "%s"], timeout: 120s}
`, pidfile, uniqueSleep()))
	cmd, waited, errb := startCLI(t, dir, "exec", chart, "--plugin-dir", pd, "--record", filepath.Join(dir, "rec.json"))
	waitFile(t, pidfile)
	time.Sleep(100 * time.Millisecond)
	procs := descendants(cmd.Process.Pid)
	if len(procs) < 4 { // honesty plugin, behave, its sleep, the exec's sleep
		t.Fatalf("descendants %v", procs)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	var err error
	select {
	case err = <-waited:
	case <-time.After(10 * time.Second):
		t.Fatalf("still running 10s after SIGINT; stderr: %s", errb.String())
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Errorf("exit %v, want 130; stderr: %s", err, errb.String())
	}
	for _, p := range procs {
		if alive(p) {
			t.Errorf("process %d left running after SIGINT", p)
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
	}
}

// TestHostKilledPluginsExit kills `runbook exec` with SIGKILL while a stage
// plugin hangs in a call: every plugin process exits by itself within 2s.
func TestHostKilledPluginsExit(t *testing.T) {
	t.Parallel()
	pd := pluginDir(t)
	dir := t.TempDir()
	pidfile := filepath.Join(dir, "pids")
	chart := writeChart(t, dir, "c.yaml", fmt.Sprintf(`
version: 1
runbook: hung
stages:
  - id: hang
    plugin: {name: behave, args: {mode: '"hang"', pidfile: '"%s"'}}
`, pidfile))
	cmd, waited, _ := startCLI(t, dir, "exec", chart, "--plugin-dir", pd)
	waitFile(t, pidfile)
	procs := descendants(cmd.Process.Pid)
	if len(procs) < 2 { // the honesty plugin and behave
		t.Fatalf("descendants %v", procs)
	}
	_ = cmd.Process.Kill()
	<-waited
	deadline := time.Now().Add(2 * time.Second)
	for _, p := range procs {
		for alive(p) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if alive(p) {
			t.Errorf("plugin process %d still running 2s after its host was killed", p)
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
	}
}

func startCLI(t *testing.T, dir string, args ...string) (*exec.Cmd, chan error, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return cmd, waited, &errb
}

func waitFile(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// descendants lists every process below pid (children, theirs, …).
func descendants(pid int) []int {
	parent := map[int]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := procStat(p); ok {
			parent[p] = st.ppid
		}
	}
	var out []int
	var walk func(int)
	walk = func(of int) {
		for p, pp := range parent {
			if pp == of {
				out = append(out, p)
				walk(p)
			}
		}
	}
	walk(pid)
	return out
}

type stat struct {
	ppid  int
	state byte
}

func procStat(pid int) (stat, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return stat{}, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return stat{}, false
	}
	f := strings.Fields(s[i+2:])
	if len(f) < 2 {
		return stat{}, false
	}
	pp, _ := strconv.Atoi(f[1])
	return stat{ppid: pp, state: f[0][0]}, true
}

// alive: a process that exists and is not a zombie nobody reaped.
func alive(pid int) bool {
	st, ok := procStat(pid)
	return ok && st.state != 'Z'
}

func copyExec(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeExec(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

// The CLI, not the library, names its flags: a plugin not found with no
// plugin directory says how to give one.
func TestIssue12MissingPluginNamesTheCLIFlag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", "version: 1\nrunbook: probe\nstages:\n  - {id: a, plugin: {name: no-such-probe}}\n")
	r := runCLIEnv(t, dir, []string{"RUNBOOK_PLUGIN_DIR="}, "exec", "chart.yaml")
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, `plugin "no-such-probe" not found`) || !strings.Contains(r.stdout+r.stderr, "(--plugin-dir or RUNBOOK_PLUGIN_DIR)") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s\nwant a failure naming --plugin-dir or RUNBOOK_PLUGIN_DIR", r.code, r.stdout, r.stderr)
	}
}

// oldFiles is a new folder holding n files last changed 30 days ago.
func oldFiles(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	old := time.Now().Add(-30 * 24 * time.Hour)
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("f%d", i))
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestPluginFactsFromAPluginThatRunsNoCode: a plugin that declares it runs
// no code (RunsCode false) and answers with the facts of a process that
// exited 2 beside {"healthy": true}. The host dropped the facts: no script
// row, the decider read healthy, and the run stood "Consistent with the
// run's record" over a failure the plugin itself reported. The answer does
// not fit the description, so the stage fails as any garbage answer does.
func TestPluginFactsFromAPluginThatRunsNoCode(t *testing.T) {
	t.Parallel()
	pd := pluginDir(t)
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `
version: 1
runbook: facts
stages:
  - id: probe
    plugin: {name: behave, args: {mode: '"exit2"', n: 1, pidfile: '""'}, into: out}
  - id: d
    decide:
      rules:
        - when: out.healthy == true
          then: good
      default: {branch: other}
    branches:
      good: {stages: [{id: g, set: {verdict: '"healthy"'}}]}
      other: {stages: [{id: o, set: {verdict: '"other"'}}]}
`)
	r := runCLI(t, dir, "exec", chart, "--plugin-dir", pd, "--format", "json")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (the stage fails); stdout %s; stderr %s", r.code, r.stdout, r.stderr)
	}
	rec := jsonRecord(t, r)
	e, _ := rec["error"].(map[string]any)
	msg, _ := e["message"].(string)
	for _, w := range []string{`plugin "behave"`, "exit code 2", "declares it runs no code", "RunsCode"} {
		if !strings.Contains(msg, w) {
			t.Errorf("error %q lacks %q", msg, w)
		}
	}
	if v := rec["state"].(map[string]any)["verdict"]; v != nil {
		t.Errorf("the decider ran over the dropped facts: verdict %v", v)
	}
	a := rec["assessment"].(map[string]any)
	if a["standing"] == "consistent" || a["standing"] == "known" {
		t.Errorf("standing %v over a process the plugin said failed: %v", a["standing"], a["line"])
	}
}

// TestPluginResultThatIsNotUTF8IsRefused: a Go plugin whose result holds a
// string of raw bytes (ff fe). json.Marshal, in the SDK, sent each bad byte
// as U+FFFD without an error, so the record held "\ufffd\ufffd", a value
// the plugin never produced (bytes c0 c1 would have read the same), and
// the chart compared it as the plugin's answer. The call fails instead,
// naming where the string is.
func TestPluginResultThatIsNotUTF8IsRefused(t *testing.T) {
	t.Parallel()
	pd := pluginDir(t)
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `
version: 1
runbook: utf8
stages:
  - id: probe
    plugin: {name: behave, args: {mode: '"badutf8"', n: 1, pidfile: '""'}, into: out}
`)
	r := runCLI(t, dir, "exec", chart, "--plugin-dir", pd, "--format", "json")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (the stage fails); stdout %s; stderr %s", r.code, r.stdout, r.stderr)
	}
	rec := jsonRecord(t, r)
	if out := rec["state"].(map[string]any)["out"]; out != nil {
		t.Errorf("state.out = %q: a value the plugin never sent", out)
	}
	e, _ := rec["error"].(map[string]any)
	msg, _ := e["message"].(string)
	for _, w := range []string{`plugin "behave"`, "result.digest", "not UTF-8"} {
		if !strings.Contains(msg, w) {
			t.Errorf("error %q lacks %q", msg, w)
		}
	}
}

// TestPlanMasksAValueGivenToASensitiveArgument: an input the chart does
// not call secret, passed to a plugin argument the plugin declares
// sensitive, is a secret: a run masks it from the record, the state and
// the log. `runbook plan` printed it in the clear, in its inputs and in
// the stage's args line, in both formats.
func TestPlanMasksAValueGivenToASensitiveArgument(t *testing.T) {
	t.Parallel()
	bin := logargsPlugin(t)
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", fmt.Sprintf(`
version: 1
runbook: plan-sensitive
plugins:
  logargs: {command: %s}
inputs:
  tok: {type: string}
stages:
  - id: call
    plugin: {name: logargs, args: {text: '"hello"', token: tok}}
`, bin))
	for _, format := range []string{"text", "json"} {
		r := runCLI(t, dir, "plan", chart, "--input", "tok=plain-tok-6677", "--format", format)
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s%s", format, r.code, r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, "plain-tok-6677") {
			t.Errorf("%s: the value given to a sensitive argument shows:\n%s%s", format, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stdout, "token=***") || !strings.Contains(r.stdout, "text=hello") {
			t.Errorf("%s: want the args line with token masked and text shown:\n%s", format, r.stdout)
		}
	}
}
