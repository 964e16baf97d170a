package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Issue #19, "Processes (none may outlive the run)": the real runbook
// binary, run to its end, out of time, interrupted (SIGINT, SIGTERM,
// SIGHUP), killed (SIGKILL), and with a plugin that never handshakes. After
// each, no process of the run is left, and the record is written in every
// case but SIGKILL.
//
// How the run's processes are found: runbook is started as the leader of
// a session of its own (setsid), so every process it starts, and every
// process those start, is in that session — still after it has been
// reparented to init. A process that leaves the session too (setsid) is
// found by the tag in its command line.

// issue19Case is one way a run ends.
type issue19Case struct {
	name string
	// chart is the chart's text; %[1]s is the tag (a unique sleep
	// argument), %[2]s the behave plugin's pid file, %[3]s the nohandshake
	// plugin's path.
	chart string
	args  []string
	// signal is sent once the run's processes are up (nil: none).
	signal os.Signal
	// twice: the signal is sent again 50ms later.
	twice bool
	// resume: the chart pauses first; the run measured is `runbook resume`.
	resume bool
	code   int  // the exit code wanted (-1: killed)
	record bool // a record must be written
	// message must be in the record's error, when given.
	message string
}

// The chart most cases run: an exec child and a stage plugin with a child
// of its own, at once.
const busyChart = `
version: 1
runbook: busy
stages:
  - id: both
    parallel:
      plug:
        - id: spawn
          plugin: {name: behave, args: {mode: '"spawn"', pidfile: '"%[2]s"'}}
      shell:
        - id: nap
          exec: {command: [sleep, "%[1]s"], timeout: 120s}
`

func TestIssue19NoProcessOutlivesTheRun(t *testing.T) {
	t.Parallel()
	tests := []issue19Case{
		{name: "normal end", chart: `
version: 1
runbook: quick
stages:
  - id: nap
    exec: {command: [sleep, "0.05"], env: {RUNBOOK_TEST_TAG: "%[1]s"}}
  - id: plug
    plugin: {name: behave, args: {mode: '"ok"'}}
`, code: 0, record: true},
		{name: "--timeout", chart: busyChart, args: []string{"--timeout", "1500ms"}, code: 1, record: true},
		{name: "SIGINT", chart: busyChart, signal: os.Interrupt, code: 130, record: true},
		{name: "SIGTERM", chart: busyChart, signal: syscall.SIGTERM, code: 130, record: true},
		{name: "SIGHUP", chart: busyChart, signal: syscall.SIGHUP, code: 130, record: true},
		// A closing terminal and its shell each send a hangup: the second
		// must not end runbook before its record is written.
		{name: "SIGHUP twice", chart: busyChart, signal: syscall.SIGHUP, twice: true, code: 130, record: true},
		{name: "SIGKILL", chart: `
version: 1
runbook: plugged
stages:
  - id: spawn
    plugin: {name: behave, args: {mode: '"spawn"', pidfile: '"%[2]s"'}}
`, signal: syscall.SIGKILL, code: -1, record: false},
		// The exec child dies with runbook: internal/proc starts it with
		// the parent-death signal.
		{name: "SIGKILL with an exec child", chart: busyChart, signal: syscall.SIGKILL, code: -1, record: false},
		{name: "resume SIGHUP", chart: `
version: 1
runbook: later
stages:
  - id: confirm
    ask: {question: '"Go on?"', expects: {go: string}}
  - id: both
    parallel:
      plug:
        - id: spawn
          plugin: {name: behave, args: {mode: '"spawn"', pidfile: '"%[2]s"'}}
      shell:
        - id: nap
          exec: {command: [sleep, "%[1]s"], timeout: 120s}
`, resume: true, signal: syscall.SIGHUP, code: 130, record: true},
		{name: "plugin never handshakes", chart: `
version: 1
runbook: silent
plugins:
  silent: {command: "%[3]s"}
stages:
  - id: quiet
    timeout: 1s
    plugin: {name: silent}
`, code: 1, record: true, message: `plugin "silent": start: did not handshake within 1s`},
		{name: "plugin never handshakes, then SIGINT", chart: `
version: 1
runbook: silent
plugins:
  silent: {command: "%[3]s"}
stages:
  - id: quiet
    plugin: {name: silent}
`, signal: os.Interrupt, code: 130, record: true},
		{name: "exec grandchild in a session of its own", chart: `
version: 1
runbook: escape
stages:
  - id: away
    exec: {command: [setsid, -f, sleep, "%[1]s"]}
`, code: 0, record: true},
		// The same, at the stage's timeout: the grandchild goes with it.
		// (A timed-out command is an outcome the record labels, not a
		// failed run: exit 0.)
		{name: "exec grandchild in a session of its own, timeout", chart: `
version: 1
runbook: escape
stages:
  - id: away
    exec: {shell: 'setsid -f sleep %[1]s; sleep %[1]s', timeout: 1s}
`, code: 0, record: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			issue19Run(t, tc)
		})
	}
}

func issue19Run(t *testing.T, tc issue19Case) {
	pd := pluginDir(t)
	dir := t.TempDir()
	tag := uniqueSleep()
	t.Cleanup(func() { killSleeps(tag) })
	pidfile := filepath.Join(dir, "behave.pids")
	silent := filepath.Join(dir, "runbook-plugin-silent")
	copyExec(t, noHandshakeBin(t), silent)
	chart := writeChart(t, dir, "c.yaml", fmt.Sprintf(tc.chart, tag, pidfile, silent))
	rec := filepath.Join(dir, "rec.json")
	args := append([]string{"exec", chart, "--plugin-dir", pd, "--format", "json", "--record", rec}, tc.args...)
	if tc.resume {
		paused := filepath.Join(dir, "paused.json")
		r := runCLI(t, dir, "exec", chart, "--plugin-dir", pd, "--record", paused)
		if r.code != 0 {
			t.Fatalf("the run to pause: exit %d: %s", r.code, r.stderr)
		}
		args = append([]string{"resume", paused, "--input", "go=yes", "--plugin-dir", pd, "--format", "json", "--record", rec}, tc.args...)
	}

	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sid := cmd.Process.Pid
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		for _, p := range inSession(sid, tag) {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
	})

	if tc.signal != nil {
		// Every process of the run is up: the exec child, the stage
		// plugin's child, or the silent plugin's.
		deadline := time.Now().Add(20 * time.Second)
		for !issue19Up(tc, tag, pidfile, silent) {
			if time.Now().After(deadline) {
				_ = cmd.Process.Kill()
				<-waited
				t.Fatalf("the run's processes never started; stderr: %s", errb.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
		if n := len(inSession(sid, tag)); n < 2 {
			t.Fatalf("%d processes in the run's session before the signal; the count proves nothing", n)
		}
		if err := cmd.Process.Signal(tc.signal); err != nil {
			t.Fatal(err)
		}
		if tc.twice {
			time.Sleep(50 * time.Millisecond)
			_ = cmd.Process.Signal(tc.signal)
		}
	}
	began := time.Now()
	var err error
	select {
	case err = <-waited:
	case <-time.After(15 * time.Second):
		_ = cmd.Process.Kill()
		<-waited
		t.Fatalf("runbook still running 15s later; stderr: %s", errb.String())
	}
	t.Logf("runbook ended %s after the signal (or its end)", time.Since(began).Round(time.Millisecond))

	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && !ee.Exited():
		code = -1
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	if code != tc.code {
		t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, errb.String())
	}

	// Zero left: a process killed as the run ended may take a moment to be
	// gone; one still there after the deadline outlived the run.
	within := time.Second
	if tc.signal == syscall.SIGKILL {
		within = 3 * time.Second // the plugins notice their host is gone
	}
	deadline := time.Now().Add(within)
	left := inSession(sid, tag)
	for len(left) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		left = inSession(sid, tag)
	}
	for _, p := range left {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
		t.Errorf("process %d (%s) outlived the run", p, strings.ReplaceAll(string(cmdline), "\x00", " "))
	}

	_, statErr := os.Stat(rec)
	if tc.record != (statErr == nil) {
		t.Errorf("record written: %v, want %v (%v)", statErr == nil, tc.record, statErr)
	}
	if tc.message != "" {
		var r struct {
			Error struct{ Message string } `json:"error"`
		}
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("stdout is not a JSON record: %v\n%s", err, out.String())
		}
		if !strings.Contains(r.Error.Message, tc.message) {
			t.Errorf("error %q lacks %q", r.Error.Message, tc.message)
		}
	}
}

// issue19Up reports whether the processes the case interrupts are running.
func issue19Up(tc issue19Case, tag, pidfile, silent string) bool {
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	switch {
	case strings.Contains(tc.chart, "%[3]s") && !exists(silent+".pids"):
		return false
	case strings.Contains(tc.chart, "%[2]s") && !exists(pidfile):
		return false
	case strings.Contains(tc.chart, `sleep, "%[1]s"`) && len(sleepPIDs(tag)) == 0:
		return false
	}
	return true
}

// inSession lists the live processes of session sid (its leader, runbook,
// excepted) and those whose command line or environment holds tag.
func inSession(sid int, tag string) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == sid {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 || i+2 >= len(s) {
			continue
		}
		f := strings.Fields(s[i+2:]) // state ppid pgrp session …
		if len(f) < 4 || f[0] == "Z" {
			continue
		}
		if sess, _ := strconv.Atoi(f[3]); sess == sid {
			out = append(out, pid)
			continue
		}
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		environ, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		if bytes.Contains(cmdline, []byte(tag)) || bytes.Contains(environ, []byte(tag)) {
			out = append(out, pid)
		}
	}
	return out
}

var (
	noHandshakeOnce sync.Once
	noHandshakePath string
	noHandshakeErr  error
)

// noHandshakeBin builds the plugin that never handshakes (its child holds
// its stdout), once per test binary.
func noHandshakeBin(t *testing.T) string {
	t.Helper()
	noHandshakeOnce.Do(func() {
		dir := pluginDir(t)
		noHandshakePath = filepath.Join(dir, "nohandshake")
		out, err := exec.Command("go", "build", "-o", noHandshakePath, "github.com/openrunbook/runbook/plugins/internal/testplugin/nohandshake").CombinedOutput()
		if err != nil {
			noHandshakeErr = fmt.Errorf("building nohandshake: %v\n%s", err, out)
		}
	})
	if noHandshakeErr != nil {
		t.Fatal(noHandshakeErr)
	}
	return noHandshakePath
}
