package assessment

import (
	"strings"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// FromRecord reads the standing back off a saved record: v is the
// "assessment" value as encoding/json decodes it (map[string]any, []any,
// string, float64 or json.Number). It returns a fresh copy, field by field,
// and true only when every field is in this version's vocabulary and the
// fields agree the way Assess files them:
//
//   - version: a whole number from 1 to LineVersion;
//   - standing: one of the five, and line a string that opens with its
//     opening, ends with "." and is one line;
//   - reasons: a list of known reasons, each once, in reason order;
//     not-sure has at least one, known, consistent and not-assessed none;
//   - checked: a list of {check, ran, of}, each name once and non-empty;
//     an honesty check ran 1 of 1, AnswerChecks comes last with
//     0 ≤ ran ≤ of and of ≥ 1;
//   - known has every answer check evaluated, consistent has honesty
//     checks and no answer checks, not-assessed has no checks; check-failed
//     needs answer checks, and an answer check that was not evaluated needs
//     check-failed.
//
// Every key must be present; keys it does not know are passed over. It
// never panics and never guesses: anything else is (Assessment{}, false).
func FromRecord(v any) (Assessment, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return Assessment{}, false
	}
	version, ok := wholeNumber(m["version"])
	if !ok || version < 1 || version > LineVersion {
		return Assessment{}, false
	}
	a := Assessment{Version: int(version)}

	st, ok := m["standing"].(string)
	if !ok || !Standing(st).Valid() {
		return Assessment{}, false
	}
	a.Standing = Standing(st)

	line, ok := m["line"].(string)
	if !ok || !strings.HasPrefix(line, a.Standing.Opening()) || !strings.HasSuffix(line, ".") ||
		strings.ContainsAny(line, "\r\n") {
		return Assessment{}, false
	}
	a.Line = line

	if a.Reasons, ok = reasonsFrom(m["reasons"]); !ok {
		return Assessment{}, false
	}
	if a.Checked, ok = checkedFrom(m["checked"]); !ok {
		return Assessment{}, false
	}
	if !agrees(a) {
		return Assessment{}, false
	}
	return a, true
}

// reasonsFrom reads a reasons list: known reasons, each once, in order.
func reasonsFrom(v any) ([]Reason, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]Reason, 0, len(list))
	last := -1
	for _, item := range list {
		s, ok := item.(string)
		if !ok {
			return nil, false
		}
		rank := Reason(s).rank()
		if rank <= last {
			return nil, false
		}
		last = rank
		out = append(out, Reason(s))
	}
	return out, true
}

// checkedFrom reads a checked list: each name once, honesty checks 1 of 1,
// answer checks last with sound counts.
func checkedFrom(v any) ([]CheckRun, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]CheckRun, 0, len(list))
	seen := map[string]bool{}
	for i, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, false
		}
		name, ok := m["check"].(string)
		if !ok || name == "" || seen[name] {
			return nil, false
		}
		seen[name] = true
		ran, okRan := wholeNumber(m["ran"])
		of, okOf := wholeNumber(m["of"])
		if !okRan || !okOf {
			return nil, false
		}
		if name == AnswerChecks {
			if i != len(list)-1 || of < 1 || ran < 0 || ran > of {
				return nil, false
			}
		} else if ran != 1 || of != 1 {
			return nil, false
		}
		out = append(out, CheckRun{Check: name, Ran: int(ran), Of: int(of)})
	}
	return out, true
}

// agrees reports whether a's standing, reasons and checks go together the
// way the fold files them.
func agrees(a Assessment) bool {
	var answer *CheckRun
	honesty := 0
	for i := range a.Checked {
		if a.Checked[i].Check == AnswerChecks {
			answer = &a.Checked[i]
		} else {
			honesty++
		}
	}
	checkFailed := false
	for _, r := range a.Reasons {
		if r == CheckFailed {
			checkFailed = true
		}
	}
	if checkFailed && answer == nil {
		return false
	}
	if answer != nil && answer.Ran < answer.Of && !checkFailed {
		return false
	}
	switch a.Standing {
	case NotSure:
		return len(a.Reasons) > 0
	case Known:
		return len(a.Reasons) == 0 && answer != nil && answer.Ran == answer.Of
	case Consistent:
		return len(a.Reasons) == 0 && answer == nil && honesty > 0
	case NotAssessed:
		return len(a.Reasons) == 0 && len(a.Checked) == 0
	}
	return true // Ask: any reasons, any checks.
}

// maxWhole is the largest whole number a float64 holds exactly.
const maxWhole = 1 << 53

// wholeNumber reads a number that is whole, finite and an int on this
// platform (jsonv.Whole), and within ±2^53, where a float64 — what a JSON
// reader makes of it — holds it exactly. Any other value, a string
// included, is not one.
func wholeNumber(v any) (int64, bool) {
	n, ok := jsonv.Whole(v)
	if !ok || int64(n) > maxWhole || int64(n) < -maxWhole {
		return 0, false
	}
	return int64(n), true
}
