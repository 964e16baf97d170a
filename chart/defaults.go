package chart

import "time"

// The chart format's promised defaults that the loader's own messages name
// (chart-yaml.md). The loader never applies them: a Spec says only what the
// file says (zero for a key not given), and package runbook settles every
// default once, when it builds the runbook.
const (
	// DefaultExecTimeout bounds an exec stage that sets no timeout.
	DefaultExecTimeout = 60 * time.Second
)

// InputTypes are the types an input (and an ask's expected answer) may
// declare, in the order messages list them.
var InputTypes = []string{"string", "number", "bool", "list", "object", "duration"}
