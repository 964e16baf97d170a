// Command panics is a stage plugin whose Run panics in a named function
// (explodeOnPurpose) when its `panic` argument is true, for the SDK's
// panic tests (issue #17: the stack is kept on the call's error).
package main

import (
	"context"

	"github.com/openrunbook/runbook/plugins/sdk"
)

type panics struct{}

func (panics) Describe() sdk.Description {
	return sdk.Description{Name: "panics", Version: "0.0.1", Description: "panics on request",
		Args: []sdk.Arg{{Name: "panic", Type: "bool", Default: true, HasDefault: true}}}
}

func (panics) Run(_ context.Context, req sdk.Request) (sdk.Response, error) {
	if req.Args["panic"] == true {
		explodeOnPurpose()
	}
	return sdk.Response{Result: map[string]any{"panicked": false}}, nil
}

func explodeOnPurpose() { panic("asked to panic") }

func main() { sdk.Serve(panics{}) }
