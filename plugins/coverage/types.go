package coverage

import (
	"encoding/json"
	"fmt"
	"sync"
)

// Status is what a recognized result says about the stage's outcome.
const (
	// StatusAbsent: an absence is in play — an honest empty answer. It is
	// never "failure": routing an empty answer like a broken collector is
	// the confusion an absence exists to remove.
	StatusAbsent = "absent"
)

// Kind says which reserved shape made a declaration.
type Kind string

const (
	// KindAbsence: "I looked here and there is nothing".
	KindAbsence Kind = "absence"
	// KindLedger: "my result covers this and not that".
	KindLedger Kind = "ledger"
)

// Reading is what one recognized result declares.
type Reading struct {
	// Status is StatusAbsent when an absence is in play, "" for a bare
	// ledger: a ledger bounds an answer, it says nothing of its outcome.
	Status string `json:"status,omitempty"`
	// Declared holds the outer ledger first, then the absence it wraps;
	// two entries only when an author bounded an absence.
	Declared []Declaration `json:"declared"`
}

// PeriodVerdict is the [Least] verdict of the reading's periods, and false
// when none declared one.
func (r Reading) PeriodVerdict() (Verdict, bool) {
	return leastOf(r.Declared)
}

// Declaration is one coverage statement found in a result, in the record's
// camelCase form. Parts the author got wrong are left off, never repaired.
type Declaration struct {
	Kind Kind `json:"kind"`
	// LookedFor is what an absence's search was for.
	LookedFor   string           `json:"lookedFor,omitempty"`
	Checked     []Item           `json:"checked,omitempty"`
	NotChecked  []Item           `json:"notChecked,omitempty"`
	CannotCover []Item           `json:"cannotCover,omitempty"`
	InProgress  []InProgressItem `json:"inProgress,omitempty"`
	// TryInstead is an absence's suggestion, trimmed, never parsed.
	TryInstead     string      `json:"tryInstead,omitempty"`
	TryInsteadTool *ToolHint   `json:"tryInsteadTool,omitempty"`
	Provenance     *Provenance `json:"provenance,omitempty"`
	Period         *Period     `json:"period,omitempty"`
	Note           string      `json:"note,omitempty"`
}

// Item is one piece of ground a declaration names. Short and Kind are
// RECORD-ONLY: they travel on the record and [Serve] removes them from the
// value written to the scope.
//
// An item with nothing but What is written as a plain string, the form an
// author may use for it; both forms read back.
type Item struct {
	What  string `json:"what"`
	Why   string `json:"why,omitempty"`
	Short string `json:"short,omitempty"`
	Kind  string `json:"kind,omitempty"`
}

type itemObject Item

// MarshalJSON writes a bare item as its string, any other as an object.
func (it Item) MarshalJSON() ([]byte, error) {
	if it.Why == "" && it.Short == "" && it.Kind == "" {
		return json.Marshal(it.What)
	}
	return json.Marshal(itemObject(it))
}

// UnmarshalJSON reads either form MarshalJSON writes.
func (it *Item) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err == nil {
		*it = Item{What: s}
		return nil
	}
	var o itemObject
	if err := json.Unmarshal(data, &o); err != nil {
		return fmt.Errorf("coverage: an item is a string or {what, why?}: %w", err)
	}
	*it = Item(o)
	return nil
}

// InProgressItem is something a ledger's read found still running: neither
// success nor failure, reported as in progress. Count, when given, is how
// many (a whole number ≥ 1).
type InProgressItem struct {
	What  string `json:"what"`
	Why   string `json:"why,omitempty"`
	Count int    `json:"count,omitempty"`
	Short string `json:"short,omitempty"`
	Kind  string `json:"kind,omitempty"`
}

// ToolHint is an absence's typed suggestion of another tool to try.
type ToolHint struct {
	Tool string `json:"tool"`
	Why  string `json:"why,omitempty"`
}

// Provenance is where an absence looked and when that source was measured.
type Provenance struct {
	Source     string `json:"source"`
	MeasuredAt string `json:"measuredAt,omitempty"`
}

// Warning reports one malformed optional part that was left off the
// record. Path is the stage's, filled in by whoever knows it ([Read] does
// not); Part is where in the value, as written (e.g. "af_coverage.period").
type Warning struct {
	Path    string `json:"path,omitempty"`
	Part    string `json:"part"`
	Problem string `json:"problem"`
}

// WarnFunc receives warnings. A nil WarnFunc drops them.
type WarnFunc func(Warning)

// OncePerStage lets through at most one warning per stage path, however
// many values a stage returns in a run: a person needs to hear that a
// stage writes a bad period once, not a thousand times. The zero value is
// ready to use and it is safe for concurrent use. Keep one per run.
type OncePerStage struct {
	mu     sync.Mutex
	warned map[string]bool
}

// For returns the WarnFunc to hand [Read] for the stage at path: it stamps
// the path on each warning and passes the first of them to sink.
func (o *OncePerStage) For(path string, sink WarnFunc) WarnFunc {
	return func(w Warning) {
		if sink == nil {
			return
		}
		o.mu.Lock()
		if o.warned[path] {
			o.mu.Unlock()
			return
		}
		if o.warned == nil {
			o.warned = map[string]bool{}
		}
		o.warned[path] = true
		o.mu.Unlock()
		w.Path = path
		sink(w)
	}
}

func leastOf(decls []Declaration) (Verdict, bool) {
	var vs []Verdict
	for _, d := range decls {
		if d.Period != nil {
			vs = append(vs, d.Period.Verdict)
		}
	}
	if len(vs) == 0 {
		return "", false
	}
	return Least(vs...), true
}
