// Command runbook-temporal runs runbooks on Temporal: `exec` starts a run
// as a workflow and prints its record, `worker` runs the workflows and the
// exec stages' processes of a task queue on this machine (docs/SCALE.md).
package main

import (
	"context"
	"os"

	"github.com/openrunbook/runbook/temporal"
)

func main() {
	os.Exit(temporal.Main(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}
