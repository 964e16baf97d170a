// Package temporal runs runbooks on Temporal, the durable-execution
// engine: a run that must outlive the machine that started it, or spread
// its exec stages over workers on other hosts, still leaves the record a
// local run leaves (docs/SCALE.md).
//
// The mapping: one workflow per run (RunWorkflow). The workflow parses the
// chart from the bytes in its input and runs it with runbook's own engine,
// inline (no goroutine, branches in declaration order: runbook.WithInline),
// so the chart's decisions, sets, verdicts and loops are workflow code,
// pure over the scope. Every exec stage's process is one activity
// (ExecActivity), run on a worker by runbook.RunExec, its facts filed by
// the workflow as a local run files its own process's (runbook.ExecStub's
// Ran). The stage's timeout bounds the process on the worker and, with a
// margin, the activity (StartToCloseTimeout); the stage's retry stays the
// runbook's (the activity is tried once), so the record shows every
// attempt as a local run does, and a retry's delay is a workflow timer.
//
// It is a module of its own so that a user who never leaves one machine
// builds none of Temporal.
package temporal
