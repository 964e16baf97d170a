package record

import (
	"fmt"
	"sort"
	"strings"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/label"
)

// UnjudgedRow is one verdict row that rests on what the run did not
// judge: its word is no answer of it. A foreach item whose ssh exited 255
// left its decider's rule reading nothing, and the default wrote the row
// "ok": the run said it was not sure, the row itself read as any healthy
// host's (wave-fleet).
type UnjudgedRow struct {
	// Row is the row's place among the rows, from 0: verdicts.rows[row].
	Row int `json:"row"`
	// Subject is the row's subject, when it has one.
	Subject any `json:"subject,omitempty"`
	// Why says, one phrase each, what the row rests on that the run did
	// not judge (Behind's phrases).
	Why []string `json:"why"`
}

// NotJudgedMark is what the render law writes after the verdict cell of
// a row that rests on what the run did not judge (UnjudgedRow).
const NotJudgedMark = " (not judged)"

// Said is the row's line under a table: `row 2 (gone) is not judged:
// script per-host~1/state completed with failure, exit 255`.
func (u UnjudgedRow) Said() string {
	row := fmt.Sprintf("row %d", u.Row+1)
	if u.Subject != nil && u.Subject != "" {
		row += " (" + CellText(u.Subject) + ")"
	}
	return row + " is not judged: " + u.WhyText()
}

// WhyText is Why as one phrase list: `script per-host~1/state completed
// with failure, exit 255; rule 1 ("Stopped") of decider State could not
// be evaluated`.
func (u UnjudgedRow) WhyText() string { return strings.Join(u.Why, "; ") }

// Behind is what a run left that a verdict row may rest on without being
// judged, as the record holds it (record paths, masked): its script rows
// and its coverage ledger. Projection.Project reads it to mark the rows.
type Behind struct {
	Scripts []label.Row
	Ledger  []coverage.Entry
}

// A row rests on what the run did not judge — the ONE rule, read for
// each row from the log (flow.Explainer.Rows: the commit that appended
// it, the decisions that routed it, what they read):
//
//	a script whose last attempt gave no answer   in the row's branch
//	(Unanswered: not started, timed out, a       (the foreach item or fork
//	failure the chart did not declare an answer) branch that wrote it, one
//	                                             inside it, or one it is in),
//	a ledger item that leaves a subject          or whose value the row's own
//	unjudged (UncheckedOf)                       stage or a decision on its
//	                                             route read
//	a rule a decision on the row's route could   that decision routed it by a
//	not evaluate before it chose (Route.Errored) later rule or its default
//	an earlier row that is not judged            that row's stage is in what
//	(rowNotJudged)                               the row read was made from
//
// Stages of the root scope mark only the rows that read them (directly,
// or through a routing decision) or a value made from them: a foreach
// item is an element of what the foreach read, a set: key is made of
// what its expression read (flow.Lineage walks both; computes says which
// stages it walks through). A root script nothing a row read was made
// from is said of the run (verdicts.unjudged), not of each row. A row
// written at the root, by a stage no decision routed, that read no such
// value, is never marked. A rule error is never matched by place: only
// the route. A foreach's own gap (ForeachOwn: items it did not run,
// items that wrote no row, a null list) is matched as a root stage's is,
// wherever the foreach is: by what a row read, never by its branch.
type unjudging struct {
	byPath   map[string][]string // a record path → its phrases
	branches []branchPhrases     // sorted by branch
}

type branchPhrases struct {
	branch  string // the branch's display path (`per-host~1`)
	phrases []string
}

// newUnjudging indexes what b holds that leaves rows unjudged; nil when
// it holds nothing.
func newUnjudging(b *Behind) *unjudging {
	if b == nil {
		return nil
	}
	u := &unjudging{byPath: map[string][]string{}}
	inBranch := map[string][]string{} // the phrases the branch rule matches too
	add := func(path, phrase string, branch bool) {
		u.byPath[path] = append(u.byPath[path], phrase)
		if branch {
			inBranch[path] = append(inBranch[path], phrase)
		}
	}
	for _, r := range Unanswered(b.Scripts) {
		add(r.Path, "script "+r.Path+" "+r.Said(), true)
	}
	for _, e := range b.Ledger {
		for _, it := range UncheckedOf(e) {
			if !it.Empty && !it.Part {
				// a foreach's own gap is matched by what a row read alone
				add(e.Path, e.Path+" did not check "+it.What, !it.Foreach)
			}
		}
	}
	if len(u.byPath) == 0 {
		return nil
	}
	at := map[string]int{}
	for path, phrases := range inBranch {
		pos, err := flow.ParsePath(path)
		if err != nil {
			continue
		}
		br := branchOf(pos.Scope)
		if br == "" {
			continue // the root: matched by what a row read alone
		}
		i, ok := at[br]
		if !ok {
			i = len(u.branches)
			at[br] = i
			u.branches = append(u.branches, branchPhrases{branch: br})
		}
		u.branches[i].phrases = append(u.branches[i].phrases, phrases...)
	}
	sort.Slice(u.branches, func(i, j int) bool { return u.branches[i].branch < u.branches[j].branch })
	for i := range u.branches {
		sort.Strings(u.branches[i].phrases) // map order: the same words every run
	}
	return u
}

// rowNotJudged files row r, appended by the commit at runtime path
// origin, as not judged, so that a row made from it (a set: key counting
// the verdict rows, a decision reading it) is not judged either: a
// cluster row counting the nodes that said primary said one-primary,
// unmarked, beside a node it could not reach.
func (u *unjudging) rowNotJudged(origin string, r int, subject any) {
	if origin == "" {
		return
	}
	row := fmt.Sprintf("row %d", r+1)
	if subject != nil && subject != "" {
		row += " (" + CellText(subject) + ")"
	}
	path := Path(origin)
	u.byPath[path] = append(u.byPath[path], row+", which it was made from, is not judged")
}

// branchOf is a scope's branch as a display path: its steps up to the
// last that is a foreach item or a fork branch ("" for none: the root,
// or subflow mounts alone).
func branchOf(scope []flow.ScopeStep) string {
	for k := len(scope); k > 0; k-- {
		if st := scope[k-1]; st.Item != nil || st.Branch != "" {
			return flow.ScopeString(scope[:k])
		}
	}
	return ""
}

// keeps says whether a commit's runtime path is one whose stage left
// something unjudged: what a row's lineage is asked for (flow.Lineage).
func (u *unjudging) keeps(runtime string) bool {
	_, ok := u.byPath[Path(runtime)]
	return ok
}

// computes says whether a stage of this structure type makes its writes
// from what it read alone, so that what they rest on is what its reads
// rest on (flow.Lineage walks through it): a set: stage. Every other
// stage gathers a fact of its own (a command's output, a file, a
// plugin's answer) or writes a row, and the walk stops there.
func computes(typ string) bool { return typ == "set" }

// rowLineage is what flow.Lineage found a row made from, among the
// stages that left something unjudged: their runtime paths, the first
// flow.LineageMost, and whether there were more.
type rowLineage struct {
	paths []string
	more  bool
}

// lineageMore is the phrase that ends a row's why when its lineage
// reached more stages than it names (flow.LineageMost).
const lineageMore = "and more stages it was made from that the run did not judge (the Scripts and Coverage parts name each)"

// why is what row t rests on that the run did not judge, each phrase
// once, in a fixed order: its branch's (the branches it is in, outer
// first, then those inside it), what it read, what that was made from
// (lineage: the runtime paths flow.Lineage found behind its reads, a
// foreach item's listing among them, and lineageMore past the first
// flow.LineageMost), its route's rule errors.
func (u *unjudging) why(t flow.RowTrace, lineage rowLineage) []string {
	var out []string
	seen := map[string]bool{}
	say := func(ps []string) {
		for _, p := range ps {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	if u != nil && t.Origin >= 0 {
		if br := branchOf(t.Scope); br != "" {
			// the branches the row's branch is in, and itself
			for k := 1; k <= len(t.Scope); k++ {
				if st := t.Scope[k-1]; st.Item == nil && st.Branch == "" {
					continue
				}
				if i, ok := u.branch(flow.ScopeString(t.Scope[:k])); ok {
					say(u.branches[i].phrases)
				}
			}
			// the branches inside it
			inner := br + "/"
			for i := sort.Search(len(u.branches), func(i int) bool { return u.branches[i].branch >= inner }); i < len(u.branches) && strings.HasPrefix(u.branches[i].branch, inner); i++ {
				say(u.branches[i].phrases)
			}
		}
		for _, w := range t.Read {
			say(u.byPath[Path(w)])
		}
		for _, w := range lineage.paths {
			say(u.byPath[Path(w)])
		}
		if lineage.more {
			say([]string{lineageMore})
		}
	}
	for _, rb := range t.Routes {
		decider := rb.Name // the stage's name, as the record names a decider
		if decider == "" {
			decider = rb.Stage
		}
		for _, r := range rb.Route.Errored {
			say([]string{ruleNotEvaluated(decider, &r)})
		}
	}
	return out
}

func (u *unjudging) branch(br string) (int, bool) {
	i := sort.Search(len(u.branches), func(i int) bool { return u.branches[i].branch >= br })
	return i, i < len(u.branches) && u.branches[i].branch == br
}

// ruleNotEvaluated is the phrase of a rule a row's route could not
// evaluate: `rule 1 ("Stopped") of decider State could not be evaluated`.
func ruleNotEvaluated(decider string, r *decide.RuleEvidence) string {
	rule := fmt.Sprintf("rule %d", decide.Number(r.Index))
	if r.Label != "" {
		rule += fmt.Sprintf(" (%q)", r.Label)
	}
	return rule + " of decider " + decider + " could not be evaluated"
}

// routesErred says whether any decision of the run had a rule it could
// not evaluate: only then can a route hold one.
func routesErred(decisions []Harvested) bool {
	for _, d := range decisions {
		for i := range d.Evidence.Rules {
			if d.Evidence.Rules[i].Errored() {
				return true
			}
		}
	}
	return false
}

// UncheckedItem is one item of a ledger entry that leaves a subject
// unjudged (UncheckedOf).
type UncheckedItem struct {
	// What and Why are the item's words.
	What, Why string
	// Empty marks the verdict table's own item (ItemEmpty): no row at
	// all, which no stage left out.
	Empty bool
	// Foreach marks a foreach's own gap (ForeachOwn): of what reads its
	// gathered value, not of the items it ran.
	Foreach bool
	// Part marks ground left unchecked beside rows that stand (a kind
	// leavesPart names: each FOUND line of a ClamAV scan with errors is a
	// signature matched): no row is marked unjudged for it, but a check is
	// no better than UNKNOWN over it, so a CRITICAL row stays CRITICAL and
	// an OK is no OK.
	Part bool
}

// ForeachOwn says whether a ledger item of this kind is a foreach's own
// gap, filed at the foreach's path: items it did not run (maxBranches),
// items that ran and wrote no row, a null items list. None is of an item
// that ran, nor of a row beside the foreach that did not read what it
// gathered: a cut inside a folder's item marked the three files it did
// stat, and the folder's count read off its own whole listing, `(not
// judged)`, while the same cut at the top level marked none (cmd/runbook
// TestForeachCutInsideAnItemLeavesTheItemsItRanJudged).
func ForeachOwn(kind string) bool {
	return kind == ItemTruncated || kind == ItemNoRow || kind == ItemNullItems
}

// UncheckedOf is the ONE reading of which items of a ledger entry leave
// a subject unjudged, in order: a read: that found no file (FoundNoFile:
// a glob's [] is every subject a foreach over it judges), each
// not-checked item of a kind NotJudged lists or leavesPart names (Part),
// and the period a stage was
// asked about that its source did not hold whole (a log check over two
// hours of a journal that held the last thirty minutes found no error in
// the ninety it never saw). A Nagios check's Unchecked (internal/gate)
// and the rows marked unjudged (Behind) both ask it.
func UncheckedOf(e coverage.Entry) []UncheckedItem {
	if what, ok := FoundNoFile(e); ok {
		return []UncheckedItem{{What: what, Why: "there is none, and a misspelled path reads the same as a host with nothing there"}}
	}
	var out []UncheckedItem
	for _, it := range e.NotChecked {
		if NotJudged(it.Kind) || leavesPart(it.Kind) {
			out = append(out, UncheckedItem{What: it.What, Why: it.Why, Empty: it.Kind == ItemEmpty, Foreach: ForeachOwn(it.Kind), Part: leavesPart(it.Kind)})
		}
	}
	if p := e.Period; p != nil && p.Verdict != coverage.Covered {
		held := ""
		if p.Held != nil {
			held = " (" + p.Held.From + " to " + p.Held.To + ")"
		}
		why := "its source could not say which period it held"
		switch p.Verdict {
		case coverage.NotHeld:
			why = "its source held none of it" + held
		case coverage.PartlyHeld:
			why = "its source held only part of it" + held
		}
		out = append(out, UncheckedItem{What: "the period it was asked about (" + p.Queried.From + " to " + p.Queried.To + ")", Why: why})
	}
	return out
}
