package host

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A relative plugin directory must give the file in THAT directory. Issue
// #17: `.` joined to a bare name gave `runbook-plugin-x`, which exec looks
// up on $PATH, so a binary of that name elsewhere ran instead.
func TestIssue17RelativePluginDirIsTheDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, Prefix+"probe"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	want := filepath.Join(dir, Prefix+"probe")
	src, err := Resolve("probe", nil, ".")
	if err != nil {
		t.Fatal(err)
	}
	if src.Path != want {
		t.Errorf("Resolve(probe, dir .).Path = %q, want %q", src.Path, want)
	}
	found, err := Discover(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0].Path != want {
		t.Errorf("Discover(.) = %+v, want one source at %s", found, want)
	}
}

// The library's not-found error names no CLI flag; the embedder's hint is
// shown only when no directory was given.
func TestIssue12NotFoundNamesNoFlag(t *testing.T) {
	t.Parallel()
	_, err := Resolve("probe", nil, "")
	var nf *NotFoundError
	if !errors.As(err, &nf) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %#v, want a *NotFoundError that is fs.ErrNotExist", err)
	}
	if msg := err.Error(); strings.Contains(msg, "--") || !strings.Contains(msg, "no plugin directory was given") {
		t.Errorf("message %q: want no flag named, and that no directory was given", msg)
	}
	nf.Hint = "--plugin-dir"
	if msg := nf.Error(); !strings.HasSuffix(msg, "no plugin directory was given (--plugin-dir)") {
		t.Errorf("with a hint: %q", msg)
	}
	nf.Dir = "/opt/p"
	if msg := nf.Error(); strings.Contains(msg, "--plugin-dir") || !strings.Contains(msg, "/opt/p has no runbook-plugin-probe") {
		t.Errorf("with a directory: %q", msg)
	}
}

// A plugin name a typo away from one the chart maps or the directory
// holds says which: "not found" alone sent a user looking for a missing
// install when the chart had misspelt the name.
func TestNotFoundNamesTheNearestPlugin(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, Prefix+"adversary"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dir string
		chart     map[string]Source
		near      string
	}{
		{"adversery", dir, nil, `; did you mean "adversary"?`},
		{"fil-age", "", map[string]Source{"file-age": {Name: "file-age", Path: "/x"}}, `; did you mean "file-age"?`},
		{"unrelated", dir, nil, ""},
	} {
		_, err := Resolve(tc.name, tc.chart, tc.dir)
		if err == nil {
			t.Fatalf("%s: found", tc.name)
		}
		msg := err.Error()
		if (tc.near == "" && strings.Contains(msg, "did you mean")) || !strings.HasSuffix(msg, tc.near) {
			t.Errorf("%s: %q, want it to end %q", tc.name, msg, tc.near)
		}
	}
}
