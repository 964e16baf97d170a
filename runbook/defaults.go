package runbook

// DefaultMaxRows is the one cap on verdict rows and the rendered table when
// result.maxRows is not given (chart-yaml.md).
const DefaultMaxRows = 50
