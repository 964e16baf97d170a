package temporal_test

import (
	"bufio"
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/openrunbook/runbook/temporal"
)

// TestDevServer: runbook-temporal-dev, built, says where its server is
// and the commands that use it; a worker and a run there work as on any
// server; an interrupt stops it, exit 0.
func TestDevServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := filepath.Join(t.TempDir(), "runbook-temporal-dev")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/runbook-temporal-dev").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// It takes no arguments: --help says what it is, anything else is
	// refused (it once started a server whatever it was given).
	if out, err := exec.Command(bin, "--help").Output(); err != nil || !bytes.HasPrefix(out, []byte("runbook-temporal-dev starts a Temporal server")) {
		t.Errorf("--help: %v, %q", err, out)
	}
	if err := exec.Command(bin, "--port", "7233").Run(); err == nil || err.(*exec.ExitError).ExitCode() != 2 {
		t.Errorf("an argument: %v; want exit 2", err)
	}
	dev := exec.Command(bin)
	stdout, err := dev.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	dev.Stderr = &stderr
	if err := dev.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = dev.Process.Kill() }() // a no-op once it has exited
	line, err := bufio.NewReader(stdout).ReadString('\n')
	m := regexp.MustCompile(`^Temporal \(in memory, for trying runbook; gone when this stops\) at (127\.0\.0\.1:[0-9]+), namespace (\S+)\n$`).FindStringSubmatch(line)
	if err != nil || m == nil {
		t.Fatalf("first line %q (%v), stderr %q; want the address and namespace", line, err, stderr.String())
	}
	common := []string{"--temporal", m[1], "--namespace", m[2], "--task-queue", "dev"}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	wctx, stopWorker := context.WithCancel(ctx)
	workerDone := make(chan int, 1)
	go func() {
		workerDone <- temporal.Main(wctx, append([]string{"worker"}, common...), &bytes.Buffer{}, &bytes.Buffer{})
	}()
	var out, errb bytes.Buffer
	if code := temporal.Main(ctx, append(append([]string{"exec"}, common...), "--quiet", "testdata/charts/foreach.yaml"), &out, &errb); code != temporal.ExitCompleted {
		t.Errorf("exec on the dev server exited %d: %s", code, errb.String())
	}
	stopWorker()
	<-workerDone
	if err := dev.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := dev.Wait(); err != nil {
		t.Errorf("runbook-temporal-dev, interrupted: %v\n%s", err, stderr.String())
	}
}
