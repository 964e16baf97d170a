package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeniedOnStderrIsNoWholeAnswer: `sysctl -a` run as a user prints
// every key it can read, says `sysctl: permission denied on key
// 'net.core.bpf_jit_harden'` on stderr for each it cannot, and exits 0;
// `find /etc -name '*.conf' -exec grep -l NOPASSWD {} \;` ignores grep's
// exit, so it exits 0 too over files grep was refused. A chart over the
// rows they printed judged every key or file they left out as absent,
// Consistent, a Nagios check OK. Output with a refusal on stderr from a
// command that ended as no failure is now a not-checked ledger item
// (kind denied) quoting the line: Not sure, UNKNOWN. A warning of any
// other kind beside the rows is not flagged, nor is a refusal from a
// command that exited otherwise than 0: a failure is said as one, and a
// code the chart declared an answer may be the refusal itself (a check
// that /etc/shadow is not readable by others).
func TestDeniedOnStderrIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const said = `stage "out" did not check its output (it said on stderr that it was refused access though it exited 0, so its output holds only what it could read, and what it left out is not known to be absent; stderr's first such line: `
	for _, tc := range []struct {
		name, shell string
		flagged     bool
		line        string
	}{
		{"sysctl as a user", `echo 'kernel.dmesg_restrict = 1'; echo "sysctl: permission denied on key 'net.core.bpf_jit_harden'" >&2`, true,
			`"sysctl: permission denied on key 'net.core.bpf_jit_harden'"`},
		{"find -exec grep", `echo '/etc/sudoers.d/ops'; echo 'grep: /etc/sudoers.d/dev: Permission denied' >&2`, true,
			`"grep: /etc/sudoers.d/dev: Permission denied"`},
		{"EPERM", `echo 'a'; echo 'x: Operation not permitted' >&2`, true, `"x: Operation not permitted"`},
		{"rows and a warning", `echo 'a'; echo 'Hint: some entries are not shown' >&2`, false, ""},
		{"a refusal that failed", `echo 'a'; echo 'cat: /etc/shadow: Permission denied' >&2; exit 1`, false, ""},
		{"a refusal that is the answer", `echo 'a'; echo 'cat: /etc/shadow: Permission denied' >&2; exit 1`, false, "exitCodes"},
	} {
		exitCodes := ""
		if tc.line == "exitCodes" {
			// the chart says the refusal is its answer: no item
			// (TestRefusalUnderDeclaredCodeIsNoAnswer for one it does not)
			exitCodes = ", exitCodes: {0: readable, 1: {word: refused, stderr: Permission denied}}"
		}
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", perRowChart("audit", "Entry",
			fmt.Sprintf(" {shell: %q, parse: lines%s}", tc.shell, exitCodes), "e", `
              - {when: 'e == "bad"', then: bad, label: A bad entry}`, "e"))
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if got := strings.Contains(r.stdout, said+tc.line); got != tc.flagged {
			t.Errorf("%s: flagged %v, want %v:\n%s", tc.name, got, tc.flagged, r.stdout)
		}
		if tc.flagged && (r.code != 3 || !strings.HasPrefix(r.stdout, "audit UNKNOWN")) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN:\n%s", tc.name, r.code, r.stdout)
		}
		if !tc.flagged && strings.Contains(r.stdout, "refused access") {
			t.Errorf("%s: said refused access:\n%s", tc.name, r.stdout)
		}
	}
}

// TestRefusalUnderDeclaredCodeIsNoAnswer: `stat -c %a FILE` with
// `exitCodes: {0: present, 1: missing}`, a check that an application's
// .env file is not left in the web root, exits 1 for a file that is not
// there and as much for one behind a folder it may not search (`stat:
// cannot statx '…': Permission denied`). Run as a user who could not look,
// the chart said `leak OK - 1 absent`, Consistent, over a file that was
// there. A refusal on stderr under a declared non-zero code is now a
// not-checked item (kind denied), UNKNOWN; a chart that says which stderr
// the answer goes with (`{1: {word: missing, stderr: No such file}}`)
// takes the refusal as a failure of the check, and a missing file as its
// answer. A real stat, run as nobody where the test runs as root.
func TestRefusalUnderDeclaredCodeIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	hidden := filepath.Join(dir, "app")
	if err := os.Mkdir(hidden, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(hidden, ".env"), []byte("DB_PASSWORD=x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{filepath.Dir(dir), dir} { // TempDir's are 0700
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	argv := `[stat, -c, '%a', '${file}']`
	if os.Geteuid() == 0 {
		if _, err := exec.LookPath("setpriv"); err != nil {
			t.Skip("root, and no setpriv to look as a user")
		}
		argv = `[setpriv, --reuid=65534, --regid=65534, --clear-groups, stat, -c, '%a', '${file}']`
	}
	const rules = `
stages:
  - id: look
    exec:
      command: %s
      exitCodes: %s
      into: f
  - id: leak
    name: Leak
    decide:
      rules:
        - {when: (f.status ?? "") == "present", then: exposed, label: The file is there}
        - {when: (f.status ?? "") == "missing", then: absent, label: No such file}
      default: {branch: unknown, label: No answer}
    branches:
      exposed: [{id: m1, verdict: {subject: file, verdict: '"exposed"'}}]
      absent: [{id: m2, verdict: {subject: file, verdict: '"absent"'}}]
      unknown: [{id: m3, verdict: {subject: file, verdict: '"unknown"'}}]
`
	for _, tc := range []struct {
		name, codes, file, status string
		code                      int
		said                      string
	}{
		{"a refusal under the word alone", `{0: present, 1: missing}`, filepath.Join(hidden, ".env"),
			"leak UNKNOWN - 1 stage did not check everything (look), 1 absent", 3,
			`which exitCodes: declares the answer "missing", but it said on stderr that it was refused access`},
		{"a refusal under the word with its stderr", `{0: present, 1: {word: missing, stderr: No such file or directory}}`, filepath.Join(hidden, ".env"),
			"leak UNKNOWN - 1 script gave no answer (look), 1 unknown", 3, "script look completed with failure, exit 1"},
		{"no such file under the word alone", `{0: present, 1: missing}`, filepath.Join(dir, "gone.env"),
			"leak OK - 1 absent", 0, "Consistent"},
		{"no such file under the word with its stderr", `{0: present, 1: {word: missing, stderr: No such file or directory}}`, filepath.Join(dir, "gone.env"),
			"leak OK - 1 absent", 0, "Consistent"},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: leak
inputs:
  file: {type: string}
result:
  kind: verdict/leak
  decider: Leak
  nagios: {ok: [absent], critical: [exposed]}
`+fmt.Sprintf(rules, argv, tc.codes))
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios", "--input", "file="+tc.file)
	}
}

// TestPrivilegeRefusalUnderDeclaredCodeIsNoAnswer: `crontab -l -u backup`
// exits 1 when backup has no crontab (`no crontab for backup`) and as
// much when the runner may not look: not root (`must be privileged to
// use -u`), or left out of cron.allow (`You (nobody) are not allowed to
// use this program (crontab)`). A chart of the service accounts'
// crontabs under `exitCodes: {0: installed, 1: none}` said `none` of a
// crontab that was there, and a check that no account holds one said
// `OK - 1 none`, Consistent, over crontabs nobody read; postqueue's
// `User nobody(65534) is not allowed to view the mail queue` and atq's
// `You do not have permission to use atq.` are the same refusal. Each
// is a refusal now, as `Permission denied` is: UNKNOWN.
func TestPrivilegeRefusalUnderDeclaredCodeIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stderr, status string
		code                 int
	}{
		{"crontab -u as a user", "must be privileged to use -u", "crontabs UNKNOWN - 1 stage did not check everything (tab), 1 none", 3},
		{"crontab outside cron.allow", "You (nobody) are not allowed to use this program (crontab)\nSee crontab(1) for more information", "crontabs UNKNOWN - 1 stage did not check everything (tab), 1 none", 3},
		{"postqueue outside authorized_mailq_users", "postqueue: fatal: User nobody(65534) is not allowed to view the mail queue", "crontabs UNKNOWN - 1 stage did not check everything (tab), 1 none", 3},
		{"atq in at.deny", "You do not have permission to use atq.", "crontabs UNKNOWN - 1 stage did not check everything (tab), 1 none", 3},
		{"no crontab", "no crontab for backup", "crontabs OK - 1 none", 0},
	} {
		name := strings.ReplaceAll(tc.name, " ", "-")
		tool := filepath.Join(dir, name+".sh")
		script := "#!/bin/sh\nprintf '%s\\n' '" + strings.ReplaceAll(tc.stderr, "\n", "' '") + "' >&2\nexit 1\n"
		if err := writeExec(tool, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		chart := writeChart(t, dir, name+".yaml", `version: 1
runbook: crontabs
result: {kind: verdict/crontab, decider: Installed, nagios: {ok: [none], critical: [installed]}}
stages:
  - id: tab
    exec:
      command: [`+tool+`, -l, -u, backup]
      exitCodes: {0: installed, 1: none}
      parse: lines
  - id: installed
    name: Installed
    decide:
      rules:
        - {when: tab.status == "none", then: none, label: No crontab}
      default: {branch: installed, label: A crontab}
    branches:
      none: [{id: n, verdict: {subject: '"backup"', verdict: '"none"'}}]
      installed: [{id: i, verdict: {subject: '"backup"', verdict: '"installed"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if !strings.HasPrefix(r.stdout, tc.status) || r.code != tc.code {
			t.Errorf("%s: exit %d:\n%s\nwant exit %d, %q first", tc.name, r.code, r.stdout, tc.code, tc.status)
		}
		if tc.code == 3 && !strings.Contains(r.stdout, "it said on stderr that it was refused access") {
			t.Errorf("%s: the refusal is not said:\n%s", tc.name, r.stdout)
		}
	}
}

// TestServiceManagerUnreachedIsNoAnswer: systemctl where systemd is not
// PID 1 (a container, a chroot), or `systemctl --user` from cron with no
// session bus, says `System has not been booted with systemd as init
// system (PID 1). Can't operate.` and `Failed to connect to bus: Host is
// down`, and exits 1. `systemctl is-failed backup.service` exits 1 for a
// unit that has not failed too, so a check of the nightly job's unit
// under `exitCodes: {0: failed, 1: not-failed}` said `OK - 1 not-failed`,
// Consistent, asking no manager at all; `systemctl list-timers -o json ||
// echo '[]'` gave an empty list, exit 0, and a check of stale timers said
// `OK - no verdict rows`. Both are no answer now: UNKNOWN.
func TestServiceManagerUnreachedIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const noBus = "System has not been booted with systemd as init system (PID 1). Can't operate.\nFailed to connect to bus: Host is down\n"
	tool := func(name, stdout, stderr string, code int) string {
		return fakeTool(t, filepath.Join(dir, name), stdout, stderr, code)
	}
	for _, tc := range []struct {
		name, exec, status string
		code               int
		said               string
	}{
		{"is-failed with no manager", "command: [" + tool("nobus-is-failed", "", noBus, 1) + ", is-failed, backup.service]\n      exitCodes: {0: failed, 1: not-failed}",
			"units UNKNOWN - 1 stage did not check everything (s), 1 not-failed", 3,
			`which exitCodes: declares the answer "not-failed", but it said on stderr that it could not reach the service manager it asks`},
		{"is-failed of a unit that has not failed", "command: [" + tool("is-failed", "active\n", "", 1) + ", is-failed, backup.service]\n      exitCodes: {0: failed, 1: not-failed}",
			"units OK - 1 not-failed", 0, "Consistent"},
		{"is-failed --user with no session bus, systemd 254 on", "command: [" + tool("nobus-user", "", "Failed to connect to user scope bus via local transport: $DBUS_SESSION_BUS_ADDRESS and $XDG_RUNTIME_DIR not defined (consider using --machine=<user>@.host --user to connect to bus of other user)\n", 1) + ", --user, is-failed, sync.service]\n      exitCodes: {0: failed, 1: not-failed}",
			"units UNKNOWN - 1 stage did not check everything (s), 1 not-failed", 3,
			`which exitCodes: declares the answer "not-failed", but it said on stderr that it could not reach the service manager it asks`},
		{"list-timers or an empty list", "shell: " + tool("nobus-list", "", noBus, 1) + " list-timers -o json || echo '[]'\n      parse: json",
			"units UNKNOWN - 1 stage did not check everything (s), 1 not-failed", 3,
			`it said on stderr that it could not reach the service manager it asks`},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: units
result: {kind: verdict/unit, decider: Failed, nagios: {ok: [not-failed], critical: [failed]}}
stages:
  - id: s
    exec:
      `+tc.exec+`
  - id: failed
    name: Failed
    decide:
      rules:
        - {when: (s.status ?? "") == "failed", then: failed, label: The unit failed}
      default: {branch: not-failed, label: The unit did not fail}
    branches:
      failed: [{id: f, verdict: {subject: '"backup.service"', verdict: '"failed"'}}]
      not-failed: [{id: n, verdict: {subject: '"backup.service"', verdict: '"not-failed"'}}]
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}

// TestMissingFileOnStderrIsNoWholeAnswer: `grep -c ERROR "$LOG" || echo
// 0`, the usual way round grep's exit 1 on no match, over a log that is
// not there (rotated away, a typo in its path) prints 0, says `grep:
// app.log: No such file or directory` on stderr and exits 0; a chart
// counting ERROR lines said `OK - 1 ok`, Consistent, exit 0, over a log
// nobody read. A command that exited 0 and said it could not find a file
// it was given is now a not-checked ledger item quoting the line: Not
// sure, UNKNOWN. grep's own exit 2 (no `|| echo 0`) is a failure, said
// as one.
func TestMissingFileOnStderrIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "errors.yaml", `version: 1
runbook: error-count
result: {kind: verdict/errors, decider: Errors}
stages:
  - id: hits
    exec: {shell: 'grep -c ERROR app.log || echo 0', parse: text}
  - id: errors
    name: Errors
    decide:
      rules:
        - {when: 'int(trim(hits.stdout)) > 0', then: critical, label: ERROR lines}
      default: {branch: ok, label: No ERROR lines}
    branches:
      critical: [{id: mark-bad, verdict: {subject: '"app.log"', verdict: '"critical"'}}]
      ok: [{id: mark-ok, verdict: {subject: '"app.log"', verdict: '"ok"'}}]
`)
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	const said = `stage "hits" did not check its output (it said on stderr that it could not find a file it was given though it exited 0, so its output holds only what it could read, and what it left out is not known to be absent (a missing log is no log without errors); stderr's first such line: "grep: app.log: No such file or directory"`
	if r.code != 3 || !strings.HasPrefix(r.stdout, "error-count UNKNOWN") || !strings.Contains(r.stdout, said) {
		t.Errorf("exit %d; want 3, UNKNOWN, saying %s:\n%s", r.code, said, r.stdout)
	}
	// A folder where the log was meant: grep -c prints 0 for it, says `grep:
	// app.log: Is a directory` and exits 2, which || true made 0.
	if err := os.Mkdir(filepath.Join(dir, "app.log"), 0o755); err != nil {
		t.Fatal(err)
	}
	folder := writeChart(t, dir, "folder.yaml", strings.Replace(string(readFile(t, chart)), "|| echo 0", "|| true", 1))
	r = runCLI(t, dir, "exec", folder, "--format", "nagios")
	const folderSaid = `stage "hits" did not check its output (it said on stderr that it was given a folder where it read a file though it exited 0`
	if r.code != 3 || !strings.HasPrefix(r.stdout, "error-count UNKNOWN") || !strings.Contains(r.stdout, folderSaid) {
		t.Errorf("a folder: exit %d; want 3, UNKNOWN, saying %s:\n%s", r.code, folderSaid, r.stdout)
	}
	if err := os.Remove(filepath.Join(dir, "app.log")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "app.log"), []byte("INFO up\nERROR db down\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, dir, "exec", chart, "--format", "nagios")
	if r.code != 2 || !strings.HasPrefix(r.stdout, "error-count CRITICAL") || strings.Contains(r.stdout, "could not find") {
		t.Errorf("a log with an ERROR line: exit %d; want 2, CRITICAL:\n%s", r.code, r.stdout)
	}
}

// TestPipelineDeclaredExitWithStderrIsNoAnswer: under pipefail a
// pipeline exits with the code of its last command to fail, so
// `zcat -f app.log.9.gz app.log | grep -c ERROR` under `exitCodes: {0:
// found, 1: none}`, with the .gz rotated away, exited with zcat's 1 while
// grep counted 1 ERROR line; the chart read "none" and said `OK - 1 ok
// (n: 1)`, Consistent, exit 0. A pipeline that exited with a declared
// non-zero code and wrote on stderr is now a not-checked ledger item
// (kind piped-answer): Not sure, UNKNOWN. grep's own 1, with nothing on
// stderr, is still the answer none.
func TestPipelineDeclaredExitWithStderrIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.log"), []byte("INFO up\nERROR db down\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	chart := func(name, logs string) string {
		return writeChart(t, dir, name, `version: 1
runbook: rotated-count
result: {kind: verdict/errors, decider: Errors}
stages:
  - id: hits
    exec: {shell: 'zcat -f `+logs+` | grep -c ERROR', exitCodes: {0: found, 1: none}, parse: text}
  - id: errors
    name: Errors
    decide:
      rules:
        - {when: 'hits.status == "found"', then: critical, label: ERROR lines found}
      default: {branch: ok, label: No ERROR line}
    branches:
      critical: [{id: c, verdict: {subject: '"app.log"', verdict: '"critical"', n: trim(hits.stdout)}}]
      ok: [{id: o, verdict: {subject: '"app.log"', verdict: '"ok"', n: trim(hits.stdout)}}]
`)
	}
	r := runCLI(t, dir, "exec", chart("gone.yaml", "app.log.9.gz app.log"), "--format", "nagios")
	const said = `stage "hits" did not check its answer (it exited 1, which the chart declares the answer "none", but its script runs more than one command`
	if r.code != 3 || !strings.HasPrefix(r.stdout, "rotated-count UNKNOWN") || !strings.Contains(r.stdout, said) {
		t.Errorf("a rotated log gone: exit %d; want 3, UNKNOWN, saying %s:\n%s", r.code, said, r.stdout)
	}
	if err := os.WriteFile(filepath.Join(dir, "quiet.log"), []byte("INFO up\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, dir, "exec", chart("quiet.yaml", "quiet.log"), "--format", "nagios")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "rotated-count OK") || strings.Contains(r.stdout, "more than one command") {
		t.Errorf("grep's own no match: exit %d; want 0, OK:\n%s", r.code, r.stdout)
	}
}

// TestListDeclaredExitWithStderrIsNoAnswer: under bash -e a list exits
// with its first failing command's code, so `cd /var/log/app && grep -c
// ERROR app.log` under exitCodes: {0: found, 1: none} read cd's 1 over a
// folder not there as grep's no match: OK, Consistent. It is a
// piped-answer item as a pipeline's is; one command alone is not.
func TestListDeclaredExitWithStderrIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := func(name, script string) string {
		return writeChart(t, dir, name, `version: 1
runbook: listed-count
result: {kind: verdict/errors, decider: Errors}
stages:
  - id: hits
    exec: {shell: '`+script+`', exitCodes: {0: found, 1: none}, parse: text}
  - id: errors
    name: Errors
    decide:
      rules:
        - {when: 'hits.status == "found"', then: critical, label: ERROR lines found}
      default: {branch: ok, label: No ERROR line}
    branches:
      critical: [{id: c, verdict: {subject: '"app.log"', verdict: '"critical"'}}]
      ok: [{id: o, verdict: {subject: '"app.log"', verdict: '"ok"'}}]
`)
	}
	r := runCLI(t, dir, "exec", chart("list.yaml", "cd app && grep -c ERROR app.log"), "--format", "nagios")
	if r.code != 3 || !strings.HasPrefix(r.stdout, "listed-count UNKNOWN") || !strings.Contains(r.stdout, "runs more than one command") {
		t.Errorf("cd's 1: exit %d; want 3, UNKNOWN:\n%s", r.code, r.stdout)
	}
	// One command that answers 1 and warns on stderr is its answer.
	r = runCLI(t, dir, "exec", chart("one.yaml", `sh -c "echo warning: slow disk >&2; echo 0; exit 1"`), "--format", "nagios")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "listed-count OK") || strings.Contains(r.stdout, "more than one command") {
		t.Errorf("one command: exit %d; want 0, OK:\n%s", r.code, r.stdout)
	}
}

// TestGrepBinaryFileMatchesIsNoCount: a log with NUL bytes in it (blocks
// an unclean shutdown left zeroed) is binary to GNU grep 3.5 and later:
// `grep ERROR app.log` prints none of its matching lines, says `grep:
// app.log: binary file matches` on stderr and exits 0, so `grep ERROR
// app.log | wc -l` printed 0 and a chart said `OK - 1 ok (n: 0)`,
// Consistent, over 14 ERROR lines. It is a not-checked item now, saying
// to have grep read the file as text (grep -a).
func TestGrepBinaryFileMatchesIsNoCount(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "errors.yaml", `version: 1
runbook: error-lines
result: {kind: verdict/errors, decider: Errors}
stages:
  - id: hits
    exec: {shell: 'echo 0; echo "grep: app.log: binary file matches" >&2', parse: text}
  - id: errors
    name: Errors
    decide:
      rules:
        - {when: 'int(trim(hits.stdout)) > 0', then: critical, label: ERROR lines}
      default: {branch: ok, label: No ERROR line}
    branches:
      critical: [{id: c, verdict: {subject: '"app.log"', verdict: '"critical"'}}]
      ok: [{id: o, verdict: {subject: '"app.log"', verdict: '"ok"'}}]
`)
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	const said = `stage "hits" did not check its output (it said on stderr that it took a file for binary and printed none of its matching lines though it exited 0`
	if r.code != 3 || !strings.HasPrefix(r.stdout, "error-lines UNKNOWN") || !strings.Contains(r.stdout, said) || !strings.Contains(r.stdout, "grep -a") {
		t.Errorf("exit %d; want 3, UNKNOWN, saying %s … grep -a:\n%s", r.code, said, r.stdout)
	}
}

// TestPlanNotesAPipelinesDeclaredAnswer: plan says of a shell: pipeline
// whose exitCodes: declares a non-zero code an answer that the code may
// be another command's, before any run is Not sure over it.
func TestPlanNotesAPipelinesDeclaredAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `version: 1
runbook: rotated-count
stages:
  - id: hits
    exec: {shell: 'zcat -f app.log* | grep -c ERROR', exitCodes: {0: found, 1: none}, parse: text}
`)
	r := runCLI(t, dir, "plan", chart)
	const want = `note: exitCodes: declares 1 an answer, and the script runs more than one command, which under bash -e -o pipefail exits with the code of the first to fail`
	if !strings.Contains(r.stdout, want) {
		t.Errorf("plan says no note %q:\n%s%s", want, r.stdout, r.stderr)
	}
}

// TestGrepExitOneSaysDeclareIt: `grep -c ERROR app.log` over a log with
// no ERROR line exits 1, and the Scripts part said only "completed with
// failure, exit 1", which a new user read as grep having failed. It says
// now that grep's 1 is no match and how to declare it an answer; a 1
// with stderr, or from another command, is said as before.
func TestGrepExitOneSaysDeclareIt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.log"), []byte("INFO up\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	chart := writeChart(t, dir, "c.yaml", `version: 1
runbook: error-count
stages:
  - id: hits
    exec: {command: [grep, -c, ERROR, app.log], parse: text}
  - id: other
    exec: {command: ["false"], parse: text}
    onError: continue
`)
	r := runCLI(t, dir, "exec", chart)
	const want = `hits: completed with failure, exit 1 (grep exits 1 when nothing matched: where that is an answer, declare it, exitCodes: {0: found, 1: none}`
	if !strings.Contains(r.stdout, want) {
		t.Errorf("no hint %q:\n%s%s", want, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "false exits 1") {
		t.Errorf("a hint for false:\n%s", r.stdout)
	}
}

// TestAbsenceOverAGapIsNoAnswerOfNone: examples/logscan scans the live
// log, declares it found no FATAL line, and declares on every run that it
// did not read the rotated logs; with no rows the check said `log-scan OK
// - no verdict rows`, exit 0, where the same run under result.empty was
// UNKNOWN (none found is no answer over what a stage says it did not
// check). A FATAL line in app.log.1, rotated a minute ago, was an OK. It
// is UNKNOWN now; an absence with no such declaration is still OK.
func TestAbsenceOverAGapIsNoAnswerOfNone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := func(name, notChecked string) string {
		return writeChart(t, dir, name, `version: 1
runbook: log-scan
result: {kind: verdict/service-health, decider: Health}
stages:
  - id: scan
    exec:
      parse: json
      shell: |
        echo '{"af_absent": true, "looked_for": "FATAL lines", "checked": [{"what": "app.log", "why": "every line"}]`+notChecked+`}'
  - id: per
    foreach:
      items: 'scan.stdout.result ?? []'
      as: hit
      maxBranches: 10
      stages:
        - id: health
          name: Health
          decide:
            rules:
              - {when: 'hit.count >= 2', then: failing, label: Two or more}
            default: {branch: noisy, label: One}
          branches:
            failing: [{id: f, verdict: {subject: hit.service, verdict: '"failing"'}}]
            noisy: [{id: n, verdict: {subject: hit.service, verdict: '"noisy"'}}]
`)
	}
	r := runCLI(t, dir, "exec", chart("gap.yaml", `, "not_checked": [{"what": "rotated logs (app.log.1, .gz)", "why": "only the live file was read"}]`), "--format", "nagios")
	const said = `a declared absence (none found) holds only over all it looked at: stage "scan" declared it did not check part of it`
	if r.code != 3 || !strings.HasPrefix(r.stdout, "log-scan UNKNOWN") || !strings.Contains(r.stdout, said) {
		t.Errorf("absence over a gap: exit %d; want 3, UNKNOWN, saying %s:\n%s", r.code, said, r.stdout)
	}
	r = runCLI(t, dir, "exec", chart("whole.yaml", ""), "--format", "nagios")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "log-scan OK") {
		t.Errorf("absence over all it looked at: exit %d; want 0, OK:\n%s", r.code, r.stdout)
	}
}

// TestIncompleteOutputWarningIsNoWholeAnswer: lshw run as a user reads no
// DMI table, so it lists no memory bank, says `WARNING: you should run
// this program as super-user.` and `WARNING: output may be incomplete or
// inaccurate, …` on stderr, and exits 0; a chart whose rows are the empty
// DIMM slots (result.empty: answer) said `OK - no verdict rows`,
// Consistent, over slots nobody listed. lsusb -v says `Couldn't open
// device, some information will be missing` the same way. A command that
// ended as no failure and said its output may be incomplete is a
// not-checked item now (kind denied): Not sure, UNKNOWN. A warning that
// says neither is not flagged (testdata/wave-hw/lshw-memory).
func TestIncompleteOutputWarningIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const said = `stage "out" did not check its output (it said on stderr that its output may be incomplete though it exited 0, so its output holds only what it could read, and what it left out is not known to be absent; stderr's first such line: `
	for _, tc := range []struct {
		name, stderr string
		line         string
	}{
		{"lshw as a user", `WARNING: you should run this program as super-user.\nWARNING: output may be incomplete or inaccurate, you should run this program as super-user.`,
			`"WARNING: you should run this program as super-user."`},
		{"lsusb -v as a user", `Couldn't open device, some information will be missing`,
			`"Couldn't open device, some information will be missing"`},
		{"netstat -p as a user", `(Not all processes could be identified, non-owned process info will not be shown, you would have to be root to see it all.)`,
			`"(Not all processes could be identified, non-owned process info will not be shown, you would have to be root to see it all.)"`},
		{"another warning", `WARNING: power state unknown`, ""},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: slots
result: {kind: verdict/dimm, decider: Slot, empty: answer, nagios: {warning: [empty]}}
stages:
  - id: out
    exec:
      parse: json
      shell: |
        echo '[{"id": "memory", "size": 33554432000}]'
        printf "`+tc.stderr+`\n" >&2
  - id: per
    foreach:
      items: 'filter(out.stdout, hasPrefix(.id, "bank") && .description contains "[empty]")'
      as: b
      maxBranches: 64
      stages:
        - id: slot
          name: Slot
          decide:
            rules:
              - {when: 'b.slot == nil', then: unlabelled, label: no slot name}
            default: {branch: empty, label: no module in the slot}
          branches:
            unlabelled: [{id: u, verdict: {subject: b.id, verdict: '"unlabelled"'}}]
            empty: [{id: e, verdict: {subject: b.slot, verdict: '"empty"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if tc.line == "" {
			if r.code != 0 || strings.Contains(r.stdout, "may be incomplete") {
				t.Errorf("%s: exit %d; want 0, nothing said of the warning:\n%s", tc.name, r.code, r.stdout)
			}
			continue
		}
		if r.code != 3 || !strings.HasPrefix(r.stdout, "slots UNKNOWN") || !strings.Contains(r.stdout, said+tc.line) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %s%s:\n%s", tc.name, r.code, said, tc.line, r.stdout)
		}
	}
}

// TestAccessDeniedInOutputIsNoWholeAnswer: lspci -vv run as a user cannot
// read a device's configuration space past its header, so it prints
// `Capabilities: <access denied>` in place of each device's capabilities
// (its LnkSta among them), on stdout, with nothing on stderr, and exits
// 0; a chart listing the PCIe links lspci marks "(downgraded)" said `OK -
// no verdict rows`, Consistent, over links nobody read. Output holding
// lspci's mark is a not-checked item now (kind denied): Not sure,
// UNKNOWN. A line that only speaks of access denied (an auth log's) is
// not the mark (testdata/wave-hw/pcie-links).
func TestAccessDeniedInOutputIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, out string
		flagged   bool
	}{
		{"lspci as a user", `01:00.0 Non-Volatile memory controller: Samsung\n\tCapabilities: <access denied>\n\tKernel driver in use: nvme\n`, true},
		{"lspci as root", `01:00.0 Non-Volatile memory controller: Samsung\n\tCapabilities: [70] Express (v2) Endpoint, MSI 00\n\t\tLnkSta:\tSpeed 8GT/s, Width x4\n`, false},
		{"an auth log", `sshd[812]: error: access denied for user root\n`, false},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: links
result: {kind: verdict/link, decider: Link, empty: answer, nagios: {warning: [downgraded]}}
stages:
  - id: lspci
    exec:
      parse: lines
      shell: |
        printf '`+tc.out+`'
  - id: per
    foreach:
      items: 'filter(lspci.stdout, # contains "(downgraded)")'
      as: l
      maxBranches: 64
      stages:
        - id: link
          name: Link
          decide:
            rules:
              - {when: 'l contains "Width x1 "', then: one-lane, label: one lane}
            default: {branch: downgraded, label: trained below its capability}
          branches:
            one-lane: [{id: o, verdict: {subject: l, verdict: '"one-lane"'}}]
            downgraded: [{id: d, verdict: {subject: l, verdict: '"downgraded"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		const said = `stage "lspci" did not check its output (it printed "<access denied>" in its output where it was refused what it reads, though it exited 0, so its output holds only what it could read, and what it left out is not known to be absent; its output's first such line: "\tCapabilities: <access denied>"`
		if !tc.flagged {
			if r.code != 0 || strings.Contains(r.stdout, "did not check") {
				t.Errorf("%s: exit %d; want 0, nothing flagged:\n%s", tc.name, r.code, r.stdout)
			}
			continue
		}
		if r.code != 3 || !strings.HasPrefix(r.stdout, "links UNKNOWN") || !strings.Contains(r.stdout, said) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %s:\n%s", tc.name, r.code, said, r.stdout)
		}
	}
}

// TestSensorReadErrorIsNoWholeAnswer: sensors -j over a sensor whose
// input the driver could not read (an NVMe drive's composite
// temperature, an iwlwifi card that is down) prints the feature as an
// empty object, says `ERROR: Can't get value of subfeature temp1_input:
// Can't read` on stderr and exits 0; in text form it prints the sensor at
// +0.0°C. A chart of the sensors near their limit (result.empty: answer)
// said `OK - no verdict rows`, Consistent, over a temperature nobody
// read. It is a not-checked item now (kind denied): Not sure, UNKNOWN
// (testdata/wave-hw/sensors-hot).
func TestSensorReadErrorIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "hot.yaml", `version: 1
runbook: hot
result: {kind: verdict/sensor, decider: Temperature, empty: answer, nagios: {warning: [hot]}}
stages:
  - id: sensors
    exec:
      parse: json
      shell: |
        echo '{"nvme-pci-0100": {"Adapter": "PCI adapter", "Composite": {}}}'
        echo "ERROR: Can't get value of subfeature temp1_input: Can't read" >&2
  - id: per
    foreach:
      items: 'filter(values(sensors.stdout["nvme-pci-0100"]), type(#) == "map" && (#.temp1_input ?? 0) >= 70)'
      as: s
      maxBranches: 8
      stages:
        - id: temperature
          name: Temperature
          decide:
            rules:
              - {when: 's.temp1_input >= 85', then: hot, label: near its limit}
            default: {branch: hot, label: warm}
          branches:
            hot: [{id: h, verdict: {subject: '"composite " + string(index)', verdict: '"hot"'}}]
`)
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	const said = `stage "sensors" did not check its output (it said on stderr that it could not read some of the values it reports though it exited 0, so its output holds only what it could read, and what it left out is not known to be absent; stderr's first such line: "ERROR: Can't get value of subfeature temp1_input: Can't read"`
	if r.code != 3 || !strings.HasPrefix(r.stdout, "hot UNKNOWN") || !strings.Contains(r.stdout, said) {
		t.Errorf("exit %d; want 3, UNKNOWN, saying %s:\n%s", r.code, said, r.stdout)
	}
}

// TestSambaConfigNotLoadedIsNoAnswer: smbstatus given an smb.conf it
// cannot load (`-s /etc/samba/smb.cnf`, misspelt) says `Can't load
// /etc/samba/smb.cnf - run testparm to debug it` on stderr, goes on with
// its built-in defaults, reads the lock directory of no server that
// runs, prints -L --json with no open_files and exits 0. A chart of files
// held open past a limit, written `open_files ?? {}` as runbook's error
// over the missing key advised, said `OK - no verdict rows`, Consistent,
// over a file held open past the limit on the server the file sets up
// (Samba 4.17; testdata/wave-samba/locks). It is a not-checked item now
// (kind denied): Not sure, UNKNOWN. Samba's other lines (`locking.tdb not
// initialised`, said of a server no client has reached) are not flagged.
func TestSambaConfigNotLoadedIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stderr string
		flagged      bool
	}{
		{"misspelt smb.conf", `Can't load /etc/samba/smb.cnf - run testparm to debug it\n/run/samba/locking.tdb not initialised\nThis is normal if an SMB client has never connected to your server.`, true},
		{"no client yet", `/run/samba/locking.tdb not initialised\nThis is normal if an SMB client has never connected to your server.`, false},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: locks
result: {kind: verdict/file, decider: Age, empty: answer, nagios: {critical: [stale]}}
stages:
  - id: locks
    exec:
      parse: json
      shell: |
        echo '{"timestamp": "2026-12-07T18:33:54.928601+0000", "version": "4.17.12-Debian", "smb_conf": "/etc/samba/smb.cnf"}'
        printf "`+tc.stderr+`\n" >&2
  - id: per
    foreach:
      items: 'values(locks.stdout.open_files ?? {})'
      as: f
      maxBranches: 100
      stages:
        - id: age
          name: Age
          decide:
            rules:
              - {when: 'len(f.opens) > 0', then: stale, label: held open}
            default: {branch: stale, label: held open}
          branches:
            stale: [{id: s, verdict: {subject: f.filename, verdict: '"stale"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if !tc.flagged {
			if r.code != 0 || strings.Contains(r.stdout, "did not check") {
				t.Errorf("%s: exit %d; want 0, nothing flagged:\n%s", tc.name, r.code, r.stdout)
			}
			continue
		}
		const said = `stage "locks" did not check its output (it said on stderr that it could not load the configuration file it was given, and went on with its built-in defaults though it exited 0, so what it printed is the state of a server set up otherwise`
		if r.code != 3 || !strings.HasPrefix(r.stdout, "locks UNKNOWN") || !strings.Contains(r.stdout, said) || !strings.Contains(r.stdout, "testparm -s FILE") {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %s:\n%s", tc.name, r.code, said, r.stdout)
		}
	}
}

// TestBlankTableBesideStderrIsSaidOnce: kubectl get pods over a namespace
// with none prints nothing on stdout and `No resources found in default
// namespace.` on stderr, exit 0. Under parse: columns that blank text is
// no table (no header row), and the stderr-only item says the same gap
// quoting stderr: the ledger held both, the standing line said it twice.
// It holds the stderr-only item alone.
func TestBlankTableBesideStderrIsSaidOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "pods.yaml", `version: 1
runbook: pods
result: {kind: verdict/pod, empty: answer}
stages:
  - id: pods
    exec:
      shell: echo "No resources found in default namespace." >&2
      parse: columns
  - id: per
    foreach:
      items: pods.stdout
      as: p
      maxBranches: 10
      stages:
        - {id: v, verdict: {subject: p.NAME, verdict: '"seen"'}}
`)
	r := runCLI(t, dir, "exec", chart)
	if r.code != 0 || !strings.Contains(r.stdout, `stderr's first line: "No resources found in default namespace."`) || strings.Contains(r.stdout, "no header row") {
		t.Errorf("exit %d; want the stderr-only item alone:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestPipelineEarlierFailureIsNoAnswer: `smartctl -H /dev/X | grep -q
// FAILED` under exitCodes: {0: failing, 1: passed} over a disk smartctl
// could not open exited with grep's 1 (pipefail keeps the last failing
// command's code), and smartctl prints its error on stdout, into grep,
// so nothing reached stderr: the chart said `OK vda: passed`, Consistent
// (wave-hw's design question). The script's last pipeline's codes (2 1)
// are read from bash's PIPESTATUS, and a failure before the answering
// command's is a piped-answer item whatever stderr holds; smartctl's 0
// before grep's 1 is the answer passed.
func TestPipelineEarlierFailureIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := smartCharts(t, dir)
	r := runCLI(t, dir, "exec", chart("closed.yaml", filepath.Join(dir, "smartctl-closed")+" -H /dev/vda | grep -q FAILED"), "--format", "nagios")
	const said = `pipeline whose commands exited 2 1`
	if r.code != 3 || !strings.HasPrefix(r.stdout, "smart UNKNOWN") || !strings.Contains(r.stdout, said) {
		t.Errorf("a disk smartctl could not open: exit %d; want 3, UNKNOWN, saying %q:\n%s%s", r.code, said, r.stdout, r.stderr)
	}
	r = runCLI(t, dir, "exec", chart("ok.yaml", filepath.Join(dir, "smartctl-ok")+" -H /dev/vda | grep -q FAILED"), "--format", "nagios")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "smart OK - 1 passed") {
		t.Errorf("a disk that passed: exit %d; want 0, OK:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestSubshellPipelineEarlierFailureIsNoAnswer: runbook reads the codes of
// the script's own last pipeline, so `(cd /dev && smartctl -H vda | grep
// -q FAILED)` ended with the subshell's one code, 1, "passed", Nagios OK,
// over a disk smartctl could not open (exit 2, its error on stdout, into
// grep): its pipeline's codes are not known, a not-checked item. The same
// pipeline outside the parentheses is read as before.
func TestSubshellPipelineEarlierFailureIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := smartCharts(t, dir)
	for _, script := range []string{
		"(cd /dev && " + filepath.Join(dir, "smartctl-closed") + " -H vda | grep -q FAILED)",
		"( (" + filepath.Join(dir, "smartctl-closed") + " -H /dev/vda | grep -q FAILED) )",
	} {
		r := runCLI(t, dir, "exec", chart("sub.yaml", script), "--format", "nagios")
		const said = `its script ends in a subshell, ( … ), whose last command is a pipeline`
		if r.code != 3 || !strings.HasPrefix(r.stdout, "smart UNKNOWN") || !strings.Contains(r.stdout, said) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %q:\n%s%s", script, r.code, said, r.stdout, r.stderr)
		}
	}
	// The pipeline outside the parentheses, or none at their end, is read.
	for _, script := range []string{
		"cd /dev && " + filepath.Join(dir, "smartctl-ok") + " -H vda | grep -q FAILED",
		"(cd /dev && grep -q FAILED " + filepath.Join(dir, "smartctl-ok") + ")",
	} {
		r := runCLI(t, dir, "exec", chart("ok.yaml", script), "--format", "nagios")
		if r.code != 0 || !strings.HasPrefix(r.stdout, "smart OK - 1 passed") {
			t.Errorf("%s: exit %d; want 0, OK:\n%s%s", script, r.code, r.stdout, r.stderr)
		}
	}
}

// smartCharts writes two stand-ins for smartctl into dir — smartctl-closed,
// which could not open the disk (its error on stdout, exit 2), and
// smartctl-ok, which read a healthy one — and gives a function writing a
// chart named name that answers from script, a shell: line under
// exitCodes {0: failing, 1: passed}.
func smartCharts(t *testing.T, dir string) func(name, script string) string {
	t.Helper()
	for name, end := range map[string]string{
		"smartctl-closed": "echo 'Smartctl open device: /dev/vda failed: Permission denied'; exit 2",
		"smartctl-ok":     "echo 'SMART overall-health self-assessment test result: PASSED'",
	} {
		if err := writeExec(filepath.Join(dir, name), []byte("#!/bin/sh\n"+end+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return func(name, script string) string {
		return writeChart(t, dir, name, `version: 1
runbook: smart
result: {kind: verdict/disk, nagios: {ok: [passed], critical: [failing]}}
stages:
  - id: health
    exec: {shell: '`+script+`', exitCodes: {0: failing, 1: passed}}
  - id: v
    verdict: {subject: '"vda"', verdict: health.status}
`)
	}
}

// TestPlanSaysWhichExitsAreAnswers: plan lists an exec stage's declared
// answers, with the stderr an answer goes with, so an author sees before a
// run that stat's 1 is missing only with "No such file or directory".
func TestPlanSaysWhichExitsAreAnswers(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := runIn(t, root, "plan", "testdata/wave-refused/leaked-env/chart.yaml")
	const want = `answers 0 present, 1 missing (when stderr says "No such file or directory"); anything else is a failure of the command`
	if code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("plan: exit %d:\n%s\nwant it to say %s", code, stdout, want)
	}
	code, stdout, _ = runIn(t, root, "plan", "-o", "json", "testdata/wave-refused/leaked-env/chart.yaml")
	if code != 0 || !strings.Contains(stdout, `"answers": [`) || !strings.Contains(stdout, `"stderr": "No such file or directory"`) {
		t.Errorf("plan -o json: exit %d:\n%s", code, stdout)
	}
}

// TestPartialJournalIsNoWholeAnswer: `journalctl -p err --since -1h`
// run as a user outside the adm and systemd-journal groups prints that
// user's own entries, says `Hint: You are currently not seeing messages
// from other users and the system.` on stderr and exits 0; a chart
// counting errors said `OK - 1 ok`, Consistent, over a system journal
// nobody read. systemctl status says `Warning: some journal files were
// not opened due to insufficient permissions.` Either is now a
// not-checked item (kind denied): UNKNOWN.
func TestPartialJournalIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stderr string
		flagged      bool
	}{
		{"the hint", `Hint: You are currently not seeing messages from other users and the system.\n      Users in groups 'adm', 'systemd-journal' can see all messages.\n      Pass -q to turn off this notice.`, true},
		{"the short hint", `Hint: You are currently not seeing messages from the system.\n      Users in the 'systemd-journal' group can see all messages. Pass -q to\n      turn off this notice.`, true},
		{"systemctl status", `Warning: some journal files were not opened due to insufficient permissions.`, true},
		{"no hint", ``, false},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: journal
result: {kind: verdict/journal, decider: Errors, nagios: {critical: [errors]}}
stages:
  - id: j
    exec:
      parse: lines
      shell: |
        echo 'Dec 07 04:00:01 host app[12]: started'
        printf "`+tc.stderr+`\n" >&2
  - id: judge
    name: Errors
    decide:
      rules:
        - {when: 'any(j.stdout, # contains "error")', then: errors, label: An error in the journal}
      default: {branch: ok, label: No error in the journal}
    branches:
      errors: [{id: e, verdict: {subject: '"journal"', verdict: '"errors"'}}]
      ok: [{id: o, verdict: {subject: '"journal"', verdict: '"ok"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		const said = `could read only the part of the journal this user may see though it exited 0`
		if got := strings.Contains(r.stdout, said); got != tc.flagged {
			t.Errorf("%s: flagged %v, want %v:\n%s", tc.name, got, tc.flagged, r.stdout)
		}
		if tc.flagged && (r.code != 3 || !strings.HasPrefix(r.stdout, "journal UNKNOWN")) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN:\n%s", tc.name, r.code, r.stdout)
		}
	}
}

// TestMissingFileInTheRunnersLanguageIsNoWholeAnswer: on a runner whose
// LANG is de_DE.UTF-8, grep over a log rotated away said `Datei oder
// Verzeichnis nicht gefunden`, which the run did not read as a file it
// could not find, and `grep -c ERROR app.log || echo 0` said `OK`,
// Consistent, exit 0, where under C it is UNKNOWN. A command's messages
// are C's whatever the runner's locale (proc.InheritedEnv).
func TestMissingFileInTheRunnersLanguageIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	locales := filepath.Join(dir, "locales")
	if err := os.Mkdir(locales, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command("localedef", "-i", "de_DE", "-f", "UTF-8", filepath.Join(locales, "de_DE.UTF-8")).Run(); err != nil {
		t.Skipf("no de_DE locale built here (%v)", err)
	}
	probe := exec.Command("grep", "-c", "ERROR", filepath.Join(dir, "app.log"))
	probe.Env = []string{"LANG=de_DE.UTF-8", "LOCPATH=" + locales, "PATH=" + os.Getenv("PATH")}
	if out, _ := probe.CombinedOutput(); strings.Contains(string(out), "No such file") {
		t.Skip("grep has no German messages here (no grep translation installed)")
	}
	chart := writeChart(t, dir, "errors.yaml", `version: 1
runbook: error-count
result: {kind: verdict/errors, decider: Errors}
stages:
  - id: hits
    exec: {shell: 'grep -c ERROR app.log || echo 0', parse: text, env: {LOCPATH: `+locales+`}}
  - id: errors
    name: Errors
    decide:
      rules:
        - {when: 'int(trim(hits.stdout)) > 0', then: critical, label: ERROR lines}
      default: {branch: ok, label: No ERROR lines}
    branches:
      critical: [{id: mark-bad, verdict: {subject: '"app.log"', verdict: '"critical"'}}]
      ok: [{id: mark-ok, verdict: {subject: '"app.log"', verdict: '"ok"'}}]
`)
	r := runCLIEnv(t, dir, []string{"LANG=de_DE.UTF-8", "LC_ALL="}, "exec", chart, "--format", "nagios")
	if r.code != 3 || !strings.HasPrefix(r.stdout, "error-count UNKNOWN") || !strings.Contains(r.stdout, "grep: app.log: No such file or directory") {
		t.Errorf("exit %d; want 3, UNKNOWN, grep's missing file said in C's words:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestUnresolvedHostUnderDeclaredCodeIsNoAnswer: `nc -z -w2 HOST 23`
// with `exitCodes: {0: open, 1: closed}`, a check that telnet is closed,
// exits 1 over a closed port (saying nothing) and as much over a host
// name it could not resolve (`nc: getaddrinfo for host "db01.prod" port
// 23: Name or service not known`): a name misspelt in the inputs said
// `closed`, OK, Consistent. Such a line under a declared non-zero code is
// now a not-checked item (kind no-dns-answer): UNKNOWN. The same code
// with nothing on stderr stays the answer, and a chart that names the
// line as its answer ({1: {word: unresolvable, stderr: …}}) is taken at
// its word.
func TestUnresolvedHostUnderDeclaredCodeIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, script, codes, status string
		code                        int
	}{
		{"nc over a name not known", `echo 'nc: getaddrinfo for host "db01.prod" port 23: Name or service not known' >&2; exit 1`, `{0: open, 1: closed}`, "telnet UNKNOWN - 1 stage did not check everything (probe), 1 closed", 3},
		{"no name server", `echo 'nc: getaddrinfo for host "db01.prod" port 23: Temporary failure in name resolution' >&2; exit 1`, `{0: open, 1: closed}`, "telnet UNKNOWN - 1 stage did not check everything (probe), 1 closed", 3},
		{"ssh", `echo 'ssh: Could not resolve hostname db01.prod: Name or service not known' >&2; exit 255`, `{0: open, 255: closed}`, "telnet UNKNOWN - 1 stage did not check everything (probe), 1 closed", 3},
		{"a closed port", `exit 1`, `{0: open, 1: closed}`, "telnet OK - 1 closed", 0},
		{"the chart's own answer", `echo 'nc: getaddrinfo for host "x" port 23: Name or service not known' >&2; exit 1`, `{0: open, 1: {word: closed, stderr: Name or service not known}}`, "telnet OK - 1 closed", 0},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: telnet
result: {kind: verdict/port, decider: Port, nagios: {ok: [closed], critical: [open]}}
stages:
  - id: probe
    exec:
      shell: '`+strings.ReplaceAll(tc.script, "'", "''")+`'
      exitCodes: `+tc.codes+`
      into: p
  - id: port
    name: Port
    decide:
      rules:
        - {when: (p.status ?? "") == "open", then: open, label: telnet answers}
        - {when: (p.status ?? "") == "closed", then: closed, label: nothing answers on 23}
      default: {branch: unknown, label: no answer}
    branches:
      open: [{id: m1, verdict: {subject: '"db01.prod"', verdict: '"open"'}}]
      closed: [{id: m2, verdict: {subject: '"db01.prod"', verdict: '"closed"'}}]
      unknown: [{id: m3, verdict: {subject: '"db01.prod"', verdict: '"unknown"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if r.code != tc.code || !strings.HasPrefix(r.stdout, tc.status) {
			t.Errorf("%s: exit %d:\n%s\nwant exit %d, %q first", tc.name, r.code, r.stdout, tc.code, tc.status)
		}
		if tc.code == 3 && !strings.Contains(r.stdout, "found no address for the host it was given") {
			t.Errorf("%s: the item does not say why:\n%s", tc.name, r.stdout)
		}
	}
}

// TestUnresolvedHostOnStderrIsNoWholeAnswer: `for h in web1 web2 wbe3;
// do ssh "$h" uptime || true; done` prints the rows of the hosts it
// reached, says `ssh: Could not resolve hostname wbe3: Name or service
// not known` for the misspelt one and exits 0; a chart of loaded hosts
// said OK, Consistent, over a host nobody asked. A line saying a host was
// not resolved, beside exit 0, is now a not-checked item (kind denied).
func TestUnresolvedHostOnStderrIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "load.yaml", perRowChart("load", "Load",
		` {shell: "echo 'web1 0.10'; echo 'web2 0.20'; echo 'ssh: Could not resolve hostname wbe3: Name or service not known' >&2", parse: {as: columns, header: false, names: [host, load]}}`, "h", `
              - {when: 'h.load > 4', then: bad, label: Loaded}`, "h.host"))
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	const said = `it said on stderr that it found no address for a host it was given though it exited 0`
	if r.code != 3 || !strings.HasPrefix(r.stdout, "load UNKNOWN") || !strings.Contains(r.stdout, said) {
		t.Errorf("exit %d:\n%s\nwant exit 3, UNKNOWN, saying %q", r.code, r.stdout, said)
	}
}

// TestEtcdEndpointUnreachedIsNoWholeAnswer: `etcdctl endpoint status -w
// json || true` over a three-member cluster with one member stopped
// prints the two that answered, says `Failed to get the status of
// endpoint 127.0.0.1:33820 (context deadline exceeded)` on stderr and
// exits 1, which `|| true` makes 0; a status check said `OK - 2 ok`,
// Consistent, over a cluster one member short (etcd 3.4.23,
// testdata/wave-etcd/status). The line is a not-checked item now (kind
// denied): UNKNOWN, saying which endpoint went unanswered.
func TestEtcdEndpointUnreachedIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "status.yaml", perRowChart("etcd", "Member",
		` {shell: "echo '[{\"Endpoint\":\"127.0.0.1:33800\",\"Status\":{\"leader\":16217671083791174852}},{\"Endpoint\":\"127.0.0.1:33810\",\"Status\":{\"leader\":16217671083791174852}}]'; echo 'Failed to get the status of endpoint 127.0.0.1:33820 (context deadline exceeded)' >&2", parse: {as: json}}`, "s", `
              - {when: 's.Status.leader == 0', then: bad, label: No leader}`, "s.Endpoint"))
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	const said = `it said on stderr that it had no answer from an endpoint it was given though it exited 0`
	if r.code != 3 || !strings.HasPrefix(r.stdout, "etcd UNKNOWN") || !strings.Contains(r.stdout, said) || !strings.Contains(r.stdout, "127.0.0.1:33820") {
		t.Errorf("exit %d:\n%s\nwant exit 3, UNKNOWN, saying %q and naming the endpoint", r.code, r.stdout, said)
	}
}

// TestOptionIgnoredOnStderrIsNoAnswer: varnishstat 7.1 given -f with no
// value (or an option it does not take, -q) says `varnishstat: option
// requires an argument -- 'f'` on stderr, prints every counter as if no
// filter had been asked for, and exits 0; a chart over the counters it
// asked for judged others, Consistent. getopt's line beside exit 0 is a
// not-checked item now (kind denied).
func TestOptionIgnoredOnStderrIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "stat.yaml", perRowChart("stat", "Counter",
		` {shell: "echo 'MAIN.cache_hit 21'; echo 'MAIN.cache_miss 6'; echo \"varnishstat: option requires an argument -- 'f'\" >&2", parse: {as: columns, header: false, names: [counter, value]}}`, "c", `
              - {when: 'c.value > 1000', then: bad, label: Many}`, "c.counter"))
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	const said = `it said on stderr that it was given an option it does not take, or one with no value though it exited 0`
	if r.code != 3 || !strings.HasPrefix(r.stdout, "stat UNKNOWN") || !strings.Contains(r.stdout, said) {
		t.Errorf("exit %d:\n%s\nwant exit 3, UNKNOWN, saying %q", r.code, r.stdout, said)
	}
}

// TestPipelineWhoseEarlierCommandsExitedZeroAnswersItself: `curl -sSf URL |
// promtool check metrics` under {0: clean, 3: problems} exits with
// promtool's 3 and its lint lines on stderr; the pipeline's codes (0 3)
// say curl succeeded, so the 3 is the answering command's own. It was a
// piped-answer item all the same ("the 3 may be another command's
// failure"), Not sure, Nagios UNKNOWN, over an answer the record proves.
// With an earlier command failed it still is one.
func TestPipelineWhoseEarlierCommandsExitedZeroAnswersItself(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := func(name, first string) string {
		return writeChart(t, dir, name, `version: 1
runbook: lint
result: {kind: verdict/lint, decider: Lint}
stages:
  - id: lint
    exec:
      shell: '`+first+` | sh -c "cat >/dev/null; echo \"node_x_bits use base unit bytes\" >&2; exit 3"'
      exitCodes: {0: clean, 3: problems}
  - id: judge
    name: Lint
    decide:
      rules:
        - {when: 'lint.status == "problems"', then: problems, label: The linter found problems}
      default: {branch: clean, label: The linter found nothing}
    branches:
      problems: [{id: p, verdict: {subject: '"metrics"', verdict: '"warning"'}}]
      clean: [{id: c, verdict: {subject: '"metrics"', verdict: '"ok"'}}]
`)
	}
	if err := os.WriteFile(filepath.Join(dir, "m.prom"), []byte("bar 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, dir, "exec", chart("ok.yaml", "cat m.prom"), "--format", "nagios")
	if r.code != 1 || !strings.HasPrefix(r.stdout, "lint WARNING - 1 warning (metrics)") || strings.Contains(r.stdout, "did not check its answer") {
		t.Errorf("the linter's own 3: exit %d; want 1, WARNING, its answer taken:\n%s", r.code, r.stdout)
	}
	r = runCLI(t, dir, "exec", chart("failed.yaml", "cat gone.prom"), "--format", "nagios")
	if r.code != 1 || !strings.Contains(r.stdout, "did not check its answer") || !strings.Contains(r.stdout, "exited 1 3") {
		t.Errorf("cat failed before the linter: exit %d; want a piped-answer item naming the codes 1 3:\n%s", r.code, r.stdout)
	}
}

// TestKeyringMadeForTheReadIsNoWholeAnswer: gpg given a --keyring that is
// not there (a path misspelt) makes it, says `gpg: keybox '…' created` on
// stderr, lists its keys — none — and exits 0; a chart of expired keys,
// rows for findings only, said nothing to report, Consistent. The keyring
// gpg made is a gap in what was read (gpg 2.2.40 printed the lines below;
// its trustdb made on a first run is no such gap).
func TestKeyringMadeForTheReadIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stderr string
		gap          bool
	}{
		{"keyring made", `gpg: keybox '/etc/apt/trusted.gpg.d/debian-archve.gpg' created\ngpg: /root/.gnupg/trustdb.gpg: trustdb created`, true},
		{"gpg 1's words", "gpg: keyring `/etc/apt/trusted.gpg.d/debian-archve.gpg' created", true},
		{"trustdb alone", `gpg: /root/.gnupg/trustdb.gpg: trustdb created`, false},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: apt-keys
result: {kind: verdict/key, decider: Expiry, empty: answer, nagios: {critical: [expired]}}
stages:
  - id: ring
    exec:
      parse: lines
      shell: |
        echo 'tru::1:1796645528:0:3:1:5'
        cat >&2 <<'END'
        `+strings.ReplaceAll(tc.stderr, `\n`, "\n        ")+`
        END
  - id: per
    foreach:
      items: 'filter(ring.stdout, # startsWith "pub:")'
      as: k
      maxBranches: 100
      stages:
        - id: judge
          name: Expiry
          decide:
            rules:
              - {when: 'split(k, ":")[1] == "e"', then: expired, label: the key has expired}
            default: {branch: fine, label: the key is valid}
          branches:
            expired: [{id: x, verdict: {subject: 'split(k, ":")[4]', verdict: '"expired"'}}]
            fine: []
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		const said = `it said on stderr that it made the keyring it was given, which was not there, and read it new and empty though it exited 0`
		if tc.gap && (r.code != 3 || !strings.HasPrefix(r.stdout, "apt-keys UNKNOWN") || !strings.Contains(r.stdout, said)) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %s:\n%s", tc.name, r.code, said, r.stdout)
		}
		if !tc.gap && (r.code != 0 || strings.Contains(r.stdout, said)) {
			t.Errorf("%s: exit %d; want 0, no gap:\n%s", tc.name, r.code, r.stdout)
		}
	}
}

// TestMySQLRefusalIsNoWholeAnswer: MySQL and MariaDB say a refusal in
// their own words, never "Permission denied": `Access denied for user
// 'monitor'@'localhost' (using password: YES)` (1045, 1044), 1227's
// `Access denied; you need (at least one of) the PROCESS privilege(s)`,
// and `SELECT command denied to user 'lim'@'localhost' for table …`
// (1142, 1143). A `mysql … || echo '[]'` refused its login printed the
// fallback, exit 0, and read as nothing found. A refusal in these words
// is a refusal now,
// as `Permission denied` is: UNKNOWN, quoting the line, under exit 0;
// under a code the chart declared an answer (`down`, CRITICAL, as a row
// that reads CRITICAL keeps its state) the row is not judged. Real
// mysqladmin and mysql
// 10.11 output (testdata/wave-mysql/ping).
func TestMySQLRefusalIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tool := func(name, stdout, stderr string, code int) string {
		return fakeTool(t, filepath.Join(dir, name), stdout, stderr, code)
	}
	for _, tc := range []struct {
		name, stdout, stderr string
		exit                 int
		status, said         string
		code                 int
	}{
		{"mysql or echo a list refused", "[]\n", "ERROR 1045 (28000): Access denied for user 'monitor'@'localhost' (using password: YES)\n", 0,
			"ping UNKNOWN - 1 stage did not check everything (ping), 1 up", `it said on stderr that it was refused access though it exited 0`, 3},
		{"mysql refused a table under a declared code", "", "ERROR 1142 (42000) at line 1: SELECT command denied to user 'lim'@'localhost' for table `shop`.`crash`\n", 1,
			"ping CRITICAL - 1 stage did not check everything (ping), 1 down", "but it said on stderr that it was refused access", 2},
		{"mysql refused the PROCESS privilege under a declared code", "", "ERROR 1227 (42000) at line 1: Access denied; you need (at least one of) the PROCESS privilege(s) for this operation\n", 1,
			"ping CRITICAL - 1 stage did not check everything (ping), 1 down", "but it said on stderr that it was refused access", 2},
		{"mysqld is alive", "mysqld is alive\n", "", 0, "ping OK - 1 up", "Consistent", 0},
		{"no server", "", "mysqladmin: connect to server at 'localhost' failed\nerror: 'Can't connect to local server through socket '/run/mysqld/mysqld.sock' (2)'\n", 1,
			"ping CRITICAL - 1 down", "Consistent", 2},
	} {
		name := strings.ReplaceAll(tc.name, " ", "-")
		chart := writeChart(t, dir, name+".yaml", `version: 1
runbook: ping
result: {kind: verdict/server, decider: Alive, nagios: {ok: [up], critical: [down]}}
stages:
  - id: ping
    exec: {command: [`+tool(name, tc.stdout, tc.stderr, tc.exit)+`, ping], exitCodes: {0: up, 1: down}}
  - id: alive
    name: Alive
    decide:
      rules:
        - {when: ping.status == "down", then: down, label: Not reached}
      default: {branch: up, label: Answered}
    branches:
      down: [{id: d, verdict: {subject: '"db1"', verdict: '"down"'}}]
      up: [{id: u, verdict: {subject: '"db1"', verdict: '"up"'}}]
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}

// TestMySQLTableNotCheckedIsNoWholeAnswer: MariaDB's mysqlcheck, given
// tables by name (`mysqlcheck shop orders crash`), passes over one it
// cannot check, prints the others' OK and exits 0, saying on stderr
// `Failed to SHOW CREATE TABLE `crash“ and why on the line after: a
// MyISAM table marked as crashed, a name misspelt, a table the user may
// not see. A table check said `OK - 1 ok`, Consistent, over a crashed
// table nobody checked. Each is no whole answer now: UNKNOWN, quoting
// both lines. Real mysqlcheck 10.11 output (testdata/wave-mysql/tables).
func TestMySQLTableNotCheckedIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, why string
	}{
		{"crashed", "Error: Table './shop/crash' is marked as crashed and last (automatic?) repair failed"},
		{"misspelt", "Error: Table 'shop.ordres' doesn't exist"},
		{"refused", "Error: SHOW command denied to user 'lim'@'localhost' for table `shop`.`crash`"},
		{"checked", ""},
	} {
		tool := filepath.Join(dir, tc.name)
		script := "#!/bin/sh\nprintf '%s\\n' 'shop.orders                                        OK'\n"
		if tc.why != "" {
			script += "cat >&2 <<'EOF'\nFailed to SHOW CREATE TABLE `crash`\n" + tc.why + "\nEOF\n"
		}
		if err := writeExec(tool, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		chart := writeChart(t, dir, tc.name+".yaml", perRowChart("tables", "Table",
			" {command: ["+tool+", shop, orders, crash], parse: {as: regex, pattern: '^(?P<t>\\S+)\\s+(?P<s>\\S+)$'}}", "r", `
              - {when: 'r.s != "OK"', then: bad, label: Not OK}`, "r.t"))
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if tc.why == "" {
			if !strings.HasPrefix(r.stdout, "tables OK - 1 ok") || r.code != 0 {
				t.Errorf("%s: exit %d:\n%s\nwant OK", tc.name, r.code, r.stdout)
			}
			continue
		}
		said := fmt.Sprintf("it said on stderr that it passed over a table it was given though it exited 0, so its output holds only the tables it checked, and that one was checked by no one (it may be misspelt, hidden from this user, or crashed); stderr's first such line, with the one after it: %q",
			"Failed to SHOW CREATE TABLE `crash`: "+tc.why)
		if tc.name == "refused" {
			// the line after says why, a refusal, and is said as one
			said = fmt.Sprintf("it said on stderr that it was refused access though it exited 0, so its output holds only what it could read, and what it left out is not known to be absent; stderr's first such line: %q",
				"Failed to SHOW CREATE TABLE `crash`: "+tc.why)
		}
		if !strings.HasPrefix(r.stdout, "tables UNKNOWN - 1 stage did not check everything (out), 1 ok") || r.code != 3 || !strings.Contains(r.stdout, said) {
			t.Errorf("%s: exit %d:\n%s\nwant exit 3, UNKNOWN, saying %s", tc.name, r.code, r.stdout, said)
		}
	}
}

// TestMySQLAdminPingRefusedIsNoAnswer: `mysqladmin ping` exits 0
// whenever the server answered at all, saying `mysqladmin: connect to
// server at 'localhost' failed` and why on stderr: a wrong password
// (`Access denied for user …`), `Too many connections`; under --silent
// (`mysqladmin ping -s`, as Docker health checks run it) it says nothing
// at all. A liveness check under `exitCodes: {0: up, 1: down}` said up,
// OK, Consistent, over a server refusing every new connection. Not sure
// now, UNKNOWN, quoting both lines where it wrote them, and saying it
// printed no `mysqld is alive` where it wrote nothing; `mysqld is alive`
// is up, and no server at the socket (exit 1) down. Real mysqladmin 10.11 output (testdata/wave-mysql/ping).
func TestMySQLAdminPingRefusedIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const failed = "mysqladmin: connect to server at 'localhost' failed"
	for _, tc := range []struct {
		name, stdout, why string
		exit              int
		status            string
		code              int
	}{
		{"too many connections", "", "error: 'Too many connections'", 0, "ping UNKNOWN - 1 stage did not check everything (ping), 1 up", 3},
		{"a wrong password", "", "error: 'Access denied for user 'monitor'@'localhost' (using password: YES)'", 0, "ping UNKNOWN - 1 stage did not check everything (ping), 1 up", 3},
		{"silent", "", "", 0, "ping UNKNOWN - 1 stage did not check everything (ping), 1 up", 3},
		{"alive", "mysqld is alive", "", 0, "ping OK - 1 up", 0},
		{"no server", "", "error: 'Can't connect to local server through socket '/run/mysqld/mysqld.sock' (2)'", 1, "ping CRITICAL - 1 down", 2},
	} {
		name := strings.ReplaceAll(tc.name, " ", "-")
		if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		tool := filepath.Join(dir, name, "mysqladmin")
		script := "#!/bin/sh\n"
		if tc.stdout != "" {
			script += "echo '" + tc.stdout + "'\n"
		}
		if tc.why != "" {
			script += "cat >&2 <<'EOF'\n" + failed + "\n" + tc.why + "\nEOF\n"
		}
		script += fmt.Sprintf("exit %d\n", tc.exit)
		if err := writeExec(tool, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		chart := writeChart(t, dir, name+".yaml", `version: 1
runbook: ping
result: {kind: verdict/server, decider: Alive, nagios: {ok: [up], critical: [down]}}
stages:
  - id: ping
    exec: {command: [`+tool+`, ping], exitCodes: {0: up, 1: down}}
  - id: alive
    name: Alive
    decide:
      rules:
        - {when: ping.status == "down", then: down, label: Not reached}
      default: {branch: up, label: Answered}
    branches:
      down: [{id: d, verdict: {subject: '"db1"', verdict: '"down"'}}]
      up: [{id: u, verdict: {subject: '"db1"', verdict: '"up"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if !strings.HasPrefix(r.stdout, tc.status) || r.code != tc.code {
			t.Errorf("%s: exit %d:\n%s\nwant exit %d, %q first", tc.name, r.code, r.stdout, tc.code, tc.status)
		}
		if tc.name == "silent" {
			if said := `it runs mysqladmin ping and did not print "mysqld is alive" though it exited 0, which the chart declares the answer "up"`; !strings.Contains(r.stdout, said) {
				t.Errorf("%s: want it to say %s:\n%s", tc.name, said, r.stdout)
			}
		} else if tc.code == 3 {
			said := fmt.Sprintf("it said on stderr that it could not connect to the server it asks though it exited 0 (mysqladmin ping exits 0 whenever the server answered at all, a refused login and too many connections among it), so the server answered and refused: that is no server up for its clients; stderr's first such line, with the one after it: %q", failed+": "+tc.why)
			if !strings.Contains(r.stdout, said) {
				t.Errorf("%s: want it to say %s:\n%s", tc.name, said, r.stdout)
			}
		}
	}
}

// TestLVMMissingPVIsNoWholeAnswer: vgs, lvs and pvs over a volume group
// one of whose physical volumes is gone (a disk pulled, a loop device
// detached) print the VG as its metadata on the disks left describes it,
// say `WARNING: Couldn't find device with uuid …` and `WARNING: VG vg0 is
// missing PV …` on stderr, and exit 0. A chart of VG free space said `OK
// - 1 ok`, Consistent, over a partial VG whose free bytes were half on the
// missing disk (testdata/wave-lvm/vg-free/naive.yaml). lvm 2.02's words
// (`WARNING: Device for PV … not found or rejected by a filter.`) are the
// same gap; another LVM warning is none.
func TestLVMMissingPVIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const said = `stage "vgs" did not check its output (it said on stderr that it could not find a device (PV) of a volume group it reports though it exited 0, `
	for _, tc := range []struct {
		name, stderr string
		line         string
	}{
		{"lvm 2.03", `  WARNING: Couldn't find device with uuid 0okUC3-Yaae-QJ1o-r93w-dMZq-EEyS-VVuGld.\n  WARNING: VG vg0 is missing PV 0okUC3-Yaae-QJ1o-r93w-dMZq-EEyS-VVuGld (last written to /dev/loop1).`,
			`"WARNING: Couldn't find device with uuid 0okUC3-Yaae-QJ1o-r93w-dMZq-EEyS-VVuGld."`},
		{"lvm 2.03 missing PV alone", `  WARNING: VG vg0 is missing PV 0okUC3-Yaae-QJ1o-r93w-dMZq-EEyS-VVuGld (last written to /dev/loop1).`,
			`"WARNING: VG vg0 is missing PV 0okUC3-Yaae-QJ1o-r93w-dMZq-EEyS-VVuGld (last written to /dev/loop1)."`},
		{"lvm 2.02", `  WARNING: Device for PV 0okUC3-Yaae-QJ1o-r93w-dMZq-EEyS-VVuGld not found or rejected by a filter.`,
			`"WARNING: Device for PV 0okUC3-Yaae-QJ1o-r93w-dMZq-EEyS-VVuGld not found or rejected by a filter."`},
		{"another LVM warning", `  WARNING: Running as a non-root user. Functionality may be unavailable.`, ""},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: vg-free
result: {kind: verdict/vg-free, decider: Headroom, nagios: {critical: [low]}}
stages:
  - id: vgs
    exec:
      parse: json
      shell: |
        echo '{"report": [{"vg": [{"vg_name": "vg0", "vg_size": "411041792", "vg_free": "411041792"}]}]}'
        printf "`+tc.stderr+`\n" >&2
  - id: per
    foreach:
      items: vgs.stdout.report[0].vg
      as: vg
      maxBranches: 64
      stages:
        - id: headroom
          name: Headroom
          decide:
            rules:
              - {when: 'int(vg.vg_free) * 10 < int(vg.vg_size)', then: low, label: under a tenth free}
            default: {branch: ok, label: a tenth or more free}
          branches:
            low: [{id: l, verdict: {subject: vg.vg_name, verdict: '"low"'}}]
            ok: [{id: o, verdict: {subject: vg.vg_name, verdict: '"ok"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if tc.line == "" {
			if r.code != 0 || strings.Contains(r.stdout, "could not find a device") {
				t.Errorf("%s: exit %d; want 0, nothing said of the warning:\n%s", tc.name, r.code, r.stdout)
			}
			continue
		}
		if r.code != 3 || !strings.HasPrefix(r.stdout, "vg-free UNKNOWN") || !strings.Contains(r.stdout, said) || !strings.Contains(r.stdout, tc.line) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %s… %s:\n%s", tc.name, r.code, said, tc.line, r.stdout)
		}
	}
}

// TestLVMWithoutDeviceMapperIsNoWholeAnswer: lvs where it cannot reach the
// kernel's device-mapper driver (a container without /dev/mapper/control,
// a kernel without dm) prints every LV from the VG metadata, its live
// state unread: the attr's state letters X, lv_health_status and a thin
// pool's data_percent blank; it says `/dev/mapper/control: open failed: No
// such device` and `Failure to communicate with kernel device-mapper
// driver.` on stderr, and exits 0. A chart of LV health said `OK - 3 ok`,
// Consistent, over three LVs nobody read the health of
// (testdata/wave-lvm/lv-health).
func TestLVMWithoutDeviceMapperIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const said = `stage "lvs" did not check its output (it said on stderr that it could not reach the kernel's device-mapper driver though it exited 0, `
	for _, tc := range []struct {
		name, stderr string
		line         string
	}{
		{"no dm driver", `  /dev/mapper/control: open failed: No such device\n  Failure to communicate with kernel device-mapper driver.\n  Check that device-mapper is available in the kernel.`,
			`"/dev/mapper/control: open failed: No such device"`},
		{"the driver line alone", `  Failure to communicate with kernel device-mapper driver.`,
			`"Failure to communicate with kernel device-mapper driver."`},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: lv-health
result: {kind: verdict/lv-health, decider: Health, nagios: {critical: [unhealthy]}}
stages:
  - id: lvs
    exec:
      parse: json
      shell: |
        echo '{"report": [{"lv": [{"lv_name": "root", "lv_attr": "-wi-XX----", "lv_health_status": ""}]}]}'
        printf "`+tc.stderr+`\n" >&2
  - id: per
    foreach:
      items: lvs.stdout.report[0].lv
      as: lv
      maxBranches: 64
      stages:
        - id: health
          name: Health
          decide:
            rules:
              - {when: 'lv.lv_health_status != ""', then: unhealthy, label: a health problem}
            default: {branch: ok, label: no health problem}
          branches:
            unhealthy: [{id: u, verdict: {subject: lv.lv_name, verdict: '"unhealthy"'}}]
            ok: [{id: o, verdict: {subject: lv.lv_name, verdict: '"ok"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if r.code != 3 || !strings.HasPrefix(r.stdout, "lv-health UNKNOWN") || !strings.Contains(r.stdout, said) || !strings.Contains(r.stdout, tc.line) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %s… %s:\n%s", tc.name, r.code, said, tc.line, r.stdout)
		}
	}
}

// TestLDAPSearchCutAtALimitIsNoWholeAnswer: ldapsearch stopped by a size
// or time limit (slapd's default anonymous sizelimit, its own -z or -l)
// prints the entries it got before the limit, says `Size limit exceeded
// (4)` on stderr and exits 4; a remote shell with no pipefail (`ssh ldap1
// 'ldapsearch … | awk …'`) or `|| true` makes that 0, and a check of
// expired accounts said OK, Consistent, over the first five accounts of
// the directory, the sixth expired. testdata/wave-ldap/expired.
func TestLDAPSearchCutAtALimitIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const said = `stage "search" did not check its output (it said on stderr that it stopped its search at a limit and printed only the entries found before it though it exited 0, so an entry past the limit is not known to be absent; stderr's first such line: `
	for _, tc := range []struct {
		name, stderr, line string
	}{
		{"size limit", `Size limit exceeded (4)`, `"Size limit exceeded (4)"`},
		{"time limit", `Time limit exceeded (3)`, `"Time limit exceeded (3)"`},
		{"administrative limit", `Administrative limit exceeded (11)\n\tadditional info: unchecked limit`, `"Administrative limit exceeded (11)"`},
		{"a search that ended", ``, ""},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: expired
result: {kind: verdict/account, decider: Expiry, nagios: {ok: [active], warning: [expired]}}
stages:
  - id: search
    exec:
      parse: {as: csv, header: false, names: [uid, shadowExpire]}
      shell: |
        printf 'alice,30000\nbob,30001\n'
        printf "`+tc.stderr+`" >&2
  - id: per
    foreach:
      items: search.stdout
      as: a
      maxBranches: 64
      stages:
        - id: expiry
          name: Expiry
          decide:
            rules:
              - {when: 'a.shadowExpire <= 20000', then: expired, label: the day has passed}
            default: {branch: active, label: expires later}
          branches:
            expired: [{id: e, verdict: {subject: a.uid, verdict: '"expired"'}}]
            active: [{id: a, verdict: {subject: a.uid, verdict: '"active"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if tc.line == "" {
			if r.code != 0 || !strings.HasPrefix(r.stdout, "expired OK") {
				t.Errorf("%s: exit %d; want 0, OK:\n%s", tc.name, r.code, r.stdout)
			}
			continue
		}
		if r.code != 3 || !strings.HasPrefix(r.stdout, "expired UNKNOWN") || !strings.Contains(r.stdout, said+tc.line) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %s%s:\n%s", tc.name, r.code, said, tc.line, r.stdout)
		}
	}
}

// TestHAProxyStateFileIsNoGapOfItsCheck: `haproxy -c` over a config that
// names a server-state-file (load-server-state-from-file global) warns
// `Can't open global server state file '/var/lib/haproxy/server-state':
// No such file or directory` until a reload has written one, and says
// `Configuration file is valid`, exit 0. The missing file read as output
// left out: valid, Not sure, UNKNOWN, on every fresh host (HAProxy 2.6,
// testdata/wave-haproxy/config). The file is no ground of a config
// check: OK now. A config file it could not open is still no answer.
func TestHAProxyStateFileIsNoGapOfItsCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stderr, status string
		code                 int
	}{
		{"state file not there yet", `[WARNING]  (670) : config : config: Can't open global server state file '/var/lib/haproxy/server-state': No such file or directory`, "haproxy OK - 1 valid", 0},
		{"state file refused", `[WARNING]  (670) : config : config: Can't open global server state file '/var/lib/haproxy/server-state': Permission denied`, "haproxy OK - 1 valid", 0},
		{"an included file refused", `[ALERT]    (674) : config : Cannot open configuration file/directory /etc/haproxy/conf.d/tls.cfg : Permission denied`, "haproxy UNKNOWN", 3},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: haproxy
result: {kind: verdict/config, nagios: {ok: [valid], critical: [invalid]}}
stages:
  - id: check
    exec:
      shell: |
        printf 'Warnings were found.\nConfiguration file is valid\n'
        printf '%s\n' "`+tc.stderr+`" >&2
      exitCodes: {0: valid, 1: invalid}
  - {id: v, verdict: {subject: '"/etc/haproxy/haproxy.cfg"', verdict: check.status}}
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if r.code != tc.code || !strings.HasPrefix(r.stdout, tc.status) {
			t.Errorf("%s: exit %d:\n%s\nwant exit %d, %q first", tc.name, r.code, r.stdout, tc.code, tc.status)
		}
	}
}

// TestConfigPartIgnoredIsNoAnswerOfValid: logrotate -d over a config with
// an option misspelt (`compres`) says `error: app:4 unknown option
// 'compres' -- ignoring line` and exits 0, and over a file of it that is
// world-writable `error: Ignoring app because it is writable by group or
// others.`, exit 0: a check under {0: valid, 1: invalid} said valid, OK,
// Consistent, of a config logrotate read without that line or file. Its
// routine `Ignoring app.dpkg-old, because of *.dpkg-old pattern match`
// is no error and leaves the answer alone. visudo -c over a rule naming
// an alias no line defines (`User_Alias "OPSX" referenced but not
// defined`) exits 0 too, and sudo reads the rule as matching no one: the
// same valid, Consistent; its `Warning: … unused User_Alias` is not
// flagged.
func TestConfigPartIgnoredIsNoAnswerOfValid(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stderr string
		flagged      bool
	}{
		{"unknown option", `reading config file app\nerror: app:4 unknown option 'compres' -- ignoring line\nHandling 1 logs`, true},
		{"writable file", `including /etc/logrotate.d\nerror: Ignoring app because it is writable by group or others.\nHandling 0 logs`, true},
		{"wrong owner", `error: Ignoring app because the file owner is wrong (should be root or user with uid 0).`, true},
		{"dpkg-old", `Ignoring app.dpkg-old, because of *.dpkg-old pattern match\nreading config file app\nHandling 1 logs`, false},
		{"alias undefined", `/etc/sudoers.d/ops:2:29: User_Alias \"OPSX\" referenced but not defined\nWarning: /etc/sudoers.d/ops:1:12: unused User_Alias \"UNUSED\"`, true},
		{"alias unused", `Warning: /etc/sudoers.d/ops:1:12: unused User_Alias \"UNUSED\"`, false},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: lr
result: {kind: verdict/config, decider: Config, nagios: {ok: [valid], critical: [invalid]}}
stages:
  - id: lr
    exec:
      shell: |
        printf "`+tc.stderr+`\n" >&2
      exitCodes: {0: valid, 1: invalid}
  - id: config
    name: Config
    decide:
      rules:
        - {when: 'lr.status == "invalid"', then: invalid, label: exited 1}
      default: {branch: valid, label: exited 0}
    branches:
      invalid: [{id: i, verdict: {subject: '"logrotate.conf"', verdict: '"invalid"'}}]
      valid: [{id: v, verdict: {subject: '"logrotate.conf"', verdict: '"valid"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if !tc.flagged {
			if r.code != 0 || strings.Contains(r.stdout, "did not check") {
				t.Errorf("%s: exit %d; want 0, nothing flagged:\n%s", tc.name, r.code, r.stdout)
			}
			continue
		}
		said, advice := `stage "lr" did not check its output (it said on stderr that it met an error in what it read and went on without that part though it exited 0`, "logrotate -d names each"
		if strings.Contains(tc.stderr, "referenced") {
			said, advice = `stage "lr" did not check its output (it said on stderr that it found a rule naming an alias that no line defines though it exited 0`, "visudo -c -s, strict, exits 1 over it"
		}
		if r.code != 3 || !strings.HasPrefix(r.stdout, "lr UNKNOWN") || !strings.Contains(r.stdout, said) || !strings.Contains(r.stdout, advice) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %s:\n%s", tc.name, r.code, said, r.stdout)
		}
	}
}

// TestSshdThatCouldNotRunIsNoAnswer: sshd -t exits 255 over a bad keyword
// in sshd_config and as much where /run/sshd is not there (`Missing
// privilege separation directory: /run/sshd`), and a check under {0:
// valid, 255: invalid} said invalid, Consistent, of a configuration sshd
// accepts. That line (and `no hostkeys available`, exit 1) under a
// declared code is no answer now; a bad keyword's 255 is still invalid.
func TestSshdThatCouldNotRunIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stderr string
		exit         int
		flagged      bool
	}{
		{"no privsep dir", `Missing privilege separation directory: /run/sshd`, 255, true},
		{"no host keys", `sshd: no hostkeys available -- exiting.`, 1, true},
		{"bad keyword", `/etc/ssh/sshd_config.d/x.conf: line 1: Bad configuration option: PermitRootLogn\n/etc/ssh/sshd_config.d/x.conf: terminating, 1 bad configuration options`, 255, false},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", fmt.Sprintf(`version: 1
runbook: sshd
result: {kind: verdict/config, decider: Config, nagios: {ok: [valid], critical: [invalid]}}
stages:
  - id: sshd
    exec:
      shell: |
        printf "%s\n" >&2; exit %d
      exitCodes: {0: valid, 1: invalid, 255: invalid}
  - id: config
    name: Config
    decide:
      rules:
        - {when: 'sshd.status == "invalid"', then: invalid, label: refused}
      default: {branch: valid, label: read}
    branches:
      invalid: [{id: i, verdict: {subject: '"sshd_config"', verdict: '"invalid"'}}]
      valid: [{id: v, verdict: {subject: '"sshd_config"', verdict: '"valid"'}}]
`, tc.stderr, tc.exit))
		r := runCLI(t, dir, "exec", chart)
		const said = `it said on stderr that it could not start for a cause outside the configuration it was to judge`
		if got := strings.Contains(r.stdout, said) && strings.Contains(r.stdout, "Not sure"); got != tc.flagged {
			t.Errorf("%s: said it %v, want %v:\n%s", tc.name, got, tc.flagged, r.stdout)
		}
		if !tc.flagged && !strings.Contains(r.stdout, "Consistent") {
			t.Errorf("%s: want Consistent, invalid:\n%s", tc.name, r.stdout)
		}
	}
}

// TestSudoRefusalUnderDeclaredCodeIsNoAnswer: a monitoring account runs
// `sudo -n grep -rlE NOPASSWD /etc/sudoers /etc/sudoers.d` with {0:
// found, 1: none}; sudo that does not run the grep (no password to give
// under -n, no tty under requiretty, a command the sudoers do not allow)
// exits 1, grep's code for none found, and the check said `OK - no
// verdict rows`, Consistent, over files nobody read. sudo's words are a
// refusal now: UNKNOWN; so are runuser's and su's, run by a user.
// grep's own 1, with nothing on stderr, is none.
func TestSudoRefusalUnderDeclaredCodeIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stderr string
		refused      bool
	}{
		{"-n with no password", `sudo: a password is required`, true},
		{"requiretty", `sudo: sorry, you must have a tty to run sudo`, true},
		{"no terminal", `sudo: a terminal is required to read the password; either use the -S option to read from standard input or configure an askpass helper`, true},
		{"wrong password", `Sorry, try again.\nsudo: 1 incorrect password attempt`, true},
		{"command not allowed", `Sorry, user nagios is not allowed to execute '/usr/bin/grep -rlE NOPASSWD /etc/sudoers' as root on db1.`, true},
		{"not in sudoers", `nagios is not in the sudoers file.  This incident will be reported.`, true},
		{"runuser as a user", `runuser: may not be used by non-root users`, true},
		{"su with no password", `Password: su: Authentication failure`, true},
		{"none found", ``, false},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: grants
result: {kind: verdict/file, decider: Grant, empty: answer, nagios: {warning: [nopasswd]}}
stages:
  - id: grep
    exec:
      shell: |
        printf '`+strings.ReplaceAll(tc.stderr, "'", "'\\''")+`' >&2; exit 1
      exitCodes: {0: found, 1: none}
      parse: lines
  - id: per
    foreach:
      items: grep.stdout
      as: f
      maxBranches: 10
      stages:
        - id: grant
          name: Grant
          decide:
            rules:
              - {when: 'f != ""', then: nopasswd, label: grants}
            default: {branch: nopasswd, label: grants}
          branches:
            nopasswd: [{id: m, verdict: {subject: f, verdict: '"nopasswd"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if tc.refused {
			if r.code != 3 || !strings.HasPrefix(r.stdout, "grants UNKNOWN") || !strings.Contains(r.stdout, "it said on stderr that it was refused access") {
				t.Errorf("%s: exit %d; want 3, UNKNOWN, the refusal said:\n%s", tc.name, r.code, r.stdout)
			}
			continue
		}
		if r.code != 0 || !strings.HasPrefix(r.stdout, "grants OK - no verdict rows") {
			t.Errorf("%s: exit %d; want 0, OK:\n%s", tc.name, r.code, r.stdout)
		}
	}
}

// TestSudoOwnHostUnresolvedIsNoHostUnreached: in a container whose
// /etc/hosts lacks its hostname, sudo warns `sudo: unable to resolve host
// vm: Name or service not known` and runs the command; `sudo -n -l -U`
// of every account stood Not sure, saying it found no address for a host
// it was given and to check the name. It is no host unreached now; a
// host the command itself could not resolve still is.
func TestSudoOwnHostUnresolvedIsNoHostUnreached(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stderr string
		flagged      bool
	}{
		{"sudo's own host", `sudo: unable to resolve host vm: Name or service not known`, false},
		{"a host the command was given", `sudo: unable to resolve host vm: Name or service not known\nssh: Could not resolve hostname db1: Name or service not known`, true},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: rights
result: {kind: verdict/user, decider: Rights, nagios: {ok: [sudo]}}
stages:
  - id: list
    exec:
      shell: |
        echo 'User ops may run the following commands on vm:'
        printf '`+tc.stderr+`\n' >&2
      parse: lines
  - id: rights
    name: Rights
    decide:
      rules:
        - {when: 'any(list.stdout, # contains "may run")', then: sudo, label: may run}
      default: {branch: sudo, label: may run}
    branches:
      sudo: [{id: s, verdict: {subject: '"ops"', verdict: '"sudo"'}}]
`)
		r := runCLI(t, dir, "exec", chart)
		if got := strings.Contains(r.stdout, "found no address for a host it was given"); got != tc.flagged {
			t.Errorf("%s: flagged %v, want %v:\n%s", tc.name, got, tc.flagged, r.stdout)
		}
	}
}

// TestJVMUnreachedOnStderrIsNoWholeAnswer: `jcmd "$pid" Thread.print |
// grep -c '^"' || true` over a PID no JVM holds (gone, another user's, a
// JVM started with -XX:+DisableAttachMechanism) prints the PID's line
// `4242:` and `java.io.IOException: No such process` with a Java stack on
// stderr, exits 1, and grep counts 0: a thread check said OK, 0 threads,
// Consistent (OpenJDK 17, testdata/wave-jvm/threads). jstat's
// `MonitorException: … not found` is the same. Each is a not-checked item
// now (kind denied): UNKNOWN, saying the JVM was not reached.
func TestJVMUnreachedOnStderrIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, stderr string }{
		{"jcmd-gone", `java.io.IOException: No such process\n\tat jdk.attach/sun.tools.attach.VirtualMachineImpl.sendQuitTo(Native Method)`},
		{"jcmd-noattach", `com.sun.tools.attach.AttachNotSupportedException: The VM does not support the attach mechanism\n\tat jdk.attach/sun.tools.attach.HotSpotAttachProvider.testAttachable(HotSpotAttachProvider.java:154)`},
		{"jstat-gone", `sun.jvmstat.monitor.MonitorException: 4242 not found\n\tat jdk.internal.jvmstat/sun.jvmstat.perfdata.monitor.protocol.local.PerfDataBuffer.<init>(PerfDataBuffer.java:85)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			chart := writeChart(t, dir, "threads.yaml", perRowChart("threads", "Threads",
				` {shell: "printf '4242:\n' | grep -c '^\"' || true; printf '`+tc.stderr+`\n' >&2", parse: {as: columns, header: false, names: [threads]}}`, "c", `
              - {when: 'c.threads > 500', then: bad, label: Too many}`, `string(c.threads)`))
			r := runCLI(t, dir, "exec", chart, "--format", "nagios")
			const said = `it said on stderr that it could not reach the JVM it was given, or ask it what it was to ask though it exited 0`
			if r.code != 3 || !strings.HasPrefix(r.stdout, "threads UNKNOWN") || !strings.Contains(r.stdout, said) {
				t.Errorf("exit %d:\n%s\nwant exit 3, UNKNOWN, saying %q", r.code, r.stdout, said)
			}
		})
	}
}
