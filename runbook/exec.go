package runbook

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/version"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/recorder"
)

// Version is the runbook release this build reports.
const Version = version.Release

func (rb *Runbook) honestyOn(name string) bool {
	if rb.spec.Honesty == nil {
		return true
	}
	return slices.Contains(rb.spec.Honesty, name)
}

func (rb *Runbook) exec(ctx context.Context, given map[string]any, opts []ExecOption) (*Result, error) {
	var o execOptions
	for _, opt := range opts {
		opt(&o)
	}
	in, err := rb.resolveInputs(given)
	if err != nil {
		o.honestyStarted.Close() // the run's to stop, run or not
		return nil, err
	}
	rs := &runState{label: rb.honestyOn(HonestyLabel), cover: rb.honestyOn(HonestyCoverage), secrets: in.secrets}
	end := &endPlugins{end: rb.startPlugins(rs, &o)} // plugin_stage.go
	defer end.ensure()
	ctx = context.WithValue(ctx, stateKey{}, rs)

	h := &harvest{}
	recs := []recorder.Recorder{h}
	var narr *recorder.Narrative
	if o.narrative {
		narr = recorder.NewNarrative()
		recs = append(recs, narr)
	}
	recs = append(recs, record.Masker(in.secrets).Recorders(o.recorders)...)
	runOpts := []flow.RunOption{flow.WithInputs(in.values), flow.WithRecorders(recs...)}
	if o.timeout > 0 {
		runOpts = append(runOpts, flow.WithTimeout(o.timeout))
	}
	fres, _ := rb.chart.Run(ctx, runOpts...)
	rec := rb.record(fres, rs, h, narr, in, &o)
	return &Result{Record: rec, Run: fres, rb: rb, stopped: end.stop()}, nil
}

// harvest collects decision evidence DURING the run (never reconstructed
// afterwards): the record's decisions and the verdict meanings read it.
type harvest struct{ decisions []harvested }

type harvested struct {
	path, decider string
	ev            *decide.Evidence
}

func (h *harvest) Record(e recorder.Event) {
	if (e.Kind != recorder.Decision && e.Kind != recorder.Select) || e.Decision == nil {
		return
	}
	decider := e.StageName
	if e.Subflow != "" {
		decider = e.Subflow + "/" + e.StageName
	}
	h.decisions = append(h.decisions, harvested{path: e.Path, decider: decider, ev: e.Decision})
}

// record assembles the result record from one traversal's harvest.
func (rb *Runbook) record(fres *flow.Result, rs *runState, h *harvest, narr *recorder.Narrative, in *resolvedInputs, o *execOptions) *record.Record {
	m := record.Masker(rs.secrets)
	rec := &record.Record{
		Runbook:   rb.spec.Name,
		Status:    string(fres.Status),
		Inputs:    record.InputsRecord{Given: map[string]any{}, Assumed: map[string]any{}},
		Decisions: []record.Decision{},
		Scripts:   []label.Row{},
		Coverage:  []coverage.Entry{},
		Stats:     record.Stats{Stages: fres.Stages, DurationMs: float64(fres.Elapsed.Microseconds()) / 1000},
	}
	secret := map[string]bool{}
	for _, spec := range rb.spec.Inputs {
		secret[spec.Name] = spec.Secret
	}
	for _, k := range in.given {
		rec.Inputs.Given[k] = maskInput(secret[k], in.values[k])
	}
	for _, k := range in.assumed {
		rec.Inputs.Assumed[k] = maskInput(secret[k], in.values[k])
	}
	if fres.Err != nil {
		rec.Error = &record.RecordError{Stage: RecordPath(fres.Err.Path), Message: m.Text(fres.Err.Message)}
	}
	for _, d := range h.decisions {
		ev := d.ev
		rec.Decisions = append(rec.Decisions, record.Decision{Path: RecordPath(d.path), Decider: d.decider, Kind: ev.Kind, Chosen: ev.Chosen, Default: ev.Default, Rules: m.Rules(ev.Rules)})
	}
	rs.mu.Lock()
	rec.Scripts = ordered(&fres.Log, append(rec.Scripts, rs.scripts...), func(r *label.Row) *string { return &r.Path })
	rec.Coverage = ordered(&fres.Log, append(rec.Coverage, rs.ledger...), func(e *coverage.Entry) *string { return &e.Path })
	warnings := ordered(&fres.Log, rs.warnings, func(p *pathed) *string { return &p.path })
	rs.mu.Unlock()
	for _, w := range warnings {
		rec.Warnings = append(rec.Warnings, fmt.Sprintf("stage %s: %s", w.path, m.Text(w.msg)))
	}
	for _, p := range fres.RecorderProblems {
		rec.Warnings = append(rec.Warnings, p.String())
	}
	rec.Truncations = fres.Truncations
	for i := range rec.Truncations {
		rec.Truncations[i].Path = RecordPath(rec.Truncations[i].Path)
	}

	state := m.Value(fres.State).(map[string]any)
	if rb.spec.Result != nil && strings.HasPrefix(rb.spec.Result.Kind, "verdict/") {
		rec.Verdicts = rb.project(state, h)
		if rec.Verdicts.Declined > 0 {
			rec.Coverage = append(rec.Coverage, coverage.Entry{Path: flow.VerdictsKey, Declaration: coverage.Declaration{
				Kind:       coverage.KindLedger,
				NotChecked: []coverage.Item{declinedItem(rec.Verdicts.Declined)},
			}})
		}
	}
	if rows, ok := state[flow.VerdictsKey].([]any); ok {
		state[flow.VerdictsKey] = rb.orderedRows(rows)
	}
	rec.State = state

	if fres.Pause != nil {
		rec.Pause = &record.PauseRecord{Stage: RecordPath(fres.Pause.Path), Question: m.Text(fres.Pause.Question), Expects: fres.Pause.Expects, Resume: o.resume}
	}
	if narr != nil {
		for _, l := range narr.Lines() {
			rec.Narrative = append(rec.Narrative, m.Text(l))
		}
	}
	if rb.honestyOn(HonestyAssessment) {
		a, said := rb.assess(rec, fres, in, rs)
		rec.Assessment, rec.StandingSaid = &a, said
	}
	return rec
}

func maskInput(secret bool, v any) any {
	if secret {
		return record.Masked
	}
	return v
}

func declinedItem(n int) coverage.Item {
	if n == 1 {
		return coverage.Item{What: "1 verdict row was declined", Why: "no rule could classify it, and nothing was guessed"}
	}
	return coverage.Item{What: fmt.Sprintf("%d verdict rows were declined", n), Why: "no rule could classify them, and nothing was guessed"}
}

func rowsWord(n int) string {
	if n == 1 {
		return "1 row"
	}
	return fmt.Sprintf("%d rows", n)
}

// deciderWords names the decider the verdicts come from, for sentences.
func (rb *Runbook) deciderWords() string {
	if r := rb.spec.Result; r != nil && r.Decider != "" {
		return r.Decider
	}
	return "the verdict projection"
}

// assess folds the record into the assessment summary and asks the
// assessment stage for the standing.
func (rb *Runbook) assess(rec *record.Record, fres *flow.Result, in *resolvedInputs, rs *runState) (assessment.Assessment, bool) {
	sum := assessment.Summary{Runbook: rb.spec.Name}
	if rec.Pause != nil {
		sum.Paused, sum.Question = true, rec.Pause.Question
	}
	secret := map[string]bool{}
	for _, spec := range rb.spec.Inputs {
		secret[spec.Name] = spec.Secret
	}
	for _, k := range in.assumed {
		sum.Assumed = append(sum.Assumed, assessment.Assumed{Name: k, Value: in.values[k], Secret: secret[k], By: rb.spec.Name})
	}
	sum.Assumed = append(sum.Assumed, rs.assumedArgs(&fres.Log)...)
	names := rb.stageNames()
	for _, e := range rec.Coverage {
		stage := names.of(e.Path)
		if e.Kind == coverage.KindAbsence {
			sum.Absences = append(sum.Absences, assessment.Absence{Stage: stage, LookedFor: e.LookedFor})
		}
		for _, it := range e.NotChecked {
			if e.Path == flow.VerdictsKey && rec.Verdicts != nil {
				// The declined rows: said of the decider that could not
				// classify them, counted in rows.
				sum.Gaps = append(sum.Gaps, assessment.Gap{Stage: rb.deciderWords(), What: rowsWord(rec.Verdicts.Declined), Why: it.Why, Kind: assessment.GapDeclined})
				continue
			}
			sum.Gaps = append(sum.Gaps, assessment.Gap{Stage: stage, What: it.What, Why: it.Why, Kind: assessment.GapNotChecked})
		}
		for _, it := range e.CannotCover {
			sum.Gaps = append(sum.Gaps, assessment.Gap{Stage: stage, What: it.What, Why: it.Why, Kind: assessment.GapCannotCover})
		}
		if e.Period != nil {
			sum.Periods = append(sum.Periods, assessment.Period{Stage: stage, Verdict: string(e.Period.Verdict)})
		}
	}
	for _, r := range rec.Scripts {
		sum.Scripts = append(sum.Scripts, assessment.Script{Stage: r.Path, Label: string(r.Label), Words: r.Words})
	}
	switch fres.Status {
	case flow.StatusCancelled:
		sum.Stopped = assessment.StoppedCancelled
		if errors.Is(fres.Err, context.DeadlineExceeded) {
			sum.Stopped = assessment.StoppedTimedOut
		}
	case flow.StatusFailed:
		// A run that failed also stopped before its end: its answer cannot
		// be "consistent with the record" (stopped-early, "stopped").
		sum.Stopped = assessment.StoppedFailed
	}
	if r := rb.spec.Result; r != nil && fres.Status == flow.StatusCompleted {
		env := stateEnv(fres.State)
		for _, c := range r.Checks {
			out := c.Expr.Eval(env)
			sum.Checks = append(sum.Checks, assessment.Check{Expr: c.Src, Passed: out.Matched, Err: out.Err})
		}
	}
	if rs.label {
		sum.HonestyRan = append(sum.HonestyRan, HonestyLabel)
	}
	if rs.cover {
		sum.HonestyRan = append(sum.HonestyRan, HonestyCoverage)
	}
	when := assessment.Always
	if r := rb.spec.Result; r != nil && r.StandingLine != "" {
		when, _ = assessment.ParseWhen(r.StandingLine)
	}
	resp, _ := rs.honesty.Assess(context.Background(), assessment.Request{Summary: sum, When: when})
	return resp.Assessment, resp.Said
}

type stateEnv map[string]any

func (e stateEnv) Get(k string) (any, bool) {
	v, ok := e[k]
	return v, ok
}

// stageNameIndex maps record paths to stage names for sentences.
type stageNameIndex map[string]string

func (rb *Runbook) stageNames() stageNameIndex {
	idx := stageNameIndex{}
	var walk func(nodes []flow.NodeInfo)
	walk = func(nodes []flow.NodeInfo) {
		for _, n := range nodes {
			if _, ok := idx[n.ID]; !ok {
				idx[n.ID] = n.Name
			}
			for _, b := range n.Branches {
				walk(b.Nodes)
			}
			if n.ForEach != nil {
				walk(n.ForEach.Body.Nodes)
			}
			if n.Subflow != nil {
				walk(n.Subflow.Nodes)
			}
		}
	}
	walk(rb.chart.Describe().Nodes)
	return idx
}

// of names the stage at a record path by its last segment's id.
func (idx stageNameIndex) of(path string) string {
	id := path[strings.LastIndexByte(path, '/')+1:]
	if name, ok := idx[id]; ok {
		return name
	}
	return id
}

// RunRecord is the saved form of this run (--record).
func (r *Result) RunRecord() *record.RunRecord {
	st := r.rb.chart.Describe()
	rr := &record.RunRecord{RecordVersion: record.RecordVersion, Result: r.Record, Chart: r.rb.spec.File, Log: r.Run.Log,
		Structure: &st, ChartSHA256: r.rb.ChartHash(), Answers: r.answers} // resume.go
	rr.Checkpoint = r.Run.Checkpoint
	if len(r.Record.Inputs.Given)+len(r.Record.Inputs.Assumed) > 0 || len(r.Run.Log.Inputs) > 0 {
		m := record.Masker(secretsOf(r))
		rr.Log = m.Log(r.Run.Log)
		if rr.Checkpoint != nil {
			cp := *rr.Checkpoint
			cp.State = slices.Clone(cp.State)
			for i := range cp.State {
				cp.State[i].Value = m.Value(cp.State[i].Value)
			}
			rr.Checkpoint = &cp
		}
	}
	return rr
}

func secretsOf(r *Result) []string {
	var out []string
	for _, in := range r.rb.spec.Inputs {
		if v, ok := r.Run.Log.Inputs[in.Name]; ok && in.Secret {
			out = append(out, secretText(v))
		}
	}
	return out
}

// WriteRecord saves the run record as JSON at path, atomically (a reader
// never sees half a record): a temporary file beside it, then a rename.
func (r *Result) WriteRecord(path string) error {
	return record.WriteFile(path, r.RunRecord()) // recordfile.go
}
