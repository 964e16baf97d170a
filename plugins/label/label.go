package label

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// Settlement is how a call settled, as the runtime that made it knows it.
type Settlement string

const (
	// NotEntered: the call never started — the run was cancelled or stopped
	// before it, or it has not settled yet.
	NotEntered Settlement = "not-entered"
	// Returned: the call ran and came back with a result.
	Returned Settlement = "returned"
	// Threw: the call started and then failed as a call — a timeout, a
	// cancellation while running, a process that could not be started, a
	// runner that failed itself.
	Threw Settlement = "threw"
)

// Settlements lists every settlement this package knows, so a reader can
// refuse one it does not.
var Settlements = []Settlement{NotEntered, Returned, Threw}

// Known reports whether s is one of [Settlements].
func (s Settlement) Known() bool {
	switch s {
	case NotEntered, Returned, Threw:
		return true
	}
	return false
}

// Facts is the runner's execution evidence for one call. A nil *Facts means
// the runner filed none (a process the runner itself killed or could not
// start files none: nothing about its outcome is known).
//
// Absence is kept distinct from a zero value: a nil OK is "no verdict", not
// false, and a nil ExitCode is "the process reported no exit", not 0.
type Facts struct {
	// OK is the runner's verdict on the call, when it gave one.
	OK *bool `json:"ok,omitempty"`
	// ExitCode is set only when the process really exited. Decoding JSON
	// drops a value that is not an exit code (1.5, "7", …) by the
	// [IsExitCode] rule: such a runner reported no exit code.
	ExitCode *int `json:"exitCode,omitempty"`
	// ServiceError: a remote runner's service said the call failed, and no
	// exit code came with it.
	ServiceError bool `json:"serviceError,omitempty"`
	// TerminatedBy names the signal that killed the process, when one did
	// and the runner did not send it.
	TerminatedBy string `json:"terminatedBy,omitempty"`
}

// UnmarshalJSON reads facts a runner sent. A field of the wrong type is an
// error, except exitCode: a value that is not an exit code means the runner
// reported none, so it is dropped rather than refused.
func (f *Facts) UnmarshalJSON(data []byte) error {
	var raw struct {
		OK           *bool           `json:"ok"`
		ExitCode     json.RawMessage `json:"exitCode"`
		ServiceError *bool           `json:"serviceError"`
		TerminatedBy *string         `json:"terminatedBy"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("label: reading facts: %w", err)
	}
	out := Facts{OK: raw.OK}
	if len(raw.ExitCode) > 0 {
		var v any
		if err := json.Unmarshal(raw.ExitCode, &v); err == nil {
			if code, ok := ExitCodeOf(v); ok {
				out.ExitCode = &code
			}
		}
	}
	if raw.ServiceError != nil {
		out.ServiceError = *raw.ServiceError
	}
	if raw.TerminatedBy != nil {
		out.TerminatedBy = *raw.TerminatedBy
	}
	*f = out
	return nil
}

// Label names what the record of one call may say about its outcome.
type Label string

// The seven labels, in the rule table's order.
const (
	Completed            Label = "completed"
	CompletedWithFailure Label = "completed-with-failure"
	OutcomeUnknown       Label = "outcome-unknown"
	ReportedSuccess      Label = "reported-success"
	ReportedFailure      Label = "reported-failure"
	LabelReturned        Label = "returned"
	Submitted            Label = "submitted"
)

// Labels is every label in the rule table's order, for a reader that
// validates a record. Treat it as read-only.
var Labels = []Label{
	Completed,
	CompletedWithFailure,
	OutcomeUnknown,
	ReportedSuccess,
	ReportedFailure,
	LabelReturned,
	Submitted,
}

// Known reports whether l is one of [Labels].
func (l Label) Known() bool {
	for _, k := range Labels {
		if l == k {
			return true
		}
	}
	return false
}

// Outcome is a label with the facts it may print.
type Outcome struct {
	Label Label `json:"label"`
	// ExitCode is exactly the runner's, present only when the facts held one
	// (so only on completed and completed-with-failure).
	ExitCode *int `json:"exitCode,omitempty"`
	// ServiceError: the label is outcome-unknown because the runner's
	// service said the call failed, with no exit code.
	ServiceError bool `json:"serviceError,omitempty"`
}

// Of is THE rule: the label of one call, from execution evidence first, then
// settlement, never delivery. facts is nil when the runner filed none.
//
//	exit code 0                                completed
//	exit code ≠ 0                              completed-with-failure
//	serviceError, no exit code                 outcome-unknown (ServiceError set)
//	ok true, no exit code                      reported-success
//	ok false, no exit code, no service error   reported-failure
//	otherwise, by settlement:
//	  returned                                 returned
//	  threw                                    outcome-unknown
//	  not-entered                              submitted
//	  anything else                            outcome-unknown
//
// A settlement this package does not know says nothing certain about the
// call, so it is labelled outcome-unknown rather than guessed at.
func Of(settlement Settlement, facts *Facts) Outcome {
	if facts != nil {
		switch {
		case facts.ExitCode != nil:
			code := *facts.ExitCode
			if code == 0 {
				return Outcome{Label: Completed, ExitCode: &code}
			}
			return Outcome{Label: CompletedWithFailure, ExitCode: &code}
		case facts.ServiceError:
			return Outcome{Label: OutcomeUnknown, ServiceError: true}
		case facts.OK != nil && *facts.OK:
			return Outcome{Label: ReportedSuccess}
		case facts.OK != nil:
			return Outcome{Label: ReportedFailure}
		}
	}
	switch settlement {
	case Returned:
		return Outcome{Label: LabelReturned}
	case NotEntered:
		return Outcome{Label: Submitted}
	default: // Threw, and any settlement we do not know
		return Outcome{Label: OutcomeUnknown}
	}
}

// IsExitCode reports whether v is an exit code: a whole, finite number of
// any Go numeric type that fits an int, negatives included (some runtimes
// report a signal that way). 1.5, NaN, ±Inf, strings, bools and nil are
// not. A json.Number is read as the number it spells. Every writer and
// reader of an exit code asks this one predicate, so a writer never files a
// row a reader refuses.
func IsExitCode(v any) bool {
	_, ok := ExitCodeOf(v)
	return ok
}

// ExitCodeOf converts v to an exit code when [IsExitCode] holds for it: an
// exit code is exactly a jsonv.Whole number.
func ExitCodeOf(v any) (int, bool) {
	return jsonv.Whole(v)
}

// Fits reports whether a recorded label and exit code could have been filed
// together by [Of]. An exit code rides exactly two labels: 0 on completed,
// any other on completed-with-failure. Those two labels never travel without
// one (the writer always files the code that proved them), and every other
// label travels without one. A record where they disagree is one no writer
// of this package files.
func Fits(label Label, exitCode *int) bool {
	switch label {
	case Completed:
		return exitCode != nil && *exitCode == 0
	case CompletedWithFailure:
		return exitCode != nil && *exitCode != 0
	default:
		return exitCode == nil
	}
}

// Words is the one phrase every sentence about a call's outcome uses: the
// label with hyphens as spaces, and for completed-with-failure the exit
// number the record holds ("completed with failure, exit 7"). No other label
// prints a number.
func Words(label Label, exitCode *int) string {
	words := strings.ReplaceAll(string(label), "-", " ")
	if label == CompletedWithFailure && exitCode != nil {
		return words + ", exit " + strconv.Itoa(*exitCode)
	}
	return words
}
