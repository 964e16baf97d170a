package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMdadmScanOfNoArrayIsNoAnswer: `mdadm --detail --test --scan` tests
// every array /proc/mdstat lists and exits with the worst one's code (0
// working, 1 degraded, 2 unusable); over no array at all (the md driver
// not loaded, an array not assembled at boot, a container) it prints
// nothing and exits 0, and a cron-style check under `exitCodes: {0:
// clean, 1: degraded, 2: failed}` said `OK - 1 clean`, Consistent, over
// no array tested (testdata/wave-lvm/md-test). --detail --scan prints
// each array it read; its silence is no answer of working arrays.
func TestMdadmScanOfNoArrayIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const detail = "/dev/md0:\n           Version : 1.2\n        Raid Level : raid1\n             State : clean\n"
	for _, tc := range []struct {
		name, stdout string
		exit         int
		args         string
		status       string
		code         int
	}{
		{"no array", "", 0, "--detail --test --scan", "md UNKNOWN - 1 stage did not check everything (md), 1 clean", 3},
		{"no array, short flags", "", 0, "-Dts", "md UNKNOWN - 1 stage did not check everything (md), 1 clean", 3},
		{"a clean array", detail, 0, "--detail --test --scan", "md OK - 1 clean", 0},
		{"a degraded array", strings.Replace(detail, "clean", "clean, degraded", 1), 1, "--detail --test --scan", "md CRITICAL - 1 degraded", 2},
		{"one array named", "", 0, "--detail --test /dev/md0", "md OK - 1 clean", 0},
	} {
		name := strings.ReplaceAll(strings.ReplaceAll(tc.name, " ", "-"), ",", "")
		if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		tool := filepath.Join(dir, name, "mdadm")
		script := "#!/bin/sh\n"
		if tc.stdout != "" {
			script += "cat <<'EOF'\n" + tc.stdout + "EOF\n"
		}
		script += fmt.Sprintf("exit %d\n", tc.exit)
		if err := writeExec(tool, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		chart := writeChart(t, dir, name+".yaml", `version: 1
runbook: md
result: {kind: verdict/raid, decider: Arrays, nagios: {ok: [clean], critical: [degraded, failed]}}
stages:
  - id: md
    exec: {shell: '`+tool+` `+tc.args+`', exitCodes: {0: clean, 1: degraded, 2: failed}}
  - id: arrays
    name: Arrays
    decide:
      rules:
        - {when: md.status == "failed", then: failed, label: unusable}
        - {when: md.status == "degraded", then: degraded, label: degraded}
      default: {branch: clean, label: working}
    branches:
      failed: [{id: f, verdict: {subject: '"md"', verdict: '"failed"'}}]
      degraded: [{id: d, verdict: {subject: '"md"', verdict: '"degraded"'}}]
      clean: [{id: c, verdict: {subject: '"md"', verdict: '"clean"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if !strings.HasPrefix(r.stdout, tc.status) || r.code != tc.code {
			t.Errorf("%s: exit %d:\n%s\nwant exit %d, %q first", tc.name, r.code, r.stdout, tc.code, tc.status)
		}
		if tc.code == 3 && !strings.Contains(r.stdout, "it runs mdadm --detail --scan and printed nothing") {
			t.Errorf("%s: does not say why:\n%s", tc.name, r.stdout)
		}
	}
}

// TestMdadmAsAUserIsNoAnswerOfDegraded: mdadm run by a user says `mdadm:
// must be super-user to perform this action` and exits 1, which is
// `--detail --test`'s code for an array degraded, and a check under
// `exitCodes: {0: clean, 1: degraded, 2: failed}` said `degraded`,
// CRITICAL, Consistent, of arrays nobody read (testdata/wave-lvm/md-test).
// The row's CRITICAL stands (no better than UNKNOWN), but the code is the
// refusal's, and the answer is not sure.
func TestMdadmAsAUserIsNoAnswerOfDegraded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tool := filepath.Join(dir, "mdadm")
	if err := writeExec(tool, []byte("#!/bin/sh\necho 'mdadm: must be super-user to perform this action' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	chart := writeChart(t, dir, "md.yaml", `version: 1
runbook: md
result: {kind: verdict/raid, decider: Arrays, nagios: {ok: [clean], critical: [degraded, failed]}}
stages:
  - id: md
    exec: {command: [`+tool+`, --detail, --test, --scan], exitCodes: {0: clean, 1: degraded, 2: failed}}
  - id: arrays
    name: Arrays
    decide:
      rules:
        - {when: md.status == "failed", then: failed, label: unusable}
        - {when: md.status == "degraded", then: degraded, label: degraded}
      default: {branch: clean, label: working}
    branches:
      failed: [{id: f, verdict: {subject: '"md"', verdict: '"failed"'}}]
      degraded: [{id: d, verdict: {subject: '"md"', verdict: '"degraded"'}}]
      clean: [{id: c, verdict: {subject: '"md"', verdict: '"clean"'}}]
`)
	r := runCLI(t, dir, "exec", chart)
	for _, want := range []string{"degraded (not judged", "it said on stderr that it was refused access", `"mdadm: must be super-user to perform this action"`, "Not sure"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("want %q in:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "Consistent") {
		t.Errorf("a refusal's exit 1 read as degraded stands Consistent:\n%s", r.stdout)
	}
}
