package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runAsUser runs the runbook binary in dir as a user who is refused
// what a test made unreadable: the test's own user, or nobody (65534)
// where it runs as root, whom permissions do not stop. dir (a
// t.TempDir) is opened to all so nobody can reach it; the binary's
// folder was opened by TestMain. The binary is not copied here: a copy
// written while a parallel test forked was held open for writing by that
// child until its exec, and running it failed "text file busy" (CI, stop
// 42).
func runAsUser(t *testing.T, dir string, args ...string) result {
	t.Helper()
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		// t.TempDir's two folders (its test's, then 001), both 0700,
		// never a folder above them; nobody writes its record in dir
		if err := os.Chmod(filepath.Dir(dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "HOME="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("runbook %v: %v", args, err)
	}
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

// TestGlobOverAFolderItCannotReadIsNoWholeAnswer: a check for SSH keys
// from outside, `read: {glob: /home/*/.ssh/authorized_keys}` run as a
// monitoring user, matched alice's file alone: Go's glob passes over a
// folder it cannot read (bob's home, 0700) in silence, and the chart
// said `keys OK - 1 ok`, Consistent, over an attacker's key in bob's. A
// folder on a glob's way it could not read, or a file it matched and was
// refused, is now a not-checked item (kind denied) naming it, the rest
// read: UNKNOWN. Before, a matched file it was refused failed the stage
// whole, and the files it could read were lost.
func TestGlobOverAFolderItCannotReadIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	for _, u := range []string{"alice", "bob", "carol"} {
		if err := os.MkdirAll(filepath.Join(home, u, ".ssh"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	keys := map[string]string{"alice": "ssh-ed25519 AAAA alice@laptop\n", "bob": "ssh-ed25519 BBBB attacker@evil\n", "carol": "ssh-ed25519 CCCC carol@desk\n"}
	for u, k := range keys {
		if err := os.WriteFile(filepath.Join(home, u, ".ssh", "authorized_keys"), []byte(k), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	chart := writeChart(t, dir, "keys.yaml", `version: 1
runbook: keys
result:
  kind: verdict/keys
  decider: Key
  nagios: {ok: [ok], critical: [unknown-key]}
stages:
  - id: files
    read: {glob: '"home/*/.ssh/authorized_keys"', parse: lines, into: files}
  - id: per
    foreach:
      items: files
      as: f
      maxBranches: 100
      stages:
        - id: k
          name: Key
          decide:
            rules:
              - {when: 'any(f.content, # contains "evil")', then: bad, label: A key from outside}
            default: {branch: ok, label: Known keys only}
          branches:
            bad: [{id: m1, verdict: {subject: f.path, verdict: '"unknown-key"'}}]
            ok: [{id: m2, verdict: {subject: f.path, verdict: '"ok"'}}]
`)
	if err := os.Chmod(chart, 0o644); err != nil {
		t.Fatal(err)
	}
	shut := func(p string, mode os.FileMode) {
		if os.Geteuid() != 0 {
			mode = 0 // the owner is stopped by no bit but these
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(p, 0o755) }) //nolint:errcheck // for TempDir's cleanup
	}
	// bob's home shut: a folder the glob must read and may not
	shut(filepath.Join(home, "bob"), 0o700)
	r := runAsUser(t, dir, "exec", chart, "--format", "nagios", "--record", filepath.Join(dir, "rec1.json"))
	want := `keys UNKNOWN - 1 stage did not check everything (files), 2 ok`
	why := `UNKNOWN: files did not check files matching "home/*/.ssh/authorized_keys": it could not read "home/bob" (permission denied), so the files the pattern names there are not known to be absent; it read the 2 files it could`
	if r.code != 3 || !strings.HasPrefix(r.stdout, want) || !strings.Contains(r.stdout, why) {
		t.Errorf("a folder shut: exit %d:\n%s%s\nwant exit 3, %q first, and %q", r.code, r.stdout, r.stderr, want, why)
	}
	// and carol's key shut: a file it matched and may not read, which
	// failed the stage whole, the files it could read lost
	shut(filepath.Join(home, "carol", ".ssh", "authorized_keys"), 0o600)
	r = runAsUser(t, dir, "exec", chart, "--format", "nagios", "--record", filepath.Join(dir, "rec2.json"))
	want = `keys UNKNOWN - 1 stage did not check everything (files), 1 ok`
	why = `it could not read "home/bob" and 1 more (permission denied), so the files the pattern names there are not known to be absent; it read the 1 file it could`
	if r.code != 3 || !strings.HasPrefix(r.stdout, want) || !strings.Contains(r.stdout, why) {
		t.Errorf("a folder and a file shut: exit %d:\n%s%s\nwant exit 3, %q first, and %q", r.code, r.stdout, r.stderr, want, why)
	}
}
