package temporal_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
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

// lockedBuffer is a process's stderr, read while it runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// command starts runbook-temporal with args in a process of its own (this
// test binary, asCommand); the test's end kills it if it still runs.
func command(t *testing.T, env []string, args ...string) (*exec.Cmd, *lockedBuffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(append(os.Environ(), env...), asCommand+"="+strings.Join(args, "\x1f"))
	var stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd, &stderr
}
