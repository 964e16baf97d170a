package flow

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"sync/atomic"

	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/rules"
	"github.com/sourcegraph/conc/pool"
)

func (r *runner) runParallel(ctx context.Context, f *frame, n *node) error {
	x := f.begin(n, false)
	path := x.s.where()
	f.end(n, &x, nil, 0, nil, false)
	return r.fork(ctx, f, n, path, n.branches)
}

// fanout runs work(ctx, i, a) for i in [0, n) and waits: on a bounded
// pool of workers; in an inline run, one after another on this goroutine;
// with a host's Fanout, by the host's own scheduler. a is the arena the
// branch runs on. A pool worker takes the next index until none is left
// and keeps one arena for every branch it runs, so that those branches
// share chunks and a spare scope rather than allocating their own (a
// branch of a wide foreach commits a few times); so do the branches of an
// inline run. Never the caller's arena: its room may hold a log still
// growing (the log of the branch that is the caller). A host's scheduler
// may interleave branches (coroutines), so each of its branches has an
// arena of its own. Errors are kept per index so the caller reports the
// first in declaration order, whatever finished first; what a worker
// holds never changes what a branch records.
func (r *runner) fanout(ctx context.Context, n int, work func(ctx context.Context, i int, a *arena) error) []error {
	errs := make([]error, n)
	guarded := func(ctx context.Context, i int, a *arena) {
		defer func() {
			if v := recover(); v != nil {
				errs[i] = &PanicError{Value: v, Stack: string(debug.Stack())}
			}
		}()
		errs[i] = work(ctx, i, a)
	}
	switch {
	case n == 0:
		return errs
	case n > 1 && r.opts.fanout != nil:
		r.opts.fanout(ctx, n, func(ctx context.Context, i int) {
			a := new(arena)
			guarded(ctx, i, a)
			a.drop()
		})
		return errs
	case n == 1 || r.opts.inline:
		a := new(arena)
		for i := 0; i < n; i++ {
			guarded(ctx, i, a)
		}
		a.drop()
		return errs
	}
	workers := min(n, r.workers())
	var next atomic.Int64
	p := pool.New().WithMaxGoroutines(workers)
	for range workers {
		p.Go(func() {
			a := new(arena)
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				guarded(ctx, i, a)
			}
			a.drop()
			if workerDone != nil {
				workerDone(a)
			}
		})
	}
	p.Wait()
	return errs
}

// workerDone, set by a test, sees each fan-out worker's arena when the
// worker is done.
var workerDone func(a *arena)

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
		children[i] = f.child(ScopeStep{Node: n.id, Branch: b.name}, true, "")
	}
	errs := r.fanout(ctx, len(brs), func(ctx context.Context, i int, a *arena) error {
		c := children[i]
		c.arena, *c.log = a, a.branchLog()
		defer func() { a.keepLog(c.log); c.arena = nil }()
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
// (Write.From; each branch that wrote it, when several wrote the same
// value), so a chain can be followed through the join.
func (f *frame) join(n *node, names []string, children []*frame) error {
	x := execution{s: f.newScope(n)}
	type owner struct {
		e      entry
		branch string
		at     int // its place in x.s.staged
	}
	seen := map[string]owner{}
	// kept says e is a value computed again (SetDerived) that leaves the
	// parent's as it was: it is carried on, as the evidence of the
	// branch that computed it, but it yields to a branch that changed
	// the key — two branches' set: {worst: max(worst, 0)} and
	// max(worst, 2) are no conflict, as they were none when the first
	// wrote nothing.
	kept := func(e entry, k string) bool {
		if !e.derived || e.del {
			return false
		}
		old, ok := f.lookup(k)
		return ok && unchanged(old.v, e.v)
	}
	for i, c := range children {
		for j := range c.state.slots {
			k, e := c.state.slots[j].key, c.state.slots[j].entry
			if e.bound || f.r.gathers(k) {
				continue
			}
			if prev, ok := seen[k]; ok {
				if prev.e.del != e.del || !rules.Equal(prev.e.v, e.v) {
					switch {
					case kept(e, k):
						continue
					case kept(prev.e, k):
						st := &x.s.staged[prev.at]
						st.value, st.deleted, st.fact, st.derived, st.from = e.v, e.del, e.fact, e.derived, nil
						if e.writer != "" {
							st.from = []string{e.writer}
						}
						seen[k] = owner{e, names[i], prev.at}
						continue
					}
					return f.end(n, &x, nil, 0, &RunError{Path: x.s.where(), Stage: n.id, Message: fmt.Sprintf("branches %q and %q both wrote %q with different values; parallel branches must write different keys (or the same value)", prev.branch, names[i], k)}, false)
				}
				// The same value from another branch: it came from both,
				// and a chain through the join names both.
				if st := &x.s.staged[prev.at]; e.writer != "" && !slices.Contains(st.from, e.writer) {
					st.from = append(st.from, e.writer)
				}
				continue
			}
			seen[k] = owner{e, names[i], len(x.s.staged)}
			var from []string
			if e.writer != "" {
				from = []string{e.writer}
			}
			x.s.stage(k, e.v, e.del, e.fact, e.derived, from)
		}
	}
	for _, k := range f.r.opts.gather {
		list, from, err := f.gather(k, children, names)
		if err != nil {
			return f.end(n, &x, nil, 0, &RunError{Path: x.s.where(), Stage: n.id, Message: err.Error()}, false)
		}
		if list != nil {
			x.s.stage(k, list, false, false, false, from)
		}
	}
	return f.end(n, &x, nil, 0, nil, false)
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
// subflow's) and at a foreach's end: the rows each branch appended to key
// (an isolated subflow's, all it holds: it began with none), in branch
// order, after the rows the parent already had; the branch
// commits they came from (Write.From); and the error of a
// branch that did not only append. A nil list: no branch appended a row.
func (f *frame) gather(key string, children []*frame, names []string) (list []any, from []string, err error) {
	base, _ := f.lookup(key)
	baseRows, _ := base.v.([]any)
	var rows []any
	var froms []string
	for i, c := range children {
		e, ok := c.state.get(key)
		if !ok {
			continue
		}
		from := baseRows
		if c.isolated {
			from = nil // it saw none of the parent's rows: all it holds it appended
		}
		added, err := appendedRows(key, from, e, names[i])
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

// workers is how many goroutines one fan-out may run at once: the run's
// WithConcurrency, or by default 4 × GOMAXPROCS (at least 8). It is read
// where a fan-out starts, not when the run is set up: GOMAXPROCS takes the
// scheduler's lock, a cost a run with no fan-out has no reason to pay.
func (r *runner) workers() int {
	if r.opts.concurrency > 0 {
		return r.opts.concurrency
	}
	return max(8, 4*runtime.GOMAXPROCS(0))
}
