package gate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/internal/suggest"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/record"
)

// CheckFailed is the condition that an answer check failed.
const CheckFailed = "check-failed"

// standings are the standing words a condition may name: every standing
// but known, the one answer nobody fails on.
var standings = []assessment.Standing{assessment.NotSure, assessment.Ask, assessment.NotAssessed, assessment.Consistent}

// Conditions lists the conditions --fail-on takes, for messages.
func Conditions() []string {
	var out []string
	for _, s := range standings {
		out = append(out, string(s))
	}
	return append(out, CheckFailed, "verdict=WORD[|WORD…]")
}

// Condition is one --fail-on condition: exactly one of its fields is set.
type Condition struct {
	standing    assessment.Standing
	checkFailed bool
	verdicts    []string
}

// String is the condition as written (`verdict=at-risk|filling`).
func (c Condition) String() string {
	switch {
	case c.standing != "":
		return string(c.standing)
	case c.checkFailed:
		return CheckFailed
	}
	return "verdict=" + strings.Join(c.verdicts, "|")
}

// words are the verdict words a verdict condition names: each word, and
// each run of its words as joined by `|`, since a verdict word may hold
// one — nmap's `open|filtered` (and `closed|filtered`), which a chart
// that writes nmap's state as the verdict has for a row. A row reading
// `open|filtered` met neither `open` nor `filtered`, and `--fail-on
// verdict=open|filtered` passed over it.
func (c Condition) words() []string {
	var out []string
	for i := range c.verdicts {
		for j := i; j < len(c.verdicts); j++ {
			out = append(out, strings.Join(c.verdicts[i:j+1], "|"))
		}
	}
	return out
}

// ParseConditions reads --fail-on values, each one condition or several
// joined by commas. An error names the condition it could not read and
// says what would be right.
func ParseConditions(values []string) ([]Condition, error) {
	var out []Condition
	for _, v := range values {
		for _, item := range strings.Split(v, ",") {
			c, err := parseCondition(strings.TrimSpace(item))
			if err != nil {
				return nil, err
			}
			out = append(out, c)
		}
	}
	return out, nil
}

func parseCondition(s string) (Condition, error) {
	if words, ok := strings.CutPrefix(s, "verdict="); ok {
		c := Condition{}
		for _, w := range strings.Split(words, "|") {
			if w = strings.TrimSpace(w); w == "" {
				return Condition{}, fmt.Errorf("--fail-on %q: a verdict word is empty; want verdict=WORD or verdict=WORD|WORD…, such as verdict=at-risk", s)
			}
			c.verdicts = append(c.verdicts, w)
		}
		return c, nil
	}
	if s == CheckFailed {
		return Condition{checkFailed: true}, nil
	}
	for _, st := range standings {
		if s == string(st) {
			return Condition{standing: st}, nil
		}
	}
	list := strings.Join(Conditions(), ", ")
	switch {
	case s == "":
		return Condition{}, fmt.Errorf("--fail-on: a condition is empty; want one or more of %s, joined by commas", list)
	case s == string(assessment.Known):
		return Condition{}, fmt.Errorf("--fail-on %q: known is the standing of an answer whose checks passed, the one never failed on; want one of %s", s, list)
	case strings.HasPrefix(s, "verdict") || strings.Contains(s, "="):
		return Condition{}, fmt.Errorf("--fail-on %q: want verdict=WORD[|WORD…], such as verdict=at-risk|filling", s)
	}
	words := append([]string{"verdict"}, Conditions()[:len(standings)+1]...)
	if near := suggest.Nearest(s, words); near != "" {
		if near == "verdict" {
			near = "verdict=WORD"
		}
		return Condition{}, fmt.Errorf("--fail-on %q is not a condition; did you mean %q? (conditions: %s)", s, near, list)
	}
	return Condition{}, fmt.Errorf("--fail-on %q is not a condition; want one of %s", s, list)
}

// CheckWords refuses a condition that can never hold for spec: a verdict
// condition naming a word no row of spec can
// have, when spec's words are known (chart.Spec.VerdictWords is
// complete): such a condition never holds, so a gate with a misspelled
// word (verdict=critcal) would pass every run. The error names the word,
// the nearest word the chart has, and every word it has. A nil spec (a Go
// chart) or an incomplete list refuses nothing. A chart that projects no
// verdict rows (chart.Spec.ProjectsVerdicts) refuses every verdict
// condition, whatever its verdict stages write: its rows are judged by
// nothing, so the condition would never hold.
//
// check-failed is refused the same way for a chart that declares no answer
// checks (result.checks): no check of it can fail.
func CheckWords(conds []Condition, spec *chart.Spec) error {
	if spec == nil {
		return nil
	}
	if spec.Result == nil || len(spec.Result.Checks) == 0 {
		for _, c := range conds {
			if c.checkFailed {
				return fmt.Errorf("--fail-on %s: the chart declares no answer checks (result.checks), so no check can fail and the condition would never hold; give the chart result: {checks: [...]}, or fail on the standing (not-sure)", c)
			}
		}
	}
	if !spec.ProjectsVerdicts() {
		for _, c := range conds {
			if len(c.verdicts) > 0 {
				return fmt.Errorf("--fail-on %s: the chart projects no verdict rows (its result.kind does not start with verdict/), so no row is judged and the condition would never hold; give the chart result: {kind: verdict/NAME}", c)
			}
		}
	}
	words, complete := spec.VerdictWords()
	if !complete {
		return nil
	}
	for _, c := range conds {
		named := make([]bool, len(c.verdicts)) // a word of a run the chart writes whole (open|filtered)
		for i := range c.verdicts {
			for j := i + 1; j < len(c.verdicts); j++ {
				if slices.Contains(words, strings.Join(c.verdicts[i:j+1], "|")) {
					for k := i; k <= j; k++ {
						named[k] = true
					}
				}
			}
		}
		for i, w := range c.verdicts {
			if named[i] || slices.Contains(words, w) {
				continue
			}
			has := "no verdict word"
			if len(words) > 0 {
				has = "the verdict words " + strings.Join(words, ", ")
			}
			if near := suggest.Nearest(w, words); near != "" {
				return fmt.Errorf("--fail-on %s: no row of this chart can have the verdict %q, so the condition would never hold; did you mean %q? (its verdict stages write %s)", c, w, near, has)
			}
			return fmt.Errorf("--fail-on %s: no row of this chart can have the verdict %q, so the condition would never hold (its verdict stages write %s)", c, w, has)
		}
	}
	return nil
}

// Held lists the conditions that hold for rec, each with what made it
// hold (`verdict=at-risk (2 rows)`), in the order given. A run that failed
// or was cancelled meets none: it broke, and says so by its own exit code.
//
// A verdict condition no row meets holds all the same over a completed run
// whose rows are not all judged (Check.Judged, the one judgement a Nagios
// check's UNKNOWN asks), and over a paused run, whose rows after its
// question are not written (a Nagios check's UNKNOWN too): its absence is
// not ruled out, so it is said with what kept it open
// (`verdict=dirty|behind (not ruled out: 1 script gave no answer
// (status))`). A CI gate `--fail-on verdict=dirty|behind` over a checkout
// `git status` could not read (exit 128, printing nothing) saw the default
// row "clean" and exited 0: deploy; so did a release gate over a chart
// that paused to ask for an approval nobody in CI could give.
func Held(rec *record.Record, conds []Condition) []string {
	if rec == nil || (rec.Status != "completed" && rec.Status != "paused") || len(conds) == 0 {
		return nil
	}
	standing, reasons := assessment.NotAssessed, []assessment.Reason(nil)
	if a := rec.Assessment; a != nil {
		standing, reasons = a.Standing, a.Reasons
	}
	var counts map[string]int
	open, judged := "", false // what keeps a verdict condition's absence open, judged once
	var out []string
	for _, c := range conds {
		switch {
		case c.standing != "":
			if standing == c.standing {
				out = append(out, c.String())
			}
		case c.checkFailed:
			for _, r := range reasons {
				if r == assessment.CheckFailed {
					out = append(out, c.String())
					break
				}
			}
		default:
			if counts == nil {
				counts = map[string]int{}
				for _, row := range Rows(rec) {
					w, _ := row["verdict"].(string)
					counts[w]++
				}
			}
			n, seen := 0, map[string]bool{}
			for _, w := range c.words() {
				if !seen[w] {
					n += counts[w]
					seen[w] = true
				}
			}
			switch {
			case n > 0:
				out = append(out, fmt.Sprintf("%s (%s)", c, rowsWord(n)))
			default:
				if !judged {
					open, judged = notRuledOut(rec), true
				}
				if open != "" {
					out = append(out, fmt.Sprintf("%s (not ruled out: %s)", c, open))
				}
			}
		}
	}
	return out
}

// notRuledOut says what keeps rec's rows from ruling a verdict word out,
// or "" when they rule it out: a paused run has no answer yet (the rows
// of the stages after its question are not written), and a completed
// run's rows may not all be judged (Check.Unjudged, joined).
func notRuledOut(rec *record.Record) string {
	if rec.Status == "paused" {
		at := ""
		if rec.Pause != nil {
			at = " at " + rec.Pause.Stage
		}
		return "the run is paused" + at + ", waiting for an answer: its rows are not all written"
	}
	return strings.Join(Judge(rec, nil).Unjudged(JoinNames), "; ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func rowsWord(n int) string {
	if n == 1 {
		return "1 row"
	}
	return fmt.Sprintf("%d rows", n)
}
