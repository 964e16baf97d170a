package flow

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/rules"
	"github.com/sourcegraph/conc/pool"
)

func (r *runner) runParallel(ctx context.Context, f *frame, n *node) error {
	x := f.begin(n, false)
	path := x.s.path
	f.end(n, x, nil, 0, nil, false)
	return r.fork(ctx, f, n, path, n.branches)
}

// fanout runs work(ctx, i) for i in [0, n) on a bounded pool and waits
// (in an inline run, one after another on this goroutine; with a host's
// Fanout, by the host's own scheduler). Errors are kept per index so the
// caller reports the first in declaration order, whatever finished first.
func (r *runner) fanout(ctx context.Context, n int, work func(ctx context.Context, i int) error) []error {
	errs := make([]error, n)
	guarded := func(ctx context.Context, i int) {
		defer func() {
			if v := recover(); v != nil {
				errs[i] = &PanicError{Value: v, Stack: string(debug.Stack())}
			}
		}()
		errs[i] = work(ctx, i)
	}
	switch {
	case n > 1 && r.opts.fanout != nil:
		r.opts.fanout(ctx, n, guarded)
		return errs
	case n <= 1 || r.opts.inline:
		for i := 0; i < n; i++ {
			guarded(ctx, i)
		}
		return errs
	}
	p := pool.New().WithMaxGoroutines(min(n, r.opts.concurrency))
	for i := 0; i < n; i++ {
		p.Go(func() { guarded(ctx, i) })
	}
	p.Wait()
	return errs
}

// fork runs branches in parallel, each in its own frame, then joins: logs
// and events spliced and writes merged in declaration order.
func (r *runner) fork(ctx context.Context, f *frame, n *node, path string, brs []*branch) error {
	if len(brs) == 0 {
		return nil
	}
	if err := r.deeper(f, ""); err != nil {
		return f.fail(n, path, err, false) // the fork's commit is made
	}
	names := make([]string, len(brs))
	for i, b := range brs {
		names[i] = b.name
	}
	if f.rec != nil {
		e := f.nodeEvent(recorder.Fork, n, path)
		e.Branches = names
		f.rec.emit(e)
	}
	children := make([]*frame, len(brs))
	for i, b := range brs {
		children[i] = f.child(ScopeStep{Node: n.id, Branch: b.name}, true)
	}
	errs := r.fanout(ctx, len(brs), func(ctx context.Context, i int) error {
		c := children[i]
		if c.rec != nil {
			e := c.nodeEvent(recorder.BranchStart, n, path)
			e.Branch, e.Index = brs[i].name, i
			c.rec.emit(e)
		}
		jump, err := r.runSeq(ctx, c, brs[i].seq, 0)
		if err == nil && jump != nil {
			err = &RunError{Path: path, Stage: n.id, Message: fmt.Sprintf("a loop in branch %q jumps to %q, outside the branch", brs[i].name, jump.id)}
		}
		if c.rec != nil {
			e := c.nodeEvent(recorder.BranchEnd, n, path)
			e.Branch, e.Index = brs[i].name, i
			c.rec.emit(e)
		}
		return err
	})
	for _, c := range children {
		f.splice(c)
	}
	if err := firstErr(errs); err != nil {
		return err
	}
	if err := f.join(n, names, children); err != nil {
		return err
	}
	if f.rec != nil {
		e := f.nodeEvent(recorder.Join, n, path)
		e.Branches = names
		f.rec.emit(e)
	}
	return nil
}

func firstErr(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// join commits the branches' overlays into f as one commit of n, in
// declaration order. The same key written with different values by two
// branches is an error naming both; gathered keys (WithGather) are
// gathered instead. Each write names the branch commit it came from
// (Write.From), so a chain can be followed through the join.
func (f *frame) join(n *node, names []string, children []*frame) error {
	x := execution{s: f.newScope(n)}
	type owner struct {
		e      entry
		branch string
	}
	seen := map[string]owner{}
	for i, c := range children {
		for _, k := range c.order {
			if f.r.gathers(k) {
				continue
			}
			e := c.state[k]
			if prev, ok := seen[k]; ok {
				if prev.e.del != e.del || !rules.Equal(prev.e.v, e.v) {
					return f.end(n, x, nil, 0, &RunError{Path: x.s.path, Stage: n.id, Message: fmt.Sprintf("branches %q and %q both wrote %q with different values; parallel branches must write different keys (or the same value)", prev.branch, names[i], k)}, false)
				}
				continue
			}
			seen[k] = owner{e, names[i]}
			var from []string
			if e.writer != "" {
				from = []string{e.writer}
			}
			x.s.stage(k, e.v, e.del, from)
		}
	}
	for _, k := range f.r.opts.gather {
		list, from, err := f.gather(k, children, names)
		if err != nil {
			return f.end(n, x, nil, 0, &RunError{Path: x.s.path, Stage: n.id, Message: err.Error()}, false)
		}
		if list != nil {
			x.s.stage(k, list, false, from)
		}
	}
	return f.end(n, x, nil, 0, nil, false)
}

// gathers says whether key is gathered at joins (WithGather).
func (r *runner) gathers(key string) bool {
	for _, k := range r.opts.gather {
		if k == key {
			return true
		}
	}
	return false
}

// gather is the one gathering of a key at a join (parallel, select, a
// subflow's) and at a foreach's end: the rows each branch appended to key,
// in branch order, after the rows the parent already had; the branch
// commits they came from (Write.From); and the error of a
// branch that did not only append. A nil list: no branch appended a row.
func (f *frame) gather(key string, children []*frame, names []string) (list []any, from []string, err error) {
	base, _ := f.lookup(key)
	baseRows, _ := base.v.([]any)
	var rows []any
	var froms []string
	for i, c := range children {
		e, ok := c.state[key]
		if !ok {
			continue
		}
		added, err := appendedRows(key, baseRows, e, names[i])
		if err != nil {
			return nil, nil, err
		}
		if len(added) > 0 {
			rows = append(rows, added...)
			froms = append(froms, e.writer)
		}
	}
	if rows == nil {
		return nil, nil, nil
	}
	list = make([]any, 0, len(baseRows)+len(rows))
	return append(append(list, baseRows...), rows...), froms, nil
}

// appendedRows returns the rows a branch added after the base list.
func appendedRows(key string, base []any, e entry, branch string) ([]any, error) {
	if e.del {
		return nil, fmt.Errorf("branch %q deleted %q; branches may only append rows to it", branch, key)
	}
	rows, ok := e.v.([]any)
	if !ok {
		return nil, fmt.Errorf("branch %q wrote %q as %T; it must stay a list of rows", branch, key, e.v)
	}
	if len(rows) < len(base) {
		return nil, fmt.Errorf("branch %q removed rows from %q; branches may only append", branch, key)
	}
	return rows[len(base):], nil
}
