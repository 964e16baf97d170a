package sdk_test

import (
	"os/exec"
	"testing"

	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/plugins/sdk"
)

// TestEndedOfAProcessKilledBySignalHasNoExitCode: the SDK's doc showed
// sdk.Exited(cmd.ProcessState.ExitCode()), which for a process a signal
// killed is Exited(-1): its row said "completed with failure, exit -1", an
// exit the process never reached, and the signal was lost. Ended reads the
// wait status: the signal, and no exit code; an exit, its code.
func TestEndedOfAProcessKilledBySignalHasNoExitCode(t *testing.T) {
	t.Parallel()
	killed := exec.Command("sh", "-c", "kill -KILL $$")
	_ = killed.Run()
	if f := sdk.Exited(killed.ProcessState.ExitCode()); f.ExitCode == nil || *f.ExitCode != -1 {
		t.Fatalf("the trap is gone: Exited(ExitCode()) of a killed process = %+v", f)
	}
	f := sdk.Ended(killed.ProcessState)
	if f == nil || f.ExitCode != nil || f.TerminatedBy != "SIGKILL" {
		t.Fatalf("Ended(killed) = %+v; want TerminatedBy SIGKILL and no exit code", f)
	}
	if out := label.Of(label.Returned, f); out.ExitCode != nil {
		t.Errorf("a killed process's row carries exit %d", *out.ExitCode)
	}

	exited := exec.Command("sh", "-c", "exit 3")
	_ = exited.Run()
	if f := sdk.Ended(exited.ProcessState); f == nil || f.ExitCode == nil || *f.ExitCode != 3 || f.TerminatedBy != "" {
		t.Errorf("Ended(exit 3) = %+v", f)
	}
	if f := sdk.Ended(nil); f != nil {
		t.Errorf("Ended(nil) = %+v; want nil (no process ran)", f)
	}
}
