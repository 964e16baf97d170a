package assessment

import "fmt"

// When says which standings get their line appended after the result
// (result.standingLine). It never changes the standing or its data: those
// travel in every mode.
type When string

// The modes. The zero value means Always.
const (
	// Always appends the line for every standing (the default).
	Always When = "always"
	// UnlessConsistent appends it for every standing but consistent.
	UnlessConsistent When = "unless-consistent"
	// NotSureOrAsk appends it only for not-sure and ask.
	NotSureOrAsk When = "not-sure-or-ask"
)

// ParseWhen reads a standingLine mode as a runbook writes it; "" is the
// default, Always.
func ParseWhen(s string) (When, error) {
	switch w := When(s); w {
	case "":
		return Always, nil
	case Always, UnlessConsistent, NotSureOrAsk:
		return w, nil
	}
	return "", fmt.Errorf("assessment: standingLine %q is not a mode: want %s, %s or %s",
		s, Always, UnlessConsistent, NotSureOrAsk)
}

// Said reports whether the line for standing is appended under when. Ask is
// said in every mode. A mode other than the three (the zero value included)
// is read as Always: saying the line is never the less honest choice.
//
//	Said(NotSureOrAsk, Consistent) // false: no line; the data still travels
//	Said(NotSureOrAsk, Ask)        // true: ask is said in every mode
func Said(when When, standing Standing) bool {
	if standing == Ask {
		return true
	}
	switch when {
	case UnlessConsistent:
		return standing != Consistent
	case NotSureOrAsk:
		return standing == NotSure
	}
	return true
}
