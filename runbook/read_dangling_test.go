package runbook

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDanglingLinkIsUnreadAndAVanishedNameIsNot: a glob's match that is
// a symbolic link to nothing is a file nobody read (unread, its target
// named), but a name gone since the folder was listed — a process that
// ended between the glob of /proc/[0-9]*/stat and its read — stays
// exists: false with nothing said, as a glob a moment later would not
// have matched it: a busy host's process scan must not flap to Not sure.
func TestDanglingLinkIsUnreadAndAVanishedNameIsNot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Symlink("../gone.conf", filepath.Join(dir, "a.conf")); err != nil {
		t.Fatal(err)
	}
	if target, ok := danglingLink(filepath.Join(dir, "a.conf"), ReadFile{}); !ok || target != "../gone.conf" {
		t.Errorf("a dangling link: %q, %v; want ../gone.conf, true", target, ok)
	}
	if _, ok := danglingLink(filepath.Join(dir, "b.conf"), ReadFile{}); ok {
		t.Error("a name not there (gone since the folder was listed) read as a dangling link")
	}
	if _, ok := danglingLink(filepath.Join(dir, "a.conf"), ReadFile{Exists: true}); ok {
		t.Error("a file read read as a dangling link")
	}
}
