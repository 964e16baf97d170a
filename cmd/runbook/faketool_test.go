package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fakeTool writes an executable at path (its folder made if need be)
// standing in for a real tool: it prints stdout and stderr exactly as
// given, from files beside it (no quoting of theirs can bend them), and
// exits with code. The tests that stand a tool's recorded output in for
// the tool share it.
func fakeTool(t *testing.T, path, stdout, stderr string, code int) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	for ext, text := range map[string]string{".out": stdout, ".err": stderr} {
		if err := os.WriteFile(path+ext, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script := fmt.Sprintf("#!/bin/sh\ncat '%s.out'\ncat '%s.err' >&2\nexit %d\n", path, path, code)
	if err := writeExec(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// nagiosSays runs runbook with args (a --format nagios run) in dir and
// checks what the case named name wants: the output's first words status,
// the exit code, and a phrase said somewhere in it.
func nagiosSays(t *testing.T, dir, name, status string, code int, said string, args ...string) {
	t.Helper()
	r := runCLI(t, dir, args...)
	if !strings.HasPrefix(r.stdout, status) || r.code != code || !strings.Contains(r.stdout, said) {
		t.Errorf("%s: exit %d:\n%s\nwant exit %d, %q first, saying %q", name, r.code, r.stdout, code, status, said)
	}
}

// writeExec is os.WriteFile for a file a test will run, written while no
// process may fork (syscall.ForkLock, which os/exec holds to fork): a
// child forked by a parallel test while the file was open for writing
// holds it open until its own exec, and running the file then fails
// "text file busy", as a copy of the runbook binary did in CI (stop 42).
func writeExec(name string, data []byte, perm os.FileMode) error {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	return os.WriteFile(name, data, perm)
}
