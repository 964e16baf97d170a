package runbook

import "github.com/openrunbook/runbook/chart"

// DefaultMaxRows is the one cap on verdict rows and the rendered table when
// result.maxRows is not given (chart-yaml.md).
const DefaultMaxRows = 50

// VerdictsKey is the state key verdict rows are appended to: a verdict
// stage appends one row, and every run gathers the rows parallel branches
// and foreach branches appended, in branch order (flow.WithGather). The
// word is the chart format's (chart.VerdictsKey), which the loader's name
// check also reads.
const VerdictsKey = chart.VerdictsKey
