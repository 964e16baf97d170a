// Command runbook-plugin-reads declares it reads the scope keys hosts and
// limit and returns how many hosts it saw and whether the limit was there.
package main

import (
	"context"

	"github.com/openrunbook/runbook/plugins/sdk"
)

type reads struct{}

func (reads) Describe() sdk.Description {
	return sdk.Description{Name: "reads", Version: "1.0.0", Description: "Counts the hosts in the scope", Reads: []string{"hosts", "limit"}}
}

func (reads) Run(ctx context.Context, req sdk.Request) (sdk.Response, error) {
	hosts, _ := req.Scope["hosts"].([]any)
	_, hasLimit := req.Scope["limit"]
	return sdk.Response{Result: map[string]any{"count": len(hosts), "hasLimit": hasLimit, "limit": req.Scope["limit"]}}, nil
}

func main() { sdk.Serve(reads{}) }
