// Command crashes is a stage plugin that handshakes and describes itself
// soundly, then exits 3 on every call: `runbook plugins check` must fail
// it at its call step, naming the crash.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/openrunbook/runbook/plugins/sdk"
)

type crashes struct{}

func (crashes) Describe() sdk.Description {
	return sdk.Description{Name: "crashes", Version: "0.0.1", Description: "exits on every call",
		Args: []sdk.Arg{{Name: "n", Type: "number", Default: 1, HasDefault: true}}}
}

func (crashes) Run(context.Context, sdk.Request) (sdk.Response, error) {
	fmt.Fprintln(os.Stderr, "crashes: exiting mid-call on purpose")
	os.Exit(3)
	return sdk.Response{}, nil
}

func main() { sdk.Serve(crashes{}) }
