package record

import (
	"fmt"
	"slices"
	"strings"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/label"
)

// RecordVersion is the version of the saved run record (--record). Readers
// refuse any other but version 1, which ParseRecord still reads.
//
//	1  a commit's place in the run is its path string only; a join write's
//	   from is one space-joined string
//	2  each commit also carries its scope steps and counter (scope, n); a
//	   join write's from is a list of commit paths
//
// Optional keys added within a version do not bump it (readers ignore keys
// they do not know): within 2, a script row's ran, answer and cause, the
// record's plugins (each stage plugin's provenance), and its perfdata and
// perfdataProblem.
const RecordVersion = 2

// Record is the result record: what `runbook exec --format json` prints.
// Its keys and their meanings are fixed by cli.md; more may be added.
type Record struct {
	Runbook string `json:"runbook"`
	// Status is completed, failed, cancelled or paused.
	Status string `json:"status"`
	// Error is set when the run failed or was cancelled.
	Error  *RecordError `json:"error"`
	Inputs InputsRecord `json:"inputs"`
	// State is the final scope, in its served form, secrets masked.
	State    map[string]any `json:"state"`
	Verdicts *VerdictSet    `json:"verdicts,omitempty"`
	// Decisions lists every decision and selection, in log order.
	Decisions []Decision `json:"decisions"`
	// Scripts lists the script row of every exec (and code-running plugin)
	// stage execution.
	Scripts []label.Row `json:"scripts"`
	// Coverage is the run's coverage ledger.
	Coverage   []coverage.Entry       `json:"coverage"`
	Assessment *assessment.Assessment `json:"assessment,omitempty"`
	// StandingSaid says whether the standing line is printed under the
	// result (result.standingLine); the standing travels here either way.
	StandingSaid bool `json:"standingSaid"`
	// Narrative is the run's narrative, when it was asked for.
	Narrative []string `json:"narrative,omitempty"`
	// Pause is the question a paused run asks, with the command that resumes it.
	Pause       *PauseRecord      `json:"pause,omitempty"`
	Truncations []flow.Truncation `json:"truncations,omitempty"`
	// Warnings are problems the run noticed that did not stop it (a
	// malformed coverage part, a recorder that failed).
	Warnings []string `json:"warnings,omitempty"`
	// Plugins says which stage plugins ran, and which bytes: the record of
	// a plugin's answer names what gave it.
	Plugins []PluginRun `json:"plugins,omitempty"`
	// Perfdata are the chart's result.perfdata items of a completed run,
	// each as the plugin API writes it ('label'=value[uom];warn;crit;min;max),
	// and PerfdataProblem what kept them from being written: --format
	// nagios writes them after its counts per verdict word.
	Perfdata        []string `json:"perfdata,omitempty"`
	PerfdataProblem string   `json:"perfdataProblem,omitempty"`
	Stats           Stats    `json:"stats"`
}

// PluginRun is the provenance of a stage plugin that ran: its name as the
// chart calls it, the version and protocol it declared, the absolute path
// of its executable and that file's SHA-256, read before it started.
type PluginRun struct {
	Name     string `json:"name"`
	Version  string `json:"version"`
	Protocol int    `json:"protocol"`
	Path     string `json:"path"`
	SHA256   string `json:"sha256"`
	// Stages are the ids of the chart's stages that called it, sorted
	// (ids, not paths: a fan-out's thousand calls are one id).
	Stages []string `json:"stages"`
	// Assumed are the arguments the chart did not give it that its
	// declared defaults filled, in log order: the answer rests on them as
	// on an assumed input. The record keeps them so that a resumed run —
	// which does not call the plugin again — still says so.
	Assumed []AssumedArg `json:"assumed,omitempty"`
}

// AssumedArg is one plugin argument a default filled at one call.
type AssumedArg struct {
	// Path is the runtime path of the call (the commit's).
	Path string `json:"path"`
	Name string `json:"name"`
	// Value is the default, absent for an argument the plugin declares
	// sensitive (Secret): a standing line names it, never its value.
	Value  any  `json:"value,omitempty"`
	Secret bool `json:"secret,omitempty"`
}

// InputsGiven is what the person gave the run (nil for a nil record: a
// damaged record may have none).
func (r *Record) InputsGiven() map[string]any {
	if r == nil {
		return nil
	}
	return r.Inputs.Given
}

// InputsAssumed is what defaults filled (nil for a nil record).
func (r *Record) InputsAssumed() map[string]any {
	if r == nil {
		return nil
	}
	return r.Inputs.Assumed
}

// RecordError is a failed or cancelled run's error.
type RecordError struct {
	Stage   string `json:"stage"`
	Message string `json:"message"`
}

// Ended says how a run that did not complete ended, as a verb phrase for
// "the run … before it finished": "failed", "was cancelled", or "timed
// out" for a cancelled run its timeout ended (flow.TimedOut); "" for a
// run that completed or paused.
func (r *Record) Ended() string {
	switch {
	case r == nil:
		return ""
	case r.Status == "failed":
		return "failed"
	case r.Status == "cancelled" && r.Error != nil && flow.TimedOut(r.Error.Message):
		return "timed out"
	case r.Status == "cancelled":
		return "was cancelled"
	}
	return ""
}

// NoRowsTable is what stands for the table of a verdict projection with no
// rows, by how the run went: EmptySet only for a run that completed. A
// run that stopped (Ended) or paused before it wrote a row has judged
// nothing yet, and "the projected set is empty", which the prose note
// says to output verbatim, would be read as nothing found. The record's
// table (record.Assemble), the text format and an MCP tool's text all
// say this one sentence.
func (r *Record) NoRowsTable() string {
	if ended := r.Ended(); ended != "" {
		return "No verdict rows: the run " + ended + " before it wrote any."
	}
	if r != nil && r.Status == "paused" {
		return "No verdict rows yet: the run paused to ask a question before it wrote any."
	}
	if r != nil && r.Verdicts != nil && r.Verdicts.EmptyAnswer {
		return EmptyAnswerSet
	}
	return EmptySet
}

// InputsRecord separates what the person gave from what a default filled.
// Secret values are replaced by Masked.
type InputsRecord struct {
	Given   map[string]any `json:"given"`
	Assumed map[string]any `json:"assumed"`
	// VarsFrom is, for each var (vars:) computed from inputs, the inputs
	// it was computed from: explain says a var rests on them, where it
	// said "the chart's constant" of warn = limit - 10.
	VarsFrom map[string][]string `json:"varsFrom,omitempty"`
}

// Masked replaces a secret's value wherever a record would show it.
const Masked = "***"

// NoStanding is what a run says in place of the standing line when the
// chart's honesty: leaves out the assessment stage (Assessment is nil):
// the answer stands on nothing judged, and a reader, a person or an agent
// told to repeat the standing line, must not take its silence for
// Consistent.
const NoStanding = "No standing: the chart's honesty: leaves out the assessment stage, so how far this answer stands was not judged; it is neither Known nor Consistent."

// PauseRecord is a paused run's question.
type PauseRecord struct {
	Stage    string            `json:"stage"`
	Question string            `json:"question"`
	Expects  map[string]string `json:"expects,omitempty"`
	Resume   string            `json:"resume,omitempty"`
}

// Decision is one decision's evidence as the record shows it.
type Decision struct {
	// Path is the stage path in ids without the execution counter
	// (`per-subject~3/posture`).
	Path string `json:"path"`
	// Decider is the same path in stage names (`per-subject~3/Protection posture`).
	Decider string `json:"decider"`
	// Name is the deciding stage's own name (`Protection posture`), which
	// Decider ends with; absent in records written before it was kept.
	Name    string                `json:"name,omitempty"`
	Kind    decide.Kind           `json:"kind"`
	Chosen  []string              `json:"chosen"`
	Default *decide.Default       `json:"default,omitempty"`
	Rules   []decide.RuleEvidence `json:"rules"`
}

// DeciderName is the deciding stage's name: Name, or for a record written
// before Name was kept, Decider's last '/' part.
func (d Decision) DeciderName() string {
	if d.Name != "" {
		return d.Name
	}
	return d.Decider[strings.LastIndexByte(d.Decider, '/')+1:]
}

// VerdictSet is the rowset projection (result kind verdict/*).
type VerdictSet struct {
	// Rows are the first MaxRows rows, each keeping its key order.
	Rows      []Row `json:"rows"`
	RowsShown int   `json:"rowsShown"`
	RowsTotal int   `json:"rowsTotal"`
	// RowsComplete says only that the cap (MaxRows) left no row out of
	// Rows. It is true over a run that failed, was cancelled or judged
	// nothing (no rows, none left out): whether the rows are the whole
	// answer is Record.Status, Unjudged and Record.Assessment's to say.
	RowsComplete bool `json:"rowsComplete"`
	// Table is the markdown table of exactly Rows (prose presentation only).
	Table string `json:"table,omitempty"`
	// RenderNote tells the reader how to present the rows.
	RenderNote string `json:"renderNote"`
	// Meanings maps each verdict word to what it means, composed from the
	// chart's declared branches and the rule labels this run observed.
	// Absent when neither said anything.
	Meanings map[string]string `json:"meanings,omitempty"`
	// Declined counts rows whose verdict is "declined", over all rows.
	Declined int `json:"declined"`
	// DeclinedBy says whose decision the declined rows were, each row
	// traced to the decision behind it (Projection.Project): one entry
	// per rule (in rule order), then the default, then rows no decision
	// of the decider declined. Absent when no row was declined.
	DeclinedBy []DeclinedRows `json:"declinedBy,omitempty"`
	// RowsDropped counts entries of the verdicts list that are not rows
	// (not an object, or a verdict that is not a string): they are in
	// neither Rows nor the table, and the ledger says so.
	RowsDropped int `json:"rowsDropped"`
	// NotShown counts, per verdict word, the rows the cap (MaxRows) kept
	// out of Rows and the table: what a reader of the table does not see.
	// Absent when every row is shown.
	NotShown map[string]int `json:"notShown,omitempty"`
	// EmptyAnswer says the chart declares a set with no rows its answer
	// (result.empty: answer): set only on a completed run's set with no
	// rows, where the table's sentence says so.
	EmptyAnswer bool `json:"emptyAnswer,omitempty"`
	// Unjudged says, one phrase a kind, why a completed run's rows are
	// not all judged (gate.Check.Unjudged): a script that gave no answer,
	// a stage that did not check everything, no rows where none is no
	// answer, a rule that could not be evaluated, a failed answer check.
	// A row beside it may be the default a failed script left ("clean"
	// over a git that exited 128): what makes --format nagios UNKNOWN and
	// a --fail-on verdict= condition hold. Absent when every row rests on
	// what the run judged, and on a run that did not complete.
	Unjudged []string `json:"unjudged,omitempty"`
	// UnjudgedRows are the shown rows that rest on what the run did not
	// judge (a script of their own branch that gave no answer, an item of
	// it left unchecked, a rule their route could not evaluate): their
	// word is no answer of them. Each names the row by its place in Rows
	// and says why; the rows themselves keep exactly the keys the chart
	// wrote. Absent when no shown row does.
	UnjudgedRows []UnjudgedRow `json:"unjudgedRows,omitempty"`
	// UnjudgedNotShown counts the rows the cap kept out of Rows that rest
	// on what the run did not judge. Absent when none.
	UnjudgedNotShown int `json:"unjudgedNotShown,omitempty"`
}

// UnjudgedRow is the mark of shown row i (a place in Rows), nil when
// the row rests on nothing the run did not judge.
func (vs *VerdictSet) UnjudgedRow(i int) *UnjudgedRow {
	// in row order (Projection.Project): a search, so that a renderer
	// asking of every row of a long table is not asking rows × marks
	k, ok := slices.BinarySearchFunc(vs.UnjudgedRows, i, func(u UnjudgedRow, i int) int { return u.Row - i })
	if !ok {
		return nil
	}
	return &vs.UnjudgedRows[k]
}

// NotShownText is NotShown in words, most rows first, then by verdict:
// "1 at-risk, 1 ok". "" when every row is shown.
func (vs *VerdictSet) NotShownText() string {
	words := make([]string, 0, len(vs.NotShown))
	for w := range vs.NotShown {
		words = append(words, w)
	}
	slices.SortFunc(words, func(a, b string) int {
		if d := vs.NotShown[b] - vs.NotShown[a]; d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(words))
	for i, w := range words {
		parts[i] = fmt.Sprintf("%d %s", vs.NotShown[w], w)
	}
	return strings.Join(parts, ", ")
}

// DeclinedRows is how many declined rows one decision accounts for.
// Exactly one of Rule and Default is set, or neither when the rows reached
// "declined" without a decision of the decider behind them (a stage wrote
// the word itself).
type DeclinedRows struct {
	Rows int `json:"rows"`
	// Rule is the label of the rule that sent the rows to the declined
	// branch ("rule N" when it has no label).
	Rule string `json:"rule,omitempty"`
	// Default says the rows reached the decider's default: no rule could
	// classify them.
	Default bool `json:"default,omitempty"`
}

// Row is one verdict row: a JSON object whose keys keep the order they were
// declared in.
type Row struct {
	Keys   []string
	Values map[string]any
}

// Stats are counts and timings of the run.
type Stats struct {
	Stages     int     `json:"stages"`
	DurationMs float64 `json:"durationMs"`
}

// RunRecord is the saved run record (--record FILE): the result record and
// everything explain needs to answer "why" later, without running again.
type RunRecord struct {
	RecordVersion int     `json:"recordVersion"`
	Result        *Record `json:"result"`
	// Chart is the file the runbook was loaded from, when there was one.
	Chart string `json:"chart,omitempty"`
	// Structure is the chart's static structure, so that explain can say
	// which decider's branch a stage sits in without the chart file.
	Structure *flow.Structure `json:"structure,omitempty"`
	// ChartSHA256 identifies the chart the run ran (ChartHash): resume
	// refuses a chart that has changed since the pause.
	ChartSHA256 string `json:"chartSha256,omitempty"`
	// FinishedAt is when the run ended or paused, by the run's clock, RFC
	// 3339 in UTC to the second: a record at a path says when it was made,
	// so a reviewer can tell yesterday's record from this run's
	// (wave-forensics' design question). Absent in a record written before
	// it.
	FinishedAt string `json:"finishedAt,omitempty"`
	// Answers are the answers this run was given, one per resume, in order.
	Answers []AnswerRecord `json:"answers,omitempty"`
	// Resumed is set on a paused record once a resume of it has won: it is
	// never resumed again (the continued record is elsewhere: Into).
	Resumed *ResumedRecord `json:"resumed,omitempty"`
	// Log is the commit log; it comes last but for the checkpoint, so that
	// a record cut short keeps everything above it.
	Log flow.Log `json:"log"`
	// Checkpoint is set when the run paused: resume continues from it.
	Checkpoint *flow.Checkpoint `json:"checkpoint,omitempty"`
	// CheckpointSecrets are the checkpoint's state keys whose values held
	// a secret and are masked here: resume derives them again from the
	// secrets given to it, never reads them (runbook.Resume).
	CheckpointSecrets []string `json:"checkpointSecrets,omitempty"`
	// CheckpointDigest seals a paused record (CheckpointDigest): resume
	// refuses a record whose checkpoint no longer matches it.
	CheckpointDigest string `json:"checkpointDigest,omitempty"`
}

// AnswerRecord is one answer given to a paused run (runbook resume).
type AnswerRecord struct {
	// Stage is the record path of the stage that asked; Asked and Answered
	// the runtime paths of the commit that asked and the one that wrote the
	// answer.
	Stage    string `json:"stage"`
	Asked    string `json:"asked"`
	Answered string `json:"answered"`
	Question string `json:"question"`
	// Answers are the values given, converted to the types expected.
	Answers map[string]any `json:"answers,omitempty"`
	// By is who answered (--answered-by, default the OS user); At when.
	By string `json:"by"`
	At string `json:"at"`
	// Rejected is the reason given instead of an answer: the run ended
	// failed with it.
	Rejected string `json:"rejected,omitempty"`
}

// ResumedRecord marks a paused record as resumed.
type ResumedRecord struct {
	By   string `json:"by"`
	At   string `json:"at"`
	Into string `json:"into,omitempty"`
}
