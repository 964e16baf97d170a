package host

import (
	"context"
	"fmt"
	"reflect"

	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/internal/wire"
	"github.com/openrunbook/runbook/plugins/label"
)

// Honesty is an honesty plugin process serving plugins.Honesty. It starts
// in the background (StartHonesty returns at once; the first call waits for
// the handshake), and batches: the Label and Coverage calls that
// concurrent branches make while one is in flight travel together, so a
// run pays a few round trips, not one per script row or stage result.
//
// What it keeps beyond a plain client, and why:
//
//   - the batcher: fanout1000 makes 1000 Label calls; one round trip each
//     would be the cost the spec rules out (plugins.md: "batch or stream").
//   - WithSameCoverageRules' shortcut: without it all 1000 stage results
//     cross and the yaml workload costs 3.1× in-process (BENCHMARKS.md).
//   - reconcile: JSON turns the ints of a value the plugin changed into
//     float64s; the scope must hold what the stage wrote, so the record and
//     the later stages are the same as in-process.
type Honesty struct {
	name  string
	same  bool
	ready chan struct{}
	p     *Plugin
	c     *wire.HonestyClient
	err   error

	labels *batcher[label.Request, label.Response]
	covers *batcher[coverReq, coverage.Response]
}

var _ plugins.Honesty = (*Honesty)(nil)

type coverReq struct {
	run string
	req coverage.Request
}

// StartHonesty starts the honesty plugin at src in the background.
func StartHonesty(src Source, opts ...Option) *Honesty {
	cfg := newConfig(opts)
	h := &Honesty{name: src.Name, same: cfg.sameRules, ready: make(chan struct{})}
	h.labels = newBatcher(cfg.maxBatch, 1, h.sendLabels)
	h.covers = newBatcher(cfg.maxBatch, 1, h.sendCoverage)
	go func() {
		defer close(h.ready)
		ctx, cancel := context.WithTimeout(context.Background(), cfg.startTimeout)
		defer cancel()
		p, err := Start(ctx, src, append(opts, withoutDigest())...)
		if err != nil {
			h.err = err
			return
		}
		raw, err := p.rpc.Dispense(wire.KindHonesty)
		if err != nil {
			h.err = p.notServed(wire.KindHonesty, err)
			p.Kill()
			return
		}
		h.p, h.c = p, raw.(*wire.HonestyClient)
	}()
	return h
}

// Wait waits for the plugin's start and returns its error.
func (h *Honesty) Wait() error {
	<-h.ready
	return h.err
}

// Close stops the plugin process (after its start, when it is starting).
func (h *Honesty) Close() {
	<-h.ready
	if h.p != nil {
		h.p.Kill()
	}
}

// Label implements plugins.Honesty.
func (h *Honesty) Label(ctx context.Context, req label.Request) (label.Response, error) {
	if err := h.Wait(); err != nil {
		return label.Response{}, err
	}
	ctx, cancel := h.p.bound(ctx)
	defer cancel()
	resp, err := h.labels.do(ctx, req)
	if err != nil {
		return resp, h.p.fault("label", err)
	}
	return resp, nil
}

// Coverage implements plugins.Honesty. A served value the plugin did not
// change is the caller's own value; a changed one keeps the caller's Go
// values wherever they equal what came back (an int stays an int).
func (h *Honesty) Coverage(ctx context.Context, run string, req coverage.Request) (coverage.Response, error) {
	if h.same {
		if resp, ok := ordinary(req); ok {
			return resp, nil
		}
	}
	if err := h.Wait(); err != nil {
		return coverage.Response{}, err
	}
	ctx, cancel := h.p.bound(ctx)
	defer cancel()
	resp, err := h.covers.do(ctx, coverReq{run, req})
	if err != nil {
		return resp, h.p.fault("coverage", err)
	}
	for i := range resp.Results {
		orig := req.Results[i].Value
		if !resp.Results[i].Changed {
			resp.Results[i].Value = orig
		} else {
			resp.Results[i].Value = reconcile(orig, resp.Results[i].Value)
		}
	}
	return resp, nil
}

// ordinary answers req here when none of its results declares coverage,
// draws a warning, or is served changed (WithSameCoverageRules): the answer
// coverage.Annotator gives such results, asked of the same functions.
func ordinary(req coverage.Request) (coverage.Response, bool) {
	resp := coverage.Response{Results: make([]coverage.Served, len(req.Results))}
	for i, r := range req.Results {
		warned := false
		if _, ok := coverage.Read(r.Value, func(coverage.Warning) { warned = true }); ok || warned {
			return coverage.Response{}, false
		}
		served, changed := coverage.Serve(r.Value)
		if changed {
			return coverage.Response{}, false
		}
		resp.Results[i] = coverage.Served{Path: r.Path, Value: served}
	}
	return resp, true
}

// Assess implements plugins.Honesty (one round trip per run).
func (h *Honesty) Assess(ctx context.Context, req assessment.Request) (assessment.Response, error) {
	if err := h.Wait(); err != nil {
		return assessment.Response{}, err
	}
	ctx, cancel := h.p.bound(ctx)
	defer cancel()
	resp, err := h.c.Assess(ctx, req)
	if err != nil {
		return resp, h.p.fault("assess", err)
	}
	return resp, nil
}

// EndRun implements plugins.Honesty.
func (h *Honesty) EndRun(ctx context.Context, run string) error {
	if err := h.Wait(); err != nil {
		return err
	}
	ctx, cancel := h.p.bound(ctx)
	defer cancel()
	if err := h.c.EndRun(ctx, run); err != nil {
		return h.p.fault("end run", err)
	}
	return nil
}

func (h *Honesty) sendLabels(ctx context.Context, reqs []label.Request) ([]label.Response, error) {
	var all label.Request
	for _, r := range reqs {
		all.Calls = append(all.Calls, r.Calls...)
	}
	resp, err := h.c.Label(ctx, all)
	if err != nil {
		return nil, err
	}
	if len(resp.Rows) != len(all.Calls) {
		return nil, fmt.Errorf("asked for %d rows, got %d", len(all.Calls), len(resp.Rows))
	}
	out := make([]label.Response, len(reqs))
	at := 0
	for i, r := range reqs {
		out[i].Rows = resp.Rows[at : at+len(r.Calls) : at+len(r.Calls)]
		at += len(r.Calls)
	}
	return out, nil
}

// sendCoverage sends one request per run in the batch (a run's warning
// memory is the plugin's per-run state) and splits the answers back.
func (h *Honesty) sendCoverage(ctx context.Context, reqs []coverReq) ([]coverage.Response, error) {
	out := make([]coverage.Response, len(reqs))
	for start := 0; start < len(reqs); {
		end := start + 1
		for end < len(reqs) && reqs[end].run == reqs[start].run {
			end++
		}
		var all coverage.Request
		for _, r := range reqs[start:end] {
			all.Results = append(all.Results, r.req.Results...)
		}
		resp, err := h.c.Coverage(ctx, reqs[start].run, all)
		if err != nil {
			return nil, err
		}
		if len(resp.Results) != len(all.Results) {
			return nil, fmt.Errorf("asked to serve %d results, got %d", len(all.Results), len(resp.Results))
		}
		owner := map[string]int{}
		at := 0
		for i := start; i < end; i++ {
			n := len(reqs[i].req.Results)
			out[i].Results = resp.Results[at : at+n : at+n]
			for _, r := range reqs[i].req.Results {
				if _, ok := owner[r.Path]; !ok {
					owner[r.Path] = i
				}
			}
			at += n
		}
		for _, w := range resp.Warnings {
			i, ok := owner[w.Path]
			if !ok {
				i = start
			}
			out[i].Warnings = append(out[i].Warnings, w)
		}
		start = end
	}
	return out, nil
}

// reconcile gives back, wherever decoded (a value that crossed as JSON)
// equals orig's JSON form, orig's own Go value: JSON turns every number
// into a float64, and the scope must hold what the stage wrote.
func reconcile(orig, decoded any) any {
	switch d := decoded.(type) {
	case map[string]any:
		if o, ok := orig.(map[string]any); ok {
			for k, v := range d {
				if ov, ok := o[k]; ok {
					d[k] = reconcile(ov, v)
				}
			}
			return d
		}
	case []any:
		if o, ok := orig.([]any); ok && len(o) == len(d) {
			for i := range d {
				d[i] = reconcile(o[i], d[i])
			}
			return d
		}
	case float64:
		if n, ok := number(orig); ok && n == d {
			return orig
		}
		return decoded
	}
	if reflect.TypeOf(orig) != reflect.TypeOf(decoded) {
		if b1, err1 := wire.Encode(orig); err1 == nil {
			if b2, err2 := wire.Encode(decoded); err2 == nil && string(b1) == string(b2) {
				return orig
			}
		}
	}
	return decoded
}

// number is jsonv.Float: orig's number as the float64 JSON turned it into.
func number(v any) (float64, bool) {
	return jsonv.Float(v)
}
