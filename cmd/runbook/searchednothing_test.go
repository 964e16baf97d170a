package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPgrepLongNameIsNoAnswerOfMissing: pgrep matches a process's name,
// which the kernel cuts to 15 bytes, so `pgrep -x systemd-journald` (16)
// matches nothing, says on stderr that it will result in zero matches and
// exits 1, its code for no process found. Under `exitCodes: {0: running,
// 1: missing}` a check of the required processes said `CRITICAL
// systemd-journald: missing`, Consistent, over a journald that was
// running. The warning is a not-checked item now (kind searched-nothing): Not
// sure, the check's UNKNOWN line saying why its row rests on no answer
// (the row's CRITICAL still outranks it); pgrep's plain exit 1, nothing
// on stderr, is still the answer missing, Consistent
// (testdata/wave-procs/required).
func TestPgrepLongNameIsNoAnswerOfMissing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stderr string
		standing     string
	}{
		{"long name", `pgrep: pattern that searches for process name longer than 15 characters will result in zero matches\nTry ` + "`" + `pgrep -f'"'"' option to match against the complete command line.\n`, `Not sure — stage "pg" did not check its answer (it said on stderr that what it was asked to look for can match nothing though it exited 1, which the chart declares the answer "missing"`},
		{"not running", ``, "Consistent with the run's record"},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: required
result: {kind: verdict/process, decider: Running, nagios: {ok: [running], critical: [missing]}}
stages:
  - id: pg
    exec:
      exitCodes: {0: running, 1: missing}
      shell: |
        printf '`+tc.stderr+`' >&2
        exit 1
  - id: running
    name: Running
    decide:
      rules:
        - {when: 'pg.status == "missing"', then: missing, label: no process of that name}
      default: {branch: running, label: pgrep found it}
    branches:
      missing: [{id: m, verdict: {subject: '"systemd-journald"', verdict: '"missing"'}}]
      running: [{id: r, verdict: {subject: '"systemd-journald"', verdict: '"running"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if r.code != 2 || !strings.Contains(r.stdout, "\n"+tc.standing) {
			t.Errorf("%s: exit %d; want 2 and the standing %s:\n%s", tc.name, r.code, tc.standing, r.stdout)
		}
		if tc.stderr != "" && !strings.Contains(r.stdout, "UNKNOWN: pg did not check its answer") {
			t.Errorf("%s: want the check to say why its row rests on no answer:\n%s", tc.name, r.stdout)
		}
	}
}

// TestJournalNotReadIsNoAnswerOfNone: journalctl over no journal it can
// read (none kept on the host, or none this user may open) says so on
// stderr, prints `-- No entries --` and exits 1 under --grep, as over a
// journal with no such entry (0 without it). A check of OOM kills,
// `journalctl -k -g "Out of memory"` under `exitCodes: {0: found, 1:
// none}`, said `OK kernel: none`, Consistent, over kernel messages nobody
// read; so did the same over exit 0 with a rule over the lines. Its words
// are a not-checked item now (kind searched-nothing): Not sure, UNKNOWN; a
// journal with no such entry, nothing on stderr, is still none, OK
// (testdata/wave-procs/oom).
func TestJournalNotReadIsNoAnswerOfNone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stderr, exit string
		want               int
	}{
		{"no journal, grep", `No journal files were found.\n`, "1", 3},
		{"no journal, no grep", `No journal files were found.\n`, "0", 3},
		{"not permitted", `No journal files were opened due to insufficient permissions.\n`, "1", 3},
		{"no such entry", ``, "1", 0},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(strings.ReplaceAll(tc.name, " ", "-"), ",", "")+".yaml", `version: 1
runbook: oom
result: {kind: verdict/oom, decider: OOM, nagios: {ok: [none], critical: [oom-killed]}}
stages:
  - id: j
    exec:
      exitCodes: {0: found, 1: none}
      parse: lines
      shell: |
        printf '`+tc.stderr+`' >&2
        echo '-- No entries --'
        exit `+tc.exit+`
  - id: oom
    name: OOM
    decide:
      rules:
        - {when: 'any(j.stdout, # contains "Out of memory")', then: oom-killed, label: the kernel killed a process for memory}
      default: {branch: none, label: no OOM kill logged}
    branches:
      oom-killed: [{id: k, verdict: {subject: '"kernel"', verdict: '"oom-killed"'}}]
      none: [{id: n, verdict: {subject: '"kernel"', verdict: '"none"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if r.code != tc.want {
			t.Errorf("%s: exit %d; want %d:\n%s", tc.name, r.code, tc.want, r.stdout)
		}
		if tc.want == 3 && !strings.Contains(r.stdout, `Not sure — stage "j" did not check its answer (it said on stderr that it `) {
			t.Errorf("%s: want the standing to say journalctl read no journal:\n%s", tc.name, r.stdout)
		}
	}
}

// TestPgrepInAShellScriptDoesNotFindTheScript: a shell: script ran as
// `bash -c SCRIPT`, the bash staying while it ran, so `pgrep -f
// 'java.*myapp'` matched the command line of the very bash that ran it:
// `OK myapp: running`, Consistent, with no java running on the host. The
// script reaches bash in its environment now (internal/proc
// TestShellScriptIsNotInBashsCommandLine), and pgrep finds no such
// process: missing, CRITICAL (testdata/wave-procs/app-running).
func TestPgrepInAShellScriptDoesNotFindTheScript(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("pgrep"); err != nil {
		t.Skip("no pgrep on this machine")
	}
	dir := t.TempDir()
	chart := writeChart(t, dir, "app.yaml", `version: 1
runbook: app-running
result: {kind: verdict/process, decider: Running, nagios: {critical: [missing], ok: [running]}}
stages:
  - id: pg
    exec:
      shell: pgrep -af 'java.*no-such-app-7q3z'
      exitCodes: {0: running, 1: missing}
      parse: lines
  - id: running
    name: Running
    decide:
      rules:
        - {when: 'pg.status == "missing"', then: missing, label: no such process}
      default: {branch: running, label: pgrep found it}
    branches:
      missing: [{id: m, verdict: {subject: '"myapp"', verdict: '"missing"'}}]
      running: [{id: r, verdict: {subject: '"myapp"', verdict: '"running"', pids: pg.stdout}}]
`)
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	if r.code != 2 || !strings.HasPrefix(r.stdout, "app-running CRITICAL - 1 missing") {
		t.Errorf("exit %d; want 2, CRITICAL, no such process found:\n%s", r.code, r.stdout)
	}
}

// TestPipelineCutByHeadSaysSigpipe: `ps -eo pid,rss,args --sort=-rss |
// head -n 5` exits 141 once ps prints more than the pipe holds before head
// has read its lines (128 + SIGPIPE), on one run and not the next, and
// pipefail makes that the script's exit. The Scripts part said only
// "completed with failure, exit 141"; it says now what 141 is and what to
// write instead. A 141 of no pipeline is said as before.
func TestPipelineCutByHeadSaysSigpipe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "top.yaml", `version: 1
runbook: top
stages:
  - id: top
    exec: {shell: "yes | head -n 3", parse: lines}
    onError: continue
  - id: other
    exec: {shell: "exit 141", parse: lines}
`)
	r := runCLI(t, dir, "exec", chart)
	const want = `top: completed with failure, exit 141 (141 is 128 + SIGPIPE: a command of the pipeline was killed as it wrote to one that had stopped reading`
	if !strings.Contains(r.stdout, want) {
		t.Errorf("no hint %q:\n%s%s", want, r.stdout, r.stderr)
	}
	if strings.Count(r.stdout, "128 + SIGPIPE") != 1 {
		t.Errorf("a hint for a 141 of no pipeline:\n%s", r.stdout)
	}
}

// TestServiceManagerNotReachedIsNoAnswer: systemctl on a host (a
// container, a chroot) not booted with systemd, or that cannot reach
// systemd's bus, says so on stderr and exits 1, the code its man page
// gives for "not active" too. A CIS check that avahi-daemon is not
// running, `systemctl is-active avahi-daemon` under `exitCodes: {0:
// active, 1: inactive}`, said `OK avahi-daemon: pass`, Consistent, over a
// host whose service manager nobody asked (testdata/wave-cis/services).
// Its words are a not-checked item now (record.Unreached, the one home
// wave-sched's TestServiceManagerUnreachedIsNoAnswer pins too): Not sure,
// UNKNOWN; an inactive unit, nothing on stderr, is still inactive, OK.
func TestServiceManagerNotReachedIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stderr string
		want         int
		standing     string
	}{
		{"not booted with systemd", `System has not been booted with systemd as init system (PID 1). Can'"'"'t operate.\nFailed to connect to bus: Host is down\n`, 3, `Not sure — stage "st" did not check its answer (it exited 1, which exitCodes: declares the answer "inactive", but it said on stderr that it could not reach the service manager it asks (systemd)`},
		{"no bus", `Failed to connect to bus: No such file or directory\n`, 3, `Not sure — stage "st" did not check its answer (it exited 1, which exitCodes: declares the answer "inactive", but it said on stderr that it could not reach the service manager it asks (systemd)`},
		{"inactive", ``, 0, "Consistent with the run's record"},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: not-running
result: {kind: verdict/service, decider: Active, nagios: {ok: [pass], critical: [active]}}
stages:
  - id: st
    exec:
      exitCodes: {0: active, 1: inactive}
      shell: |
        printf '`+tc.stderr+`' >&2
        exit 1
  - id: active
    name: Active
    decide:
      rules:
        - {when: 'st.status == "active"', then: active, label: it is running}
      default: {branch: pass, label: it is not running}
    branches:
      active: [{id: a, verdict: {subject: '"avahi-daemon"', verdict: '"active"'}}]
      pass: [{id: p, verdict: {subject: '"avahi-daemon"', verdict: '"pass"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if r.code != tc.want || !strings.Contains(r.stdout, "\n"+tc.standing) {
			t.Errorf("%s: exit %d; want %d and the standing %s:\n%s", tc.name, r.code, tc.want, tc.standing, r.stdout)
		}
	}
}
