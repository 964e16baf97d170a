package temporal

import (
	"context"
	"fmt"

	"go.temporal.io/sdk/workflow"

	"github.com/openrunbook/runbook/runbook"
)

// PluginActivityName is the activity of a plugin stage's call (and of the
// one description a run asks of each plugin it calls).
const PluginActivityName = "runbook.Plugin"

// CallPlugin runs a plugin stage's plugin on a worker (PluginActivity):
// the workflow starts no process. Its answer, a failure included, comes
// back as the run files it; an activity that did not finish fails the
// stage.
func (s *workflowStubs) CallPlugin(bctx context.Context, call runbook.PluginRunCall) (*runbook.PluginAnswer, error) {
	timeout := noTimeout
	if call.Timeout > 0 {
		timeout = call.Timeout + activityMargin
	}
	ctx := once(s.wctx(bctx), timeout)
	defer s.slot(ctx)()
	var ans runbook.PluginAnswer
	if err := workflow.ExecuteActivity(ctx, PluginActivityName, call).Get(ctx, &ans); err != nil {
		return nil, fmt.Errorf("plugin %q on a Temporal worker: %w", call.Plugin, err)
	}
	return &ans, nil
}

// PluginActivity starts one plugin stage's plugin on this worker, calls
// it once (or has it describe itself) and stops it (registered as
// PluginActivityName): runbook.RunPlugin, which finds the plugin as a
// local run does, in the chart's plugins: map and then in the worker's
// RUNBOOK_PLUGIN_DIR.
func PluginActivity(ctx context.Context, call runbook.PluginRunCall) (*runbook.PluginAnswer, error) {
	return heartbeating(ctx, func() *runbook.PluginAnswer { return runbook.RunPlugin(ctx, call) }), nil
}
