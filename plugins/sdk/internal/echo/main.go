// Command echo is the sdk tests' stage plugin as a process: it answers its
// arguments back, as sdk_test's echo does in-process.
package main

import (
	"context"

	"github.com/openrunbook/runbook/plugins/sdk"
)

type echo struct{}

func (echo) Describe() sdk.Description {
	return sdk.Description{Name: "echo", Version: "1", Args: []sdk.Arg{{Name: "x", Type: "number", Default: 2.5, HasDefault: true}}}
}

func (echo) Run(_ context.Context, req sdk.Request) (sdk.Response, error) {
	return sdk.Response{Result: map[string]any{"x": req.Args["x"], "scope": req.Scope}}, nil
}

func main() { sdk.Serve(echo{}) }
