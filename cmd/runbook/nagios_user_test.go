package main

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/internal/parse"
)

// nagiosUserChart wraps a real monitoring plugin the way a Nagios user
// replacing check_disk would: the plugin's exit code is its answer.
const nagiosUserChart = `
version: 1
runbook: users
inputs:
  warn: {type: number, default: 5}
result: {kind: verdict/users}
stages:
  - id: u
    exec: {command: [sh, -c, 'echo "USERS OK - 0 users currently logged in |users=0;5;10;0"'], exitCodes: nagios, parse: nagios}
  - id: v
    verdict: {subject: '"users"', verdict: u.status}
`

// TestNagiosRefusedCommandLineIsUnknown: under --format nagios a command
// line runbook refuses before it judges anything (a chart with one typo,
// a chart file that is not there, a bad input, a --timeout in Nagios'
// own seconds, a flag it does not know) exited 2 with nothing on stdout.
// Nagios reads 2 as CRITICAL: the service was paged as critical, and its
// output was "(No output on stdout)". The plugin API says invalid
// arguments are UNKNOWN: exit 3, with a status line that says why.
func TestNagiosRefusedCommandLineIsUnknown(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", nagiosUserChart)
	writeChart(t, dir, "typo.yaml", strings.Replace(nagiosUserChart, "exitCodes: nagios", "exitCode: nagios", 1))
	cases := []struct {
		name string
		args []string
		want string // in the status line and on stderr
	}{
		{"typo", []string{"exec", "typo.yaml", "--format", "nagios"}, `unknown key "exitCode"`},
		{"no-chart", []string{"exec", "nope.yaml", "-o", "nagios"}, "nope.yaml: chart cannot be read"},
		{"bad-input", []string{"exec", "chart.yaml", "-o=nagios", "--input", "warn=five"}, `input "warn"`},
		{"timeout-without-unit", []string{"exec", "chart.yaml", "--timeout", "10", "--format=nagios"}, `missing unit in duration "10"`},
		{"unknown-flag", []string{"exec", "chart.yaml", "--warn", "5", "-onagios"}, "unknown flag: --warn"},
		{"fail-on", []string{"exec", "chart.yaml", "-o", "nagios", "--fail-on", "ask"}, "--fail-on with --format nagios"},
		{"resume-no-record", []string{"resume", "nope.json", "-o", "nagios", "--input", "a=b"}, "nope.json"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := runCLI(t, dir, tc.args...)
			lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
			if r.code != 3 || !strings.HasPrefix(lines[0], "runbook UNKNOWN - ") || !strings.Contains(lines[0], tc.want) || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, want 3 (UNKNOWN)\nstdout %q\nstderr %s\nwant a first line \"runbook UNKNOWN - …%s…\"", r.code, r.stdout, r.stderr, tc.want)
			}
			if strings.Contains(r.stdout, "|") {
				t.Errorf("stdout %q holds a \"|\": Nagios would read what follows as perfdata", r.stdout)
			}
		})
	}
	// Outside the nagios format the contract is unchanged: exit 2, stdout empty.
	for _, format := range []string{"text", "json"} {
		r := runCLI(t, dir, "exec", "typo.yaml", "--format", format)
		if r.code != 2 || r.stdout != "" {
			t.Errorf("--format %s: exit %d stdout %q, want 2 and nothing", format, r.code, r.stdout)
		}
	}
	// A check that ran is untouched by this: its state is its exit code.
	if r := runCLI(t, dir, "exec", "chart.yaml", "-o", "nagios"); r.code != 0 || !strings.HasPrefix(r.stdout, "users OK - 1 ok | ok=1;;;0\n") {
		t.Errorf("a check that ran: exit %d stdout %q", r.code, r.stdout)
	}
}

// TestNagiosPerfdataLabelsParse: every verdict word's perfdata item is
// one Nagios reads back (checked with parse: nagios, which reads the
// plugin API's grammar). An empty verdict word, which the table shows as
// "—", was written as the item "=1;;;0": a label-less item that graphing
// add-ons drop or choke on, and the summary said "1  (s)".
func TestNagiosPerfdataLabelsParse(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", `
version: 1
runbook: words
inputs:
  w: {type: string}
result: {kind: verdict/x}
stages:
  - id: v
    verdict: {subject: '"s"', verdict: w}
`)
	// (A word of spaces, or with spaces around it, is refused at its
	// stage: TestVerdictWordWithALineEndIsRefused.)
	for _, w := range []string{"", "a b", "it's", "a=b", "a|b", "a;b", "x\ny", "'", "ok"} {
		r := runCLI(t, dir, "exec", "chart.yaml", "-o", "nagios", "--input", "w="+w)
		first, _, _ := strings.Cut(r.stdout, "\n")
		_, perf, ok := strings.Cut(first, "|")
		if !ok {
			t.Errorf("word %q: no perfdata in %q", w, first)
			continue
		}
		res, err := parse.Parse(first, parse.Spec{Mode: "nagios"})
		if err != nil || res.Problems != 0 {
			t.Errorf("word %q: perfdata %q does not parse: %v %s", w, perf, err, res.FirstProblem)
			continue
		}
		items, _ := res.Value.(map[string]any)["perfdata"].([]any)
		if len(items) != 1 || fmt.Sprint(items[0].(map[string]any)["value"]) != "1" {
			t.Errorf("word %q: perfdata %q read as %v, want one item of value 1", w, perf, items)
		}
	}
	r := runCLI(t, dir, "exec", "chart.yaml", "-o", "nagios", "--input", "w=")
	if want := "words UNKNOWN - 1 — (s) | —=1;;;0\nUNKNOWN s: —\nUNKNOWN: verdict — has no check state"; !strings.HasPrefix(r.stdout, want) {
		t.Errorf("an empty verdict word: stdout %q, want it to begin %q (the table's cell for it)", r.stdout, want)
	}
}

// TestNagiosRealPluginsThroughACheck runs the Debian monitoring plugins
// (monitoring-plugins-basic) through exec stages and --format nagios:
// each plugin's own exit code is the row's state, and the check's exit
// is the worst (skipped where the plugins are not installed).
func TestNagiosRealPluginsThroughACheck(t *testing.T) {
	t.Parallel()
	const dummy = "/usr/lib/nagios/plugins/check_dummy"
	if _, err := exec.LookPath(dummy); err != nil {
		t.Skip("monitoring-plugins-basic is not installed")
	}
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", `
version: 1
runbook: real
inputs:
  states: {type: list}
result: {kind: verdict/plugin}
stages:
  - id: each
    foreach:
      items: states
      as: s
      maxBranches: 10
      stages:
        - id: run
          exec: {command: [`+dummy+`, "${s}", "said ${s}"], exitCodes: nagios, parse: nagios}
        - id: row
          verdict: {subject: '"dummy " + string(s)', verdict: run.status, text: run.stdout.status}
`)
	cases := []struct {
		states string
		code   int
		first  string
	}{
		{"[0, 0]", 0, "real OK - 2 ok | ok=2;;;0"},
		{"[0, 1]", 1, "real WARNING - 1 warning (dummy 1), 1 ok | warning=1;;;0 ok=1;;;0"},
		{"[1, 2, 0]", 2, "real CRITICAL - 1 critical (dummy 2), 1 warning, 1 ok | critical=1;;;0 warning=1;;;0 ok=1;;;0"},
		// check_dummy 3 answers UNKNOWN: an answer that checked nothing.
		{"[0, 3]", 3, "real UNKNOWN - 1 script gave no answer (each~1/run), 1 unknown (dummy 3), 1 ok"},
		// check_dummy 4 is no state: the plugin itself says UNKNOWN.
		{"[0, 4]", 3, "real UNKNOWN - 1 script gave no answer (each~1/run), 1 unknown (dummy 4), 1 ok"},
	}
	for _, tc := range cases {
		r := runCLI(t, dir, "exec", "chart.yaml", "-o", "nagios", "--input", "states="+tc.states)
		first, _, _ := strings.Cut(r.stdout, "\n")
		if r.code != tc.code || !strings.HasPrefix(first, tc.first) {
			t.Errorf("states %s: exit %d first line %q\nwant exit %d and %q\nstdout %s\nstderr %s", tc.states, r.code, first, tc.code, tc.first, r.stdout, r.stderr)
		}
		if lines := strings.Split(r.stdout, "\n"); slices.ContainsFunc(lines[1:], func(l string) bool { return strings.Contains(l, "|") }) {
			t.Errorf("states %s: a long-text line holds \"|\": %q", tc.states, r.stdout)
		}
	}
}

// TestNagiosStatusLineFirstOnMergedStreams: Icinga 2 and Sensu read a
// check's stderr and stdout as one text, and its first line is the
// status line. A refused check wrote its error on stderr before its
// status line on stdout, and a run wrote a stage plugin's stderr as it
// came, so the first line Icinga showed was the error, not the state.
// A check's stderr is now held until its stdout is written.
func TestNagiosStatusLineFirstOnMergedStreams(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "typo.yaml", strings.Replace(nagiosUserChart, "exitCodes: nagios", "exitCode: nagios", 1))
	writeChart(t, dir, "broken.yaml", strings.Replace(nagiosUserChart, "verdict: u.status", "verdict: u.stdout.stauts", 1))
	writeChart(t, dir, "unread.yaml", strings.Replace(nagiosUserChart, "users=0;5;10;0", "users=0,5;5;10;0", 1))
	cases := []struct {
		args  []string
		code  int
		first string
		later string // a stderr line that comes after it
	}{
		{[]string{"exec", "typo.yaml", "-o", "nagios"}, 3, `runbook UNKNOWN - typo.yaml:`, `unknown key "exitCode"`},
		{[]string{"exec", "chart.yaml", "-o", "nagios", "--timeout", "5"}, 3, `runbook UNKNOWN - invalid argument "5" for "--timeout" flag`, "Run 'runbook exec --help' for usage."},
		{[]string{"exec", "broken.yaml", "-o", "nagios"}, 3, "users UNKNOWN - the run failed at v", "run failed at v"},
		{[]string{"exec", "unread.yaml", "-o", "nagios"}, 3, "users UNKNOWN - 1 stage did not check everything (u), 1 ok", "runbook: warning: stage u: parse: nagios could not read 1 line"},
	}
	for _, tc := range cases {
		var both strings.Builder
		cmd := exec.Command(binary, tc.args...)
		cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &both, &both
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		out := both.String()
		if code != tc.code || !strings.HasPrefix(out, tc.first) || !strings.Contains(out, tc.later) {
			t.Errorf("%v: exit %d, stdout and stderr as one:\n%s\nwant exit %d, first %q, and later %q", tc.args, code, out, tc.code, tc.first, tc.later)
		}
	}
}

// TestNagiosPeriodNotHeldIsNotOk: a log scan asked about two hours whose
// journal held the last thirty minutes (its coverage declaration's period
// partly-held) found no error in what it read; the check said "logs OK -
// 1 ok", exit 0, under a standing line saying the period was held only in
// part. The ninety minutes it never saw are unjudged: UNKNOWN, no perfdata;
// and the row, whose decision read the scan, is no OK row of its own
// (TestRowRestingOnARootStageItReadIsNotJudged).
func TestNagiosPeriodNotHeldIsNotOk(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := `
version: 1
runbook: logs
result: {kind: verdict/log}
stages:
  - id: scan
    exec:
      command: [printf, '{"af_coverage": {"checked": ["journal"], "period": {"queried": {"from": "2026-12-06T10:00:00Z", "to": "2026-12-06T12:00:00Z"}, "held": {"from": "HELD", "to": "2026-12-06T12:00:00Z"}}}, "result": {"errors": 0}}']
      parse: json
  - id: errors
    decide:
      rules:
        - {when: 'scan.stdout.result.errors > 0', then: bad, label: errors logged}
      default: {branch: fine, label: no errors}
    branches:
      bad: [{id: b, verdict: {subject: '"journal"', verdict: '"critical"'}}]
      fine: [{id: f, verdict: {subject: '"journal"', verdict: '"ok"'}}]
`
	writeChart(t, dir, "part.yaml", strings.Replace(chart, "HELD", "2026-12-06T11:30:00Z", 1))
	writeChart(t, dir, "whole.yaml", strings.Replace(chart, "HELD", "2026-12-06T09:00:00Z", 1))
	r := runCLI(t, dir, "exec", "part.yaml", "-o", "nagios")
	want := "logs UNKNOWN - 1 stage did not check everything (scan), 1 ok (1 not judged: journal)\n" +
		"UNKNOWN journal: ok (not judged: scan did not check the period it was asked about (2026-12-06T10:00:00Z to 2026-12-06T12:00:00Z))\n" +
		"UNKNOWN: scan did not check the period it was asked about (2026-12-06T10:00:00Z to 2026-12-06T12:00:00Z): its source held only part of it (2026-12-06T11:30:00Z to 2026-12-06T12:00:00Z)\n"
	if r.code != 3 || !strings.HasPrefix(r.stdout, want) {
		t.Errorf("partly held: exit %d\n%s\nwant exit 3 and\n%s", r.code, r.stdout, want)
	}
	if r := runCLI(t, dir, "exec", "whole.yaml", "-o", "nagios"); r.code != 0 || !strings.HasPrefix(r.stdout, "logs OK - 1 ok | ok=1;;;0\n") {
		t.Errorf("held whole: exit %d\n%s", r.code, r.stdout)
	}
}

// TestNagiosSilentPluginIsNotOk: a plugin wrapped with exitCodes: nagios
// and parse: nagios that exited 0 and printed nothing — a wrapper whose
// plugin never ran, its output sent to /dev/null — said "silent OK - 1
// ok", exit 0, and the standing was Consistent: the plugin API's one
// required output, the status line, was not there to stand on. It is
// UNKNOWN now, and so is a perfdata value "Up", which was read as the
// API's U ("could not be determined") with the unit "p".
func TestNagiosSilentPluginIsNotOk(t *testing.T) {
	t.Parallel()
	const chart = `
version: 1
runbook: silent
result: {kind: verdict/plugin}
stages:
  - id: p
    exec: {shell: %q, exitCodes: nagios, parse: nagios}
  - id: row
    verdict: {subject: '"p"', verdict: p.status}
`
	cases := []struct {
		name, shell, first, long string
	}{
		{"nothing", "true", "silent UNKNOWN - 1 stage did not check everything (p), 1 ok (1 not judged: p)", "no status line: the plugin printed nothing"},
		{"blank", "echo '  '", "silent UNKNOWN - 1 stage did not check everything (p), 1 ok (1 not judged: p)", "no status line: the plugin printed nothing"},
		{"stderr only", "echo 'check_x: cannot open /proc/loadavg' >&2", "silent UNKNOWN - 1 stage did not check everything (p), 1 ok (1 not judged: p)", "no status line: the plugin printed nothing"},
		{"U with a unit", "echo 'LINK OK | link=Up'", "silent UNKNOWN - 1 stage did not check everything (p), 1 ok (1 not judged: p)", `perfdata value "Up" is not a number with a unit, nor U alone`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sub := t.TempDir()
			writeChart(t, sub, "chart.yaml", fmt.Sprintf(chart, tc.shell))
			r := runCLI(t, sub, "exec", "chart.yaml", "-o", "nagios")
			first, _, _ := strings.Cut(r.stdout, "\n")
			if r.code != 3 || first != tc.first || !strings.Contains(r.stdout, "UNKNOWN: p did not check") || !strings.Contains(r.stdout, tc.long) {
				t.Errorf("exit %d, first line %q\nwant exit 3 and %q, a long line naming %q\nstdout %s\nstderr %s", r.code, first, tc.first, tc.long, r.stdout, r.stderr)
			}
			if n := strings.Count(r.stdout, "UNKNOWN: p did not check"); n != 1 {
				t.Errorf("%d lines say p did not check, want 1 (one cause, said once)\n%s", n, r.stdout)
			}
		})
	}
}

// TestNagiosTimedOutPluginSaysItsCauseOnce: a plugin that timed out or was
// killed printed nothing because it ended so; its script row says that,
// and its blank output is no second cause ("no status line") leading the
// standing line before the real one.
func TestNagiosTimedOutPluginSaysItsCauseOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", `
version: 1
runbook: slow
result: {kind: verdict/plugin}
stages:
  - id: p
    exec: {shell: 'sleep 30', timeout: 300ms, exitCodes: nagios, parse: nagios}
  - id: k
    exec: {shell: 'kill -9 $$', exitCodes: nagios, parse: json}
  - id: row
    verdict: {subject: '"p"', verdict: p.status ?? "unknown"}
`)
	r := runCLI(t, dir, "exec", "chart.yaml", "-o", "nagios")
	first, _, _ := strings.Cut(r.stdout, "\n")
	if r.code != 3 || first != "slow UNKNOWN - 2 scripts gave no answer (p, k), 1 unknown (p)" {
		t.Errorf("exit %d, first line %q, want 3 and 2 scripts that gave no answer\nstdout %s\nstderr %s", r.code, first, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "did not check") || strings.Contains(r.stderr, "could not read") {
		t.Errorf("the blank output of a plugin that timed out or was killed is filed as a parse problem too\nstdout %s\nstderr %s", r.stdout, r.stderr)
	}
}

// TestNagiosStateWordMappedToAnotherStateIsRefused: the words ok,
// warning, critical and unknown are their own check state, yet
// result.nagios {ok: [critical]} was taken, and a row reading "critical"
// was shown "OK b: critical" in a check that exited 1 for another row's
// warning. Such a map is refused at load, where the word is written.
func TestNagiosStateWordMappedToAnotherStateIsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", `
version: 1
runbook: map
result:
  kind: verdict/plugin
  nagios: {warning: [full], ok: [critical]}
stages:
  - id: a
    verdict: {subject: '"a"', verdict: '"full"'}
  - id: b
    verdict: {subject: '"b"', verdict: '"critical"'}
`)
	r := runCLI(t, dir, "exec", "chart.yaml", "-o", "nagios")
	const want = `chart.yaml:5:34: result nagios lists verdict "critical" under ok, but "critical" is a check state of its own (CRITICAL): a row reading critical would be shown as OK`
	if r.code != 3 || !strings.HasPrefix(r.stdout, "runbook UNKNOWN - "+want) || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d\nstdout %s\nstderr %s\nwant 3 and %q", r.code, r.stdout, r.stderr, want)
	}
	// Its own word under its own state stays allowed.
	writeChart(t, dir, "same.yaml", `
version: 1
runbook: map
result:
  kind: verdict/plugin
  nagios: {warning: [full], critical: [critical]}
stages:
  - id: a
    verdict: {subject: '"a"', verdict: '"full"'}
`)
	if r := runCLI(t, dir, "exec", "same.yaml", "-o", "nagios"); r.code != 1 {
		t.Errorf("critical: [critical]: exit %d, want 1 (the full row's WARNING)\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// TestNagiosUpperCaseStateWordIsItsState: a Nagios user writes the
// verdict "CRITICAL"; it was a word nothing mapped, UNKNOWN, so beside a
// row mapped to warning the check exited 1, WARNING, over a row that read
// CRITICAL. A state word is its state in any case; listed under another
// state in any case it is refused, as the lower-case word is.
func TestNagiosUpperCaseStateWordIsItsState(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", `
version: 1
runbook: upper
result:
  kind: verdict/plugin
  nagios: {warning: [full]}
stages:
  - id: a
    verdict: {subject: '"a"', verdict: '"full"'}
  - id: b
    verdict: {subject: '"b"', verdict: '"CRITICAL"'}
`)
	r := runCLI(t, dir, "exec", "chart.yaml", "-o", "nagios")
	if r.code != 2 || !strings.HasPrefix(r.stdout, "upper CRITICAL - ") || !strings.Contains(r.stdout, "CRITICAL b: CRITICAL") {
		t.Errorf("exit %d, want 2 and the CRITICAL row as CRITICAL\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	writeChart(t, dir, "hidden.yaml", `
version: 1
runbook: upper
result:
  kind: verdict/plugin
  nagios: {ok: [CRITICAL]}
stages:
  - id: b
    verdict: {subject: '"b"', verdict: '"CRITICAL"'}
`)
	if r := runCLI(t, dir, "exec", "hidden.yaml", "-o", "nagios"); r.code != 3 || !strings.Contains(r.stderr, `result nagios lists verdict "CRITICAL" under ok`) {
		t.Errorf("{ok: [CRITICAL]}: exit %d, want 3 and the map refused\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// TestNagiosSaysWhyAScriptGaveNoAnswer: a firewall check run as a user,
// nft exiting 1 with "Operation not permitted (you must be root)" on
// stderr, said `UNKNOWN: script nft completed with failure, exit 1: the
// rows rest on no answer of it` and no word of why; a monitoring console
// shows that line alone (the text output's Scripts part shows the
// stderr). The line now quotes the last line the script wrote on
// stderr, masked as the record masks it: a secret it echoed is not
// there.
func TestNagiosSaysWhyAScriptGaveNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", `
version: 1
runbook: inbound
inputs:
  token: {type: string, secret: true, default: s3cr3t-t0ken}
result: {kind: verdict/inbound}
stages:
  - id: nft
    exec:
      shell: 'echo "Operation not permitted (you must be root)" >&2; echo "netlink: Error: cache initialization failed (token $TOKEN)" >&2; exit 1'
      envFrom: {TOKEN: token}
      parse: json
  - id: v
    verdict: {subject: '"ipv4"', verdict: 'nft.ok ? "ok" : "unread"'}
`)
	r := runCLI(t, dir, "exec", "chart.yaml", "-o", "nagios")
	want := `UNKNOWN: script nft completed with failure, exit 1: the rows rest on no answer of it; its stderr's last line: "netlink: Error: cache initialization failed (token ***)"`
	if r.code != 3 || !strings.Contains(r.stdout, want+"\n") {
		t.Fatalf("exit %d; want 3 and the line %q:\n%s%s", r.code, want, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, "s3cr3t") {
		t.Fatalf("the secret reached the output:\n%s%s", r.stdout, r.stderr)
	}
	// sshd -T as a user exits 1 with nothing on stdout, and the run
	// failed at the set: that read it, the summary naming that read alone
	writeChart(t, dir, "failed.yaml", `
version: 1
runbook: sshd
result: {kind: verdict/sshd}
stages:
  - id: sshd
    exec:
      shell: 'echo "sshd: no hostkeys available -- exiting." >&2; exit 1'
      parse: {as: regex, pattern: '^(?P<key>\S+) (?P<value>.*)$'}
  - id: conf
    set: {root: 'groupBy(sshd.stdout, .key)["permitrootlogin"][0].value'}
  - id: v
    verdict: {subject: '"permitrootlogin"', verdict: 'root == "no" ? "pass" : "fail"'}
`)
	r = runCLI(t, dir, "exec", "failed.yaml", "-o", "nagios")
	want = `script sshd completed with failure, exit 1, before the run failed (the failure may rest on what it did not say); its stderr's last line: "sshd: no hostkeys available -- exiting."`
	if r.code != 3 || !strings.HasPrefix(r.stdout, "sshd UNKNOWN - the run failed at conf: ") || !strings.Contains(r.stdout, "\n"+want+"\n") {
		t.Fatalf("exit %d; want 3, the run failed at conf, and the line %q:\n%s%s", r.code, want, r.stdout, r.stderr)
	}
}
