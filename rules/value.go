package rules

import (
	"errors"
	"fmt"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// ErrNotPresent is what a Key valuer returns (wrapped) when its key, or a
// segment of its path, is missing from the scope.
var ErrNotPresent = errors.New("not present")

// Key is a valuer that reads one key, a dotted path allowed (see Resolve).
// Its one input is the key with the value read. A missing key is an error
// wrapping ErrNotPresent; a malformed path is an error on every call.
func Key(name string) Valuer {
	segs, err := parsePath(name)
	return keyValuer{name: name, segs: segs, err: err}
}

type keyValuer struct {
	name string
	segs []string
	err  error
}

func (k keyValuer) Value(env Env) (any, []Input, error) {
	if k.err != nil {
		return nil, nil, fmt.Errorf("key %q: %w (write a.b.c, items.0 or items[0])", k.name, k.err)
	}
	v, ok := resolveSegs(env, k.segs)
	in := []Input{{Path: k.name, Value: v}}
	if !ok {
		return nil, in, fmt.Errorf("key %q: %w", k.name, ErrNotPresent)
	}
	return v, in, nil
}

func (k keyValuer) String() string { return k.name }

// Literal is a valuer that always gives v and reads nothing. Its String is
// v in JSON form. Each Value is a copy of v's lists and objects
// (jsonv.Copy), and so is what it keeps: a foreach over
// ItemsOf(Literal(hosts)) handed every run the same maps, so a caller that
// edited one run's record (its into: results) changed the hosts the next
// run checked (runbook TestEditingAResultLeavesTheNextRunAlone).
func Literal(v any) Valuer { return literal{v: jsonv.Copy(v)} }

type literal struct{ v any }

func (l literal) Value(Env) (any, []Input, error) { return jsonv.Copy(l.v), nil, nil }
func (l literal) String() string                  { return formatValue(l.v) }

// RootsOf is the scope keys a valuer reads: an expression's roots, a
// key's first segment, none for a literal (or any other valuer, whose
// reads are its own).
func RootsOf(v Valuer) []string {
	switch x := v.(type) {
	case *Expr:
		return x.Roots()
	case keyValuer:
		if x.err == nil && len(x.segs) > 0 {
			return []string{x.segs[0]}
		}
	}
	return nil
}
