package runbook

import (
	"context"
	"sync"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/secret"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/rules"
)

// The honesty stages by name (chart's: one list of names).
const (
	HonestyLabel      = chart.HonestyLabel
	HonestyCoverage   = chart.HonestyCoverage
	HonestyAssessment = chart.HonestyAssessment
)

// runState is one run's honesty state, reached by stage functions through
// flow's run value (charts are immutable and shared; a run's rows are not).
// Stages of parallel branches file concurrently, so it locks; the record
// orders what was filed by the commit log, so it is deterministic.
type runState struct {
	honesty Honesty
	run     string // the run's id: the honesty stages' memory key
	label   bool
	cover   bool
	secrets secret.Set
	plugins *stagePlugins // nil outside a runbook run
	stubs   Stubs         // WithStubs; nil: every stage runs for real

	mu      sync.Mutex
	scripts []label.Row
	// calls counts each stage execution's own commands (nextCall).
	calls    map[string]int
	ledger   []coverage.Entry
	warnings []pathed
	// warned: the stages warnOnce has warned of, by id
	warned map[string]bool
	// assumed are the plugin arguments defaults filled in this run (or
	// this part of a resumed one); priorAssumed what the saved record of
	// the part before the pause says its plugins assumed (assumedFrom).
	assumed, priorAssumed []assumedArg
}

type pathed struct{ path, msg string }

// stateOf is the run's state, which the run hands flow as its run value
// (run.options): explicit, one per run, never a context value.
func stateOf(s *flow.Scope) *runState {
	if rs, ok := s.RunValue().(*runState); ok {
		return rs
	}
	// A stage function called outside a runbook run (a Go author reusing
	// one in a plain flow chart) files nothing.
	return &runState{honesty: InProcess()}
}

// script files one code call's script row through the label stage, with
// the runner's notes laid on the row the stage answered (callNotes).
func (rs *runState) script(path string, s label.Settlement, f *label.Facts, withheld bool, n callNotes) label.Row {
	resp, _ := rs.honesty.Label(context.Background(), label.Request{Calls: []label.Call{{Path: path, Settlement: s, Facts: f, ResultWithheld: withheld}}})
	row := label.NewRow(path, s, f, withheld)
	if len(resp.Rows) == 1 {
		row = resp.Rows[0]
	}
	row.Ran, row.Attempt, row.Call = n.ran, n.attempt, n.call
	if row.ExitCode != nil {
		row.Answer = n.answer
		if n.answer == "" {
			row.NotAnswer = n.notAnswer
		}
	}
	if row.Label == label.OutcomeUnknown {
		row.Cause = n.cause
	}
	if rs.label {
		rs.mu.Lock()
		rs.scripts = append(rs.scripts, row)
		rs.mu.Unlock()
	} else {
		// No row: how the call ended is on no record, a gap.
		rs.fileLedger(record.UnlabelledEntry(path))
	}
	return row
}

// result passes a stage result through the coverage stage: the served form
// is returned for the scope; declarations go on the run's ledger, and so
// does each part of one the stage could not read (a warning), as a gap
// (record.UnreadDeclarationEntry).
func (rs *runState) result(path string, v any) any {
	if !rs.cover {
		return v
	}
	switch v.(type) {
	case map[string]any:
	default:
		return v // only a JSON object can declare coverage: nothing to read
	}
	// Called outside the lock: concurrent branches' calls batch together.
	resp, _ := rs.honesty.Coverage(context.Background(), rs.run, coverage.Request{Results: []coverage.StageResult{{Path: path, Value: v}}})
	rs.mu.Lock()
	defer rs.mu.Unlock()
	served := v
	if len(resp.Results) == 1 {
		r := resp.Results[0]
		for _, d := range r.Declared {
			rs.ledger = append(rs.ledger, coverage.Entry{Path: path, Declaration: d})
		}
		served = r.Value
	}
	for _, w := range resp.Warnings {
		rs.warnings = append(rs.warnings, pathed{path, w.Part + ": " + w.Problem})
		// What the part declared is on no record: a gap, never a pass.
		rs.ledger = append(rs.ledger, record.UnreadDeclarationEntry(path, w.Part, rs.mask(w.Problem)))
	}
	return served
}

// fileLedger adds an entry the run itself files (unparsed lines, a
// withheld text, a glob that matched nothing) to the coverage ledger;
// branches run at once, so under the lock.
func (rs *runState) fileLedger(e coverage.Entry) {
	rs.mu.Lock()
	rs.ledger = append(rs.ledger, e)
	rs.mu.Unlock()
}

func (rs *runState) warn(path, msg string) {
	rs.mu.Lock()
	rs.warnings = append(rs.warnings, pathed{path, msg})
	rs.mu.Unlock()
}

// warnOnce is warn for what holds of a stage wherever it runs (every item
// of a foreach): each message said once a run, at the first path it ran
// at.
func (rs *runState) warnOnce(stage, path, msg string) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.warned == nil {
		rs.warned = map[string]bool{}
	}
	if key := stage + "\x00" + msg; !rs.warned[key] {
		rs.warned[key] = true
		rs.warnings = append(rs.warnings, pathed{path, msg})
	}
}

// derive is the taint rule, in one place: a value an expression made from
// a secret is itself a secret. When some value e read holds a secret
// (secret.Set.Holds: a secret input, a member of one, or a value derived
// before), v is held as derived (secret.Set.Derived) and masked as a whole
// wherever it appears from then on — even when it no longer contains the
// secret (`upper(token)`). Every stage kind that evaluates an expression
// calls it before the value goes anywhere (written, passed to a process or
// a plugin, made a message). The roots it asks for were read by the
// evaluation already, so it adds no read to the commit.
func (rs *runState) derive(s *flow.Scope, e rules.Valuer, v any) {
	deriveSecret(rs.secrets, e, s.Get, v)
}

// deriveSecret is derive over any reader of the roots: a run's scope, or
// the inputs and vars before the first stage (evalVars), so a var made
// from a secret is a derived secret too.
func deriveSecret(secrets secret.Set, e rules.Valuer, get func(string) (any, bool), v any) {
	if secrets.Empty() || e == nil {
		return
	}
	if readsSecret(secrets, e, get) {
		secrets.Derived(v)
	}
}

// readsSecret says whether expression e reads a name that holds a secret
// (a key or a literal reads none of its own: what it names is held
// already when it is a secret).
func readsSecret(secrets secret.Set, e rules.Valuer, get func(string) (any, bool)) bool {
	ex, ok := e.(interface{ Roots() []string })
	if secrets.Empty() || !ok {
		return false
	}
	for _, k := range ex.Roots() {
		if x, ok := get(k); ok && secrets.Holds(x) {
			return true
		}
	}
	return false
}

// mask replaces every secret value inside s.
func (rs *runState) mask(s string) string { return record.Masker(rs.secrets).Text(s) }

// ordered sorts what was filed by where its commit sits in the log, and
// rewrites runtime paths as record paths (record.InLogOrder).
func ordered[T any](log *flow.Log, items []T, path func(*T) *string) []T {
	return record.InLogOrder(record.LogOrder(log), items, path)
}

// RecordPath is a runtime path as the record shows it (record.Path).
func RecordPath(runtime string) string { return record.Path(runtime) }

// nextCall numbers a Go stage's own commands (RunCommand) within the
// stage execution at path, from 1: the rows' Call.
func (rs *runState) nextCall(path string) int {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.calls == nil {
		rs.calls = map[string]int{}
	}
	rs.calls[path]++
	return rs.calls[path]
}
