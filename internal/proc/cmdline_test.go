package proc

import (
	"context"
	"strings"
	"testing"
)

// TestShellScriptIsNotInBashsCommandLine: a shell script ran as `bash -c
// SCRIPT`, and bash stays while the script runs (the pipeStatusTrap keeps
// it from handing its process to the one command), so a search of
// command lines the script made found the script itself: `pgrep -f
// 'java.*myapp'` matched that bash, and a check that the app runs said
// running, OK, Consistent, with no java running. The script reaches bash
// in its environment now, unset before it runs: neither bash's command
// line nor a child's environment holds it, and it still runs as written,
// its exit its own.
func TestShellScriptIsNotInBashsCommandLine(t *testing.T) {
	t.Parallel()
	script := "# marker-5q9z\ntr '\\0' ' ' < /proc/$$/cmdline; echo; env | grep -c RUNBOOK_SCRIPT || true\nf() { return 4; }; f"
	r := Run(context.Background(), Spec{Shell: script})
	out := string(r.Stdout)
	if strings.Contains(out, "marker-5q9z") {
		t.Errorf("bash's command line holds the script: %q", out)
	}
	if !strings.HasSuffix(out, "\n0\n") {
		t.Errorf("a child's environment holds the script (the count of %s after the command line): %q", scriptKey, out)
	}
	if r.ExitCode == nil || *r.ExitCode != 4 {
		t.Errorf("exit %v (stderr %q), want the script's own 4", deref(r.ExitCode), r.Stderr)
	}
}
