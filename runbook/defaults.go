package runbook

// DefaultMaxRows is the one cap on verdict rows and the rendered table when
// result.maxRows is not given (chart-yaml.md).
const DefaultMaxRows = 50

// VerdictsKey is the state key verdict rows are appended to: a verdict
// stage appends one row, and every run gathers the rows parallel branches
// and foreach branches appended, in branch order (flow.WithGather).
const VerdictsKey = "verdicts"
