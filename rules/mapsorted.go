package rules

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// toPairsFunc, keysFunc and valuesFunc are expr's toPairs, keys and values
// in the order of the object's keys, never Go's map order, which changes
// from run to run: a chart that counts a log's error lines per unit,
// toPairs(groupBy(j.stdout, #._SYSTEMD_UNIT)), wrote its verdict rows in
// another order on each run of the same journal, so a chart test's rows
// (held in order) passed or failed by chance, a table cut at maxRows
// showed other units each run, and two records of one input differed
// (TestToPairsIsInKeyOrder). Keys are ordered as text, numbers by value.
//
//	toPairs({b: 2, a: 1})   [["a", 1], ["b", 2]]
//	keys({b: 2, a: 1})      ["a", "b"]
//	values({b: 2, a: 1})    [1, 2]
func toPairsFunc(params ...any) (any, error) {
	m, keys, err := sortedKeys("toPairs", params)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = []any{k.Interface(), m.MapIndex(k).Interface()}
	}
	return out, nil
}

func keysFunc(params ...any) (any, error) {
	_, keys, err := sortedKeys("keys", params)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = k.Interface()
	}
	return out, nil
}

func valuesFunc(params ...any) (any, error) {
	m, keys, err := sortedKeys("values", params)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = m.MapIndex(k).Interface()
	}
	return out, nil
}

// sortedKeys is the one object argument of name, and its keys in order.
func sortedKeys(name string, params []any) (reflect.Value, []reflect.Value, error) {
	if len(params) != 1 {
		return reflect.Value{}, nil, fmt.Errorf("%s takes 1 argument (an object), not %d", name, len(params))
	}
	m := jsonv.Deref(params[0])
	if !m.IsValid() {
		return reflect.Value{}, nil, fmt.Errorf("%s: the object it was given is null; where null means none, write x ?? {}", name)
	}
	if m.Kind() != reflect.Map {
		return reflect.Value{}, nil, fmt.Errorf("%s: it reads an object, and was given %s", name, jsonv.Describe(params[0]))
	}
	keys := m.MapKeys()
	slices.SortFunc(keys, func(a, b reflect.Value) int {
		x, y := jsonv.Deref(a.Interface()), jsonv.Deref(b.Interface())
		if x.Kind() == reflect.String && y.Kind() == reflect.String {
			return cmp.Compare(x.String(), y.String())
		}
		if fx, ok := number(x); ok {
			if fy, ok := number(y); ok {
				return cmp.Compare(fx, fy)
			}
		}
		return cmp.Compare(fmt.Sprint(a.Interface()), fmt.Sprint(b.Interface()))
	})
	return m, keys, nil
}

// number is v as a float64, when it is a number.
func number(v reflect.Value) (float64, bool) {
	switch {
	case v.CanInt():
		return float64(v.Int()), true
	case v.CanUint():
		return float64(v.Uint()), true
	case v.CanFloat():
		return v.Float(), true
	}
	return 0, false
}
