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
	// Assumed lists each input filled from its default and each plugin
	// argument filled by the plugin's declared default.
	Assumed []Assumed `json:"assumed,omitempty"`
	// Absences lists each stage that declared an absence.
	Absences []Absence `json:"absences,omitempty"`
	// Gaps lists each declared not-checked or cannot-cover item, and the
	// declined verdict rows.
	Gaps []Gap `json:"gaps,omitempty"`
	// Periods lists each stage's period verdict.
	Periods []Period `json:"periods,omitempty"`
	// Scripts lists the script rows, labelled.
	Scripts []Script `json:"scripts,omitempty"`
	// Stopped is "" for a run that was not stopped, StoppedCancelled or
	// StoppedTimedOut.
	Stopped string `json:"stopped,omitempty"`
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
	// Kind is GapNotChecked, GapCannotCover or GapDeclined.
	Kind string `json:"kind"`
}

// The kinds of Gap.
const (
	GapNotChecked  = "not-checked"
	GapCannotCover = "cannot-cover"
	GapDeclined    = "declined"
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
