// Command runbook-plugin-http-check GETs a URL with a bearer token and returns
// its status, latency and body size.
//
//	args {url: "http://127.0.0.1:8080/health", token: tok}
//	  → {"status": 200, "latencyMs": 3.2, "bytes": 17, "up": true}
package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/openrunbook/runbook/plugins/sdk"
)

const Version = "1.2.0"

type check struct{}

func (check) Describe() sdk.Description {
	return sdk.Description{
		Name:        "http-check",
		Version:     Version,
		Description: "GETs a URL with a bearer token; returns status, latency and size",
		Args: []sdk.Arg{
			{Name: "url", Type: "string", Required: true, Description: "the URL to GET"},
			{Name: "token", Type: "string", Sensitive: true, Default: "", HasDefault: true, Description: "a bearer token"},
			{Name: "timeout", Type: "duration", Default: "5s", HasDefault: true, Description: "how long to wait"},
		},
	}
}

func (check) Run(ctx context.Context, req sdk.Request) (sdk.Response, error) {
	url, _ := req.Args["url"].(string)
	tok, _ := req.Args["token"].(string)
	d, err := time.ParseDuration(fmt.Sprint(req.Args["timeout"]))
	if err != nil {
		return sdk.Response{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return sdk.Response{}, err
	}
	if tok != "" {
		r.Header.Set("Authorization", "Bearer "+tok)
	}
	start := time.Now()
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		return sdk.Response{}, err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil {
		return sdk.Response{}, fmt.Errorf("reading the body: %w", err)
	}
	lat := float64(time.Since(start).Microseconds()) / 1000
	return sdk.Response{Result: map[string]any{
		"status": resp.StatusCode, "latencyMs": lat, "bytes": n,
		"up": resp.StatusCode < 400,
	}}, nil
}

func main() { sdk.Serve(check{}) }
