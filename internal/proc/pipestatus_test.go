package proc

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestShellScriptSaysItsLastPipelinesCodes: under pipefail a script exits
// with the code of the last command of a pipeline to fail, so a smartctl
// that could not open a disk and printed that into `grep -q FAILED` ended
// the script with grep's 1, "no FAILED line". Result.PipeStatus holds the
// codes of each command of the last pipeline, when the script exited with
// the last one's; nil for an argv and for an exit a later command chose.
func TestShellScriptSaysItsLastPipelinesCodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, script string
		want         []int
	}{
		{"first failed", `printf 'open device failed\n'; (echo "Smartctl open device: /dev/vda failed"; exit 2) | grep -q FAILED`, []int{2, 1}},
		{"all ok", `echo x | grep -q x`, []int{0, 0}},
		{"one command", `exit 4`, nil}, // exit is a builtin: its code is not the last pipeline's
		{"a later exit", `true | true; exit 3`, nil},
		{"or exit", `(exit 2) | grep -q y || exit 1`, []int{2, 1}},
		{"traced", `set -x; (exit 2) | grep -q y`, []int{2, 1}},
		{"own trap", `trap 'echo bye' EXIT; (exit 2) | grep -q y`, nil},
		// ends at its last line, not by errexit: the codes are read
		// after it (shellRunner), not from the eval that ran it
		{"no errexit", "set +e\n(exit 2) | grep -q y", []int{2, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := Run(context.Background(), Spec{Shell: tc.script})
			if !slices.Equal(r.PipeStatus, tc.want) {
				t.Errorf("PipeStatus = %v (exit %v, stderr %q), want %v", r.PipeStatus, deref(r.ExitCode), r.Stderr, tc.want)
			}
			if strings.Contains(string(r.Stderr), "PIPESTATUS") || strings.Contains(string(r.Stdout), "PIPESTATUS") {
				t.Errorf("the trap shows in the script's output: %q %q", r.Stdout, r.Stderr)
			}
		})
	}
	if r := Run(context.Background(), Spec{Argv: []string{"sh", "-c", "false | true"}}); r.PipeStatus != nil {
		t.Errorf("an argv: PipeStatus = %v", r.PipeStatus)
	}
	// bash's "line N" of an error is the script's own line
	r := Run(context.Background(), Spec{Shell: "true\nnosuchcommand-xyz"})
	if !strings.Contains(string(r.Stderr), "line 2:") {
		t.Errorf("stderr %q: want bash's line 2", r.Stderr)
	}
	// no file is left behind
	left, _ := filepath.Glob(filepath.Join(os.TempDir(), "runbook-pipestatus-*"))
	for _, f := range left {
		if fi, err := os.Stat(f); err == nil && fi.Size() > 0 {
			t.Logf("left (maybe another test's, running): %s", f)
		}
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}
