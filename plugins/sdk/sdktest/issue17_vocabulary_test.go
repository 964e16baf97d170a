package sdktest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/plugins/sdk"
	"github.com/openrunbook/runbook/plugins/sdk/sdktest"
)

// vault declares the argument vocabulary issue #17 added: a sensitive
// token, an enum and a bounded integer. It echoes the token back in its
// result and on stderr, as a careless plugin would.
type vault struct{}

func ptr(f float64) *float64 { return &f }

func (vault) Describe() sdk.Description {
	return sdk.Description{Name: "vault", Version: "1.0.0",
		Args: []sdk.Arg{
			{Name: "token", Type: "string", Sensitive: true, Default: "dflt-tok-5566", HasDefault: true},
			{Name: "pin", Type: "string", Sensitive: true, Enum: []any{"pin-1111", "pin-2222"}},
			{Name: "level", Type: "string", Enum: []any{"low", "high"}, Default: "low", HasDefault: true},
			{Name: "n", Type: "integer", Min: ptr(1), Max: ptr(5), Default: 1, HasDefault: true},
		}}
}

func (vault) Run(_ context.Context, req sdk.Request) (sdk.Response, error) {
	fmt.Fprintf(os.Stderr, "using token %v\n", req.Args["token"])
	return sdk.Response{Result: map[string]any{"said": fmt.Sprintf("token is %v", req.Args["token"]), "level": req.Args["level"]}}, nil
}

func vaultChart(args string) string {
	return `version: 1
runbook: vault-test
result:
  kind: state
stages:
  - id: v
    plugin:
      name: vault
      args: ` + args + `
      into: v
`
}

// TestIssue17SensitiveArgumentIsMasked: a `sensitive` argument, given or
// defaulted, is a secret: the value the plugin echoes back is masked in
// the record. Regression: there was no sensitive flag at all.
func TestIssue17SensitiveArgumentIsMasked(t *testing.T) {
	for name, tc := range map[string]struct{ args, secret string }{
		"given":     {`{token: '"given-tok-778899"'}`, "given-tok-778899"},
		"defaulted": {`{}`, "dflt-tok-5566"},
	} {
		t.Run(name, func(t *testing.T) {
			r := sdktest.Run(t, vaultChart(tc.args), sdktest.Plugin("vault", vault{}))
			if r.Record == nil {
				return // the plugin process
			}
			r.ExpectStatus("completed")
			b, err := json.Marshal(r.Record)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), tc.secret) {
				t.Errorf("the sensitive argument shows in the record: %s", b)
			}
			if !strings.Contains(string(b), "token is ***") {
				t.Errorf("want the echoed token masked as ***: %s", b)
			}
		})
	}
}

// TestIssue17EnumAndBoundsRefused: a value outside an enum or outside
// min/max is refused by the host before the call, naming what is allowed.
func TestIssue17EnumAndBoundsRefused(t *testing.T) {
	for name, tc := range map[string]struct{ args, want string }{
		"enum":      {`{level: '"medium"'}`, `plugin "vault" argument "level": is "medium", want one of "low", "high" (the stage gives "medium")`},
		"above max": {`{n: '9'}`, `plugin "vault" argument "n": is 9, want at most 5 (the stage gives 9)`},
		"below min": {`{n: '0'}`, `argument "n": is 0, want at least 1`},
		"not whole": {`{n: '2.5'}`, `argument "n": is a number, want an integer`},
		// The refusal quotes the value; a sensitive one is masked there too.
		"sensitive outside its enum": {`{pin: '"pin-9999"'}`, `argument "pin": is "***", want one of`},
	} {
		t.Run(name, func(t *testing.T) {
			r := sdktest.Run(t, vaultChart(tc.args), sdktest.Plugin("vault", vault{}))
			r.ExpectStatus("failed")
			r.ExpectError(tc.want)
			if b, _ := json.Marshal(r.Record); r.Record != nil && strings.Contains(string(b), "pin-9999") {
				t.Errorf("the refused sensitive value shows in the record: %s", b)
			}
		})
	}
}

// TestSensitiveArgumentFromAPlainInputIsMaskedInTheInputs: an input the
// chart does not call secret, passed to a sensitive argument, becomes a
// secret when the stage runs: the state, the log and the errors masked it,
// but the record's inputs.given kept it in the clear.
func TestSensitiveArgumentFromAPlainInputIsMaskedInTheInputs(t *testing.T) {
	chart := `version: 1
runbook: vault-input
result:
  kind: state
inputs:
  tok: {type: string}
stages:
  - id: v
    plugin:
      name: vault
      args: {token: tok}
      into: v
`
	r := sdktest.Run(t, chart, sdktest.Plugin("vault", vault{}), sdktest.Inputs(map[string]any{"tok": "plain-tok-4433"}))
	if r.Record == nil {
		return // the plugin process
	}
	r.ExpectStatus("completed")
	b, err := json.Marshal(r.Record)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "plain-tok-4433") {
		t.Errorf("the value given to a sensitive argument shows in the record: %s", b)
	}
	if !strings.Contains(string(b), `"given":{"tok":"***"}`) {
		t.Errorf("want inputs.given.tok masked as ***: %s", b)
	}
}
