package main

import (
	"fmt"
	"os"
	"path/filepath"
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
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}
