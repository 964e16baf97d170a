package runbook

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestGlobFilesMatchesAsFilepathGlob: over folders it can read, globFiles
// matches what filepath.Glob matches, in order, and says nothing unread;
// it differs only in saying which folders it could not read
// (cmd/runbook TestGlobOverAFolderItCannotReadIsNoWholeAnswer).
func TestGlobFilesMatchesAsFilepathGlob(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, f := range []string{"a/x.log", "a/.hidden.log", "a/y.txt", "b/c/x.log", "b/c/z.log", "b/d.log", "e[1].log", "plain"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, pat := range []string{
		"*", "*/*.log", "a/*", "a/*.log", "*/c/*.log", "b/*/x.log", "?/*", "[ab]/*.log", "a/[!x]*",
		"plain", "plain/*", "gone/*", "gone", "*/gone/*", "e\\[1\\].log", "a/x.log", "*.log", "*/*/*",
	} {
		p := filepath.Join(dir, pat)
		want, err := filepath.Glob(p)
		if err != nil {
			t.Fatal(err)
		}
		got, unread, err := globFiles(p)
		if err != nil {
			t.Errorf("%s: %v", pat, err)
			continue
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) || len(unread) > 0 {
			t.Errorf("%s: globFiles = %q, unread %v; filepath.Glob = %q", pat, got, unread, want)
		}
	}
	if _, _, err := globFiles(filepath.Join(dir, "[")); err == nil {
		t.Error(`"[": no error for a bad pattern`)
	}
}
