package runbook

import (
	"time"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/recorder"
)

// run is one run of a runbook, the same for Exec and Resume: the state its
// stage functions file into (handed to flow as the run's value), the
// processes it started, and the recorders its record is assembled from.
type run struct {
	rb      *Runbook
	o       *execOptions
	in      *resolvedInputs
	rs      *runState
	end     *endPlugins
	harvest *record.Harvest
	narr    *recorder.Narrative
}

// prepare readies a run over resolved inputs: its state, its plugin side
// (started lazily; stopped by end), and its recorders — the decision
// harvest, the narrative when asked for, and the caller's recorders behind
// the masker. h may hold decisions a resumed run already made.
func (rb *Runbook) prepare(o *execOptions, in *resolvedInputs, h *record.Harvest) *run {
	rs := &runState{label: rb.honestyOn(HonestyLabel), cover: rb.honestyOn(HonestyCoverage), secrets: in.secrets, stubs: o.stubs}
	r := &run{rb: rb, o: o, in: in, rs: rs, harvest: h}
	r.end = &endPlugins{end: rb.startPlugins(rs, o)} // plugin_stage.go
	if o.narrative {
		r.narr = recorder.NewNarrative()
	}
	return r
}

// options are the flow run options of this run, after extra.
func (r *run) options(extra ...flow.RunOption) []flow.RunOption {
	recs := []recorder.Recorder{r.harvest}
	shown := r.o.recorders
	if r.narr != nil {
		// The narrative shows values as events carry them: masked as the
		// caller's recorders' are, so a secret bool, list or object (masked
		// only as a whole value, which its text cannot tell) is masked too.
		shown = append([]recorder.Recorder{r.narr}, shown...)
	}
	recs = append(recs, record.Masker(r.in.secrets).Recorders(shown)...)
	opts := append(extra, flow.WithRecorders(recs...), flow.WithRunValue(r.rs), flow.WithGather(VerdictsKey))
	if len(r.o.live) > 0 {
		opts = append(opts, flow.WithLiveRecorders(record.Masker(r.in.secrets).Recorders(r.o.live)...))
	}
	if r.o.timeout > 0 {
		opts = append(opts, flow.WithTimeout(r.o.timeout))
	}
	if r.o.deadline != nil {
		opts = append(opts, flow.WithDeadline(r.o.deadline))
	}
	if r.o.inline {
		opts = append(opts, flow.WithInline())
	}
	if r.o.fanout != nil {
		opts = append(opts, flow.WithFanout(r.o.fanout))
	}
	if r.o.yield != nil {
		opts = append(opts, flow.WithYield(r.o.yield))
	}
	if now := r.o.clock(); now != nil {
		opts = append(opts, flow.WithClock(now))
	}
	if zone := zoneOf(r.o.stubs); zone != nil {
		opts = append(opts, flow.WithZone(zone))
	}
	if sl, ok := r.o.stubs.(Sleeper); ok {
		// every retry's wait, not only an exec stage's (execstage.go)
		opts = append(opts, flow.WithSleep(sl.Sleep))
	}
	return opts
}

// finish assembles the run's record and its Result; the run's stage
// plugins are gone and its honesty memory ended by the time it returns.
func (r *run) finish(fres *flow.Result) *Result {
	rec := r.record(fres)
	r.end.stop()
	finished := time.Now
	if now := r.o.clock(); now != nil {
		finished = now // a chart test's, a Temporal workflow's
	}
	return &Result{Record: rec, Run: fres, rb: r.rb, secrets: r.rs.secrets, finished: finished().UTC()}
}
