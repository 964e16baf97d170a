package gate

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/record"
)

// State is a Nagios check state; its value is the plugin API's exit code.
type State int

// The check states, valued as the plugin API's exit codes.
const (
	OK       State = 0
	Warning  State = 1
	Critical State = 2
	Unknown  State = 3
)

// String is the state as a check's first line writes it: OK, WARNING,
// CRITICAL, UNKNOWN.
func (s State) String() string {
	switch s {
	case OK:
		return "OK"
	case Warning:
		return "WARNING"
	case Critical:
		return "CRITICAL"
	}
	return "UNKNOWN"
}

// ParseState reads a state word of chart.NagiosStates (ok, warning,
// critical, unknown).
func ParseState(word string) (State, bool) {
	for i, w := range chart.NagiosStates {
		if w == word {
			return State(i), true
		}
	}
	return Unknown, false
}

// rank orders states worst last: OK < UNKNOWN < WARNING < CRITICAL.
func (s State) rank() int {
	switch s {
	case OK:
		return 0
	case Unknown:
		return 1
	case Warning:
		return 2
	}
	return 3
}

// Worse is the worse of a and b (see the package doc for the order).
func Worse(a, b State) State {
	if b.rank() > a.rank() {
		return b
	}
	return a
}

// Mapping is verdict word → state, read from result.nagios.
type Mapping map[string]State

// MappingOf reads a chart's result.nagios (nil spec or none written: an
// empty mapping, so every word is judged by the defaults).
func MappingOf(spec *chart.Spec) Mapping {
	m := Mapping{}
	if spec == nil || spec.Result == nil {
		return m
	}
	for word, state := range spec.Result.Nagios {
		if s, ok := ParseState(state); ok {
			m[word] = s
		}
	}
	return m
}

// CheckOf is the record of a run of spec as a Nagios check: Judge under
// the chart's result.nagios, then Unlabelled. `runbook exec -o nagios`
// and a chart test's expect nagios: both ask it.
func CheckOf(spec *chart.Spec, rec *record.Record) Check {
	c := Judge(rec, MappingOf(spec))
	c.Unlabelled(spec, rec)
	return c
}

// Unlabelled judges c, a check of a completed run of spec, by what its
// record cannot hold: when the chart starts processes (exec or plugin
// stages) with the label honesty stage off (honesty: leaves it out), no
// script's outcome is on the record — one not installed, timed out or
// killed reads as one that answered — so the check cannot say its rows
// rest on answers: it is no better than UNKNOWN (Check.NoScripts).
func (c *Check) Unlabelled(spec *chart.Spec, rec *record.Record) {
	if spec == nil || rec == nil || rec.Status != "completed" || spec.HonestyOn(chart.HonestyLabel) || !spec.RunsScripts() {
		return
	}
	c.NoScripts = true
	c.Raise(Unknown, "UNKNOWN: the chart turns the label honesty stage off (honesty:), so no script's outcome is on the record: the rows may rest on a script that never answered")
}

// StateOf is a verdict word's state, and whether the word had one of its
// own (false: it is Unknown because nothing maps it). A state word is its
// state in any case: a Nagios user's row reading "CRITICAL" was a word
// nothing mapped, UNKNOWN, and a check beside a row mapped to warning
// exited WARNING over it.
func (m Mapping) StateOf(word string) (State, bool) {
	if s, ok := m[word]; ok {
		return s, true
	}
	return ParseState(strings.ToLower(word))
}

// Check is a record judged as a check.
type Check struct {
	State State
	// Words are the verdict words over every row, shown and hidden: worst
	// state first, then in the order the rows first have them.
	Words []Word
	// Unmapped lists the words that have no state of their own, in Words
	// order: each is Unknown.
	Unmapped []string
	// NoProjection says the chart projects no verdict rows (result.kind is
	// not verdict/…): there is nothing to judge.
	NoProjection bool
	// Unanswered are the scripts whose last attempt gave no answer
	// (assessment.ScriptReason: not started, timed out, killed, a failure
	// the chart did not declare an answer, or an answer of unknown), in
	// the order they first ran. The rows rest on what those scripts did
	// not say, so the check is no better than UNKNOWN.
	Unanswered []Script
	// Unchecked are the ledger's items of subjects the run never judged:
	// a stage that failed under onError: continue (record.ItemFailed),
	// foreach items past maxBranches (record.ItemTruncated), a foreach
	// whose items were null (record.ItemNullItems), a text past the output
	// cap (record.ItemWithheld), lines a parse mode could not read
	// (record.ItemUnparsed), a command that wrote only on stderr and
	// exited 0 (record.ItemStderrOnly) or said there it was refused
	// access (record.ItemDenied), a text that is not UTF-8 and reached
	// the scope altered (record.ItemNotUTF8), verdict rows dropped from the table
	// (record.ItemDropped), a set: key null from a member its object
	// lacks (record.ItemAbsentMember), a verdict set with no rows of a
	// chart that did not say none is its answer (record.ItemEmpty), a
	// read: that found no file (record.FoundNoFile:
	// a glob's [] is every subject a foreach over it judges), a period a
	// stage was asked about that its source did not hold whole
	// (record.UncheckedOf). The rows say nothing of those subjects, so the
	// check is no better than UNKNOWN.
	Unchecked []Unchecked
	// RuleErrors are the decider rules the run could not evaluate
	// (record.RuleErrors: an expression's run-time error, a filter
	// condition that could not judge its value, a filter key no decision
	// found), each counted as no match. A row decided past one rests on a
	// rule that never judged (a default taken because "50 kB" cannot be
	// compared with 100000), so the check is no better than UNKNOWN.
	RuleErrors []assessment.ErroredRule
	// ChecksFailed: an answer check the chart declares (result.checks) did
	// not pass or could not be evaluated (the standing's check-failed):
	// the rows are not an answer the chart stands by, so the check is no
	// better than UNKNOWN. The standing line names the checks.
	ChecksFailed bool
	// NoScripts: the run started processes with the label honesty stage
	// off, so whether they answered is on no record (Unlabelled).
	NoScripts bool
	// Stopped are, for a run with no finished answer (failed, cancelled,
	// paused), the scripts whose last run answered with a word that is a
	// WARNING or CRITICAL state (a Nagios plugin's exit 1 or 2 under
	// exitCodes: nagios), in the order they first ran: a plugin that
	// answered CRITICAL before a later one timed out is said, though no
	// row may judge it. They leave the state as it is: what the chart
	// would have made of them is not on the record.
	Stopped []Script
	// Failed are, for a run that failed, the scripts whose last run gave
	// no answer before it (as Unanswered), the stage the run failed at
	// left out, since the summary names it: the sshd check run as a user
	// failed at a set: reading sshd -T's empty output, and the check said
	// that read (`conf has no member "permitrootlogin"`) and no word of
	// sshd's "no hostkeys available". They leave the state as it is.
	Failed []Script
	// Notes are what else made the state no better than it is (Raise).
	Notes []string
	m     Mapping
}

// StateOf is a verdict word's state under the mapping the check was
// judged with.
func (c Check) StateOf(word string) State {
	s, _ := c.m.StateOf(word)
	return s
}

// RowState is the state of a row whose verdict is word: the word's state
// (StateOf), no better than UNKNOWN when the row rests on what the run did
// not judge (unjudged: its record.UnjudgedRow, nil for none). A host ssh
// never reached, whose default wrote "ok", is no OK row; a "critical"
// default stays CRITICAL. Such a row always makes the check not Judged
// (its script, item or rule is among Unanswered, Unchecked, RuleErrors),
// so the check's state is never better than its rows'.
func (c Check) RowState(word string, unjudged *record.UnjudgedRow) State {
	s := c.StateOf(word)
	if unjudged != nil {
		s = Worse(s, Unknown)
	}
	return s
}

// Word is one verdict word's count.
type Word struct {
	Word  string
	State State
	Rows  int
	// Subjects are the word's rows' subjects (the render law's cell text
	// of each row's "subject"), in row order, rows without one skipped.
	Subjects []string
}

// Judge is the record as a check, under the chart's mapping m.
func Judge(rec *record.Record, m Mapping) Check {
	c := Check{m: m}
	at := map[string]int{}
	for _, row := range Rows(rec) {
		w, _ := row["verdict"].(string)
		i, seen := at[w]
		if !seen {
			s, _ := m.StateOf(w)
			i = len(c.Words)
			at[w] = i
			c.Words = append(c.Words, Word{Word: w, State: s})
		}
		c.Words[i].Rows++
		if sub, ok := row["subject"]; ok && sub != nil && sub != "" {
			c.Words[i].Subjects = append(c.Words[i].Subjects, record.CellText(sub))
		}
	}
	// Worst first, keeping first-seen order within a state.
	sort.SliceStable(c.Words, func(i, j int) bool { return c.Words[i].State.rank() > c.Words[j].State.rank() })
	for _, w := range c.Words {
		if _, own := m.StateOf(w.Word); !own {
			c.Unmapped = append(c.Unmapped, w.Word)
		}
	}
	c.State = OK
	for _, w := range c.Words {
		c.State = Worse(c.State, w.State)
	}
	switch {
	case rec == nil || rec.Status != "completed":
		// No finished answer: no better than UNKNOWN, but a row the run
		// wrote before it stopped keeps a worse state — a users check's
		// CRITICAL row said UNKNOWN because a later check timed out.
		c.State = Worse(c.State, Unknown)
		if rec != nil {
			c.Stopped = answeredWorse(rec.Scripts, m)
		}
		if rec != nil && rec.Status == "failed" {
			for _, sc := range unanswered(rec.Scripts) {
				if rec.Error == nil || sc.Path != rec.Error.Stage {
					c.Failed = append(c.Failed, sc)
				}
			}
		}
	case rec.Verdicts == nil:
		c.State, c.NoProjection = Unknown, true
	default:
		c.Unanswered, c.Unchecked, c.RuleErrors = unanswered(rec.Scripts), unchecked(rec.Coverage), record.RuleErrors(rec)
		c.ChecksFailed = rec.Assessment != nil && slices.Contains(rec.Assessment.Reasons, assessment.CheckFailed)
		if !c.Judged() {
			c.State = Worse(c.State, Unknown)
		}
	}
	return c
}

// Unchecked is one ledger item of ground the run did not cover.
type Unchecked struct {
	// Path is the stage's record path (per).
	Path string
	// What and Why are the item's words ("2 of its 5 items", "they did
	// not run: maxBranches is 3").
	What, Why string
	// Empty marks the verdict table's own item (record.ItemEmpty): no row
	// at all, which no stage left out.
	Empty bool
}

// Judged says whether every row of a completed run rests on what the run
// judged: every script's last run answered, every subject was checked,
// every rule could be evaluated, the answer checks passed, and the
// scripts' outcomes are on the record. A check not judged is no better
// than UNKNOWN (Judge, Unlabelled), and its counts are not plotted (the
// Nagios perfdata): one home for both.
func (c Check) Judged() bool {
	return len(c.Unanswered)+len(c.Unchecked)+len(c.RuleErrors) == 0 && !c.ChecksFailed && !c.NoScripts
}

// Unjudged says, one phrase a kind, why the rows of a completed run are not
// all judged (Judged is false): no script's outcome on the record, the
// scripts that gave no answer, the stages that did not check everything,
// a failed answer check, the rules that could not be evaluated (a rule
// counted once however many decisions it erred in), no verdict rows where
// none is no answer, last. Empty when Judged. list writes a list of names
// (the scripts, the stages, the deciders): the one home of these phrases
// for the result record's verdicts.unjudged, what a --fail-on verdict
// condition says kept it open, and a Nagios check's summary (which caps
// its lists):
//
//	1 script gave no answer (status, behind)
//	1 stage did not check everything (per)
//	an answer check did not pass
//	2 rules could not be evaluated (Tree)
//	no verdict rows: nothing was judged
func (c Check) Unjudged(list func([]string) string) []string {
	if c.Judged() {
		return nil
	}
	var parts []string
	if c.NoScripts {
		parts = append(parts, "no script's outcome is on the record (the label honesty stage is off)")
	}
	if n := len(c.Unanswered); n > 0 {
		paths := make([]string, n)
		for i, u := range c.Unanswered {
			paths[i] = u.Path
		}
		parts = append(parts, fmt.Sprintf("%d %s gave no answer (%s)", n, plural(n, "script", "scripts"), list(paths)))
	}
	var stages []string
	empty := false
	for _, u := range c.Unchecked {
		switch {
		case u.Empty:
			empty = true // said last: no stage left it out
		case !slices.Contains(stages, u.Path):
			stages = append(stages, u.Path)
		}
	}
	if n := len(stages); n > 0 {
		parts = append(parts, fmt.Sprintf("%d %s did not check everything (%s)", n, plural(n, "stage", "stages"), list(stages)))
	}
	if c.ChecksFailed {
		parts = append(parts, "an answer check did not pass")
	}
	if len(c.RuleErrors) > 0 {
		// A rule is counted once however many errors it had: each
		// decision of a rule over now() or over objects with other
		// members says its own words, and "7 rules" was one rule.
		var deciders, rules []string
		for _, re := range c.RuleErrors {
			if !slices.Contains(deciders, re.Decider) {
				deciders = append(deciders, re.Decider)
			}
			if r := fmt.Sprintf("%s\x00%d", re.Decider, re.Rule); !slices.Contains(rules, r) {
				rules = append(rules, r)
			}
		}
		n := len(rules)
		parts = append(parts, fmt.Sprintf("%d %s could not be evaluated (%s)", n, plural(n, "rule", "rules"), list(deciders)))
	}
	if empty {
		parts = append(parts, NothingJudged)
	}
	return parts
}

// NothingJudged is Unjudged's phrase for a verdict table with no rows
// where none is no answer.
const NothingJudged = "no verdict rows: nothing was judged"

// JoinNames is a list of names as Unjudged writes one in full.
func JoinNames(names []string) string { return strings.Join(names, ", ") }

// unchecked lists the ledger's items of subjects never judged, in ledger
// order, as record.UncheckedOf reads each entry.
func unchecked(ledger []coverage.Entry) []Unchecked {
	var out []Unchecked
	for _, e := range ledger {
		for _, it := range record.UncheckedOf(e) {
			out = append(out, Unchecked{Path: e.Path, What: it.What, Why: it.Why, Empty: it.Empty})
		}
	}
	return out
}

// Script is a script row as a check names it.
type Script struct {
	// Path is the row's record path (per-volume~2/df).
	Path string
	// Said is how the row says its outcome (label.Row.Said: "completed
	// with failure, exit 127", "outcome unknown: timed out after 2s").
	Said string
	// Words is the end of what the script wrote on stderr, as its row
	// keeps it (masked): why it gave no answer, in its own words ("Operation
	// not permitted (you must be root)"); or, when it wrote nothing there,
	// the end of its stdout (OnStdout; record.OwnWords); "" when it wrote
	// neither.
	Words    string
	OnStdout bool
}

// answeredWorse lists the scripts whose last attempt answered with a word
// that is a WARNING or CRITICAL state under m, as a row of that word
// would be (Check.Stopped).
func answeredWorse(rows []label.Row, m Mapping) []Script {
	var out []Script
	for _, r := range record.LastAttempts(rows) {
		if s, ok := m.StateOf(r.Answer); ok && r.Answered() && (s == Warning || s == Critical) {
			out = append(out, Script{Path: r.Path, Said: r.Said()})
		}
	}
	return out
}

// unanswered lists the scripts whose last attempt gave no answer. Only the
// last attempt of a path counts: a retry that recovered is what the rows
// rest on, and a later attempt's answer replaces an earlier one's failure.
func unanswered(rows []label.Row) []Script {
	var out []Script
	for _, r := range record.Unanswered(rows) {
		sc := Script{Path: r.Path, Said: r.Said()}
		if r.Ran != nil {
			sc.Words, sc.OnStdout = record.OwnWords(r.Ran.StderrTail, r.Ran.StdoutTail)
		}
		out = append(out, sc)
	}
	return out
}

// Raise makes the check no better than s, for the reason note (a record
// that could not be written leaves an OK check UNKNOWN). A worse state
// stays as it is: a lost record does not make a critical answer less so.
func (c *Check) Raise(s State, note string) {
	c.State = Worse(c.State, s)
	c.Notes = append(c.Notes, note)
}

// Rows are every verdict row of rec, shown and hidden, in order: the
// entries of the final state's verdict list that the projection counts as
// rows (objects with a string verdict; record.Projection.Project). A row
// is a record.Row in a record just assembled, a plain object in one read
// from JSON.
func Rows(rec *record.Record) []map[string]any {
	if rec == nil || rec.Verdicts == nil {
		return nil
	}
	list, _ := rec.State[chart.VerdictsKey].([]any)
	var out []map[string]any
	for _, item := range list {
		var m map[string]any
		switch v := item.(type) {
		case record.Row:
			m = v.Values
		case map[string]any:
			m = v
		}
		if _, ok := m["verdict"].(string); ok {
			out = append(out, m)
		}
	}
	return out
}
