// Package assessment folds a finished run's summary into the answer's
// STANDING and composes the one line a person reads after the result.
//
// It owns one rule, read top to bottom, first match wins (Assess):
//
//	the run's summary has                                 standing
//	the run paused to ask for input                       ask
//	any reason below                                      not-sure
//	declared answer checks, all passed, and no reason     known
//	honesty checks ran and none fired                     consistent
//	nothing could be checked (honesty off, no checks)     not-assessed
//
// and one table of words (LineOf), versioned by LineVersion. Each line opens
// with its standing's fixed words:
//
//	ask            "Ask — "
//	not-sure       "Not sure — "
//	known          "Known — "
//	consistent     "Consistent with the run's record — "
//	not-assessed   "Not assessed — "
//
// and goes on with clauses joined by "; ", ending with ".". The reasons, in
// the order their clauses print, one clause per item of the summary:
//
//	argument-assumed    window = "2h" was assumed by disk-triage's rule, not given by you
//	                    threshold = 90 and window = "2h" were assumed by disk-triage's rule, not given by you
//	                    password (value hidden) was assumed by disk-triage's rule, not given by you
//	declared-absent     stage "lookup" looked for error lines and declared it found none
//	coverage-gap        stage "lookup" did not check archived logs (no read access)
//	                    stage "lookup" could not cover deleted files (gone from disk)
//	                    stage "classify" reached no verdict for 3 rows (no rule decided them)
//	                    stage "classify" declined 1 row by its rule "df reported no size for it"
//	                    the verdict projection dropped 2 verdict rows (each was not an object with a string verdict)
//	period-not-held     stage "lookup" was asked for a period its source did not hold
//	period-partly-held  stage "lookup" was asked for a period its source held only in part
//	period-unknown      stage "lookup" could not say which period its source held
//	script-failed       script "collect" completed with failure, exit 7
//	                    (not when the chart declared the exit code an answer: Script.Answer)
//	script-unknown      the run recorded no outcome for script "deploy" (outcome unknown)
//	                    the run recorded no outcome for script "deploy" (outcome unknown: timed out after 2s)
//	                    the run recorded no outcome for script "probe" (returned): a code-running
//	                    plugin's call came back with no fact of how its code ended
//	rule-error          decider "Headroom" could not evaluate rule 2 ("Used at or above the threshold")
//	                    and counted it as no match: invalid operation: string >= int (1:13)
//	stopped-early       the run was cancelled at stage "wait" before it finished
//	                    the run timed out at stage "wait" before it finished
//	check-failed        answer check "disk.used < 90" did not pass
//	                    answer check "disk.used < 90" could not be evaluated (no such key)
//
// The values one owner assumed share one clause, owners in the order their
// first value comes. At most 12 clauses print, then "N more reasons are in the run's record";
// assumed-value clauses are never cut and do not count toward the 12. The
// script clauses use the label's words exactly as plugins/label composed
// them: the caller passes them in (Script.Words); this package never words a
// label itself and imports no engine package.
//
// The other standings' words:
//
//	ask           the run paused to ask "Which host?"   (then any reason clauses)
//	known         all 2 declared answer checks passed
//	consistent    2 honesty checks ran (label, coverage) and none found a reason for doubt; this is not a verification
//	not-assessed  nothing could be checked: the honesty stages were off and no answer checks were declared
//
// Consistent is never known and never "verified": it says only that the
// checks that ran found nothing to doubt.
//
// What it never does: it never edits the result (the line is appended after
// it, and the standing travels as data in every When mode); it never reads
// how confident anything sounded, only what the run's record holds; it never
// prints a value other than an assumed one, and never a secret one. It reads
// only its arguments, imports only the standard library and internal/jsonv
// (the JSON kinds and numbers, a leaf), and never panics,
// on a damaged record (FromRecord) included.
//
// The stage's one entry point is Annotate, over plain data (Request,
// Response), so the runtime can call it in-process or across a plugin
// connection and get the same bytes.
//
// Example:
//
//	a := assessment.Assess(assessment.Summary{
//		Runbook: "search_logs",
//		Assumed: []assessment.Assumed{{Name: "window", Value: "2h", By: "search_logs"}},
//	})
//	// a.Standing == assessment.NotSure
//	// a.Reasons  == []assessment.Reason{assessment.ArgumentAssumed}
//	// a.Line     == `Not sure — window = "2h" was assumed by search_logs's rule, not given by you.`
package assessment
