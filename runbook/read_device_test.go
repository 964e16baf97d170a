package runbook_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadOfADeviceIsRefused: a read: glob over /proc/PID/fd/* (a count
// of a process's open files) matched its terminal, /dev/pts/0, and the
// run waited for input there, saying nothing, with no timeout of the
// stage's own; a /dev/zero it held never ends. A path that is no regular
// file (a device, a socket, a kernel object) fails the stage now, saying
// what it is and how to count the names instead, as a named pipe does.
func TestReadOfADeviceIsRefused(t *testing.T) {
	t.Parallel()
	rb, dir := open14(t, "version: 1\nrunbook: fds\nstages:\n  - {id: fd, read: {glob: '\"fd/*\"'}}\n", nil)
	if err := os.Mkdir(filepath.Join(dir, "fd"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "fd", "0")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here:", err)
	}
	rec := run14(t, rb, nil)
	want := `read fd/0: it is a character device (a terminal, /dev/zero, /dev/kmsg), /dev/zero, not a file`
	if rec.Status != "failed" || rec.Error == nil || !strings.Contains(rec.Error.Message, want) {
		t.Fatalf("status %s error %+v\nwant the stage failed saying %q", rec.Status, rec.Error, want)
	}
}
