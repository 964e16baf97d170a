// Package gate judges a finished result record as an exit code would: the
// answer as a Nagios/Icinga check state (--format nagios), and whether the
// answer meets the conditions a caller fails on (--fail-on). It is the one
// home of both judgements: `runbook exec`, `runbook resume` and any other
// front end (the MCP server) ask it, never a copy.
//
// A verdict word's state, first match wins:
//
//	the word is listed in result.nagios      the state it is listed under
//	the word is ok, warning, critical, unknown   itself
//	any other word                           unknown (Check.Unmapped names it)
//
// The check's state, first match wins:
//
//	the run failed, was cancelled or paused  UNKNOWN (no finished answer),
//	                                         or the worst state of the rows
//	                                         it wrote before it stopped when
//	                                         that is worse (WARNING, CRITICAL);
//	                                         its scripts that answered WARNING
//	                                         or CRITICAL are listed
//	                                         (Check.Stopped), and, of a failed
//	                                         run, those that gave no answer
//	                                         before it (Check.Failed), the
//	                                         state left as it is
//	the chart projects no verdict rows       UNKNOWN
//	otherwise                                the worst state over every row,
//	                                         shown or hidden (none: OK, when
//	                                         the chart says result.empty:
//	                                         answer), and
//	                                         no better than UNKNOWN when a
//	                                         script's last run gave no answer
//	                                         (Check.Unanswered), a subject
//	                                         was never judged (Check.Unchecked),
//	                                         a decider rule could not be
//	                                         evaluated (Check.RuleErrors) or
//	                                         an answer check did not pass
//	                                         (Check.ChecksFailed)
//
// A script gives no answer when assessment.ScriptReason says so: it could
// not be started, timed out, was killed, failed with an exit code the chart
// did not declare an answer (exitCodes:), or answered unknown. The rows
// built over its output rest on nothing it said (a default branch taken
// over an empty stdout), which a Nagios plugin says as UNKNOWN. A subject
// is never judged when the ledger says a stage failed under onError:
// continue, a foreach's items past maxBranches did not run, its items were
// null, output was withheld past the cap, a parse mode could not read a
// line, a command exited 0 with only stderr to show, a foreach item wrote
// no verdict row, a verdict row was dropped, a read: found no file (a
// glob that matched none: no subject at all; a path that does not exist),
// the table has no rows and the chart did not say that none is its answer
// (result.empty: answer; `ss` run without the privilege to name processes
// gives no sshd row exactly as a host without sshd does),
// or a stage's source did not hold all of the period it was asked about
// (a coverage declaration's period not-held, partly-held or unknown):
// the rows say nothing of it, and OK would say it is fine. A decider rule
// that could not be evaluated (its
// expression errored, a filter condition could not judge its value, a
// filter key no decision found) counted as no match: the row decided past
// it may be the one it would have overruled (an "ok" default over a
// memory "50 kB" that a "< 100000" rule could not compare), so the check
// is no better than UNKNOWN either.
//
// Worst is the monitoring-plugins order (max_state_alt), not the exit
// code's: OK < UNKNOWN < WARNING < CRITICAL, so one critical row is never
// hidden behind an unknown one.
//
// A --fail-on condition holds for a run that completed or paused (a run
// that failed or was cancelled broke: its exit code says so, never 3):
//
//	not-sure, ask, not-assessed, consistent  the assessment's standing is that word
//	                                         (no assessment: not-assessed)
//	check-failed                             an answer check (result.checks) failed
//	verdict=WORD[|WORD…]                     some row, shown or hidden, has one of the words,
//	                                         or none has over a completed run whose
//	                                         rows are not all judged (Check.Judged),
//	                                         or over a paused run: not ruled out,
//	                                         said with what kept it open
//
// Example: rows at-risk (/var), filling (/home), ok (/) under
// result.nagios {critical: [at-risk], warning: [filling]} judge CRITICAL,
// with words at-risk (critical, 1 row, /var), filling (warning), ok (ok);
// --fail-on verdict=filling holds ("verdict=filling (1 row)").
//
// It reads only the record and the chart's mapping, never edits either.
package gate
