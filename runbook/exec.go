package runbook

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/gate"
	"github.com/openrunbook/runbook/internal/parse"
	"github.com/openrunbook/runbook/internal/secret"
	"github.com/openrunbook/runbook/internal/version"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/rules"
)

// Version is the runbook release this build reports.
const Version = version.Release

func (rb *Runbook) honestyOn(name string) bool { return rb.spec.HonestyOn(name) }

func (rb *Runbook) exec(ctx context.Context, given map[string]any, opts []ExecOption) (*Result, error) {
	var o execOptions
	for _, opt := range opts {
		opt(&o)
	}
	if err := o.check(); err != nil {
		return nil, err
	}
	in, err := rb.resolveInputs(given, o.clock(), zoneOf(o.stubs))
	if err != nil {
		return nil, err
	}
	r := rb.prepare(&o, in, &record.Harvest{})
	defer r.end.ensure()
	fres, _ := rb.chart.Run(ctx, r.options(flow.WithInputs(in.values))...)
	return r.finish(fres), nil
}

// record assembles the result record from one traversal (record.Assemble)
// and asks the assessment stage for its standing.
func (r *run) record(fres *flow.Result) *record.Record {
	rb, rs, in := r.rb, r.rs, r.in
	secret := make(map[string]bool, len(rb.spec.Inputs))
	for _, spec := range rb.spec.Inputs {
		secret[spec.Name] = spec.Secret
	}
	run := record.Run{
		Runbook:    rb.spec.Name,
		Flow:       fres,
		Inputs:     record.Inputs{Given: in.given, Assumed: in.assumed, Values: in.values, Secret: secret, VarsFrom: in.varInputs},
		Secrets:    rs.secrets,
		Decisions:  r.harvest.Decisions,
		Projection: rb.projectionFor(r.o),
		Resume:     r.o.resume,
	}
	if rb.spec.Result == nil {
		run.Unprojected = VerdictsKey
	}
	if r.narr != nil {
		run.Narrative = r.narr.Lines()
	}
	rs.mu.Lock()
	run.Scripts, run.Coverage = rs.scripts, rs.ledger
	for _, w := range rs.warnings {
		run.Warnings = append(run.Warnings, record.Warning{Path: w.path, Msg: w.msg})
	}
	rs.mu.Unlock()
	run.Plugins = rs.plugins.provenance(rs.assumedInOrder(&fres.Log))
	rec := record.Assemble(run)
	rec.Perfdata, rec.PerfdataProblem = r.perfdata(fres, countLabels(rb.spec, rec))
	if rb.honestyOn(HonestyAssessment) {
		a, said := rb.assess(rec, fres, in, rs, secret)
		rec.Assessment, rec.StandingSaid = &a, said
	}
	if rec.Verdicts != nil && rec.Status == "completed" {
		// After the assessment: a failed answer check is one of them.
		rec.Verdicts.Unjudged = gate.CheckOf(rb.spec, rec).Unjudged(gate.JoinNames)
	}
	return rec
}

// projectionFor is the runbook's verdict projection with this run's
// WithMaxRows, when given, as its one cap; nil when the result is not
// verdict/*.
func (rb *Runbook) projectionFor(o *execOptions) *record.Projection {
	if rb.projection == nil || o.maxRows < 1 {
		return rb.projection
	}
	p := *rb.projection
	p.MaxRows = o.maxRows
	return &p
}

// assess asks the assessment stage for the record's standing, over the
// summary record.Summary folds from it.
func (rb *Runbook) assess(rec *record.Record, fres *flow.Result, in *resolvedInputs, rs *runState, secret map[string]bool) (assessment.Assessment, bool) {
	st := record.Standing{Runbook: rb.spec.Name, Flow: fres, StageName: rb.stageName, Key: VerdictsKey}
	if r := rb.spec.Result; r != nil {
		st.Decider = r.Decider
	}
	read := inputsRead(&fres.Log)
	if r := rb.spec.Result; r != nil && fres.Status == flow.StatusCompleted {
		env := finalEnv(fres, rs)
		for _, c := range r.Checks {
			out := c.Expr.Eval(env)
			// The error may quote a piece of a secret the check cut
			// (int(token[3:])), which no value of the run holds.
			st.Checks = append(st.Checks, assessment.Check{Expr: c.Src, Passed: out.Matched, Err: record.Masker(rs.secrets).Message(out.Err)})
			// An answer check that reads an input rests on its value as
			// surely as a stage that does.
			for _, x := range out.Inputs {
				read[rootKey(x.Path)] = true
			}
		}
	}
	// A var is computed from inputs: whoever read the var read them too
	// (varInputs follows earlier vars already).
	for v, ins := range in.varInputs {
		if read[v] {
			for _, k := range ins {
				read[k] = true
			}
		}
	}
	for _, k := range in.assumed {
		// A default nobody read was assumed by no rule: it shaped nothing
		// the answer says.
		if read[k] {
			st.Assumed = append(st.Assumed, assessment.Assumed{Name: k, Value: in.values[k], Secret: secret[k], By: rb.spec.Name})
		}
	}
	st.Assumed = append(st.Assumed, rs.assumedArgs(&fres.Log)...)
	if rs.label {
		st.HonestyRan = append(st.HonestyRan, HonestyLabel)
	}
	if rs.cover {
		st.HonestyRan = append(st.HonestyRan, HonestyCoverage)
	}
	when := assessment.Always
	if r := rb.spec.Result; r != nil && r.StandingLine != "" {
		when, _ = assessment.ParseWhen(r.StandingLine)
	}
	resp, _ := rs.honesty.Assess(context.Background(), assessment.Request{Summary: record.Summary(rec, st), When: when})
	// The line quotes what the summary holds beside the masked record: an
	// assumed default's value, an answer check's error. A default that
	// spells a secret's text (user "postgres" beside the password
	// "postgres") stood in the clear in the line alone.
	resp.Assessment.Line = rs.mask(resp.Assessment.Line)
	return resp.Assessment, resp.Said
}

// finalEnv is the final state as an expression over it after the run
// reads it (an answer check, result.perfdata), with the run's clock and
// zone.
func finalEnv(fres *flow.Result, rs *runState) rules.Env {
	state := stateEnv(fres.State())
	if _, ok := state[VerdictsKey]; !ok {
		// No verdict row was written: the table a check reads is
		// empty, not absent. `len(verdicts) == len(failed)` over no
		// failed unit could not be evaluated (len of nil), and a
		// chart whose empty table is its answer stood Not sure.
		state = maps.Clone(state)
		state[VerdictsKey] = []any{}
	}
	return zonedEnv(timedEnv(state, clockOf(rs.stubs)), zoneOf(rs.stubs))
}

// perfdata is result.perfdata's items over a completed run, each as the
// plugin API writes it (parse.PerfItemText), or what kept them from being
// written: an expression that could not be evaluated, a value that is no
// perfdata item, a label written twice. None are written then: a graph
// missing one series says less than one missing all, but a check line
// whose perfdata is half of what the chart asked for would be read as
// whole. Masked: a label or a threshold can hold any text the run read.
// counts are the labels the check's own counts per verdict word are
// written under (countLabels): an item labelled one of them is a label
// written twice too.
func (r *run) perfdata(fres *flow.Result, counts []string) ([]string, string) {
	res := r.rb.spec.Result
	if res == nil || res.Perfdata == nil || fres.Status != flow.StatusCompleted {
		return nil, ""
	}
	mask := record.Masker(r.rs.secrets)
	v, _, err := res.Perfdata.Expr.Value(finalEnv(fres, r.rs))
	if err != nil {
		return nil, mask.Message("result perfdata " + rules.OneLine(res.Perfdata.Src) + ": " + err.Error())
	}
	items, err := perfItems(v, counts)
	if err != nil {
		return nil, mask.Message("result perfdata " + rules.OneLine(res.Perfdata.Src) + ": " + err.Error())
	}
	for i := range items {
		items[i] = mask.Text(items[i])
	}
	return items, ""
}

// perfItems writes v, result.perfdata's value, as perfdata items: an item,
// a list of items, or an object of such (an item or a list) whose keys
// prefix their labels NAME:: (the form PNP4Nagios and Icinga read as one
// check's several plugins), in the keys' order. A label written twice is
// an error: a graph would plot two series as one. So is one of counts,
// the labels of the check's own counts, written before the items: a
// plugin's `ok=5` beside the check's `ok=1;;;0` was written whole, and a
// graph of the check's ok rows plotted the plugin's value.
func perfItems(v any, counts []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	isCount := map[string]bool{}
	for _, c := range counts {
		isCount[c] = true
	}
	add := func(v any, prefix string) error {
		list, ok := v.([]any)
		if !ok {
			list = []any{v}
		}
		for _, it := range list {
			txt, err := parse.PerfItemText(it, prefix)
			if err != nil {
				return err
			}
			// the label as given, before the plugin API's quoting: PerfItemText
			// took the item, so it is an object with a text label
			label := prefix + it.(map[string]any)["label"].(string)
			if isCount[label] {
				return fmt.Errorf("the label %s is the check's own count of its verdict %q, written first (%s=N;;;0), so it would be written twice, and a graph would plot two measurements as one series; give the items a prefix (an object {NAME: …} writes NAME::%s)", label, label, label, label)
			}
			if seen[label] {
				return fmt.Errorf("the label %s is written twice, and a graph would plot two measurements as one series; give each its own (an object {load: …, disk: …} prefixes each list's labels load::, disk::)", label)
			}
			seen[label] = true
			out = append(out, txt)
		}
		return nil
	}
	if m, ok := v.(map[string]any); ok && m["label"] == nil && m["value"] == nil {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if err := add(m[k], k+"::"); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return out, add(v, "")
}

// countLabels are the labels of the check's own counts per verdict word
// in its perfdata (the Nagios output's word=N;;;0), as perfItems compares
// labels (quoted as the plugin API quotes them): the words of this run's
// rows, and every word the chart's verdict stages can write, since a
// series that is the check's count on one run and a plugin's value on the
// next is two measurements plotted as one too.
func countLabels(spec *chart.Spec, rec *record.Record) []string {
	words, _ := spec.VerdictWords()
	if rec.Verdicts != nil {
		for _, w := range gate.CheckOf(spec, rec).Words {
			words = append(words, w.Word)
		}
	}
	out := make([]string, 0, len(words))
	for _, w := range words {
		out = append(out, record.CellText(w)) // as the count's label is written, before quoting
	}
	return out
}

// inputsRead are the keys some stage read as the run's inputs gave them:
// the scope's reads with no writer (the value came in with the run) and
// a value present.
func inputsRead(log *flow.Log) map[string]bool {
	out := map[string]bool{}
	for _, c := range log.Commits() {
		for _, r := range c.Reads {
			if r.Writer == "" && !r.Missing {
				out[r.Key] = true
			}
		}
	}
	return out
}

// rootKey is the scope key an expression's member path starts at
// ("volume" of "volume.usedPct", "hosts" of "hosts[0]").
func rootKey(path string) string {
	if i := strings.IndexAny(path, ".["); i >= 0 {
		return path[:i]
	}
	return path
}

type stateEnv map[string]any

func (e stateEnv) Get(k string) (any, bool) {
	v, ok := e[k]
	return v, ok
}

// clockedEnv is a stateEnv whose expressions read the run's clock
// (rules.Clock): vars and answer checks judge against the time the run's
// stages do.
type clockedEnv struct {
	stateEnv
	now func() time.Time
}

func (e clockedEnv) Now() time.Time { return e.now() }

// timedEnv is env read with the run's clock, when the run has one.
func timedEnv(env stateEnv, now func() time.Time) rules.Env {
	if now == nil {
		return env
	}
	return clockedEnv{env, now}
}

// zoned is an Env whose expressions read zone as this machine's
// (rules.Zoned).
type zoned struct {
	rules.Env
	zone *time.Location
}

func (e zoned) Zone() *time.Location { return e.zone }

// Now is the clock of the Env it wraps, when that has one: a zoned Env
// keeps its clock.
func (e zoned) Now() time.Time {
	if c, ok := e.Env.(rules.Clock); ok {
		return c.Now()
	}
	return time.Now()
}

// zonedEnv is env read with the run's zone, when the run has one.
func zonedEnv(env rules.Env, zone *time.Location) rules.Env {
	if zone == nil {
		return env
	}
	return zoned{env, zone}
}

// stageName names the stage at a record path by its last segment's id.
func (rb *Runbook) stageName(path string) string {
	id := flow.NodeOf(path)
	if name, ok := rb.names[id]; ok {
		return name
	}
	return id
}

// RunRecord is the saved form of this run (--record).
func (r *Result) RunRecord() *record.RunRecord {
	st := r.rb.structure
	rr := &record.RunRecord{RecordVersion: record.RecordVersion, Result: r.Record, Chart: r.rb.spec.File, Log: r.Run.Log,
		Structure: &st, ChartSHA256: r.rb.ChartHash(), Answers: r.answers} // resume.go
	if !r.finished.IsZero() {
		rr.FinishedAt = r.finished.Format(time.RFC3339)
	}
	rr.Checkpoint = r.Run.Checkpoint
	if len(r.Record.Inputs.Given)+len(r.Record.Inputs.Assumed) > 0 || len(r.Run.Log.Inputs) > 0 {
		m := record.Masker(secretsOf(r))
		rr.Log = m.Log(r.Run.Log)
		rr.Answers = m.Answers(r.answers)
		if rr.Checkpoint != nil {
			cp := *rr.Checkpoint
			cp.State = slices.Clone(cp.State)
			for i := range cp.State {
				v := m.Value(cp.State[i].Value)
				if !reflect.DeepEqual(v, cp.State[i].Value) {
					// Resume derives it again; the mask is never data.
					rr.CheckpointSecrets = append(rr.CheckpointSecrets, cp.State[i].Key)
				}
				cp.State[i].Value = v
			}
			// The question is text the chart composed, and it may read a
			// secret: the result's pause masks it (record.Assemble), and so
			// must the checkpoint resume reads it from.
			cp.Pause.Question = m.Text(cp.Pause.Question)
			rr.Checkpoint = &cp
		}
	}
	rr.CheckpointDigest = record.CheckpointDigest(rr)
	return rr
}

// secretsOf is the run's secrets; for a Result not made by a run, the
// secret inputs its log holds.
func secretsOf(r *Result) secret.Set {
	if !r.secrets.Empty() {
		return r.secrets
	}
	out := secret.New()
	for _, in := range r.rb.spec.Inputs {
		if v, ok := r.Run.Log.Inputs[in.Name]; ok && in.Secret {
			out.Add(v)
		}
	}
	return out
}

// WriteRecord saves the run record as JSON at path, atomically (a reader
// never sees half a record): a temporary file beside it, then a rename.
func (r *Result) WriteRecord(path string) error {
	return record.WriteFile(path, r.RunRecord()) // recordfile.go
}
