package runbook

import "time"

// The defaults the chart format promises (chart-yaml.md), in one place for
// the loader and the runtime.
const (
	// DefaultMaxRows is the one cap on verdict rows and the rendered table
	// when result.maxRows is not given.
	DefaultMaxRows = 50
	// DefaultExecTimeout bounds an exec stage that sets no timeout.
	DefaultExecTimeout = 60 * time.Second
)

// inputTypes are the declared input types.
var inputTypes = []string{"string", "number", "bool", "list", "object", "duration"}
