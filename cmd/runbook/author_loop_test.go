package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// authorMemChart reads a meminfo-like file with a real cat and decides
// by two rules over MemAvailable, which `parse: kv` leaves as the text
// "50 kB": neither rule can compare it with a number.
const authorMemChart = `version: 1
runbook: mem
result:
  kind: verdict/mem
stages:
  - id: mi
    exec: {command: [cat, meminfo.txt], parse: kv}
  - id: m
    decide:
      rules:
        - {when: {mi.stdout.MemAvailable: {lt: 100000}}, then: critical, label: low}
        - {when: 'mi.stdout.MemAvailable < 500000', then: warning, label: lowish}
      default: {branch: ok, label: fine}
    branches:
      critical: [{id: c, verdict: {subject: '"mem"', verdict: '"critical"'}}]
      warning: [{id: w, verdict: {subject: '"mem"', verdict: '"warning"'}}]
      ok: [{id: o, verdict: {subject: '"mem"', verdict: '"ok"'}}]
`

// TestNagiosRuleThatCouldNotBeEvaluatedIsNotOk: a check whose deciders
// could not evaluate a rule is UNKNOWN, naming the decider and each rule,
// with no perfdata. Before, a memory check whose "MemAvailable < 100000"
// rules could not compare the text "50 kB" took the default and said
// `mem OK - 1 ok | ok=1;;;0`, exit 0, over a machine nearly out of memory
// (the standing line said Not sure, the check's state did not).
func TestNagiosRuleThatCouldNotBeEvaluatedIsNotOk(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", authorMemChart)
	if err := os.WriteFile(filepath.Join(dir, "meminfo.txt"), []byte("MemTotal: 1000 kB\nMemAvailable: 50 kB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, dir, "exec", "chart.yaml", "-o", "nagios")
	first := strings.SplitN(r.stdout, "\n", 2)[0]
	if r.code != 3 || first != "mem UNKNOWN - 2 rules could not be evaluated (m), 1 ok (1 not judged: mem)" {
		t.Fatalf("exit %d, first line %q; want 3, mem UNKNOWN - 2 rules could not be evaluated (m), 1 ok (1 not judged: mem)\n%s%s", r.code, first, r.stdout, r.stderr)
	}
	for _, want := range []string{
		`UNKNOWN: decider "m" could not evaluate rule 1 ("low") and counted it as no match: its condition on mi.stdout.MemAvailable (lt) could not judge the value it read`,
		`UNKNOWN: decider "m" could not evaluate rule 2 ("lowish") and counted it as no match: mi.stdout.MemAvailable < 500000: a number cannot be ordered with a text`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the long text does not say %q:\n%s", want, r.stdout)
		}
	}
}

// planShadowChart runs echo with argv read from names that an earlier
// stage (or a loop back) writes over: a set: of an input's and a var's
// name, an exec's into named as an input, a foreach whose item is named
// as an input, a subflow's inputs (inline and a mounted chart), a
// subflow's writes joining the chart's scope, and a key a later stage
// writes before a loop goes back.
const planShadowChart = `version: 1
runbook: shadow
inputs:
  user: {type: string, default: root}
  host: {type: string, default: localhost}
  n: {type: number, default: 1}
vars:
  dir: '"/tmp"'
stages:
  - id: plain
    exec: {command: [echo, "${user}", "${dir}", "${host}"]}
  - id: fix
    set: {user: '"nobody"', dir: '"/etc"'}
  - id: who
    exec: {command: [echo, "${user}", "${dir}"]}
  - id: via-env
    exec: {command: [echo, '${$env["user"]}']}
  - id: each
    foreach:
      items: '["a", "b"]'
      as: host
      maxBranches: 5
      stages:
        - id: ping
          exec: {command: [echo, "${host}"]}
  - id: mounted
    subflow: {chart: ./sub.yaml, inputs: {host: '"h-" + host'}}
  - id: inline
    subflow:
      inputs: {u: '"in-" + host'}
      stages:
        - id: inner
          exec: {command: [echo, "${u}"]}
  - id: joined
    subflow:
      stages:
        - {id: s, set: {host: '"from-sub"'}}
  - id: after
    exec: {command: [echo, "${host}"]}
  - id: poll
    exec: {command: [echo, "${n}"]}
  - id: bump
    set: {n: n + 1}
  - id: again
    loop: {to: poll, while: n < 3, max: 5}
`

// TestPlanNeverShowsAnArgvTheRunDoesNotRun: every argv plan prints whole
// (no <from …> part) is the argv the run starts at that stage, in every
// foreach item and loop pass; a name an earlier stage may have written
// over is <from NAME>, and a subflow's inputs are the values it is given.
// Before, plan rendered every input's and var's name as the input: it
// said "id root" where the run ran "echo nobody" after a set:, "echo
// localhost" for a foreach item named host, and "uptime localhost" in a
// subflow given host: '"h-" + host'.
func TestPlanNeverShowsAnArgvTheRunDoesNotRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", planShadowChart)
	writeChart(t, dir, "sub.yaml", "version: 1\nrunbook: sub\ninputs:\n  host: {type: string, required: true}\nstages:\n  - id: up\n    exec: {command: [echo, \"${host}\"]}\n")
	pr := runCLI(t, dir, "plan", "chart.yaml", "-o", "json")
	if pr.code != 0 {
		t.Fatalf("plan: exit %d\n%s%s", pr.code, pr.stdout, pr.stderr)
	}
	var plan struct {
		Stages []struct {
			Path string   `json:"path"`
			Argv []string `json:"argv"`
		} `json:"stages"`
	}
	if err := json.Unmarshal([]byte(pr.stdout), &plan); err != nil {
		t.Fatal(err)
	}
	planned := map[string]string{}
	for _, s := range plan.Stages {
		if s.Argv != nil {
			planned[s.Path] = strings.Join(s.Argv, " ")
		}
	}
	want := map[string]string{
		"plain": "echo root /tmp localhost", "who": "echo <from user> <from dir>", "via-env": `echo <from $env["user"]>`, "each~*/ping": "echo <from host>",
		"mounted/up": "echo h-localhost", "inline/inner": "echo in-localhost", "after": "echo <from host>", "poll": "echo <from n>",
	}
	for path, argv := range want {
		if planned[path] != argv {
			t.Errorf("plan of %s: %q, want %q", path, planned[path], argv)
		}
	}
	er := runCLI(t, dir, "exec", "chart.yaml", "-o", "json")
	var rec struct {
		Status  string `json:"status"`
		Scripts []struct {
			Path string `json:"path"`
			Ran  struct {
				Argv []string `json:"argv"`
			} `json:"ran"`
		} `json:"scripts"`
	}
	if err := json.Unmarshal([]byte(er.stdout), &rec); err != nil || rec.Status != "completed" {
		t.Fatalf("exec: %v, status %q\n%s%s", err, rec.Status, er.stdout, er.stderr)
	}
	item := regexp.MustCompile(`~[0-9]+(/|$)`)
	for _, s := range rec.Scripts {
		path := item.ReplaceAllString(s.Path, "~*$1")
		p, ok := planned[path]
		if !ok {
			t.Errorf("the run ran %s (%q), which plan does not show", s.Path, s.Ran.Argv)
			continue
		}
		if ran := strings.Join(s.Ran.Argv, " "); !strings.Contains(p, "<from ") && p != ran {
			t.Errorf("%s: plan said %q, the run ran %q", s.Path, p, ran)
		}
	}
}

// TestNagiosGlobThatMatchedNothingIsNotOk: a check whose read: glob
// matched no file is UNKNOWN, naming the pattern, with no perfdata: its
// [] is every subject the foreach judges, and a misspelled folder reads
// the same as a host with no logs. Before: `logs OK - no verdict rows`,
// exit 0, for logs/*.log misspelled lgos/*.log, beside a standing line
// that said Not sure. The same chart over the right folder is OK.
func TestNagiosGlobThatMatchedNothingIsNotOk(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "logs", "app.log"), []byte("INFO up\nINFO still up\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	chart := func(glob string) string {
		return `version: 1
runbook: logs
inputs: {}
result: {kind: verdict/log}
stages:
  - id: files
    read: {glob: '"` + glob + `"', parse: lines}
  - id: per
    foreach:
      items: files
      as: f
      maxBranches: 10
      stages:
        - id: n
          set: {errors: 'len(filter(f.content, {# contains "ERROR"}))'}
        - id: d
          decide:
            rules: [{when: errors > 0, then: critical, label: errors logged}]
            default: {branch: ok, label: clean}
          branches:
            critical: [{id: c, verdict: {subject: f.path, verdict: '"critical"'}}]
            ok: [{id: o, verdict: {subject: f.path, verdict: '"ok"'}}]
`
	}
	writeChart(t, dir, "typo.yaml", chart("lgos/*.log"))
	writeChart(t, dir, "right.yaml", chart("logs/*.log"))
	r := runCLI(t, dir, "exec", "typo.yaml", "-o", "nagios")
	lines := strings.Split(r.stdout, "\n")
	if r.code != 3 || lines[0] != "logs UNKNOWN - 1 stage did not check everything (files), no verdict rows" ||
		lines[1] != `UNKNOWN: files did not check files matching "lgos/*.log": there is none, and a misspelled path reads the same as a host with nothing there` {
		t.Errorf("misspelled glob: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, dir, "exec", "right.yaml", "-o", "nagios"); r.code != 0 || !strings.HasPrefix(r.stdout, "logs OK - 1 ok | ok=1;;;0\n") {
		t.Errorf("the right glob: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestTestRunThatMatchesNoCaseFails: `runbook test --run REGEX` that
// matches no case exits 1, saying nothing was tested; one that matches
// runs it. Before, a misspelled --run printed "0 passed, 0 failed" and
// exited 0: a green gate over no test at all.
func TestTestRunThatMatchesNoCaseFails(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", "version: 1\nrunbook: one\nresult: {kind: verdict/x}\nstages:\n  - id: v\n    verdict: {subject: '\"a\"', verdict: '\"ok\"'}\n")
	writeChart(t, dir, "one_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n  - name: fine\n    expect: {verdicts: [{subject: a, verdict: ok}]}\n")
	r := runCLI(t, dir, "test", "--run", "fien")
	if r.code != 1 || !strings.Contains(r.stderr, `runbook: --run "fien" matches no case of the test file: nothing was tested`) {
		t.Errorf("--run fien: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, dir, "test", "--run", "fine"); r.code != 0 || !strings.Contains(r.stdout, "1 passed, 0 failed") {
		t.Errorf("--run fine: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	empty := t.TempDir()
	if r := runCLI(t, empty, "test"); r.code != 2 || !strings.Contains(r.stderr, "no test files (*_test.yaml) in .\n") {
		t.Errorf("no test files: exit %d, stderr %q; want the folder named", r.code, r.stderr)
	}
}

// TestTestGivenAChartSaysSo: a chart given to `runbook test` is refused in
// one line that says where its tests go, as a test file given to exec is.
// Before: an unknown-key error for each of the chart's keys and "a test
// file needs chart: FILE".
func TestTestGivenAChartSaysSo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", "version: 1\nrunbook: one\nstages:\n  - id: s\n    set: {a: 1}\n")
	r := runCLI(t, dir, "test", "chart.yaml")
	want := "chart.yaml:1:1: this is a chart, not a test file: its tests go in a file named *_test.yaml beside it, with chart: chart.yaml and cases: (runbook init writes one); runbook test DIR finds them\n"
	if r.code != 2 || r.stderr != want {
		t.Errorf("exit %d, stderr %q; want 2, %q", r.code, r.stderr, want)
	}
}

// TestInitStarterIsACheck: the starter `runbook init` writes maps its
// verdict words to check states, so `-o nagios` on it says OK or
// WARNING by the machine's load, never UNKNOWN for a word nothing maps;
// and its test holds the argv it runs. Before, the starter's check was
// UNKNOWN on every machine ("verdict calm has no check state").
func TestInitStarterIsACheck(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "mycheck")
	if r := runCLI(t, filepath.Dir(dir), "init", dir); r.code != 0 {
		t.Fatalf("init: exit %d\n%s", r.code, r.stderr)
	}
	r := runCLI(t, dir, "exec", "chart.yaml", "-o", "nagios")
	if (r.code != 0 && r.code != 1) || strings.Contains(r.stdout, "has no check state") ||
		!(strings.HasPrefix(r.stdout, "load OK - 1 calm (") || strings.HasPrefix(r.stdout, "load OK - 1 calm |") || strings.HasPrefix(r.stdout, "load WARNING - 1 busy (this machine) |")) {
		t.Errorf("the starter as a check: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	test, err := os.ReadFile(filepath.Join(dir, "chart_test.yaml"))
	if err != nil || !strings.Contains(string(test), "argv: [nproc]") {
		t.Errorf("the starter's test does not hold its argv:\n%s", test)
	}
}

// TestNagiosFailedAnswerCheckIsNotOk: a check whose answer check did not
// pass is UNKNOWN, saying so, with no perfdata; the same chart whose
// check passes is OK. Before: a chart declaring that every line of its
// listing has a row, whose foreach left one out, said
// `lines OK - 2 ok | ok=2;;;0`, exit 0, under a standing line that said
// the check did not pass.
func TestNagiosFailedAnswerCheckIsNotOk(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := func(skip string) string {
		return `version: 1
runbook: lines
result:
  kind: verdict/line
  checks: ['len(verdicts) == len(ls.stdout)']
stages:
  - id: ls
    exec: {command: [printf, 'a\nb\nc\n'], parse: lines}
  - id: per
    foreach:
      items: 'filter(ls.stdout, {# != "` + skip + `"})'
      as: l
      maxBranches: 10
      stages:
        - id: v
          verdict: {subject: l, verdict: '"ok"'}
`
	}
	writeChart(t, dir, "drops.yaml", chart("b"))
	writeChart(t, dir, "all.yaml", chart("none"))
	r := runCLI(t, dir, "exec", "drops.yaml", "-o", "nagios")
	if r.code != 3 || !strings.HasPrefix(r.stdout, "lines UNKNOWN - an answer check did not pass, 2 ok\n") ||
		!strings.Contains(r.stdout, "UNKNOWN: an answer check the chart declares (result.checks) did not pass") {
		t.Errorf("a check that did not pass: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, dir, "exec", "all.yaml", "-o", "nagios"); r.code != 0 || !strings.HasPrefix(r.stdout, "lines OK - 3 ok | ok=3;;;0\n") {
		t.Errorf("a check that passed: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestTestSummarySaysAFileThatDidNotLoad: a folder with one test file
// whose chart does not load (a YAML error) printed the error on stderr
// and then "1 passed, 0 failed" on stdout, and its JUnit and JSON reports
// held the passing file alone: a CI page that reads the report, or a log
// read from its last line, showed every test green over a chart nobody
// tested. Exit 2 was right; the summary and the reports now say the file
// did not load.
func TestTestSummarySaysAFileThatDidNotLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, d := range []string{"good", "bad"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeChart(t, dir, "good/chart.yaml", "version: 1\nrunbook: one\nresult: {kind: verdict/x}\nstages:\n  - id: v\n    verdict: {subject: '\"a\"', verdict: '\"ok\"'}\n")
	writeChart(t, dir, "good/one_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n  - name: fine\n    expect: {verdicts: [{subject: a, verdict: ok}]}\n")
	writeChart(t, dir, "bad/chart.yaml", "version: 1\nrunbook: two\nresult: {kind: verdict/x}\nstages:\n  - id: v\n    verdict: {subject: a[0], verdict: '\"ok\"'}\n")
	writeChart(t, dir, "bad/two_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n  - name: fine\n    expect: {verdicts: [{subject: a, verdict: ok}]}\n")
	r := runCLI(t, dir, "test", ".")
	if r.code != 2 || !strings.Contains(r.stdout, "1 passed, 0 failed, 1 test file did not load, its cases not run (bad/two_test.yaml)") {
		t.Errorf("text: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, dir, "test", ".", "-o", "json")
	if r.code != 2 || !strings.Contains(r.stdout, `"notLoaded":[{"file":"bad/two_test.yaml","errors":["bad/chart.yaml:6:25: the file is not valid YAML`) {
		t.Errorf("json: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, dir, "test", ".", "-o", "junit")
	if r.code != 2 || !strings.Contains(r.stdout, `<testsuites name="runbook test" tests="2" failures="0" errors="1"`) ||
		!strings.Contains(r.stdout, `<error message="the test file did not load: none of its cases ran" type="load">bad/chart.yaml:6:25`) {
		t.Errorf("junit: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
