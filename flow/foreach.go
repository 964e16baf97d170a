package flow

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/rules"
)

// NullItems is a foreach whose items expression was null (a key never
// written, a stage that failed before writing it): it ran no items, and the
// record must not take that for an empty list. ItemsOf returns it as the
// error; the foreach then runs nothing and lists it in Result.NullItems.
type NullItems struct {
	Path  string `json:"path"`
	Items string `json:"items"` // the expression, as written
}

func (e *NullItems) Error() string {
	return fmt.Sprintf("items %s is null", e.Items)
}

// ItemsOf adapts a rules.Valuer (an expression) to a foreach's items: the
// value must be a list.
func ItemsOf(v rules.Valuer) ItemsFunc {
	return func(ctx context.Context, s *Scope) ([]any, error) {
		val, _, err := v.Value(s)
		if err != nil {
			// The expression's own words name a column, not the text:
			// "cannot fetch result from <nil> (1:13)" says where only
			// beside it.
			return nil, fmt.Errorf("items %s: %w", v.String(), err)
		}
		switch l := val.(type) {
		case []any:
			return l, nil
		case nil:
			return nil, &NullItems{Items: v.String()}
		}
		// A typed list (expr's 0..9 is []int; split gives []string).
		if rv := reflect.ValueOf(val); rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array {
			l := make([]any, rv.Len())
			for i := range l {
				l[i] = rv.Index(i).Interface()
			}
			return l, nil
		}
		return nil, notAList(v.String(), val)
	}
}

// notAList is the error of a foreach's items that gave a value other than
// a list: its kind in a chart's words and what would go over it, where it
// was Go's type ("gave map[string]interface {}, not a list").
func notAList(src string, val any) error {
	switch jsonv.Of(val) {
	case jsonv.Object:
		obj := src
		if strings.ContainsAny(obj, " ()?+-*/|&!<>=") {
			obj = "(" + obj + ")"
		}
		return fmt.Errorf("items %s gave an object, not a list: a foreach goes over a list; to go over the object's keys, in order, write items: sort(keys(%s)), and read a key's value as %s[key], key the foreach's as", src, src, obj)
	case jsonv.String:
		return fmt.Errorf("items %s gave a string, not a list: a foreach goes over a list; split the text (split(%s, \"\\n\")) or have the stage parse it (parse: lines); or, where the stage parses it already, its parse could not read it and left the text as it was: its problem is in the standing line (a parse: json over a NULL printed as text, or an error)", src, src)
	}
	return fmt.Errorf("items %s gave %s, not a list: a foreach goes over a list", src, jsonv.Describe(val))
}

func (r *runner) runForEach(ctx context.Context, f *frame, n *node) error {
	fe := n.forEach
	x := f.begin(n, true)
	s := x.s
	path := s.where() // its branches name it, each on its own goroutine
	var items []any
	err := r.call(ctx, s, func(ctx context.Context) error {
		var err error
		items, err = fe.items(ctx, s)
		return err
	})
	var null *NullItems
	if errors.As(err, &null) {
		// Zero rows from a null is not zero rows from an empty list: the
		// record says which items were null, and the ledger that nothing
		// of them was checked.
		null.Path = path
		r.mu.Lock()
		r.nulls = append(r.nulls, *null)
		r.mu.Unlock()
		items, err = nil, nil
	}
	if err != nil {
		return f.end(n, &x, nil, 0, err, ctx.Err() != nil)
	}
	if err := r.deeper(f, ""); err != nil {
		return f.end(n, &x, nil, 0, err, false)
	}
	total := len(items)
	if total > fe.maxBranches {
		items = items[:fe.maxBranches]
		r.mu.Lock()
		r.truncs = append(r.truncs, Truncation{Path: path, Items: total, MaxBranches: fe.maxBranches})
		r.mu.Unlock()
		if f.rec != nil {
			e := f.nodeEvent(recorder.Truncated, n, path)
			e.Total, e.Index = total, fe.maxBranches
			f.rec.emit(e)
		}
	}
	if f.rec != nil {
		e := f.nodeEvent(recorder.Fork, n, path)
		e.Total = len(items)
		f.rec.emit(e)
	}
	children := make([]*frame, len(items))
	// Every item's scope step points at its index in one slice, and all
	// items share one general spelling (per-volume~*): two allocations a
	// foreach, where each item made two.
	index := make([]int, len(items))
	general := ""
	if len(items) > 0 {
		general = GeneralScope(append(slices.Clip(f.steps), ScopeStep{Node: n.id, Item: &index[0]}))
	}
	for i, it := range items {
		index[i] = i
		c := f.child(ScopeStep{Node: n.id, Item: &index[i]}, true, general)
		// room for the handful of keys a branch writes, in one allocation
		c.state = newState(stateScan)
		c.state.put(fe.as, entry{v: it, writer: path})
		c.state.put(IndexKey, entry{v: i, writer: path})
		children[i] = c
	}
	errs := r.fanout(ctx, len(items), func(ctx context.Context, i int, a *arena) error {
		c := children[i]
		c.arena, *c.log = a, a.branchLog()
		defer func() { a.keepLog(c.log); c.arena = nil }()
		if c.rec != nil {
			e := c.nodeEvent(recorder.BranchStart, n, path)
			e.Index, e.Total, e.Branch = i, len(items), c.prefix
			c.rec.emit(e)
		}
		_, err := r.runSeq(ctx, c, fe.body.root, 0)
		if c.rec != nil {
			e := c.nodeEvent(recorder.BranchEnd, n, path)
			e.Index, e.Total, e.Branch = i, len(items), c.prefix
			c.rec.emit(e)
		}
		return err
	})
	var results []any
	if fe.into != "" {
		results = make([]any, len(children))
	}
	names := make([]string, len(children))
	for i, c := range children {
		f.splice(c)
		names[i] = c.prefix
		if results != nil {
			results[i] = c.overlay(f.r.opts.gather)
			if errs[i] != nil && n.continues {
				results[i] = failedItem(results[i].(map[string]any), errs[i])
			}
		}
	}
	if f.rec != nil {
		e := f.nodeEvent(recorder.Join, n, path)
		e.Total = len(items)
		f.rec.emit(e)
	}
	if results != nil {
		s.Set(fe.into, results)
	}
	for _, k := range f.r.opts.gather {
		list, from, gerr := f.gather(k, children, names)
		if gerr != nil {
			if firstErr(errs) == nil {
				errs = append(errs, &RunError{Path: path, Stage: n.id, Message: gerr.Error()})
			}
			continue
		}
		if list != nil {
			s.setFrom(k, list, from)
		}
	}
	if err := firstErr(errs); err != nil {
		// A branch's failure, recorded where it happened: the foreach's own
		// execution ends with it, and the run fails with it.
		return f.end(n, &x, nil, 0, err, false)
	}
	return f.end(n, &x, nil, 0, nil, false)
}
