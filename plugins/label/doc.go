// Package label turns the record of one code call into a label, and the
// label into the words every sentence about that call uses.
//
// A code call leaves three facts behind: the runner's execution evidence
// ([Facts]), how the call settled ([Settlement]) and whether its result was
// delivered. A label is read from the first two, in that order, and never
// from the third: a result withheld from the scope does not undo an exit the
// program really reached, so it rides the row as resultWithheld instead.
//
// The package owns ONE rule, [Of]. It is read top to bottom and the first
// line that matches wins:
//
//	the record says                                   label
//	an exit code, and it is 0                         completed
//	an exit code, not 0                               completed-with-failure
//	serviceError, no exit code                        outcome-unknown
//	ok: true, no exit code                            reported-success
//	ok: false, no exit code, no service error         reported-failure
//	no facts with an outcome, settlement returned     returned
//	no facts with an outcome, settlement threw        outcome-unknown
//	no facts with an outcome, settlement not-entered  submitted
//
// "No facts with an outcome" covers both a call that filed no facts and one
// whose facts say nothing about the outcome (a terminatedBy alone, say).
// Only an exit code proves the program reached an exit, so ok never yields
// completed, and no word this package writes prints an exit number the
// record does not hold. What an exit code is, is decided by [IsExitCode];
// every writer and reader of a saved row asks it.
//
// The other exported functions follow from the rule: [Fits] says whether a
// label and an exit code could have been filed together, [Words] is the one
// phrase for a label, [NewRow] files a script row, [ReadRow] and
// [RowFromValue] read a saved one back and refuse what no writer files, and
// [Annotate] is the batch door the runtime (or a plugin server) calls.
//
// Example:
//
//	seven := 7
//	out := label.Of(label.Returned, &label.Facts{ExitCode: &seven})
//	// out.Label == label.CompletedWithFailure, *out.ExitCode == 7
//	label.Words(out.Label, out.ExitCode) // "completed with failure, exit 7"
//	label.Of(label.Threw, nil).Label      // label.OutcomeUnknown
//
// The package reads nothing but its arguments, imports nothing from this
// repository but internal/jsonv (the JSON kinds and numbers, a leaf), and
// never panics, whatever a damaged record holds.
package label
