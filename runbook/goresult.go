package runbook

import (
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/jsonv"
)

// SetResult writes v under key for the Go stage that s is the scope of, as
// a set: or exec: stage writes its result: through the coverage honesty
// stage, so a coverage declaration v carries (an object with af_coverage's
// not_checked or cannot_cover, or af_absent: true with what was checked)
// goes on the run's ledger, keeps the answer from Known and is traced by
// explain, and the scope gets the served form. It is how a Go stage that
// parsed a command's output says what it could not read:
//
//	runbook.SetResult(s, "sockets", map[string]any{
//		"list": parsed,
//		"af_coverage": map[string]any{"not_checked": []any{
//			map[string]any{"what": "line 3 of ss -tln", "why": "it did not parse"},
//		}},
//	})
//
// v is read as the JSON value the record writes of it (jsonv.Normalize,
// as an expression's value is): a struct whose field is tagged
// `json:"af_coverage"`, a map[string]string, a []map[string]string of
// items declare as a map[string]any would, and the scope gets that JSON
// value, not the Go type. Before, only a map[string]any at every level
// was read: a typed declaration was left out in silence, the record
// showing it and the line saying Consistent.
//
// s.Set writes v as it is: a declaration in it is only data, and the run
// never learns what the stage did not check. Outside a runbook run (a
// plain flow chart) SetResult is s.Set of that JSON value.
func SetResult(s *flow.Scope, key string, v any) {
	if _, raw := jsonv.RawBytes(v); !raw {
		if n, err := jsonv.Normalize(v); err == nil {
			v = n
		} // else s.Set refuses v, saying why
	} // a []byte is refused by s.Set as it is, never made a list of numbers
	s.Set(key, stateOf(s).result(s.Path(), v))
}
