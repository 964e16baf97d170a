package coverage

import (
	"errors"
	"fmt"
	"strings"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// The reserved keys. Only a JSON object carrying one of these, as
// described on [Read], is a declaration.
const (
	keyAbsent   = "af_absent"
	keyCoverage = "af_coverage"
	keyResult   = "result"
)

// Record-only keys of an item: on the record, never in the scope.
const (
	keyShort = "short"
	keyKind  = "kind"
)

// The item lists each shape carries, as written.
var (
	absenceLists = []string{"checked", "not_checked", "cannot_cover"}
	ledgerLists  = []string{"checked", "not_checked", "cannot_cover", "in_progress"}
)

// Read is THE recognizer: whether value declares its coverage, and what.
// ok is false when value is neither shape; that costs a type check and a
// key lookup or two, and nothing is allocated.
//
// The shapes, and nothing else:
//
//	an object with af_absent: true and a non-empty checked list   absence, status "absent"
//	an object whose af_coverage is an object                      ledger, status ""
//	a ledger whose result is an absence                           both, ledger first, status "absent"
//
// Only that one level is read. JSON held as text and an absence inside a
// domain object or a list are ordinary data. A key whose value is null
// counts as omitted. An af_absent: true whose checked is empty or missing,
// or holds a malformed item, makes the object ordinary data too, with a
// warning, as its author surely meant an absence.
//
// A malformed optional part — a list, period, provenance, try_instead_tool,
// looked_for, try_instead or note of the wrong form — is left off the
// declaration, never repaired, and reported through warn (nil drops it);
// the rest is read. Wrap warn with [OncePerStage] to hear one warning per
// stage per run. Read never edits value.
func Read(value any, warn WarnFunc) (Reading, bool) {
	m, ok := value.(map[string]any)
	if !ok {
		return Reading{}, false
	}
	w := warner(warn)
	if cov, ok := m[keyCoverage].(map[string]any); ok {
		r := Reading{Declared: []Declaration{readLedger(cov, keyCoverage+".", w)}}
		if res, ok := m[keyResult].(map[string]any); ok {
			if abs, ok := readAbsence(res, keyResult+".", w); ok {
				r.Declared = append(r.Declared, abs)
				r.Status = StatusAbsent
			}
		}
		return r, true
	}
	if abs, ok := readAbsence(m, "", w); ok {
		return Reading{Status: StatusAbsent, Declared: []Declaration{abs}}, true
	}
	return Reading{}, false
}

type warner WarnFunc

func (w warner) warn(part string, err error) {
	if w != nil {
		w(Warning{Part: part, Problem: err.Error() + "; left off the record"})
	}
}

type shape int

const (
	ordinary shape = iota
	absence
	ledger
)

// shapeOf is Read's recognition alone, for Serve and Unserve, so the three
// can never disagree about what is a declaration.
func shapeOf(m map[string]any) shape {
	if _, ok := m[keyCoverage].(map[string]any); ok {
		return ledger
	}
	if isAbsence, _ := m[keyAbsent].(bool); isAbsence {
		if items, err := readItems(m["checked"]); err == nil && len(items) > 0 {
			return absence
		}
	}
	return ordinary
}

func readAbsence(m map[string]any, prefix string, w warner) (Declaration, bool) {
	if isAbsence, _ := m[keyAbsent].(bool); !isAbsence {
		return Declaration{}, false
	}
	checked, err := readItems(m["checked"])
	if err != nil {
		if w != nil {
			w(Warning{Part: prefix + "checked", Problem: err.Error() + "; the object is read as ordinary data, not an absence"})
		}
		return Declaration{}, false
	}
	if len(checked) == 0 {
		// af_absent: true says "nothing is there"; with no place checked
		// it rests on nothing. Ordinary data, but said: read in silence,
		// a chart routing on af_absent == true answered "missing" and
		// the run stood Consistent over a look nowhere.
		if w != nil {
			w(Warning{Part: prefix + "checked", Problem: "an absence (af_absent: true) names no place it looked (checked is empty or missing); the object is read as ordinary data, not an absence"})
		}
		return Declaration{}, false
	}
	d := Declaration{Kind: KindAbsence, Checked: checked}
	d.LookedFor = readString(m, "looked_for", prefix, w)
	d.NotChecked = readList(m, "not_checked", prefix, w)
	d.CannotCover = readList(m, "cannot_cover", prefix, w)
	d.TryInstead = strings.TrimSpace(readString(m, "try_instead", prefix, w))
	if v := m["try_instead_tool"]; v != nil {
		if hint, err := readToolHint(v); err != nil {
			w.warn(prefix+"try_instead_tool", err)
		} else {
			d.TryInsteadTool = hint
		}
	}
	if v := m["provenance"]; v != nil {
		if prov, err := readProvenance(v); err != nil {
			w.warn(prefix+"provenance", err)
		} else {
			d.Provenance = prov
		}
	}
	d.Period = readPeriod(m, prefix, w)
	d.Note = readString(m, "note", prefix, w)
	return d, true
}

func readLedger(cov map[string]any, prefix string, w warner) Declaration {
	d := Declaration{Kind: KindLedger}
	d.Checked = readList(cov, "checked", prefix, w)
	d.NotChecked = readList(cov, "not_checked", prefix, w)
	d.CannotCover = readList(cov, "cannot_cover", prefix, w)
	if v := cov["in_progress"]; v != nil {
		if items, err := readInProgress(v); err != nil {
			w.warn(prefix+"in_progress", err)
		} else {
			d.InProgress = items
		}
	}
	d.Period = readPeriod(cov, prefix, w)
	d.Note = readString(cov, "note", prefix, w)
	return d
}

func readString(m map[string]any, key, prefix string, w warner) string {
	switch s := m[key].(type) {
	case nil:
		return ""
	case string:
		return s
	default:
		w.warn(prefix+key, fmt.Errorf("must be a string, got %s", jsonv.Describe(s)))
		return ""
	}
}

func readList(m map[string]any, key, prefix string, w warner) []Item {
	items, err := readItems(m[key])
	if err != nil {
		w.warn(prefix+key, err)
		return nil
	}
	return items
}

func readPeriod(m map[string]any, prefix string, w warner) *Period {
	v := m["period"]
	if v == nil {
		return nil
	}
	p, err := parsePeriod(v)
	if err != nil {
		w.warn(prefix+"period", err)
		return nil
	}
	return p
}

// readItems reads a list of items: each a non-empty string, or an object
// with a non-empty string what and, when present, string why, short and
// kind. One bad item makes the whole list malformed. null is no list.
func readItems(v any) ([]Item, error) {
	switch list := v.(type) {
	case nil:
		return nil, nil
	case []string:
		items := make([]Item, 0, len(list))
		for i, s := range list {
			if s == "" {
				return nil, fmt.Errorf("item %d is an empty string", i)
			}
			items = append(items, Item{What: s})
		}
		return nonEmpty(items), nil
	case []any:
		items := make([]Item, 0, len(list))
		for i, raw := range list {
			it, err := readItem(raw)
			if err != nil {
				return nil, fmt.Errorf("item %d: %w", i, err)
			}
			items = append(items, it)
		}
		return nonEmpty(items), nil
	default:
		return nil, fmt.Errorf("must be a list, got %s", jsonv.Describe(v))
	}
}

func readItem(v any) (Item, error) {
	switch it := v.(type) {
	case string:
		if it == "" {
			return Item{}, errors.New("an empty string")
		}
		return Item{What: it}, nil
	case map[string]any:
		var out Item
		var err error
		if out.What, err = itemWhat(it); err != nil {
			return Item{}, err
		}
		if out.Why, err = optionalString(it, "why"); err != nil {
			return Item{}, err
		}
		if out.Short, err = optionalString(it, keyShort); err != nil {
			return Item{}, err
		}
		if out.Kind, err = optionalString(it, keyKind); err != nil {
			return Item{}, err
		}
		return out, nil
	default:
		return Item{}, fmt.Errorf("must be a string or {what, why?}, got %s", jsonv.Describe(v))
	}
}

func readInProgress(v any) ([]InProgressItem, error) {
	var list []any
	switch l := v.(type) {
	case []any:
		list = l
	case []string:
		for _, s := range l {
			list = append(list, s)
		}
	default:
		return nil, fmt.Errorf("must be a list, got %s", jsonv.Describe(v))
	}
	var out []InProgressItem
	for i, raw := range list {
		it, err := readItem(raw)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		ip := InProgressItem{What: it.What, Why: it.Why, Short: it.Short, Kind: it.Kind}
		if m, ok := raw.(map[string]any); ok && m["count"] != nil {
			n, ok := jsonv.Whole(m["count"])
			if !ok || n < 1 {
				return nil, fmt.Errorf("item %d: count must be a whole number of at least 1, got %v", i, m["count"])
			}
			ip.Count = n
		}
		out = append(out, ip)
	}
	return out, nil
}

func readToolHint(v any) (*ToolHint, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("must be an object {tool, why?}, got %s", jsonv.Describe(v))
	}
	tool, ok := m["tool"].(string)
	if !ok || tool == "" {
		return nil, errors.New("tool must be a non-empty string")
	}
	why, err := optionalString(m, "why")
	if err != nil {
		return nil, err
	}
	return &ToolHint{Tool: tool, Why: why}, nil
}

func readProvenance(v any) (*Provenance, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("must be an object {source, measured_at}, got %s", jsonv.Describe(v))
	}
	source, ok := m["source"].(string)
	if !ok || source == "" {
		return nil, errors.New("source must be a non-empty string")
	}
	p := &Provenance{Source: source}
	switch at := m["measured_at"].(type) {
	case nil:
	case string:
		if _, err := instant(at); err != nil {
			return nil, fmt.Errorf("measured_at: %w", err)
		}
		p.MeasuredAt = at
	default:
		return nil, fmt.Errorf("measured_at must be an RFC 3339 string, got %s", jsonv.Describe(at))
	}
	return p, nil
}

func itemWhat(m map[string]any) (string, error) {
	what, ok := m["what"].(string)
	if !ok || what == "" {
		return "", errors.New("what must be a non-empty string")
	}
	return what, nil
}

func optionalString(m map[string]any, key string) (string, error) {
	switch s := m[key].(type) {
	case nil:
		return "", nil
	case string:
		return s, nil
	default:
		return "", fmt.Errorf("%s must be a string, got %s", key, jsonv.Describe(s))
	}
}

func nonEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}
