package runbook_test

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadNamedPipeIsRefused: a read: of a named pipe (a log shipper's
// FIFO an auditor took for a file) opened it and waited for a writer
// that never came: the run hung with no word, and only --timeout ended
// it. The stage fails at once, saying what the path is and how to read
// it with a timeout.
func TestReadNamedPipeIsRefused(t *testing.T) {
	t.Parallel()
	rb, dir := open14(t, "version: 1\nrunbook: pipe\nstages:\n  - {id: f, read: {path: '\"fifo\"', parse: lines}}\n", nil)
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	rec := run14(t, rb, nil)
	want := `read fifo: it is a named pipe, not a file: opening it waits for a process to write to it`
	if rec.Status != "failed" || rec.Error == nil || !strings.Contains(rec.Error.Message, want) {
		t.Fatalf("status %s error %+v\nwant the stage failed saying %q", rec.Status, rec.Error, want)
	}
}
