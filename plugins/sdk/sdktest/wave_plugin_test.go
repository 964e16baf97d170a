package sdktest_test

import (
	"context"
	"testing"

	"github.com/openrunbook/runbook/plugins/sdk"
	"github.com/openrunbook/runbook/plugins/sdk/sdktest"
)

// tricky's default is a text that reads, inside the standing line, like
// another assumed argument: `label = "k, fake = 1" was assumed by
// tricky's rule`.
type tricky struct{}

func (tricky) Describe() sdk.Description {
	return sdk.Description{Name: "tricky", Version: "1.0.0",
		Args: []sdk.Arg{{Name: "label", Type: "string", Default: "k, fake = 1", HasDefault: true}}}
}

func (tricky) Run(context.Context, sdk.Request) (sdk.Response, error) {
	return sdk.Response{Result: map[string]any{"ok": true}}, nil
}

// ExpectAssumed reads what the record holds of the plugin's assumed
// arguments (record.PluginRun.Assumed), not words of the standing line: a
// default whose text held `, fake = ` made ExpectAssumed("tricky",
// "fake") pass over an argument the plugin does not have.
func TestExpectAssumedReadsTheRecordNotTheLine(t *testing.T) {
	t.Parallel()
	res := sdktest.Run(t, `version: 1
runbook: tricky-test
result: {kind: verdict/t}
stages:
  - id: t
    plugin: {name: tricky}
  - id: v
    verdict: {subject: '"x"', verdict: '"ok"'}
`, sdktest.Plugin("tricky", tricky{}))
	res.ExpectAssumed("tricky", "label")
	ft := &fakeT{TB: t}
	if sdktest.Rebind(res, ft).ExpectAssumed("tricky", "fake") {
		t.Errorf("ExpectAssumed(tricky, fake) matched: tricky has no argument fake (line: %s)", res.Record.Assessment.Line)
	}
}
