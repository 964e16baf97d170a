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

const usage = `runbook-temporal-dev starts a Temporal server in this process, in memory, on
127.0.0.1, for trying runbook's Temporal executor on one machine; it prints
its address and namespace and serves until interrupted. It takes no
arguments. Not for runs that must outlive it: everything it holds is gone
when it stops (docs/SCALE.md).
`

func main() {
	switch {
	case len(os.Args) == 2 && (os.Args[1] == "-h" || os.Args[1] == "--help" || os.Args[1] == "help"):
		fmt.Print(usage)
		return
	case len(os.Args) > 1:
		fmt.Fprintf(os.Stderr, "runbook-temporal-dev: takes no arguments, got %q\n\n%s", os.Args[1:], usage)
		os.Exit(2)
	}
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
