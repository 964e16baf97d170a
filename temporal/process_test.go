package temporal_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/temporal"
)

// asCommand, set in a process's environment, makes this test binary that
// process's runbook-temporal: its arguments joined by a unit separator.
// A worker in a process of its own can then be killed as a machine dies,
// without building the command.
const asCommand = "RUNBOOK_TEST_AS_COMMAND"

func TestMain(m *testing.M) {
	if args := os.Getenv(asCommand); args != "" {
		os.Exit(temporal.Main(context.Background(), strings.Split(args, "\x1f"), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// command starts runbook-temporal with args in a process of its own (this
// test binary, asCommand); the test's end kills it if it still runs, and
// shows what it said when the test failed.
func command(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), asCommand+"="+strings.Join(args, "\x1f"))
	var said bytes.Buffer // read once the process has ended
	cmd.Stdout, cmd.Stderr = &said, &said
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("runbook-temporal %s said:\n%s", args[0], said.String())
		}
	})
	return cmd
}
