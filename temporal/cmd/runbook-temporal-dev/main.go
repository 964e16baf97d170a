// Command runbook-temporal-dev starts a Temporal server in this process,
// in memory, on loopback, so that runbook's Temporal executor can be tried
// on one machine with no cluster: it prints the frontend's address and
// namespace and the commands that use them, and serves until interrupted.
// Everything it held is gone when it stops. It is the server the temporal
// module's tests start (go.temporal.io/server/temporaltest), not a
// deployment: point real runs at a Temporal cluster (docs/SCALE.md).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"go.temporal.io/server/temporaltest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(serve(ctx, os.Stdout, os.Stderr))
}

// serve starts the server, says where it is, and stops it when ctx ends.
func serve(ctx context.Context, stdout, stderr io.Writer) (code int) {
	defer func() {
		// temporaltest fails by panicking when it has no testing.T.
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "runbook-temporal-dev: the server failed: %v\n", v)
			code = 1
		}
	}()
	ts := temporaltest.NewServer()
	addr, ns := ts.GetFrontendHostPort(), ts.GetDefaultNamespace()
	fmt.Fprintf(stdout, `Temporal (in memory, for trying runbook; gone when this stops) at %s, namespace %s
  runbook worker --temporal %[1]s --namespace %[2]s &
  runbook exec --executor temporal --temporal %[1]s --namespace %[2]s CHART.yaml
Ctrl-C stops it.
`, addr, ns)
	<-ctx.Done()
	ts.Stop()
	return 0
}
