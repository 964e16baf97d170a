package flow

import (
	"context"
	"fmt"
)

// CheckpointVersion is bumped when the checkpoint's shape changes; Resume
// refuses any other version.
const CheckpointVersion = 1

// Checkpoint is a paused run as plain JSON: enough for a fresh process to
// continue it with the chart and an answer.
type Checkpoint struct {
	Version int    `json:"version"`
	Chart   string `json:"chart"`
	// At is where the run paused: the decider branches taken down to the
	// stage that asked (its Node is last).
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
	// Pause is the question asked.
	Pause Pause `json:"pause"`
}

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
}

type pauseSignal struct {
	pause *Pause
	at    []Step
}

func (p *pauseSignal) Error() string { return "paused at " + p.pause.Path }

func (f *frame) checkpoint(c *Chart, ps *pauseSignal) *Checkpoint {
	cp := &Checkpoint{Version: CheckpointVersion, Chart: c.name, At: ps.at, Counter: *f.counter,
		Commits: f.logBase + len(*f.log), Pause: *ps.pause}
	for _, k := range sortedKeys(f.state) {
		e := f.state[k]
		cp.State = append(cp.State, StateEntry{Key: k, Value: e.v, Writer: e.writer, Deleted: e.del})
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
// fits this chart.
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
			if n.kind != KindStage {
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
	root := r.rootFrame()
	*root.counter = cp.Counter
	root.logBase = cp.Commits
	for _, e := range cp.State {
		root.state[e.Key] = entry{v: e.Value, writer: e.Writer, del: e.Deleted}
	}
	for id, count := range cp.Loops {
		if n := c.byID[id]; n != nil {
			root.setLoop(n, count)
		}
	}
	asker := c.byID[cp.At[len(cp.At)-1].Node]
	return r.finish(ctx, root, func(ctx context.Context) error {
		s := root.newScope(asker)
		for _, k := range sortedKeys(answers) {
			s.Set(k, answers[k])
		}
		root.commit(s, nil, lazyDecision{}, 0, false, "")
		// Run the rest of each level, innermost first; a loop jump that leaves
		// a level is taken by the level that holds its target.
		var jump *node
		for i := len(levels) - 1; i >= 0; i-- {
			lv := levels[i]
			from := lv.at + 1
			if jump != nil {
				if jump.seq != lv.seq {
					continue
				}
				from, jump = jump.index, nil
			}
			j, err := r.runSeq(ctx, root, lv.seq, from)
			if err != nil {
				return err
			}
			jump = j
		}
		return nil
	})
}
