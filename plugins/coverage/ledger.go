package coverage

// Entry is one declaration of the run, stamped with the path of the stage
// that made it. In JSON it is flat: {"path": …, "kind": …, "checked": …}.
type Entry struct {
	Path string `json:"path"`
	Declaration
}

// Ledger is the run's coverage ledger: every declaration of the run in the
// order they were added, each with its stage path. It is a plain list, so
// it marshals as the record's "coverage" array.
type Ledger []Entry

// Add stamps each declaration with path and appends it. Pass a [Reading]'s
// Declared as is: the outer ledger stays ahead of the absence it bounds.
func (l *Ledger) Add(path string, declared ...Declaration) {
	for _, d := range declared {
		*l = append(*l, Entry{Path: path, Declaration: d})
	}
}

// AddNotChecked appends one not-checked item that no stage declared but
// the runtime knows of — the verdict projection's "N rows were declined",
// say. It is filed as a ledger entry of its own under path, so the
// stage's own declarations stay exactly as the stage made them.
func (l *Ledger) AddNotChecked(path string, item Item) {
	*l = append(*l, Entry{Path: path, Declaration: Declaration{Kind: KindLedger, NotChecked: []Item{item}}})
}

// PeriodVerdict is the [Least] verdict of every period in the ledger, and
// false when no declaration carried one.
func (l Ledger) PeriodVerdict() (Verdict, bool) {
	decls := make([]Declaration, 0, len(l))
	for _, e := range l {
		decls = append(decls, e.Declaration)
	}
	return leastOf(decls)
}
