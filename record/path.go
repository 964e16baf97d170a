package record

import "github.com/openrunbook/runbook/flow"

// Path is a runtime path as the record shows it: stage ids, the generated
// branch segments kept, the execution counter dropped
// (`per-volume~3/posture#7` → `per-volume~3/posture`).
func Path(runtime string) string { return flow.StripCounter(runtime) }
