package assessment

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
)

// LineOf composes the standing line for a from the summary it was assessed
// from. It is the one composer: Assess calls it, and a reader rebuilding a
// saved record's line calls it too. The line is the standing's opening,
// then clauses joined by "; ", then ".":
//
//   - ask: first what the run asked ("the run paused to ask \"Which
//     host?\""), then the reason clauses, if any;
//   - not-sure: the reason clauses;
//   - known: how many declared answer checks passed;
//   - consistent: how many honesty checks ran, by name, and that this is
//     not a verification;
//   - not-assessed: that nothing could be checked.
//
// Reason clauses come in reason order, one per item of the summary (per
// assumed value, per absence, per gap, …), items of one reason in the
// summary's order. At most 12 clauses other than assumed-value clauses are
// printed, then one clause says how many more the record holds;
// assumed-value clauses are never cut and do not count toward the 12.
//
// The only values a line prints are assumed values, JSON-encoded without
// HTML escaping; a secret one is said to be hidden, and its value is never
// read. Names, expressions and the question are printed JSON-quoted, and
// free text (what a gap left out, why, a check's error) has its control
// characters turned to spaces, so the line stays one line.
//
// LineOf returns "" when a is not what s folds to (its standing, reasons
// and checks differ from Assess(s)'s) or a.Version is not LineVersion: it
// never words a standing the summary does not hold.
func LineOf(a Assessment, s Summary) string {
	f := fold(s)
	if a.Version != LineVersion || !sameFold(a, f) {
		return ""
	}
	var assumed, others []string
	for _, c := range clausesOf(s) {
		if c.reason == ArgumentAssumed {
			assumed = append(assumed, c.text)
		} else {
			others = append(others, c.text)
		}
	}

	parts := headOf(a.Standing, s)
	parts = append(parts, assumed...)
	if len(others) > maxClauses {
		more := len(others) - maxClauses
		others = append(others[:maxClauses:maxClauses], moreClause(more))
	}
	parts = append(parts, others...)
	return a.Standing.Opening() + strings.Join(parts, "; ") + "."
}

// headOf is what a standing says before any reason clause.
func headOf(st Standing, s Summary) []string {
	switch st {
	case Ask:
		if q := s.Question; q != "" {
			return []string{"the run paused to ask " + quote(q)}
		}
		return []string{"the run paused to ask for input"}
	case Known:
		if n := len(s.Checks); n != 1 {
			return []string{"all " + strconv.Itoa(n) + " declared answer checks passed"}
		}
		return []string{"the 1 declared answer check passed"}
	case Consistent:
		names := honestyNames(s.HonestyRan)
		for i, n := range names {
			names[i] = plain(n)
		}
		list := strings.Join(names, ", ")
		if len(names) == 1 {
			return []string{"1 honesty check ran (" + list + ") and found no reason for doubt",
				"this is not a verification"}
		}
		return []string{strconv.Itoa(len(names)) + " honesty checks ran (" + list + ") and none found a reason for doubt",
			"this is not a verification"}
	case NotAssessed:
		return []string{"nothing could be checked: the honesty stages were off and no answer checks were declared"}
	}
	return nil
}

// moreClause says how many clauses were left off the line.
func moreClause(n int) string {
	if n == 1 {
		return "1 more reason is in the run's record"
	}
	return strconv.Itoa(n) + " more reasons are in the run's record"
}

// clause is one reason item's words.
type clause struct {
	reason Reason
	text   string
}

// clausesOf returns one clause per reason item of s, in reason order, the
// items of one reason in the summary's order.
func clausesOf(s Summary) []clause {
	byReason := map[Reason][]string{}
	add := func(r Reason, text string) { byReason[r] = append(byReason[r], text) }

	for _, text := range assumedByOwner(s.Assumed, s.Runbook) {
		add(ArgumentAssumed, text)
	}
	for _, ab := range s.Absences {
		if ab.LookedFor == "" {
			add(DeclaredAbsent, stageRef(ab.Stage)+" declared it found nothing")
		} else {
			add(DeclaredAbsent, stageRef(ab.Stage)+" looked for "+plain(ab.LookedFor)+" and declared it found none")
		}
	}
	for _, g := range s.Gaps {
		add(CoverageGap, gapClause(g))
	}
	for _, p := range s.Periods {
		switch p.Verdict {
		case VerdictCovered:
		case VerdictNotHeld:
			add(PeriodNotHeld, stageRef(p.Stage)+" was asked for a period its source did not hold")
		case VerdictPartlyHeld:
			add(PeriodPartlyHeld, stageRef(p.Stage)+" was asked for a period its source held only in part")
		default:
			add(PeriodUnknown, stageRef(p.Stage)+" could not say which period its source held")
		}
	}
	for _, c := range scriptClauses(s.Scripts) {
		add(c.reason, c.text)
	}
	for _, re := range s.RuleErrors {
		add(RuleError, ruleErrorClause(re))
	}
	at := ""
	if s.StoppedAt != "" {
		at = " at " + stageRef(s.StoppedAt)
	}
	switch s.Stopped {
	case "":
	case StoppedCancelled:
		add(StoppedEarly, "the run was cancelled"+at+" before it finished")
	case StoppedTimedOut:
		add(StoppedEarly, "the run timed out"+at+" before it finished")
	case StoppedFailed:
		if at == "" {
			at = " at a stage"
		}
		add(StoppedEarly, "the run failed"+at+" before it finished")
	default:
		add(StoppedEarly, "the run stopped"+at+" before it finished")
	}
	for _, c := range s.Checks {
		switch {
		case c.Err != "":
			add(CheckFailed, "answer check "+quote(c.Expr)+" could not be evaluated ("+plain(c.Err)+")")
		case !c.Passed:
			add(CheckFailed, "answer check "+quote(c.Expr)+" did not pass")
		}
	}

	var out []clause
	for _, r := range Reasons() {
		for _, text := range byReason[r] {
			out = append(out, clause{reason: r, text: text})
		}
	}
	return out
}

// assumedByOwner words the assumed values, one clause per owner, owners
// in the order their first value comes: one value keeps the seed's fixed
// form, `window = "2h" was assumed by disk-triage's rule, not given by you`;
// several share it, `threshold = 90 and window = "2h" were assumed by
// disk-triage's rule, not given by you`.
func assumedByOwner(vs []Assumed, runbook string) []string {
	var owners []string
	values := map[string][]string{}
	for _, v := range vs {
		by := v.By
		if by == "" {
			by = runbook
		}
		if _, seen := values[by]; !seen {
			owners = append(owners, by)
		}
		values[by] = append(values[by], assumedValue(v))
	}
	out := make([]string, 0, len(owners))
	for _, by := range owners {
		what := values[by]
		verb := " was assumed by "
		if len(what) > 1 {
			verb = " were assumed by "
		}
		if by == "" {
			out = append(out, list(what)+verb+"a declared default, not given by you")
			continue
		}
		out = append(out, list(what)+verb+plain(by)+"'s rule, not given by you")
	}
	return out
}

// assumedValue is one assumed value's words: `window = "2h"`, or its name
// and "(value hidden)" for a secret, whose value is never read.
func assumedValue(v Assumed) string {
	name := plain(v.Name)
	if name == "" {
		name = "an unnamed value"
	}
	if v.Secret {
		return name + " (value hidden)"
	}
	if text, ok := jsonText(v.Value); ok {
		return name + " = " + text
	}
	return name + " (a value that cannot be written out)"
}

// list joins words as "a", "a and b", "a, b and c".
func list(words []string) string {
	if len(words) <= 1 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// gapClause says what a stage left out, and why when it said.
func gapClause(g Gap) string {
	what := plain(g.What)
	if what == "" {
		what = "something it did not name"
	}
	var text string
	switch g.Kind {
	case GapNotChecked:
		text = stageRef(g.Stage) + " did not check " + what
	case GapCannotCover:
		text = stageRef(g.Stage) + " could not cover " + what
	case GapDeclined:
		if rule := plain(g.Rule); rule != "" {
			// The rows' decline was a rule's decision, not a failure to
			// classify them: say whose.
			return stageRef(g.Stage) + " declined " + what + " by its rule " + quote(rule)
		}
		text = stageRef(g.Stage) + " reached no verdict for " + what
	case GapUndecided:
		// Not the decider's doing: saying it reached no verdict would
		// blame a decision that may have classified the row.
		text = what + " declined without a decision of " + stageRef(g.Stage) + " behind it"
	case GapDropped:
		text = "the verdict projection dropped " + what
	case GapEmpty:
		// The why is the author's hint (result.empty); the person reading
		// the line is told what the table does not say.
		return "the verdict table is empty: no subject was judged"
	default:
		text = stageRef(g.Stage) + " left " + what + " uncovered"
	}
	if why := plain(g.Why); why != "" {
		text += " (" + why + ")"
	}
	return text
}

// The labels (plugins/label's vocabulary) that are a reason.
const (
	labelCompletedWithFailure = "completed-with-failure"
	labelReportedFailure      = "reported-failure"
	labelCompleted            = "completed"
	labelReportedSuccess      = "reported-success"
)

// UnknownAnswer is the answer word by which a script says it could not
// tell: the Nagios plugin API's UNKNOWN (exit 3 under exitCodes: nagios),
// or any exitCodes map's "unknown". It is an answer for into.status, but
// never the ground of a Known: a check that could not determine its state
// checked nothing.
const UnknownAnswer = "unknown"

// ScriptReason is the reason a script row gives, if any: the one rule of
// which scripts gave no answer to stand on (the standing line and a Nagios
// check's state, internal/gate, both ask it). A label outside the
// vocabulary says nothing known about the outcome, so it is
// script-unknown. A failure whose exit code the chart declared an answer
// (Answer) is that answer, not a broken script: it gives no reason —
// unless the answer is UnknownAnswer, the script's own word that it could
// not tell, which gives script-unknown. So does returned: the call came
// back, but with no fact of how the code it ran ended (a code-running
// plugin that gave no Facts), and a run stood Known over it.
func ScriptReason(sc Script) (Reason, bool) {
	switch sc.Label {
	case labelCompleted, labelReportedSuccess:
		return "", false
	case labelCompletedWithFailure, labelReportedFailure:
		if sc.Answer == UnknownAnswer {
			return ScriptUnknown, true
		}
		if sc.Answer != "" {
			return "", false
		}
		return ScriptFailed, true
	}
	return ScriptUnknown, true
}

// scriptClauses are the clauses of the script rows, one per stage path
// and distinct outcome, in the order the paths first ran. A path that ran
// once is its row's clause. A path that ran several times (a retry's
// attempts, a loop's rounds) says each distinct outcome once, with how
// many of its runs had it, and, when its last run gave no reason, how
// that run ended — the run the stage's value is from:
//
//	script "poll" completed with failure, exit 1 (each of its 3 runs)
//	script "flaky" completed with failure, exit 1 (1 of its 2 runs; the last completed)
//
// A Go stage that ran several commands of its own (Script.Call) is told
// apart command by command: its first command failing and its second
// completing is no run that recovered.
//
//	command 1 of script "probe" completed with failure, exit 1
func scriptClauses(scripts []Script) []clause {
	type script struct {
		stage string
		call  int // 0 unless the stage ran more than one command of its own
	}
	calls := map[string]int{} // the highest command number of each stage
	for _, sc := range scripts {
		calls[sc.Stage] = max(calls[sc.Stage], sc.Call)
	}
	runs := map[script][]Script{}
	var order []script
	for _, sc := range scripts {
		k := script{stage: sc.Stage}
		if calls[sc.Stage] > 1 {
			k.call = sc.Call
		}
		if _, seen := runs[k]; !seen {
			order = append(order, k)
		}
		runs[k] = append(runs[k], sc)
	}
	var out []clause
	for _, k := range order {
		rows := runs[k]
		var mine []clause
		count := map[string]int{}
		for _, sc := range rows {
			r, ok := ScriptReason(sc)
			if !ok {
				continue
			}
			text := scriptClause(r, sc, k.call)
			if count[text] == 0 {
				mine = append(mine, clause{reason: r, text: text})
			}
			count[text]++
		}
		if len(rows) == 1 {
			out = append(out, mine...)
			continue
		}
		last := rows[len(rows)-1]
		var ended string
		if _, bad := ScriptReason(last); !bad {
			words := plain(last.Words)
			if words == "" {
				words = "was labelled " + quote(last.Label)
			}
			ended = "; the last " + words
		}
		for _, c := range mine {
			n := count[c.text]
			of := strconv.Itoa(n) + " of its " + strconv.Itoa(len(rows)) + " runs"
			if n == len(rows) {
				of = "each of its " + strconv.Itoa(n) + " runs"
			}
			c.text += " (" + of + ended + ")"
			out = append(out, c)
		}
	}
	return out
}

// scriptClause words a script row with the label's words the caller gave,
// or the raw label when it gave none; an unknown outcome adds its cause.
// call, when not 0, is which of its stage's commands the row is.
func scriptClause(r Reason, sc Script, call int) string {
	ref := "an unnamed script"
	if sc.Stage != "" {
		ref = "script " + quote(sc.Stage)
	}
	if call > 0 {
		ref = "command " + strconv.Itoa(call) + " of " + ref
	}
	words := plain(sc.Words)
	if words != "" {
		words += plain(sc.Killed)
	}
	if r == ScriptFailed {
		if words == "" {
			return ref + " was labelled " + quote(sc.Label)
		}
		return ref + " " + words
	}
	if sc.Answer == UnknownAnswer {
		if words == "" {
			words = "labelled " + quote(sc.Label)
		}
		return ref + " answered unknown (" + words + "): it could not determine what it checks"
	}
	if words == "" {
		words = "labelled " + quote(sc.Label)
	}
	if cause := plain(sc.Cause); cause != "" {
		words += ": " + cause
	}
	return "the run recorded no outcome for " + ref + " (" + words + ")"
}

// ruleErrorClause names the decider, the rule's number and label, and the
// error: `decider "Headroom" could not evaluate rule 2 ("Used at or above
// the threshold") and counted it as no match: invalid operation: string >= int`.
// Said is the rule error as the standing line's clause says it (`decider
// "m" could not evaluate rule 1 ("low") and counted it as no match: …`):
// the words a Nagios check's long text uses too.
func (re ErroredRule) Said() string { return ruleErrorClause(re) }

func ruleErrorClause(re ErroredRule) string {
	decider := "an unnamed decider"
	if re.Decider != "" {
		decider = "decider " + quote(re.Decider)
	}
	rule := "rule " + strconv.Itoa(re.Rule)
	if label := plain(re.Label); label != "" {
		rule += " (" + quote(label) + ")"
	}
	text := decider + " could not evaluate " + rule
	if re.Decisions > 1 {
		text += " in " + strconv.Itoa(re.Decisions) + " of its decisions and counted it as no match each time"
	} else {
		text += " and counted it as no match"
	}
	if err := plain(re.Err); err != "" {
		text += ": " + err
	}
	return text
}

// stageRef names a stage in a clause.
func stageRef(name string) string {
	if name == "" {
		return "an unnamed stage"
	}
	return "stage " + quote(name)
}

// quote writes s as a JSON string, without HTML escaping.
func quote(s string) string {
	text, _ := jsonText(s)
	return text
}

// jsonText JSON-encodes v without HTML escaping and without the encoder's
// trailing newline. ok is false when v cannot be encoded; a value whose own
// MarshalJSON panics is reported the same way, so the fold never panics.
func jsonText(v any) (text string, ok bool) {
	defer func() {
		if recover() != nil {
			text, ok = "", false
		}
	}()
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", false
	}
	return strings.TrimSuffix(b.String(), "\n"), true
}

// plain turns control characters (and the Unicode line and paragraph
// separators) into spaces, so free text keeps the line one line.
func plain(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
}
