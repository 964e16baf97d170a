package runbook_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/runbook"
)

// remotePlugins is remote that is also a PluginHost: each plugin call runs
// by RunPlugin and its answer crosses JSON, as from a worker elsewhere.
type remotePlugins struct{ remote }

func (*remotePlugins) CallPlugin(ctx context.Context, call runbook.PluginRunCall) (*runbook.PluginAnswer, error) {
	b, err := json.Marshal(call)
	if err != nil {
		return nil, err
	}
	var c runbook.PluginRunCall
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, err
	}
	b, err = json.Marshal(runbook.RunPlugin(ctx, c))
	if err != nil {
		return nil, err
	}
	var a runbook.PluginAnswer
	return &a, json.Unmarshal(b, &a)
}

// TestRunPluginFilesAsALocalRun: plugin stages whose plugins ran by
// RunPlugin, through a PluginHost, leave the record a local run leaves —
// a call the plugin's Run fails, a plugin found nowhere — inline or not;
// and a call past the stage's timeout is filed as timed out (its words
// are not compared: which side of the plugin's pipe noticed the deadline
// first says it, locally as well).
func TestRunPluginFilesAsALocalRun(t *testing.T) {
	src := fmt.Sprintf(`version: 1
runbook: remote-plugins
plugins: {wait: {command: %q}}
stages:
  - {id: fails, onError: continue, plugin: {name: wait, args: {fail: '"boom"'}}}
  - {id: nowhere, onError: continue, plugin: {name: no-such-plugin}}
`, waitPlugin(t))
	spec, err := chart.Parse(filepath.Join(t.TempDir(), "chart.yaml"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	rb, err := runbook.Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	recordOf := func(opts ...runbook.ExecOption) string { return maskedRecord(t, rb, opts...) }
	local := recordOf()
	for _, want := range []string{"boom", "no-such-plugin\\\" not found", `"name":"wait"`} {
		if !strings.Contains(local, want) {
			t.Fatalf("the local record has no %s: %s", want, local)
		}
	}
	if got := recordOf(runbook.WithStubs(&remotePlugins{})); got != local {
		t.Errorf("records differ:\nlocal  %s\nremote %s", local, got)
	}
	if got := recordOf(runbook.WithStubs(&remotePlugins{}), runbook.WithInline()); got != local {
		t.Errorf("records differ:\nlocal  %s\ninline %s", local, got)
	}

	slow := fmt.Sprintf(`version: 1
runbook: remote-plugin-timeout
plugins: {wait: {command: %q}}
stages:
  - {id: slow, onError: continue, timeout: 300ms, plugin: {name: wait}}
`, waitPlugin(t))
	spec, err = chart.Parse(filepath.Join(t.TempDir(), "chart.yaml"), []byte(slow))
	if err != nil {
		t.Fatal(err)
	}
	if rb, err = runbook.Build(spec); err != nil {
		t.Fatal(err)
	}
	const want = `"settlement":"threw","label":"outcome-unknown","words":"outcome unknown","cause":"timed out after 300ms"`
	for name, got := range map[string]string{"local": recordOf(), "remote": recordOf(runbook.WithStubs(&remotePlugins{}), runbook.WithInline())} {
		if !strings.Contains(got, want) {
			t.Errorf("the %s record does not file the call as timed out (%s): %s", name, want, got)
		}
	}
}
