package flow

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
)

// CheckpointVersion is bumped when the checkpoint's shape changes; Resume
// refuses any other version.
const CheckpointVersion = 1

// Checkpoint is a paused run as plain JSON: enough for a fresh process to
// continue it with the chart and an answer.
//
// Its two kinds:
//
//	""          an ask: paused at a stage that asked; Resume writes the
//	            answers as one more commit of it and runs the next node
//	"continue"  yielded to its host (WithYield) before a node; Resume takes
//	            no answers, commits nothing, and runs that node first
type Checkpoint struct {
	Version int    `json:"version"`
	Chart   string `json:"chart"`
	// Kind is "" for an ask, CheckpointContinue for a yielded run.
	Kind string `json:"kind,omitempty"`
	// At is where the run paused: the decider branches taken down to the
	// stage that asked (its Node is last), or, for a continue, to the node
	// not yet run.
	At []Step `json:"at"`
	// State is the committed state, each value with the commit that wrote it.
	State []StateEntry `json:"state"`
	// Counter continues the runtime paths' execution counter.
	Counter int `json:"counter"`
	// Commits is how many commits the run had made; a resumed run's commits
	// continue the numbering.
	Commits int `json:"commits"`
	// Loops holds passes already made by active loops (loop id → passes).
	Loops map[string]int `json:"loops,omitempty"`
	// Pause is the question asked (zero for a continue).
	Pause Pause `json:"pause"`
}

// CheckpointContinue is the Kind of a yielded run's checkpoint (WithYield).
const CheckpointContinue = "continue"

// Step is one level of a paused position: a node, and for a decider the
// branch that was being run.
type Step struct {
	Node   string `json:"node"`
	Branch string `json:"branch,omitempty"`
}

// StateEntry is one committed key of a checkpoint.
type StateEntry struct {
	Key     string `json:"key"`
	Value   any    `json:"value,omitempty"`
	Writer  string `json:"writer,omitempty"`
	Deleted bool   `json:"deleted,omitempty"`
	// Numbers says which numbers of Value are integers: one letter per
	// number, i or f, in the order numberKinds walks it; empty when none
	// is. JSON reads every number back as a float, and the run that
	// continues (after a yield or an answer) must see the values the run
	// that stopped had (an integer's `%` fails on a float).
	Numbers string `json:"numbers,omitempty"`
}

type pauseSignal struct {
	pause *Pause
	at    []Step
}

// pauseSignal stops a run: at an ask (pause set), or yielded to the host
// (pause nil).
func (p *pauseSignal) Error() string {
	if p.pause == nil {
		return "yielded before " + p.at[len(p.at)-1].Node
	}
	return "paused at " + p.pause.Path
}

func (f *frame) checkpoint(c *Chart, ps *pauseSignal) *Checkpoint {
	cp := &Checkpoint{Version: CheckpointVersion, Chart: c.name, At: ps.at, Counter: *f.counter,
		Commits: f.logBase + len(*f.log)}
	if ps.pause != nil {
		cp.Pause = *ps.pause
	} else {
		cp.Kind = CheckpointContinue
	}
	keys := f.state.keys()
	slices.Sort(keys)
	for _, k := range keys {
		e, _ := f.state.get(k)
		// Every checkpoint's numbers keep their kind (an ask's too: a
		// counter read back from JSON as a float failed `n % 2` once the
		// run was answered, TestResumedIntegerStaysAnInteger).
		se := StateEntry{Key: k, Value: e.v, Writer: e.writer, Deleted: e.del, Numbers: numberKinds(e.v)}
		cp.State = append(cp.State, se)
	}
	if len(f.loops) > 0 {
		cp.Loops = map[string]int{}
		for n, count := range f.loops {
			cp.Loops[n.id] = count
		}
	}
	return cp
}

// Resume continues a paused run: answers are written by the asking stage
// (as one more commit of it), then the run goes on from the stage after it,
// with counters continued. Checking answers against the question's expects
// is the caller's (it knows the types' words); Resume checks the checkpoint
// fits this chart. A continue's checkpoint (WithYield) takes no answers:
// the run goes on from the node it yielded before, with no commit of its
// own, as if it had never stopped.
func (c *Chart) Resume(ctx context.Context, cp *Checkpoint, answers map[string]any, opts ...RunOption) (*Result, error) {
	if cp == nil {
		return nil, fmt.Errorf("flow: resume: no checkpoint")
	}
	if cp.Version != CheckpointVersion {
		return nil, fmt.Errorf("flow: resume: checkpoint version %d; this engine reads version %d", cp.Version, CheckpointVersion)
	}
	if cp.Chart != c.name {
		return nil, fmt.Errorf("flow: resume: the checkpoint is of chart %q, not %q", cp.Chart, c.name)
	}
	cont := cp.Kind == CheckpointContinue
	switch {
	case cp.Kind != "" && !cont:
		return nil, fmt.Errorf("flow: resume: a checkpoint of kind %q; this engine knows an ask's (\"\") and %q", cp.Kind, CheckpointContinue)
	case cont && len(answers) > 0:
		return nil, fmt.Errorf("flow: resume: the run yielded to its host and asked nothing; it takes no answers (%d given)", len(answers))
	}
	// Find the position: every step but the last is a decider branch.
	type level struct {
		seq *sequence
		at  int
	}
	var levels []level
	seq := c.root
	for i, st := range cp.At {
		n := c.byID[st.Node]
		if n == nil || n.seq != seq {
			return nil, fmt.Errorf("flow: resume: the checkpoint's position %q is not in this chart", st.Node)
		}
		levels = append(levels, level{seq, n.index})
		if i == len(cp.At)-1 {
			if n.kind != KindStage && !cont {
				return nil, fmt.Errorf("flow: resume: %q is not a stage that can ask", st.Node)
			}
			break
		}
		br := n.branchNamed(st.Branch)
		if n.kind != KindDecide || br == nil {
			return nil, fmt.Errorf("flow: resume: the checkpoint's branch %q of %q is not in this chart", st.Branch, st.Node)
		}
		seq = br.seq
	}
	if len(levels) == 0 {
		return nil, fmt.Errorf("flow: resume: the checkpoint has no position")
	}
	r := newRunner(c, opts)
	r.continues = cont
	root := r.rootFrame()
	*root.counter = cp.Counter
	root.logBase = cp.Commits
	for _, e := range cp.State {
		root.state.put(e.Key, entry{v: withNumbers(e.Value, e.Numbers), writer: e.Writer, del: e.Deleted})
	}
	for id, count := range cp.Loops {
		if n := c.byID[id]; n != nil {
			root.setLoop(n, count)
		}
	}
	asker := c.byID[cp.At[len(cp.At)-1].Node]
	return r.finish(ctx, root, func(ctx context.Context) error {
		next := 0 // a continue runs the node it yielded before
		if !cont {
			next = 1
			s := root.newScope(asker)
			for _, k := range sortedKeys(answers) {
				s.Set(k, answers[k])
			}
			root.commit(s, nil, lazyDecision{}, 0, false, "")
		}
		// Run the rest of each level, innermost first; a loop jump that leaves
		// a level is taken by the level that holds its target.
		var jump *node
		for i := len(levels) - 1; i >= 0; i-- {
			lv := levels[i]
			from := lv.at + 1
			if i == len(levels)-1 {
				from = lv.at + next
			}
			if jump != nil {
				if jump.seq != lv.seq {
					continue
				}
				from, jump = jump.index, nil
			} else if i < len(levels)-1 {
				root.next(lv.seq, lv.at) // the decider's branch ended: on to the node after it
			}
			j, err := r.runSeq(ctx, root, lv.seq, from)
			if ps := asPause(err); ps != nil {
				// Paused again within this level: its position is under the
				// decider branches that hold the level, as runDecide names
				// them in a run from the start.
				ps.at = append(slices.Clone(cp.At[:i]), ps.at...)
			}
			if err != nil {
				return err
			}
			jump = j
		}
		return nil
	})
}

// numberKinds is a value's numbers as a continue's checkpoint keeps them
// (StateEntry.Numbers): one letter per number, i for an integer of any Go
// type, f for a float, walking maps in key order and lists in order; ""
// when it holds no integer (every number reads back a float as it was) or
// holds what JSON does not write as a map or list (a struct).
func numberKinds(v any) string {
	var b []byte
	ints := false
	ok := walkNumbers(reflect.ValueOf(v), func(isInt bool) {
		if isInt {
			ints = true
			b = append(b, 'i')
		} else {
			b = append(b, 'f')
		}
	})
	if !ok || !ints {
		return ""
	}
	return string(b)
}

func walkNumbers(v reflect.Value, see func(isInt bool)) bool {
	switch v.Kind() {
	case reflect.Invalid, reflect.String, reflect.Bool:
		return true
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return true
		}
		return walkNumbers(v.Elem(), see)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		see(true)
		return true
	case reflect.Float32, reflect.Float64:
		see(false)
		return true
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return false // JSON writes []byte as a string
		}
		for i := range v.Len() {
			if !walkNumbers(v.Index(i), see) {
				return false
			}
		}
		return true
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return false
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return cmp.Compare(a.String(), b.String()) })
		for _, k := range keys {
			if !walkNumbers(v.MapIndex(k), see) {
				return false
			}
		}
		return true
	}
	return false
}

// withNumbers is v, read back from JSON, with the integers kinds names
// made integers again (int), and its other numbers floats (a whole number
// read back exactly is an int). v as it is when kinds does not fit it (a
// value Resume's caller derived again rather than read back) or it holds
// no number; never edits v in place.
func withNumbers(v any, kinds string) any {
	n, ints := 0, false
	if !walkNumbers(reflect.ValueOf(v), func(isInt bool) { n, ints = n+1, ints || isInt }) {
		return v
	}
	if kinds == "" {
		if !ints {
			return v
		}
		// Every number was a float (numberKinds): read back exactly (a
		// saved record's checkpoint), a whole one is an int until now.
		kinds = strings.Repeat("f", n)
	}
	if n != len(kinds) {
		return v
	}
	i := 0
	var remake func(v any) any
	remake = func(v any) any {
		switch x := v.(type) {
		case float64:
			k := kinds[i]
			i++
			if k == 'i' && x == math.Trunc(x) && math.Abs(x) < 1<<63 {
				return int(x)
			}
			return x
		case int:
			// Read back exactly (a saved record's checkpoint): a whole
			// number the run held as a float is a float again.
			k := kinds[i]
			i++
			if k == 'f' {
				return float64(x)
			}
			return x
		case []any:
			out := make([]any, len(x))
			for j, e := range x {
				out[j] = remake(e)
			}
			return out
		case map[string]any:
			out := make(map[string]any, len(x))
			for _, k := range sortedKeys(x) {
				out[k] = remake(x[k])
			}
			return out
		}
		// Any other number (an int not read back from JSON) or a typed
		// list or map: count its numbers, keep it as it is.
		walkNumbers(reflect.ValueOf(v), func(bool) { i++ })
		return v
	}
	return remake(v)
}
