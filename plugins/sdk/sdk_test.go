package sdk_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/openrunbook/runbook/plugins/sdk"
)

type echo struct{}

func (echo) Describe() sdk.Description {
	return sdk.Description{Name: "echo", Version: "1", Args: []sdk.Arg{
		{Name: "x", Type: "number", Default: 2.5, HasDefault: true},
		{Name: "mode", Type: "string"},
	}}
}

func (echo) Run(ctx context.Context, req sdk.Request) (sdk.Response, error) {
	switch req.Args["mode"] {
	case "fail":
		return sdk.Response{}, errors.New("asked to fail")
	case "panic":
		panic("asked to panic")
	case "deadline":
		if _, ok := ctx.Deadline(); !ok {
			return sdk.Response{}, errors.New("no deadline")
		}
	}
	return sdk.Response{Result: map[string]any{"x": req.Args["x"], "scope": req.Scope}}, nil
}

func TestServeInProcess(t *testing.T) {
	t.Parallel()
	st := sdk.TestServe(t, echo{})
	ctx := context.Background()
	if d := st.Description(); d.Name != "echo" || d.Args[0].Default != 2.5 {
		t.Fatalf("%+v", d)
	}
	tests := []struct {
		name    string
		x       any
		mode    string
		wantErr string
	}{
		{"int stays int", 3, "", ""},
		{"float stays float", 3.5, "", ""},
		{"error", 1, "fail", "asked to fail"},
		{"panic fails the call only", 1, "panic", "plugin panicked: asked to panic"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := st.Run(ctx, sdk.Request{Args: map[string]any{"x": tc.x, "mode": tc.mode}, Scope: map[string]any{"k": []any{1, "a"}}})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			m := resp.Result.(map[string]any)
			if m["x"] != tc.x {
				t.Fatalf("x = %#v, want %#v", m["x"], tc.x)
			}
		})
	}
	dctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if _, err := st.Run(dctx, sdk.Request{Args: map[string]any{"mode": "deadline"}}); err != nil {
		t.Fatalf("the deadline did not travel: %v", err)
	}
}

func TestCoverageShapes(t *testing.T) {
	t.Parallel()
	a := sdk.Absent("x", "here")
	if a["af_absent"] != true || a["looked_for"] != "x" || len(a["checked"].([]any)) != 1 {
		t.Fatal(a)
	}
	l := sdk.Ledger(7, []string{"a"}, []string{"b"})
	if l["result"] != 7 || l["af_coverage"].(map[string]any)["not_checked"].([]any)[0] != "b" {
		t.Fatal(l)
	}
}

// factsNoCode declares it runs no code and answers with a process's facts.
type factsNoCode struct{}

func (factsNoCode) Describe() sdk.Description {
	return sdk.Description{Name: "facts-no-code", Version: "0.0.1"}
}

func (factsNoCode) Run(context.Context, sdk.Request) (sdk.Response, error) {
	return sdk.Response{Result: map[string]any{"healthy": true}, Facts: sdk.Exited(2)}, nil
}

// TestTestServeRefusesFactsFromAPluginThatRunsNoCode: a plugin's own test
// through sdk.TestServe holds its answers to the rule the host holds them
// to (plugins.CheckResponse): before, the test passed and the plugin's
// first run failed.
func TestTestServeRefusesFactsFromAPluginThatRunsNoCode(t *testing.T) {
	p := sdk.TestServe(t, factsNoCode{})
	_, err := p.Run(context.Background(), sdk.Request{})
	if err == nil || !strings.Contains(err.Error(), "declares it runs no code") || !strings.Contains(err.Error(), "exit code 2") {
		t.Fatalf("err = %v; want the host's refusal", err)
	}
}
