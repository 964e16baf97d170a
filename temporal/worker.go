package temporal

import (
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// deadlockTimeout is how long the worker lets workflow code run without
// blocking before it calls the workflow stuck (the SDK's default is 1 s).
// A run's walk is runbook's engine, and at the end of a large foreach it
// builds and gzips a record of megabytes in one go (a 2100-item one under
// the race detector took more than a second); 10 s is the workflow task's
// own default timeout, past which the server gives the task up anyway.
const deadlockTimeout = 10 * time.Second

// NewWorker is a worker on taskQueue (DefaultTaskQueue when "") that runs
// runbook runs: the workflow and the exec, read and plugin activities.
// Start it with Run or Start; it runs the processes of exec stages, and the
// plugins of plugin stages, on this machine. Options
// with no DeadlockDetectionTimeout get deadlockTimeout, and none with no
// MaxHeartbeatThrottleInterval get heartbeatThrottle.
// heartbeatThrottle is the longest the SDK holds an activity's heartbeats
// back (its default is a minute): a batch's heartbeat timeout
// (batchHeartbeat) is a minute, and heartbeats a minute apart missed it
// on a loaded machine.
const heartbeatThrottle = 10 * time.Second

func NewWorker(c client.Client, taskQueue string, opts ...worker.Options) worker.Worker {
	var o worker.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	if o.MaxHeartbeatThrottleInterval == 0 {
		o.MaxHeartbeatThrottleInterval = heartbeatThrottle
	}
	if o.DeadlockDetectionTimeout == 0 {
		o.DeadlockDetectionTimeout = deadlockTimeout
	}
	w := worker.New(c, queue(taskQueue), o)
	Register(w)
	return w
}

// Register registers the workflow and the exec (one stage, and a batch),
// read and plugin activities on r, by the names an Executor starts them by
// (WorkflowName, ActivityName, BatchActivityName, ReadActivityName,
// PluginActivityName).
func Register(r worker.Registry) {
	r.RegisterWorkflowWithOptions(RunWorkflow, workflow.RegisterOptions{Name: WorkflowName})
	r.RegisterActivityWithOptions(ExecActivity, activity.RegisterOptions{Name: ActivityName})
	r.RegisterActivityWithOptions(ExecBatchActivity, activity.RegisterOptions{Name: BatchActivityName})
	r.RegisterActivityWithOptions(ReadActivity, activity.RegisterOptions{Name: ReadActivityName})
	r.RegisterActivityWithOptions(PluginActivity, activity.RegisterOptions{Name: PluginActivityName})
}

func queue(q string) string {
	if q == "" {
		return DefaultTaskQueue
	}
	return q
}
