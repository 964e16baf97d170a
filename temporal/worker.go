package temporal

import (
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// NewWorker is a worker on taskQueue (DefaultTaskQueue when "") that runs
// runbook runs: the workflow and the exec and read activities. Start it with Run or
// Start; it runs the processes of exec stages on this machine.
func NewWorker(c client.Client, taskQueue string, opts ...worker.Options) worker.Worker {
	var o worker.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	w := worker.New(c, queue(taskQueue), o)
	Register(w)
	return w
}

// Register registers the workflow and the exec and read activities on r,
// by the names an Executor starts them by (WorkflowName, ActivityName,
// ReadActivityName).
func Register(r worker.Registry) {
	r.RegisterWorkflowWithOptions(RunWorkflow, workflow.RegisterOptions{Name: WorkflowName})
	r.RegisterActivityWithOptions(ExecActivity, activity.RegisterOptions{Name: ActivityName})
	r.RegisterActivityWithOptions(ReadActivity, activity.RegisterOptions{Name: ReadActivityName})
}

func queue(q string) string {
	if q == "" {
		return DefaultTaskQueue
	}
	return q
}
