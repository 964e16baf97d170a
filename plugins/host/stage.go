package host

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/internal/wire"
)

// Stage is a started stage plugin: its description, asked once, and its
// calls, batched. Safe for concurrent use.
type Stage struct {
	p    *Plugin
	desc plugins.Description
	next atomic.Uint64
	b    *batcher[wire.Call, wire.Result]
}

// Stage dispenses the plugin's stage service and asks for its description.
func (p *Plugin) Stage(ctx context.Context) (*Stage, error) {
	raw, err := p.rpc.Dispense(wire.KindStage)
	if err != nil {
		return nil, p.notServed(wire.KindStage, err)
	}
	c := raw.(*wire.StageClient)
	began := time.Now()
	// A description is static: Describe must answer at once, so it has
	// the start's bound (WithStartTimeout), not a call's minute, which
	// `runbook validate` waited in full on a plugin that hung there.
	ctx, cancel := context.WithTimeout(ctx, p.cfg.startTimeout)
	defer cancel()
	d, err := c.Describe(ctx)
	if err != nil {
		dl, _ := ctx.Deadline()
		return nil, p.fault("describe", callTimedOut{err: err, given: max(0, dl.Sub(began)), hint: "Describe must answer at once: do slow setup in Run, or when serving starts"})
	}
	if d.Name == "" {
		d.Name = p.src.Name
	}
	if err := plugins.CheckDescription(d); err != nil {
		return nil, &Error{Plugin: p.src.Name, Op: "describe", Err: err}
	}
	if err := plugins.VersionAllowed(d, p.src.Version); err != nil {
		return nil, &Error{Plugin: p.src.Name, Op: "describe", Err: err}
	}
	s := &Stage{p: p, desc: d}
	s.b = newBatcher(p.cfg.maxBatch, 4, func(ctx context.Context, calls []wire.Call) ([]wire.Result, error) {
		return c.RunBatch(ctx, calls)
	})
	return s, nil
}

// Description is what the plugin declared.
func (s *Stage) Description() plugins.Description { return s.desc }

// Plugin is the process serving the stage.
func (s *Stage) Plugin() *Plugin { return s.p }

// Run makes one call. Calls made concurrently travel together: one round
// trip per batch, not per call. ctx's deadline travels with the call (a
// ctx without one gets the call timeout). The error is a *RunError when the
// plugin's Run failed the call, an *Error when the plugin did (crash, hang,
// garbage).
func (s *Stage) Run(ctx context.Context, req plugins.Request) (plugins.Response, error) {
	if s.p.client.Exited() {
		return plugins.Response{}, s.p.fault("call", errNotReached)
	}
	began := time.Now()
	ctx, cancel := s.p.bound(ctx)
	defer cancel()
	dl, _ := ctx.Deadline()
	res, err := s.b.do(ctx, wire.Call{ID: s.next.Add(1), Req: req, Deadline: dl})
	if err != nil {
		// The time given is the deadline's, not the time it took to
		// notice (as a start's is, Manager.Stage).
		return plugins.Response{}, s.p.fault("call", callTimedOut{err: err, given: max(0, dl.Sub(began)), hint: "answer sooner, or give it a longer timeout"})
	}
	if res.Err != "" {
		return plugins.Response{}, &RunError{Plugin: s.p.src.Name, Message: res.Err}
	}
	if err := plugins.CheckResultSize(res.Size); err != nil {
		return plugins.Response{}, &Error{Plugin: s.p.src.Name, Op: "call", Err: err}
	}
	if err := plugins.CheckResponse(s.desc, res.Resp); err != nil {
		return plugins.Response{}, &Error{Plugin: s.p.src.Name, Op: "call", Err: err}
	}
	return res.Resp, nil
}

// bound gives ctx the call timeout when it has no deadline.
func (p *Plugin) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, p.cfg.callTimeout)
}

func (p *Plugin) notServed(kind string, err error) error {
	if strings.Contains(err.Error(), "unknown plugin type") {
		err = fmt.Errorf("does not serve a %s plugin", kind)
	}
	return &Error{Plugin: p.src.Name, Op: "dispense", Err: err, Stderr: p.stderr.tail()}
}
