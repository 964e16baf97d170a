package record

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/internal/secret"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/recorder"
)

// Run is everything one run leaves for its result record, filed DURING the
// traversal (never reconstructed by walking the run again): the engine's
// result, the decisions harvested from its events, and what the stages
// filed (script rows, coverage declarations, warnings), each by the
// runtime path of the stage execution that filed it.
type Run struct {
	Runbook string
	Flow    *flow.Result
	Inputs  Inputs
	// Secrets are the run's secrets (Masker).
	Secrets   secret.Set
	Decisions []Harvested
	Scripts   []label.Row
	Coverage  []coverage.Entry
	Warnings  []Warning
	// Projection is the verdict projection (nil: the result is not
	// verdict/*).
	Projection *Projection
	// Unprojected is the key a chart's verdict stages write, read when
	// Projection is nil: rows a run left there are shown and judged by
	// nothing, which the ledger says (unshownItem).
	Unprojected string
	// Narrative is the run's narrative, when it was asked for.
	Narrative []string
	// Resume is the command a paused run's record tells the person to run.
	Resume string
	// Plugins are the stage plugins that ran, sorted by name.
	Plugins []PluginRun
}

// Inputs are a run's inputs: the names given and assumed, in order, the
// values, and which are secret.
type Inputs struct {
	Given, Assumed []string
	Values         map[string]any
	Secret         map[string]bool
	// VarsFrom is, for each var, the inputs it is computed from.
	VarsFrom map[string][]string
}

// Warning is a problem a stage execution noticed that did not stop it.
type Warning struct{ Path, Msg string }

// Harvested is one decision's evidence as a recorder saw it: the runtime
// path, the decider in stage names, the decider's own stage name, and the
// evidence.
type Harvested struct {
	Path, Decider string
	// Name is the deciding stage's name: Decider's last part, kept as its
	// own field because a stage name may hold '/'.
	Name     string
	Evidence *decide.Evidence
}

// Harvest is the recorder that collects decision evidence during the run:
// the record's decisions and the verdict meanings read it.
type Harvest struct{ Decisions []Harvested }

// Record files one decision or selection event.
func (h *Harvest) Record(e recorder.Event) {
	if (e.Kind != recorder.Decision && e.Kind != recorder.Select) || e.Decision == nil {
		return
	}
	decider := e.StageName
	if e.Subflow != "" {
		decider = e.Subflow + "/" + e.StageName
	}
	h.Decisions = append(h.Decisions, Harvested{Path: e.Path, Decider: decider, Name: e.StageName, Evidence: e.Decision})
}

// Wants says which events the harvest reads: decisions and selections.
func (h *Harvest) Wants(k recorder.Kind) bool { return k == recorder.Decision || k == recorder.Select }

// Assemble builds the result record from one run, in one pass: every
// secret masked (one Masker), everything filed put in log order (the log
// indexed once), paths shown as the record shows them (Path), and the
// verdict projection. The assessment is the caller's to add (it asks the
// assessment stage, over Summary).
func Assemble(r Run) *Record {
	m := Masker(r.Secrets)
	fres := r.Flow
	rec := &Record{
		Runbook:   r.Runbook,
		Status:    string(fres.Status),
		Inputs:    InputsRecord{Given: map[string]any{}, Assumed: map[string]any{}},
		Decisions: make([]Decision, 0, len(r.Decisions)),
		Stats:     Stats{Stages: fres.Stages, DurationMs: float64(fres.Elapsed.Microseconds()) / 1000},
	}
	for _, k := range r.Inputs.Given {
		rec.Inputs.Given[k] = maskInput(m, r.Inputs.Secret[k], r.Inputs.Values[k])
	}
	for _, k := range r.Inputs.Assumed {
		rec.Inputs.Assumed[k] = maskInput(m, r.Inputs.Secret[k], r.Inputs.Values[k])
	}
	for v, from := range r.Inputs.VarsFrom {
		if len(from) > 0 {
			if rec.Inputs.VarsFrom == nil {
				rec.Inputs.VarsFrom = map[string][]string{}
			}
			rec.Inputs.VarsFrom[v] = from
		}
	}
	if fres.Err != nil {
		rec.Error = &RecordError{Stage: Path(fres.Err.Path), Message: m.Message(fres.Err.Message)}
	}
	for _, d := range r.Decisions {
		ev := d.Evidence
		rec.Decisions = append(rec.Decisions, Decision{Path: Path(d.Path), Decider: d.Decider, Name: d.Name, Kind: ev.Kind, Chosen: ev.Chosen, Default: ev.Default, Rules: ownOperands(m.Rules(ev.Rules))})
	}
	at := LogOrder(&fres.Log)
	scripts := append([]label.Row{}, r.Scripts...)
	for i := range scripts {
		if scripts[i].Call > 0 {
			// before InLogOrder drops the counter: which execution ran it
			scripts[i].Execution = scripts[i].Path
		}
	}
	rec.Scripts = InLogOrder(at, scripts, func(x *label.Row) *string { return &x.Path })
	for i := range rec.Scripts {
		rec.Scripts[i].Ran = m.Ran(rec.Scripts[i].Ran)
		rec.Scripts[i].Cause = m.Text(rec.Scripts[i].Cause)
		rec.Scripts[i].Facts = m.Facts(rec.Scripts[i].Facts)
	}
	ledger := append([]coverage.Entry{}, r.Coverage...)
	for _, t := range fres.Truncations {
		// Items a foreach never ran were not checked: the ledger says so
		// where the foreach ran, beside what its stages declared.
		ledger = append(ledger, coverage.Entry{Path: t.Path, Declaration: coverage.Declaration{
			Kind:       coverage.KindLedger,
			NotChecked: []coverage.Item{truncatedItem(t)},
		}})
	}
	for _, nu := range fres.NullItems {
		ledger = append(ledger, coverage.Entry{Path: nu.Path, Declaration: coverage.Declaration{
			Kind:       coverage.KindLedger,
			NotChecked: []coverage.Item{nullItemsItem(nu)},
		}})
	}
	for _, c := range fres.Continued {
		ledger = append(ledger, continuedEntry(c, m)) // continued.go
	}
	if p := r.Projection; p != nil {
		ledger = append(ledger, noRowEntries(&fres.Log, p.Key, p.Structure)...) // norow.go
	}
	rec.Coverage = m.Coverage(InLogOrder(at, ledger, func(x *coverage.Entry) *string { return &x.Path }))
	for _, w := range InLogOrder(at, slices.Clone(r.Warnings), func(x *Warning) *string { return &x.Path }) {
		rec.Warnings = append(rec.Warnings, fmt.Sprintf("stage %s: %s", w.Path, m.Text(w.Msg)))
	}
	for _, p := range fres.RecorderProblems {
		rec.Warnings = append(rec.Warnings, p.String())
	}
	rec.Truncations = fres.Truncations
	rec.Plugins = slices.Clone(r.Plugins)
	for i := range rec.Plugins {
		as := slices.Clone(rec.Plugins[i].Assumed)
		for j := range as {
			as[j].Value = m.Value(as[j].Value)
		}
		rec.Plugins[i].Assumed = as
	}
	for i := range rec.Truncations {
		rec.Truncations[i].Path = Path(rec.Truncations[i].Path)
	}

	// A copy: the ordered rows written below are for the record's JSON, and
	// fres.State must stay what the run left (plain objects), for the
	// answer checks and every later reader of it. (Masking copies already;
	// without secrets it does not.)
	state := maps.Clone(m.Value(fres.State()).(map[string]any))
	if p := r.Projection; p != nil {
		// The rows are read as the JSON the record writes of them: a Go
		// stage's []Row of structs, or []map[string]string, was no []any,
		// so its rows were neither rows nor dropped — "no verdict rows",
		// Consistent, over a row that said critical.
		if v, ok := state[p.Key]; ok {
			if n, err := jsonv.Normalize(v); err == nil {
				state[p.Key] = n
			}
		}
		rec.Verdicts = p.Project(state, r.Decisions, &fres.Log, &Behind{Scripts: rec.Scripts, Ledger: rec.Coverage})
		items := verdictItems(rec.Verdicts)
		// Only a completed run's table with no rows (dropped rows say why
		// they are not rows) is judged here: a paused run has written no
		// row yet, a failed one says why it has none.
		if fres.Status == flow.StatusCompleted && rec.Verdicts.RowsTotal == 0 && rec.Verdicts.RowsDropped == 0 {
			switch gap := declaredGap(rec.Coverage); {
			case !p.EmptyAnswer && !emptySaid(rec.Coverage):
				items = append(items, emptyItem())
			case p.EmptyAnswer && gap != "":
				// The chart's answer of none holds only over all it looked at.
				items = append(items, emptyOverGapItem(gap))
			case gap != "" && absenceSaid(rec.Coverage):
				// So does a stage's declared absence: examples/logscan found
				// no FATAL line in the live log and declared it did not read
				// the rotated ones, and the check said OK - no verdict rows,
				// where under result.empty the same run was UNKNOWN.
				items = append(items, absenceOverGapItem(gap))
			case p.EmptyAnswer && len(Unanswered(rec.Scripts)) == 0 && !leftUnchecked(rec.Coverage):
				// None found is the chart's answer only where every
				// script it rests on answered and no stage left ground
				// unchecked: over a grep that failed (exit 2, its pattern
				// read as an option) the sentence said "nothing to report"
				// beside a Not sure standing, and so it did over a folder
				// clamscan could not open.
				rec.Verdicts.EmptyAnswer = true
			}
		}
		if rec.Verdicts.Table != "" && rec.Verdicts.RowsTotal == 0 {
			rec.Verdicts.Table = rec.NoRowsTable()
		}
		if len(items) > 0 {
			rec.Coverage = append(rec.Coverage, coverage.Entry{Path: p.Key, Declaration: coverage.Declaration{
				Kind:       coverage.KindLedger,
				NotChecked: items,
			}})
		}
		if rows, ok := state[p.Key].([]any); ok {
			state[p.Key] = p.ordered(rows)
		}
	}
	if p := r.Projection; p == nil && r.Unprojected != "" && fres.Status == flow.StatusCompleted {
		if rows, ok := state[r.Unprojected].([]any); ok && len(rows) > 0 {
			rec.Coverage = append(rec.Coverage, coverage.Entry{Path: r.Unprojected, Declaration: coverage.Declaration{
				Kind:       coverage.KindLedger,
				NotChecked: []coverage.Item{unshownItem(len(rows))},
			}})
		}
	}
	rec.State = state

	if fres.Pause != nil {
		rec.Pause = &PauseRecord{Stage: Path(fres.Pause.Path), Question: m.Text(fres.Pause.Question), Expects: fres.Pause.Expects, Resume: r.Resume}
	}
	for _, l := range r.Narrative {
		rec.Narrative = append(rec.Narrative, m.Text(l))
	}
	return rec
}

// LogOrder indexes a log once: each commit's runtime path → its place.
func LogOrder(log *flow.Log) map[string]int {
	at := make(map[string]int, len(log.Commits()))
	for i, c := range log.Commits() {
		at[c.Path] = i
	}
	return at
}

// InLogOrder sorts what stages filed by where their commit sits in the log
// (stable: one stage's items keep their order), and rewrites each runtime
// path as the record shows it (Path). It sorts items in place.
func InLogOrder[T any](at map[string]int, items []T, path func(*T) *string) []T {
	sort.SliceStable(items, func(i, j int) bool {
		return at[*path(&items[i])] < at[*path(&items[j])]
	})
	for i := range items {
		p := path(&items[i])
		*p = Path(*p)
	}
	return items
}

func maskInput(m Masker, secret bool, v any) any {
	if secret {
		return Masked
	}
	// An input not declared secret may still hold one: a value the run
	// made a secret (given to a plugin's sensitive argument), masked in the
	// state and the log, must not stand in the clear here.
	return m.Value(v)
}

// The kinds of the not-checked items the record itself adds to the
// ledger (coverage.Item.Kind), so a reader can tell them from what stages
// declared.
const (
	ItemDeclined  = "declined"
	ItemDropped   = "dropped"
	ItemTruncated = "truncated"
	ItemNullItems = "null-items"
	// ItemEmpty is a verdict set with no rows, nor any dropped, of a
	// chart that did not say no rows is its answer (result.empty).
	ItemEmpty = "empty"
	// ItemUnshown is verdict rows a run wrote under a result that projects
	// none (no result: block): no table shows them, no Nagios state
	// judges them.
	ItemUnshown = "unshown"
)

// notJudged are the ledger item kinds that leave a subject unjudged: a
// branch that failed, items not run, output no value holds, lines a parse
// mode could not read (a subject on one has no row), a command that
// printed nothing but on stderr and exited 0 (its empty list is no
// answer), or said there it was refused access (what it printed is part
// of the answer), a script that wrote on stderr over a substitution bash
// does not see fail (what it printed may hold a failure's empty text), a
// pipeline that wrote on stderr and exited with a code declared an answer
// (the code may be another command's failure), a resolver that said its
// name server gave no answer (a SERVFAIL read as no such name), a
// client that printed a server's error reply (redis-cli's NOAUTH, exit 0), a
// tool that said it failed under a code declared an answer (npm audit's
// `npm error` lines under its 1), a search
// the tool said could find nothing (pgrep over a name past 15 bytes,
// journalctl over no journal), a host ssh reached that is not the one
// it knows by its key (its answer is another machine's), a signature
// gpg called good by a key revoked or expired, a finding a command wrote
// on stderr where the stdout the chart parses lists such findings (debsums'
// missing file), a code read as the answer that the tool gives over its
// findings too, beside the findings it printed (dpkg --verify's 0), an
// ldapsearch's noSuchObject whose server did not find the entry's parent
// (the base misspelt or hidden, not the entry gone), an ldapsearch's
// continuation reference (part of the tree on a server nobody asked) or
// its LDIF folded (a value read cut in two), an rsync dry run asked to
// compare owners by a user who is not root (it compares none), a ClamAV
// scan over a signature database it said is out of date (its clean is an
// old one's) or over none, or one that said it failed under an exit 0
// (|| true), a keystore piped into openssl x509 (its first certificate
// alone judged), an xfs_quota report that printed nothing (quota
// accounting off), a btrfs device missing (its counters frozen, its space
// counted free),
// jq's null where
// a value was asked for (a key misspelt reads as no value), util-linux's
// JSON tree read as a list (findmnt -J's mounts below /, lsblk -J's
// partitions), a number past 2^53 a float64 rounded before it was printed
// (jq 1.6), a plugin that declares it
// reads a scope key the scope did not hold (it answered without it), a text whose bytes the scope holds as U+FFFD (its values are
// not what was read), verdict rows dropped (in neither the rows nor the
// table), items that wrote no row, a set: key null from a member its
// object lacks (the rows judged it as no value), a table with no rows of
// a chart that did not say none is its answer ("no verdict rows" is fine
// only when the author says nothing to report is).
var notJudged = []string{ItemFailed, ItemTruncated, ItemNullItems, ItemWithheld, ItemUnparsed, ItemStderrOnly, ItemDenied, ItemNotUTF8, ItemDropped, ItemNoRow, ItemAbsentMember, ItemEmpty, ItemUnseenFailure, ItemPipedAnswer, ItemPluginReadAbsent, ItemNoDNSAnswer, ItemDigShortBlank, ItemAliasUnfollowed, ItemSearchedNothing, ItemHostUnverified, ItemJQNull, ItemTree, ItemRounded, ItemErrorReply, ItemToolError, ItemGitStderr, ItemKadminError, ItemKlistSilent, ItemPingNotAlive, ItemMdadmScanBlank, ItemXFSQuotaBlank, ItemFsckUnchecked, ItemBtrfsDeviceMissing, ItemLsblkUntyped, ItemBlkidBlank, ItemKeyNotValid, ItemFindingElsewhere, ItemCodeNotAnswer, ItemLDAPBaseUnfound, ItemLDAPReferral, ItemLDIFFolded, ItemRsyncOwners, ItemStaleSignatures, ItemNoSignatures, ItemScanFailed, ItemFirstCertificate, ItemMQTTHeardNothing}

// NotJudged says whether a ledger item of this kind leaves a subject
// unjudged: the one list a Nagios check's state (internal/gate) and the
// empty-table item (emptySaid) both read.
func NotJudged(kind string) bool { return slices.Contains(notJudged, kind) }

// emptySaid says whether the ledger already says why a verdict set may
// have no rows: a stage declared an absence (it looked and found none: a
// read: of no file is one) or an item left subjects unjudged
// (NotJudged). The empty item would only say it again. An item that left
// ground unchecked beside rows it lets stand (leavesPart) says no such
// thing.
func emptySaid(ledger []coverage.Entry) bool {
	return absenceSaid(ledger) || anyItem(ledger, NotJudged)
}

// leavesPart says whether a not-checked item of this kind leaves ground
// unchecked without unjudging the rows the run did write (so it is none of
// NotJudged's): a ClamAV scan's errors beside the files it found (each
// FOUND row stands), a coverage declaration the record could not read.
// A check is no better than UNKNOWN over it, a CRITICAL row staying
// CRITICAL (UncheckedOf's Part), and a table with no rows is no answer of
// none over it: a check of infected
// files that leaves out a vendor's known false positive said `OK - no
// verdict rows` over a folder clamscan could not open
// (TestEmptyAnswerOverScanErrorsIsNoOK).
func leavesPart(kind string) bool {
	return kind == ItemScanErrors || kind == ItemUnreadDeclaration
}

// declaredGap is the path of the first stage whose own coverage
// declaration says it left something unchecked (af_coverage's
// not_checked or cannot_cover, items of no runtime kind), or "".
func declaredGap(ledger []coverage.Entry) string {
	for _, e := range ledger {
		if len(e.CannotCover) > 0 {
			return e.Path
		}
		for _, it := range e.NotChecked {
			if it.Kind == "" {
				return e.Path
			}
		}
	}
	return ""
}

// emptyOverGapItem says a table with no rows is no answer of none though
// the chart says no rows is its answer (result.empty): a stage declared
// it did not check part of what it looked at, and the rows it would have
// written are not there to hold a state. A check of long transactions,
// its role blind to other roles' xact_start, said OK over one a day old.
func emptyOverGapItem(stage string) coverage.Item {
	return coverage.Item{
		What: "any subject",
		Why:  "the run wrote no verdict row, and no rows is this chart's answer (result.empty) only over all it looked at: stage " + strconv.Quote(stage) + " declared it did not check part of it",
		Kind: ItemEmpty,
	}
}

// leftUnchecked says whether a not-checked item of the ledger leaves
// subjects unjudged or ground unchecked (NotJudged, leavesPart): a table
// with no rows is then no answer of none, whatever the chart says of
// none.
func leftUnchecked(ledger []coverage.Entry) bool {
	return anyItem(ledger, func(kind string) bool { return NotJudged(kind) || leavesPart(kind) })
}

// anyItem says whether a not-checked item of the ledger is of a kind
// that of says.
func anyItem(ledger []coverage.Entry, of func(kind string) bool) bool {
	for _, e := range ledger {
		for _, it := range e.NotChecked {
			if of(it.Kind) {
				return true
			}
		}
	}
	return false
}

// absenceSaid says whether a stage declared an absence (it looked and
// found none).
func absenceSaid(ledger []coverage.Entry) bool {
	for _, e := range ledger {
		if e.Kind == coverage.KindAbsence {
			return true
		}
	}
	return false
}

// absenceOverGapItem says a table with no rows is no answer of none where
// a stage declared it found none and a stage declared it did not check
// part of what it looked at (TestAbsenceOverAGapIsNoAnswerOfNone).
func absenceOverGapItem(stage string) coverage.Item {
	return coverage.Item{
		What: "any subject",
		Why:  "the run wrote no verdict row, and a declared absence (none found) holds only over all it looked at: stage " + strconv.Quote(stage) + " declared it did not check part of it",
		Kind: ItemEmpty,
	}
}

// emptyItem says a verdict set judged no subject. Its why is for the
// author: only the chart knows whether no rows means nothing is wrong.
func emptyItem() coverage.Item {
	return coverage.Item{
		What: "any subject",
		Why:  "the run wrote no verdict row, so nothing was judged; when this chart's rows are findings only (a row per failed unit) and none found is its answer, the chart says result: {empty: answer}",
		Kind: ItemEmpty,
	}
}

// nullItemsItem says a foreach checked nothing because its items were
// null, naming the expression.
func nullItemsItem(nu flow.NullItems) coverage.Item {
	return coverage.Item{
		What: "any of its items",
		Why:  fmt.Sprintf("its items expression %s was null — a key never written, or one a stage before it did not write — so no item ran", nu.Items),
		Kind: ItemNullItems,
	}
}

// unshownItem says a run wrote n verdict rows that nothing shows or
// judges: a chart with verdict stages and no result: block printed no
// table and stood Consistent, exit 0, over a row that said fail
// (cmd/runbook TestVerdictRowsWithNoResultAreNoAnswer). A chart others
// mount has no result: of its own, so the loader does not refuse it.
func unshownItem(n int) coverage.Item {
	what := fmt.Sprintf("%d verdict rows", n)
	if n == 1 {
		what = "1 verdict row"
	}
	return coverage.Item{
		What: what,
		Why:  "the chart has no result: block with a kind starting with verdict/, so no table shows them and no Nagios state judges them: add result: {kind: verdict/NAME} to the chart",
		Kind: ItemUnshown,
	}
}

// verdictItems are the ledger's not-checked items for a verdict set: one
// per group of declined rows, saying whose decision it was, and one for
// the dropped rows.
func verdictItems(vs *VerdictSet) []coverage.Item {
	var out []coverage.Item
	for _, d := range vs.DeclinedBy {
		out = append(out, declinedItem(d))
	}
	if n := vs.RowsDropped; n > 0 {
		what, why := fmt.Sprintf("%d verdict rows were dropped", n), "each was not an object with a string verdict, so it is in neither the rows nor the table"
		if n == 1 {
			what, why = "1 verdict row was dropped", "it was not an object with a string verdict, so it is in neither the rows nor the table"
		}
		out = append(out, coverage.Item{What: what, Why: why, Kind: ItemDropped})
	}
	return out
}

// declinedItem says how many rows one decision declined, and why: the
// rule's label when a rule declined them; that no rule could classify them
// only when they reached the default.
func declinedItem(d DeclinedRows) coverage.Item {
	what := fmt.Sprintf("%d verdict rows were declined", d.Rows)
	if d.Rows == 1 {
		what = "1 verdict row was declined"
	}
	var why string
	switch {
	case d.Rule != "":
		why = d.Rule
	case d.Default && d.Rows == 1:
		why = "no rule could classify it, and nothing was guessed"
	case d.Default:
		why = "no rule could classify them, and nothing was guessed"
	default:
		// No decision of the decider sent the rows there (DeclinedRows
		// with neither Rule nor Default): do not blame its rules.
		why = "no decision of the decider declined them: a stage wrote the verdict itself, or the record cannot trace the rows; nothing was guessed"
		if d.Rows == 1 {
			why = "no decision of the decider declined it: a stage wrote the verdict itself, or the record cannot trace the row; nothing was guessed"
		}
	}
	return coverage.Item{What: what, Why: why, Kind: ItemDeclined}
}

// truncatedItem says how many of a foreach's items did not run.
func truncatedItem(t flow.Truncation) coverage.Item {
	n := t.Items - t.MaxBranches
	they := "they did not run"
	if n == 1 {
		they = "it did not run"
	}
	return coverage.Item{
		What: fmt.Sprintf("%d of its %d items", n, t.Items),
		Why:  fmt.Sprintf("%s: maxBranches is %d", they, t.MaxBranches),
		Kind: ItemTruncated,
	}
}

// ownOperands is rs with each filter condition's list or object operand
// (in: [22, 443]) copied: the evidence holds the compiled filter's own
// operand, and a caller that edited a run's record
// (res.Record.Decisions[0].Rules[0].Conditions[0].Expected) edited the rule
// every later run of the chart judged by (runbook
// TestEditingAResultLeavesTheNextRunAlone). Evidence with no such operand
// is returned as it is.
func ownOperands(rs []decide.RuleEvidence) []decide.RuleEvidence {
	shared := func(v any) bool {
		switch v.(type) {
		case []any, map[string]any:
			return true
		}
		return false
	}
	var out []decide.RuleEvidence
	for i, r := range rs {
		for j, c := range r.Conditions {
			if !shared(c.Expected) {
				continue
			}
			if out == nil {
				out = slices.Clone(rs)
			}
			if &out[i].Conditions[0] == &rs[i].Conditions[0] { // not yet its own
				out[i].Conditions = slices.Clone(r.Conditions)
			}
			out[i].Conditions[j].Expected = jsonv.Copy(c.Expected)
		}
	}
	if out == nil {
		return rs
	}
	return out
}
