package assessment

// LineVersion names the table of words this package composes lines from:
// the openings, every clause and the "more" clause. It is bumped whenever
// any word of those tables changes, and every Assessment carries the version
// its line was written in, so a reader of an old record knows which words
// it holds and can rebuild that line with the package version that owns
// them.
//
// 1: the first table.
// 2: the stopped-early clause of a run that failed at a stage.
// 3: the rule-error reason and its clause; assumed values of one owner
// share one clause ("a = 1 and b = 2 were assumed by …"); a declined
// clause names the rule that declined the rows; the dropped-rows clause;
// an unknown outcome's clause adds its cause. Every version-2 line whose
// summary holds none of these is unchanged.
// 4: declined rows no decision of the decider declined have a clause of
// their own (GapUndecided), instead of saying the decider reached no
// verdict for them.
// 5: a verdict table with no rows, of a chart that did not say no rows is
// its answer, has a clause of its own (GapEmpty). Every version-4 line
// whose summary holds none is unchanged.
const LineVersion = 5

// maxClauses is how many clauses other than assumed-value clauses a line
// prints before it says how many more the record holds.
const maxClauses = 12

// AnswerChecks is the name the answer's declared checks (result.checks)
// travel under in Assessment.Checked. It is reserved: an honesty check of
// that name in Summary.HonestyRan is passed over.
const AnswerChecks = "answer-checks"

// Standing is the answer's standing: one of the five words below, in
// precedence order.
type Standing string

// The standings, highest precedence first.
const (
	Ask         Standing = "ask"
	NotSure     Standing = "not-sure"
	Known       Standing = "known"
	Consistent  Standing = "consistent"
	NotAssessed Standing = "not-assessed"
)

// Standings returns the standings in precedence order (ask first), as a
// fresh slice.
func Standings() []Standing {
	return []Standing{Ask, NotSure, Known, Consistent, NotAssessed}
}

// Valid reports whether s is one of the five standings.
func (s Standing) Valid() bool {
	return s.Opening() != ""
}

// Opening returns the line's first words for s, em dash and space included,
// or "" when s is not a standing. The openings are fixed words.
func (s Standing) Opening() string {
	switch s {
	case Ask:
		return "Ask — "
	case NotSure:
		return "Not sure — "
	case Known:
		return "Known — "
	case Consistent:
		return "Consistent with the run's record — "
	case NotAssessed:
		return "Not assessed — "
	}
	return ""
}

// Reason is one kind of thing on the record that keeps an answer from being
// known. Any reason makes the standing not-sure (unless the run asked).
type Reason string

// The reasons, in the order their clauses are printed.
const (
	ArgumentAssumed  Reason = "argument-assumed"
	DeclaredAbsent   Reason = "declared-absent"
	CoverageGap      Reason = "coverage-gap"
	PeriodNotHeld    Reason = "period-not-held"
	PeriodPartlyHeld Reason = "period-partly-held"
	PeriodUnknown    Reason = "period-unknown"
	ScriptFailed     Reason = "script-failed"
	ScriptUnknown    Reason = "script-unknown"
	// RuleError is a decider rule whose predicate could not be evaluated:
	// it counted as no match, so the decision rests on a later rule or
	// the default for a reason nobody wrote.
	RuleError    Reason = "rule-error"
	StoppedEarly Reason = "stopped-early"
	CheckFailed  Reason = "check-failed"
)

// Reasons returns every reason in print order, as a fresh slice.
func Reasons() []Reason {
	return []Reason{
		ArgumentAssumed, DeclaredAbsent, CoverageGap,
		PeriodNotHeld, PeriodPartlyHeld, PeriodUnknown,
		ScriptFailed, ScriptUnknown, RuleError, StoppedEarly, CheckFailed,
	}
}

// Valid reports whether r is one of the reasons.
func (r Reason) Valid() bool {
	return r.rank() >= 0
}

// rank is r's place in print order, or -1 when r is not a reason.
func (r Reason) rank() int {
	for i, known := range Reasons() {
		if r == known {
			return i
		}
	}
	return -1
}

// Assessment is the answer's standing as data: what travels as
// "assessment" in the JSON result record, in every When mode.
//
// Reasons holds each reason once, in print order. Checked lists what ran:
// each honesty check from Summary.HonestyRan (Ran and Of are both 1: it ran
// once, over the whole record), then AnswerChecks when the runbook declared
// any (Of: how many were declared; Ran: how many were evaluated without an
// error). Line is the composed line (see LineOf). Version is the LineVersion
// the line was written in.
type Assessment struct {
	Version  int        `json:"version"`
	Standing Standing   `json:"standing"`
	Reasons  []Reason   `json:"reasons"`
	Checked  []CheckRun `json:"checked"`
	Line     string     `json:"line"`
}

// CheckRun is one check that ran over the record, and how much of it ran.
type CheckRun struct {
	Check string `json:"check"`
	Ran   int    `json:"ran"`
	Of    int    `json:"of"`
}

// Assess folds a run summary into the answer's standing, its reasons and
// its line. It owns the one rule, first match wins:
//
//	the summary has                                      standing
//	Paused                                               ask
//	any reason                                           not-sure
//	declared answer checks, all passed, and no reason    known
//	honesty checks ran and none fired                    consistent
//	none of the above (nothing could be checked)         not-assessed
//
// Reasons are listed whatever the standing, so a paused run keeps its
// reasons in the data and in the line. Assess reads only s, never edits
// anything, and never panics; its slices are never nil.
//
// Example: a summary whose only finding is Assumed{Name: "window", Value:
// "2h", By: "search_logs"} assesses as not-sure with reasons
// [argument-assumed] and the line
//
//	Not sure — window = "2h" was assumed by search_logs's rule, not given by you.
func Assess(s Summary) Assessment {
	a := fold(s)
	a.Line = LineOf(a, s)
	return a
}

// fold is Assess without the line.
func fold(s Summary) Assessment {
	a := Assessment{
		Version: LineVersion,
		Reasons: reasonsOf(clausesOf(s)),
		Checked: checkedOf(s),
	}
	switch {
	case s.Paused:
		a.Standing = Ask
	case len(a.Reasons) > 0:
		a.Standing = NotSure
	case len(s.Checks) > 0:
		a.Standing = Known
	case len(honestyNames(s.HonestyRan)) > 0:
		a.Standing = Consistent
	default:
		a.Standing = NotAssessed
	}
	return a
}

// sameFold reports whether a and b hold the same standing, reasons and
// checks (the line and version aside).
func sameFold(a, b Assessment) bool {
	if a.Standing != b.Standing || len(a.Reasons) != len(b.Reasons) || len(a.Checked) != len(b.Checked) {
		return false
	}
	for i := range a.Reasons {
		if a.Reasons[i] != b.Reasons[i] {
			return false
		}
	}
	for i := range a.Checked {
		if a.Checked[i] != b.Checked[i] {
			return false
		}
	}
	return true
}

// reasonsOf returns each reason the clauses carry, once, in print order.
// The clauses are already in print order.
func reasonsOf(cs []clause) []Reason {
	out := []Reason{}
	for _, c := range cs {
		if len(out) == 0 || out[len(out)-1] != c.reason {
			out = append(out, c.reason)
		}
	}
	return out
}

// checkedOf lists the checks that ran: honesty checks, then the answer's
// declared checks.
func checkedOf(s Summary) []CheckRun {
	out := []CheckRun{}
	for _, name := range honestyNames(s.HonestyRan) {
		out = append(out, CheckRun{Check: name, Ran: 1, Of: 1})
	}
	if len(s.Checks) > 0 {
		ran := 0
		for _, c := range s.Checks {
			if c.Err == "" {
				ran++
			}
		}
		out = append(out, CheckRun{Check: AnswerChecks, Ran: ran, Of: len(s.Checks)})
	}
	return out
}

// honestyNames returns the honesty checks that ran, each once, in the order
// given, without empty names and without the reserved AnswerChecks.
func honestyNames(ran []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, name := range ran {
		if name == "" || name == AnswerChecks || seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, name)
	}
	return out
}
