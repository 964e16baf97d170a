package runbook_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestIssue13PluginUnknownCause: a plugin call whose outcome is unknown
// says why on its script row, in the words exec rows use: its time ran
// out, or the plugin could not be started.
func TestIssue13PluginUnknownCause(t *testing.T) {
	t.Parallel()
	wrapper := waitPlugin(t)
	noExec := filepath.Join(t.TempDir(), "runbook-plugin-noexec")
	if err := os.WriteFile(noExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, command, cause string
	}{
		{"timed out", wrapper, "timed out after 500ms"},
		{"not found", filepath.Join(t.TempDir(), "runbook-plugin-absent"), "could not be started: not found"},
		{"not executable", noExec, "could not be started: permission denied"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rb := parse(t, fmt.Sprintf(`version: 1
runbook: plugin-cause
plugins: {wait: {command: %q}}
stages:
  - {id: call, timeout: 500ms, plugin: {name: wait}}
`, tc.command))
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			res, err := rb.Exec(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			rows := res.Record.Scripts
			if len(rows) != 1 || rows[0].Label != "outcome-unknown" || rows[0].Cause != tc.cause {
				t.Fatalf("script rows %+v; want one outcome-unknown row with cause %q", rows, tc.cause)
			}
		})
	}
}

// TestIssue13DeclaredAnswerIsNotRetried: under retry: with no on:, an exit
// code the chart declared an answer is the measurement, not a fault, and
// is asked once; an undeclared code (127) is still retried, and on: naming
// the answer's code still retries it.
func TestIssue13DeclaredAnswerIsNotRetried(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, code, on string
		want           string
	}{
		{"declared answer", "2", "", "1"},
		{"undeclared code", "127", "", "3"},
		{"answer named in on", "2", ", on: ['2']", "3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			count := filepath.Join(t.TempDir(), "count")
			rb := parse(t, fmt.Sprintf(`version: 1
runbook: answer-retry
stages:
  - id: check
    retry: {attempts: 3, backoff: 1ms%s}
    exec:
      shell: 'echo x >> %s; exit %s'
      exitCodes: nagios
      into: check
`, tc.on, count, tc.code))
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			if _, err := rb.Exec(ctx, nil); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(count)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(len(b) / 2); got != tc.want {
				t.Errorf("the script ran %s times, want %s", got, tc.want)
			}
		})
	}
}
