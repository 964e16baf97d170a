package coverage

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// Verdict is how much of the time a read asked about its store held.
type Verdict string

// The four verdicts, from least held to most. [Least] ranks them in this
// order.
const (
	NotHeld    Verdict = "not-held"
	PartlyHeld Verdict = "partly-held"
	Unknown    Verdict = "unknown"
	Covered    Verdict = "covered"
)

// Span is a closed interval of time, both ends RFC 3339 instants with a
// zone, kept as the author wrote them so the record shows their words.
type Span struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Period is the time a declaration's read covered: the span it asked about
// (Queried), the span its store held (Held, nil when the store said
// "unknown"), when it read (ReadAt, optional) and the [Verdict] that
// [PeriodVerdict] reads from them.
//
// In a result it is written {queried: {from, to}, held: {from, to} |
// "unknown", read_at?}; on the record it is the same in camelCase (readAt)
// with the verdict added.
type Period struct {
	Queried Span
	Held    *Span
	ReadAt  string
	Verdict Verdict
}

type periodJSON struct {
	Queried Span    `json:"queried"`
	Held    any     `json:"held"`
	ReadAt  string  `json:"readAt,omitempty"`
	Verdict Verdict `json:"verdict,omitempty"`
}

// MarshalJSON writes the record form; a nil Held is written "unknown".
func (p Period) MarshalJSON() ([]byte, error) {
	out := periodJSON{Queried: p.Queried, Held: "unknown", ReadAt: p.ReadAt, Verdict: p.Verdict}
	if p.Held != nil {
		out.Held = *p.Held
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads the record form that MarshalJSON writes.
func (p *Period) UnmarshalJSON(data []byte) error {
	var raw struct {
		Queried Span            `json:"queried"`
		Held    json.RawMessage `json:"held"`
		ReadAt  string          `json:"readAt"`
		Verdict Verdict         `json:"verdict"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("coverage: reading period: %w", err)
	}
	out := Period{Queried: raw.Queried, ReadAt: raw.ReadAt, Verdict: raw.Verdict}
	var unknown string
	if err := json.Unmarshal(raw.Held, &unknown); err == nil {
		if unknown != heldUnknown {
			return fmt.Errorf("coverage: reading period: held %q must be %q or a span", unknown, heldUnknown)
		}
	} else {
		var held Span
		if err := json.Unmarshal(raw.Held, &held); err != nil {
			return fmt.Errorf("coverage: reading period: held: %w", err)
		}
		out.Held = &held
	}
	*p = out
	return nil
}

const heldUnknown = "unknown"

// PeriodVerdict is THE period rule. Bounds are inclusive and no clock is
// read:
//
//	held is "unknown"                          unknown
//	held contains all of queried               covered
//	held and queried share no instant          not-held
//	otherwise                                  partly-held
//
// Touching at one instant is sharing it, so that is partly-held, not
// not-held. A period whose instants do not parse, or run backwards, says
// nothing anyone can check and is unknown ([Read] never files one).
func PeriodVerdict(p Period) Verdict {
	if p.Held == nil {
		return Unknown
	}
	qf, qt, err := spanTimes(p.Queried)
	if err != nil {
		return Unknown
	}
	hf, ht, err := spanTimes(*p.Held)
	if err != nil {
		return Unknown
	}
	switch {
	case !hf.After(qf) && !ht.Before(qt):
		return Covered
	case ht.Before(qf) || hf.After(qt):
		return NotHeld
	default:
		return PartlyHeld
	}
}

// Least is the verdict of several periods on one call: the least held wins
// (not-held < partly-held < unknown < covered). A word that is none of the
// four counts as unknown, since nobody can say what it held. No verdicts at
// all give "": there is no period to speak of, which is not "covered".
func Least(verdicts ...Verdict) Verdict {
	var least Verdict
	for _, v := range verdicts {
		if !v.known() {
			v = Unknown
		}
		if least == "" || rank(v) < rank(least) {
			least = v
		}
	}
	return least
}

func (v Verdict) known() bool {
	switch v {
	case NotHeld, PartlyHeld, Unknown, Covered:
		return true
	}
	return false
}

func rank(v Verdict) int {
	switch v {
	case NotHeld:
		return 0
	case PartlyHeld:
		return 1
	case Covered:
		return 3
	default:
		return 2
	}
}

// ClauseVersion is bumped whenever a word of [Clause] changes, so a reader
// of an old record can tell which words it was served.
const ClauseVersion = 1

// Clause is the sentence [Serve] appends to a declaration's note when its
// period's verdict is not covered; "" for covered and for a word that is
// not a verdict.
func Clause(v Verdict) string {
	switch v {
	case NotHeld:
		return "Period: the store held none of the time this read asked about, so the result covers none of it."
	case PartlyHeld:
		return "Period: the store held only part of the time this read asked about; the rest is not covered by the result."
	case Unknown:
		return "Period: the store did not say what time it held, so the result may not cover all of the time this read asked about."
	}
	return ""
}

// parsePeriod reads a period as an author writes it. Any fault makes the
// whole period malformed: it is left off the record, never repaired.
func parsePeriod(v any) (*Period, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("must be an object {queried, held, read_at?}, got %s", jsonv.Describe(v))
	}
	var p Period
	var err error
	if p.Queried, err = parseSpan(m["queried"]); err != nil {
		return nil, fmt.Errorf("queried: %w", err)
	}
	switch held := m["held"].(type) {
	case string:
		if held != heldUnknown {
			return nil, fmt.Errorf("held: %q must be %q or {from, to}", held, heldUnknown)
		}
	default:
		span, err := parseSpan(held)
		if err != nil {
			return nil, fmt.Errorf("held: %w (or %q)", err, heldUnknown)
		}
		p.Held = &span
	}
	switch at := m["read_at"].(type) {
	case nil:
	case string:
		if _, err := instant(at); err != nil {
			return nil, fmt.Errorf("read_at: %w", err)
		}
		p.ReadAt = at
	default:
		return nil, fmt.Errorf("read_at: must be an RFC 3339 string, got %s", jsonv.Describe(at))
	}
	p.Verdict = PeriodVerdict(p)
	return &p, nil
}

func parseSpan(v any) (Span, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return Span{}, fmt.Errorf("must be an object {from, to}, got %s", jsonv.Describe(v))
	}
	from, ok1 := m["from"].(string)
	to, ok2 := m["to"].(string)
	if !ok1 || !ok2 {
		return Span{}, errors.New("from and to must both be RFC 3339 strings")
	}
	s := Span{From: from, To: to}
	if _, _, err := spanTimes(s); err != nil {
		return Span{}, err
	}
	return s, nil
}

func spanTimes(s Span) (from, to time.Time, err error) {
	if from, err = instant(s.From); err != nil {
		return from, to, fmt.Errorf("from: %w", err)
	}
	if to, err = instant(s.To); err != nil {
		return from, to, fmt.Errorf("to: %w", err)
	}
	if from.After(to) {
		return from, to, fmt.Errorf("from %s is after to %s", s.From, s.To)
	}
	return from, to, nil
}

// instant parses an RFC 3339 time, which must carry a zone (Z or ±hh:mm):
// a zoneless time names no instant.
func instant(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not an RFC 3339 time with a zone", s)
	}
	return t, nil
}
