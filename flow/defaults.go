package flow

import "time"

// The defaults and the one key word flow owns, in one place: every message
// and every caller (the YAML loader's messages included) names these, never
// a copy of the number.
//
//	DefaultLoopMax       1000 passes   a loop that sets no Max
//	DefaultMaxDepth      500 levels    nesting of subflows and branches (WithMaxDepth)
//	DefaultAbandonGrace  5s            a cancelled stage's time to return (WithAbandonGrace)
//	DefaultItemKey       "item"        the key a foreach branch sees its item under (ForEach.As)
//	IndexKey             "index"       the key a foreach branch sees its item's position under
//
// DefaultExplainDepth (explain.go) is the explainer's, not the run's.
const (
	// DefaultLoopMax is the loop bound when a loop does not set one.
	DefaultLoopMax = 1000

	// DefaultMaxDepth bounds nesting (subflow mounts and branches within
	// branches). Loop passes and foreach width do not count against it.
	DefaultMaxDepth = 500

	// DefaultAbandonGrace is how long a running stage has to return once the
	// run is cancelled or its timeout passes, before it is abandoned.
	DefaultAbandonGrace = 5 * time.Second

	// DefaultItemKey is the key a foreach branch sees its item under when
	// ForEach.As is not set.
	DefaultItemKey = "item"

	// IndexKey is the key every foreach branch sees its item's position under
	// (its item is under ForEach.As, which therefore may not be IndexKey).
	IndexKey = "index"
)
