package flow

import (
	"context"
	"errors"
)

// ContinueOnError lets the run go on past the node's failure (the chart
// format's `onError: continue`). The failure is still recorded where it
// happened (the commit's error text, the Error event, a stage's own rows),
// and the Result lists it under Continued so that the answer can say what
// it does not cover. What the node would have written is replaced by:
//
//	a stage with into     into receives {error: "…"} (into "" writes nothing)
//	a foreach             into keeps every item's result in item order; a
//	                      failed item's result holds "error" beside its keys,
//	                      and the rows of the branches that ended well stay
//	any other node        nothing more is written
//
// A cancelled run and a pause are never continued past: they end the run
// as they always do.
func ContinueOnError(into string) Option {
	return func(n *node) { n.continues, n.errorInto = true, into }
}

// Continued is one failure the run went on past (ContinueOnError).
type Continued struct {
	// Path is the runtime path of the node that failed (its last
	// execution), Stage its id.
	Path  string `json:"path"`
	Stage string `json:"stage"`
	// At is the runtime path where the failure happened: the node itself,
	// or a stage inside one of its branches.
	At string `json:"at"`
	// Message is the failure's text.
	Message string `json:"message"`
}

// continuable says whether a node's failure may be continued past: never a
// pause, a cancelled run, or an error while the run's context is done.
func continuable(ctx context.Context, n *node, err error) bool {
	if !n.continues || ctx.Err() != nil {
		return false
	}
	var ps *pauseSignal
	if errors.As(err, &ps) {
		return false
	}
	var re *RunError
	if errors.As(err, &re) && re.Cancelled {
		return false
	}
	return true
}

// errorValue is what into receives for a failed stage that continues.
func errorValue(msg string) map[string]any { return map[string]any{"error": msg} }

// noteContinued files a failure the run goes on past, named by the node's
// last execution in this frame.
func (r *runner) noteContinued(f *frame, n *node, err error) {
	c := Continued{Stage: n.id, Message: err.Error()}
	var re *RunError
	if errors.As(err, &re) {
		c.At, c.Message = re.Path, re.Message
	}
	log := *f.log
	r.mu.Lock() // a fan-out worker may be adding to r.arenas
	for i := len(log) - 1; i >= 0; i-- {
		if id, depth := r.stageOf(&log[i]); id == n.id && depth == len(f.steps) {
			c.Path = r.pathOf(&log[i])
			break
		}
	}
	r.mu.Unlock()
	if c.Path == "" {
		c.Path = Position{Scope: f.steps, Node: n.id, N: -1}.String()
	}
	if c.At == "" {
		c.At = c.Path
	}
	r.mu.Lock()
	r.continued = append(r.continued, c)
	r.mu.Unlock()
}

// failedItem is a failed foreach branch's result under ContinueOnError:
// its final scope with "error" beside its keys.
func failedItem(result map[string]any, err error) map[string]any {
	msg := err.Error()
	var re *RunError
	if errors.As(err, &re) {
		msg = re.Message
	}
	result["error"] = msg
	return result
}
