package runbook

import (
	"context"
	"fmt"
	"strings"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/rules"
)

// setStage is a `set:` stage: each expression evaluated against the scope,
// its value (through the coverage stage) written under its key.
func setStage(assigns []chart.Assign) flow.StageFunc {
	return func(ctx context.Context, s *flow.Scope) error {
		rs := stateOf(s)
		for _, a := range assigns {
			s.BeginKey() // each key rests on its own expression's reads
			v, absent, err := valueNoting(a.Expr, s)
			if err != nil {
				return setError(a, err)
			}
			if absent != "" && holdsNull(v) {
				rs.fileLedger(record.AbsentMemberEntry(s.Path(), a.Key, rs.mask(absent)))
			}
			rs.derive(s, a.Expr, v)
			s.SetDerived(a.Key, rs.result(s.Path(), v)) // rests on this execution's reads, changed or not
		}
		return nil
	}
}

// valueNoting is the value of a set: key's expression and the absent
// member it read, if any (rules.Expr.ValueNoting); a literal reads none.
func valueNoting(v rules.Valuer, env rules.Env) (any, string, error) {
	if e, ok := v.(*rules.Expr); ok {
		val, _, absent, err := e.ValueNoting(env)
		return val, absent, err
	}
	val, _, err := v.Value(env)
	return val, "", err
}

// holdsNull reports whether a JSON value is null or holds one: a value an
// absent member's null reached (record.ItemAbsentMember). A value that
// holds none did not take its shape from the absence (`x.a ?? 0`, a
// ternary's other branch).
func holdsNull(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case map[string]any:
		for _, e := range x {
			if holdsNull(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if holdsNull(e) {
				return true
			}
		}
	}
	return false
}

// setError is a set: key's failed expression as the run says it: the key,
// then the expression as written, then why, the expression said once
// where the why begins with it (an operation that is the whole
// expression names itself: `set ratio: hits / (hits + misses): 0 / 0
// divides by zero`, where it was said twice; TestSetErrorSaysItsExpressionOnce).
func setError(a chart.Assign, err error) error {
	src := rules.OneLine(a.Src)
	if strings.HasPrefix(err.Error(), src+": ") {
		return fmt.Errorf("set %s: %w", a.Key, err)
	}
	return fmt.Errorf("set %s: %s: %w", a.Key, src, err)
}
