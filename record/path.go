package record

import "strings"

// Path is a runtime path as the record shows it: stage ids, the generated
// branch segments kept, the execution counter dropped
// (`per-volume~3/posture#7` → `per-volume~3/posture`).
func Path(runtime string) string {
	if i := strings.LastIndexByte(runtime, '#'); i >= 0 && i > strings.LastIndexByte(runtime, '/') {
		return runtime[:i]
	}
	return runtime
}
