package coverage

import (
	"reflect"
	"strings"
)

// Serve gives the value written to the scope for one stage result.
//
// For every declaration it finds — a bare absence, a ledger, and whatever a
// ledger bounds, ledger inside ledger to any depth the author built — it:
//
//   - removes the record-only keys short and kind from every item of the
//     item lists (checked, not_checked, cannot_cover, and a ledger's
//     in_progress);
//   - when the declaration's period is well formed and its verdict is not
//     covered, adds the verdict word as period.verdict and appends
//     [Clause] to its note (the clause becomes the note when there was
//     none; a note that is not a string is left as written, without one).
//
// Anything [Read] does not recognize is served exactly as written.
//
// It never edits value. When nothing changes it returns value itself — the
// same map, no copy — and changed false; otherwise it copies only the
// objects on the path to what changed. A holder met twice on one walk (a
// ledger whose result is itself, directly or deeper) is served as found
// the second time, so a cycle ends instead of looping.
//
// Serve is idempotent: serving a served value changes nothing. See
// [Unserve] for the law that undoes it.
func Serve(value any) (served any, changed bool) {
	return walk(value, modeServe)
}

// Unserve is the inverse of [Serve], for a reader of what was served: it
// walks the same declarations and, wherever a period carries a verdict
// word, removes the word and, when the note ends with that verdict's
// [Clause], the clause (and the note, when the clause was all of it). The
// record-only keys Serve removed are gone for good; read them from the
// record.
//
// The law, for every acyclic JSON-shaped x:
//
//	Unserve(Serve(x)) deep-equals Unserve(strip(x))
//
// where strip(x) is x with short and kind removed as Serve removes them,
// except that a declaration whose note was null comes back with no note
// (null counts as omitted). So for an x that carries no verdict words of
// its own, Unserve(Serve(x)) is x less its record-only keys.
//
// Like Serve, it never edits its input and returns it unchanged, with
// changed false, when there is nothing to remove.
func Unserve(served any) (original any, changed bool) {
	return walk(served, modeUnserve)
}

type mode int

const (
	modeServe   mode = iota // strip record-only keys, then set period marks
	modeUnserve             // remove period marks
	modeStrip               // strip record-only keys only (the law's strip)
)

// strip removes the record-only keys as Serve does, and nothing more.
func strip(value any) (any, bool) {
	return walk(value, modeStrip)
}

// walk runs one mode over value. It costs a type check and a key lookup
// for a value that is no declaration.
func walk(value any, md mode) (any, bool) {
	m, ok := value.(map[string]any)
	if !ok || shapeOf(m) == ordinary {
		return value, false
	}
	w := walker{mode: md, memo: map[uintptr]*visit{}}
	return w.holder(m)
}

type walker struct {
	mode mode
	memo map[uintptr]*visit
}

// visit remembers a map the walk has met: while it is being walked (a
// cycle leads back to it) it is returned as found; once done, every later
// meeting gets the same answer, so a value shared in two places is served
// the same in both.
type visit struct {
	done    bool
	out     any
	changed bool
}

func (w *walker) enter(m map[string]any) (*visit, bool) {
	key := reflect.ValueOf(m).Pointer()
	if v, ok := w.memo[key]; ok {
		return v, false
	}
	v := &visit{}
	w.memo[key] = v
	return v, true
}

// holder serves one recognized object: an absence, or a ledger.
func (w *walker) holder(m map[string]any) (any, bool) {
	v, first := w.enter(m)
	if !first {
		if v.done {
			return v.out, v.changed
		}
		return m, false
	}
	var out any = m
	changed := false
	switch shapeOf(m) {
	case absence:
		out, changed = w.declaring(m, absenceLists)
	case ledger:
		out, changed = w.ledger(m)
	}
	*v = visit{done: true, out: out, changed: changed}
	return out, changed
}

func (w *walker) ledger(m map[string]any) (any, bool) {
	cov := m[keyCoverage].(map[string]any) // shapeOf checked it
	var newCov any = cov
	covChanged := false
	if v, first := w.enter(cov); first {
		newCov, covChanged = w.declaring(cov, ledgerLists)
		*v = visit{done: true, out: newCov, changed: covChanged}
	} else if v.done {
		newCov, covChanged = v.out, v.changed
	}

	res, hasResult := m[keyResult]
	newRes, resChanged := res, false
	if inner, ok := res.(map[string]any); ok && shapeOf(inner) != ordinary {
		newRes, resChanged = w.holder(inner)
	}
	if !covChanged && !resChanged {
		return m, false
	}
	out := copyMap(m)
	out[keyCoverage] = newCov
	if hasResult {
		out[keyResult] = newRes
	}
	return out, true
}

// declaring serves the object that holds a declaration's own fields: the
// absence itself, or a ledger's af_coverage.
func (w *walker) declaring(d map[string]any, lists []string) (any, bool) {
	var newLists map[string][]any
	if w.mode != modeUnserve {
		for _, key := range lists {
			if l, ok := d[key].([]any); ok {
				if nl, changed := stripItems(l); changed {
					if newLists == nil {
						newLists = map[string][]any{}
					}
					newLists[key] = nl
				}
			}
		}
	}

	cur := marksOf(d)
	target := cur
	switch w.mode {
	case modeServe:
		if pm, ok := d["period"].(map[string]any); ok {
			if p, err := parsePeriod(pm); err == nil && p.Verdict != Covered {
				target = cur.unmarked().marked(p.Verdict)
			}
		}
	case modeUnserve:
		target = cur.unmarked()
	}
	verdictChanged, noteChanged := target.differs(cur)

	if newLists == nil && !verdictChanged && !noteChanged {
		return d, false
	}
	out := copyMap(d)
	for key, l := range newLists {
		out[key] = l
	}
	if verdictChanged {
		pm := copyMap(d["period"].(map[string]any)) // a verdict only lives on a period object
		if target.hasVerdict {
			pm[keyVerdict] = string(target.verdict)
		} else {
			delete(pm, keyVerdict)
		}
		out["period"] = pm
	}
	if noteChanged {
		if target.note.present {
			out["note"] = target.note.value
		} else {
			delete(out, "note")
		}
	}
	return out, true
}

// stripItems removes short and kind from every object in an item list,
// copying the list and each object it changes.
func stripItems(l []any) ([]any, bool) {
	var out []any
	for i, it := range l {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		_, hasShort := m[keyShort]
		_, hasKind := m[keyKind]
		if !hasShort && !hasKind {
			continue
		}
		if out == nil {
			out = make([]any, len(l))
			copy(out, l)
		}
		c := copyMap(m)
		delete(c, keyShort)
		delete(c, keyKind)
		out[i] = c
	}
	return out, out != nil
}

const keyVerdict = "verdict"

// marks are the two things Serve writes on a declaration: the period's
// verdict word and the note.
type marks struct {
	hasPeriod  bool // the period is an object, so it can carry a verdict
	hasVerdict bool
	verdict    Verdict
	rawVerdict any
	note       note
}

type note struct {
	present bool
	value   any // a string after Serve or Unserve rewrote it
}

func marksOf(d map[string]any) marks {
	var mk marks
	if pm, ok := d["period"].(map[string]any); ok {
		mk.hasPeriod = true
		mk.rawVerdict, mk.hasVerdict = pm[keyVerdict]
		if s, ok := mk.rawVerdict.(string); ok {
			mk.verdict = Verdict(s)
		}
	}
	mk.note.value, mk.note.present = d["note"]
	return mk
}

// unmarked removes a verdict word, and its clause from the end of the
// note. A verdict that is not one Serve writes removes no clause.
func (mk marks) unmarked() marks {
	if !mk.hasVerdict {
		return mk
	}
	out := mk
	out.hasVerdict, out.verdict, out.rawVerdict = false, "", nil
	clause := Clause(mk.verdict)
	_, isString := mk.rawVerdict.(string)
	s, noteIsString := mk.note.value.(string)
	if !isString || clause == "" || !noteIsString {
		return out
	}
	switch {
	case s == clause:
		out.note = note{}
	case strings.HasSuffix(s, " "+clause):
		out.note = note{present: true, value: strings.TrimSuffix(s, " "+clause)}
	}
	return out
}

// marked adds v's word and clause. The clause joins a string note after one
// space (even an empty one, so Unserve can give the empty note back), and
// stands alone when there was no note or a null one.
func (mk marks) marked(v Verdict) marks {
	out := mk
	out.hasVerdict, out.verdict, out.rawVerdict = true, v, string(v)
	clause := Clause(v)
	switch s := mk.note.value.(type) {
	case nil:
		out.note = note{present: true, value: clause}
	case string:
		out.note = note{present: true, value: s + " " + clause}
	}
	return out
}

// differs compares a target against the marks as found. Serve and Unserve
// only ever put strings in, so a non-string that is still there is the one
// that was found.
func (mk marks) differs(cur marks) (verdict, note bool) {
	if mk.hasVerdict != cur.hasVerdict {
		verdict = true
	} else if mk.hasVerdict {
		s, ok := cur.rawVerdict.(string)
		verdict = !ok || Verdict(s) != mk.verdict
	}
	if mk.note.present != cur.note.present {
		note = true
	} else if ts, ok := mk.note.value.(string); ok && mk.note.present {
		cs, ok := cur.note.value.(string)
		note = !ok || cs != ts
	}
	return verdict && (mk.hasPeriod || cur.hasPeriod), note
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}
