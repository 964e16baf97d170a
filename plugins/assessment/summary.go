package assessment

import "encoding/json"

// Summary is the part of a run's record the fold reads: plain data, so it
// crosses a process boundary as JSON unchanged. The runtime fills it after
// the run; every list keeps the record's order.
//
// The fold reads whatever the summary holds, whichever honesty check filed
// it; HonestyRan only decides between consistent and not-assessed when
// nothing else does.
type Summary struct {
	// Runbook is the runbook's name, used when an Assumed value names no
	// owner.
	Runbook string `json:"runbook"`
	// Paused says the run stopped at an ask: stage to wait for input;
	// Question is what it asked (optional).
	Paused   bool   `json:"paused,omitempty"`
	Question string `json:"question,omitempty"`
	// Assumed lists each input filled from its default that the run used
	// (a stage or an answer check read it), and each plugin argument
	// filled by the plugin's declared default. The caller leaves out a
	// default nobody read: it shaped nothing the answer says.
	Assumed []Assumed `json:"assumed,omitempty"`
	// Absences lists each stage that declared an absence.
	Absences []Absence `json:"absences,omitempty"`
	// Gaps lists each declared not-checked or cannot-cover item, the
	// declined verdict rows (by whose decision) and the dropped ones.
	Gaps []Gap `json:"gaps,omitempty"`
	// Periods lists each stage's period verdict.
	Periods []Period `json:"periods,omitempty"`
	// Scripts lists the script rows, labelled.
	Scripts []Script `json:"scripts,omitempty"`
	// RuleErrors lists each decider rule whose predicate could not be
	// evaluated, once per decider, rule and error.
	RuleErrors []ErroredRule `json:"ruleErrors,omitempty"`
	// Stopped is "" for a run that was not stopped, StoppedCancelled or
	// StoppedTimedOut.
	Stopped string `json:"stopped,omitempty"`
	// StoppedAt is the record path of the stage the run stopped at, when
	// the record names one; the clause names it, so a reader of the line
	// alone knows where.
	StoppedAt string `json:"stoppedAt,omitempty"`
	// Checks are the runbook's declared answer checks (result.checks) and
	// how each came out.
	Checks []Check `json:"checks,omitempty"`
	// HonestyRan names the honesty checks that ran ("label", "coverage",
	// …); empty means honesty was off.
	HonestyRan []string `json:"honestyRan,omitempty"`
}

// Assumed is one value the run used without being given it.
type Assumed struct {
	// Name is the input's or the argument's name.
	Name string `json:"name"`
	// Value is the value assumed. The fold never reads it when Secret is
	// set, so a caller may leave a secret's Value nil; a secret's Value is
	// also left out when an Assumed is encoded as JSON, so it never crosses
	// a plugin connection.
	Value any `json:"value,omitempty"`
	// Secret says the value must never be printed.
	Secret bool `json:"secret,omitempty"`
	// By is whose rule assumed it: the runbook's name for an input
	// default, the plugin's name for a plugin argument default.
	By string `json:"by,omitempty"`
}

// MarshalJSON encodes v, leaving a secret's Value out.
func (v Assumed) MarshalJSON() ([]byte, error) {
	type fields Assumed // the same fields, without this method
	f := fields(v)
	if f.Secret {
		f.Value = nil
	}
	return json.Marshal(f)
}

// Absence is a stage that looked and declared it found nothing.
type Absence struct {
	Stage     string `json:"stage"`
	LookedFor string `json:"lookedFor,omitempty"`
}

// Gap is one thing a stage said its result does not cover.
type Gap struct {
	Stage string `json:"stage"`
	What  string `json:"what"`
	Why   string `json:"why,omitempty"`
	// Kind is GapNotChecked, GapCannotCover, GapDeclined, GapUndecided,
	// GapDropped or GapEmpty.
	Kind string `json:"kind"`
	// Rule is, on a GapDeclined, the label of the rule that sent the rows
	// to the declined verdict; "" when they reached it some other way (the
	// default: no rule could classify them). Why then says how.
	Rule string `json:"rule,omitempty"`
}

// The kinds of Gap.
const (
	GapNotChecked  = "not-checked"
	GapCannotCover = "cannot-cover"
	GapDeclined    = "declined"
	// GapUndecided is declined verdict rows no decision of the decider
	// (Stage) sent to the declined verdict: a stage wrote the word itself,
	// or the record cannot trace the rows to a decision. What counts them.
	GapUndecided = "declined-undecided"
	// GapDropped is verdict rows the projection could not read as rows
	// (What counts them, Why says what they were); Stage is unused.
	GapDropped = "dropped"
	// GapEmpty is a verdict set with no rows of a chart that did not say
	// no rows is its answer: no subject was judged. What and Why are the
	// ledger item's; the clause says it in its own words.
	GapEmpty = "empty"
)

// Period is a stage's period verdict: how much of the period it was asked
// about its source held.
type Period struct {
	Stage string `json:"stage"`
	// Verdict is VerdictCovered, VerdictPartlyHeld, VerdictNotHeld or
	// VerdictUnknown.
	Verdict string `json:"verdict"`
}

// The period verdicts. Only VerdictCovered is no reason; a verdict outside
// this list is read as VerdictUnknown.
const (
	VerdictCovered    = "covered"
	VerdictPartlyHeld = "partly-held"
	VerdictNotHeld    = "not-held"
	VerdictUnknown    = "unknown"
)

// Script is one labelled script row.
type Script struct {
	// Stage is the stage that ran the script.
	Stage string `json:"stage"`
	// Label is the row's label (plugins/label's vocabulary).
	Label string `json:"label"`
	// Words are the label's words as plugins/label composes them
	// ("completed with failure, exit 7"). The caller computes them; this
	// package never composes a label's words itself.
	Words string `json:"words,omitempty"`
	// Answer is the chart's word for the exit code when the chart declared
	// that code an answer (exitCodes:): such a script never fires
	// script-failed, whatever its label says.
	Answer string `json:"answer,omitempty"`
	// Cause says why an unknown outcome is unknown, when the runner knew
	// ("timed out after 2s"); the script-unknown clause adds it.
	Cause string `json:"cause,omitempty"`
	// Killed is how the caller words the signal that ended the process,
	// when one did (", killed by SIGKILL", plugins/label's KilledBy); the
	// clause adds it after the label's words.
	Killed string `json:"killed,omitempty"`
	// Call is which of a Go stage's own commands the row is (label.Row's
	// Call, 1-based; 0 for every other stage). A stage whose rows carry
	// more than one number ran different commands, not one command again:
	// each is its own clause, named by its number.
	Call int `json:"call,omitempty"`
}

// ErroredRule is a decider rule whose predicate errored at run time. It was
// taken as no match, so whatever the decider chose rests on a later rule
// or its default.
type ErroredRule struct {
	// Decider is the decider's name, without the path of the scope it
	// ran in.
	Decider string `json:"decider"`
	// Rule is the rule's number in the decider, counting from 1.
	Rule int `json:"rule"`
	// Label is the rule's label ("" when it has none).
	Label string `json:"label,omitempty"`
	// Err is the error, as the record holds it (secrets masked).
	Err string `json:"error"`
	// Decisions is how many of the decider's decisions the rule errored
	// in with this error (0 is read as 1).
	Decisions int `json:"decisions,omitempty"`
}

// Check is one declared answer check and how it came out.
type Check struct {
	// Expr is the check's expression over the final state.
	Expr string `json:"expr"`
	// Passed says it evaluated to true.
	Passed bool `json:"passed"`
	// Err says why it could not be evaluated; a check with an error never
	// counts as passed.
	Err string `json:"err,omitempty"`
}

// The values of Summary.Stopped for a run that was stopped. Any other
// non-empty value still counts as stopped early.
const (
	StoppedCancelled = "cancelled"
	StoppedTimedOut  = "timed-out"
	// StoppedFailed is a run that failed at a stage: it stopped before its
	// end as surely as a cancelled one, so it is never "consistent".
	StoppedFailed = "failed"
)
