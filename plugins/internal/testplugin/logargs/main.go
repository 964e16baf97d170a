// Command logargs is a stage plugin that writes its arguments to stderr in
// every form a careless plugin might (%v, %q, JSON, a JSON log line), for
// the secret-masking tests (issue #19): its stderr goes to the host's log
// and, when it crashes (`crash: true`), to the stage error's stderr tail.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/openrunbook/runbook/plugins/sdk"
)

type logargs struct{}

func (logargs) Describe() sdk.Description {
	return sdk.Description{
		Name: "logargs", Version: "0.0.1", Description: "logs its arguments to stderr",
		Args: []sdk.Arg{
			{Name: "text", Type: "string", Default: "", HasDefault: true},
			{Name: "num", Type: "number", Default: 0, HasDefault: true},
			{Name: "crash", Type: "bool", Default: false, HasDefault: true},
			{Name: "token", Type: "string", Default: "", HasDefault: true, Sensitive: true},
		},
	}
}

func (logargs) Run(ctx context.Context, req sdk.Request) (sdk.Response, error) {
	b, _ := json.Marshal(req.Args)
	fmt.Fprintf(os.Stderr, "logargs: args %v\n", req.Args)
	fmt.Fprintf(os.Stderr, "logargs: text %q num %v\n", req.Args["text"], req.Args["num"])
	fmt.Fprintf(os.Stderr, "logargs: json %s\n", b)
	line, _ := json.Marshal(map[string]any{"@level": "info", "@message": "logargs: a JSON log line", "text": req.Args["text"]})
	fmt.Fprintf(os.Stderr, "%s\n", line)
	if req.Args["crash"] == true {
		os.Exit(3)
	}
	return sdk.Response{Result: map[string]any{"logged": true}}, nil
}

func main() { sdk.Serve(logargs{}) }
