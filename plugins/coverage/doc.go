// Package coverage reads what a stage result says about its own coverage —
// an absence that names where it looked, a ledger that bounds what it
// covers — and serves the value the scope receives.
//
// A result may declare its coverage in one of two reserved shapes:
//
//	{"af_absent": true, "checked": [...], "looked_for": ..., ...}       an absence
//	{"af_coverage": {"checked": [...], "not_checked": [...], ...}, "result": ...}   a ledger
//
// An absence is an ANSWER — "I looked here and there is nothing" — and its
// stage's status is "absent", never "failure": an honest empty answer must
// not be routed like a broken collector, and a broken collector must never
// pass for an empty answer. A ledger says "my result covers this and not
// that"; one whose result is an absence declares both, outer first.
//
// The package owns three rules, each in one function that every caller
// asks:
//
//	what is a declaration      Read          strict; one level; null counts as omitted
//	what the scope receives    Serve         record-only keys out, period verdict in
//	how much time was held     PeriodVerdict inclusive bounds, no clock:
//	    held "unknown"                        unknown
//	    held contains queried                 covered
//	    no instant in common                  not-held
//	    otherwise                             partly-held
//	several periods            Least         not-held < partly-held < unknown < covered
//
// Recognition is strict: JSON held as text, an absence inside a domain
// object or a list, and an af_absent without a non-empty checked list are
// ordinary data, served and recorded exactly as written (the last with a
// warning: an absence that names no place it looked). A malformed
// optional part is left off the record and reported (once per stage per
// run with [OncePerStage]); it is never repaired.
//
// The package never edits a value it is given, never reads a clock, never
// panics on any input and imports nothing from this repository but
// internal/jsonv (the JSON kinds and numbers, a leaf). It works on
// JSON-shaped Go values: map[string]any, []any (and []string for item
// lists), string, bool, nil and numbers as jsonv counts them.
//
// Example:
//
//	v := map[string]any{
//		"af_absent":  true,
//		"looked_for": "open incidents for db-1",
//		"checked":    []any{"pagerduty", map[string]any{"what": "statuspage", "short": "sp"}},
//	}
//	r, _ := coverage.Read(v, nil)
//	// r.Status == "absent"; r.Declared[0].Checked[1].Short == "sp"
//	served, _ := coverage.Serve(v)
//	// served's checked[1] is {"what": "statuspage"}: short stays on the record
package coverage
