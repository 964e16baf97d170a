package chart

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/openrunbook/runbook/internal/suggest"
	"github.com/openrunbook/runbook/rules"
)

// Settle checks a `result:` block that Go code built (runbook.New), where
// no loader read it: what the loader refuses in a chart.yaml is refused
// here in the same words, since a misspelled word would otherwise be read
// as the default (a presentation, a standing line) or leave the verdicts
// without meanings (a decider) and say nothing. deciders are the chart's
// decide stages' ids and names. A check given as its source alone (Src,
// no Expr) is compiled here: Settle sets its Expr, so the caller hands it
// a Checks slice of its own.
func (r *ResultSpec) Settle(deciders []string) error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if r.Kind == "" {
		bad("result has no kind: write one, such as verdict/posture (a kind starting with verdict/ projects the verdict rows)")
	}
	kindBad := kindProblem(r.Kind)
	if kindBad != "" {
		bad("%s", kindBad)
	}
	if r.Decider != "" && r.Kind != "" && !strings.HasPrefix(r.Kind, "verdict/") {
		if kindBad == "" {
			bad("%s", deciderKindProblem(r.Kind))
		}
	} else if r.Decider != "" && !slices.Contains(deciders, r.Decider) {
		bad("%s", deciderProblem(r.Decider, deciders))
	}
	if r.MaxRows < 0 {
		bad("result maxRows %d: write 1 or more (0: the default)", r.MaxRows)
	}
	if r.Presentation != "" && !slices.Contains(presentations, r.Presentation) {
		bad("%s", notOneOf("result presentation", r.Presentation, presentations))
	}
	if r.StandingLine != "" && !slices.Contains(standingLines, r.StandingLine) {
		bad("%s", notOneOf("result standingLine", r.StandingLine, standingLines))
	}
	if r.Empty != "" && !slices.Contains(empties, r.Empty) {
		bad("%s", notOneOf("result empty", r.Empty, empties))
	} else if r.Empty != "" && !strings.HasPrefix(r.Kind, "verdict/") {
		bad("result empty says what a verdict table with no rows is, but kind %q projects no verdict rows: use a kind starting with verdict/", r.Kind)
	}
	if len(r.Nagios) > 0 && !strings.HasPrefix(r.Kind, "verdict/") {
		bad("result nagios maps verdict words, but kind %q projects no verdict rows: use a kind starting with verdict/", r.Kind)
	}
	for _, word := range slices.Sorted(maps.Keys(r.Nagios)) {
		if s := r.Nagios[word]; !slices.Contains(NagiosStates, s) {
			bad("result nagios: verdict %q: %s", word, notAState(s))
		} else if msg := stateWordElsewhere(word, s); msg != "" {
			bad("%s", msg)
		}
	}
	if p := r.Perfdata; p != nil {
		switch {
		case !strings.HasPrefix(r.Kind, "verdict/"):
			bad("result perfdata is written by --format nagios beside its verdict counts, but kind %q projects no verdict rows: use a kind starting with verdict/", r.Kind)
		case p.Expr != nil:
		case strings.TrimSpace(p.Src) == "":
			bad("result perfdata is empty: write an expression")
		default:
			x, err := rules.Compile(p.Src)
			if err != nil {
				bad("result perfdata: expression %q does not compile: %v", p.Src, err)
			} else {
				r.Perfdata = &Check{Src: p.Src, Expr: x, Pos: p.Pos} // never the caller's
			}
		}
	}
	for i := range r.Checks {
		c := &r.Checks[i]
		if c.Expr != nil {
			continue
		}
		if strings.TrimSpace(c.Src) == "" {
			bad("result check %d is empty: write an expression", i+1)
			continue
		}
		x, err := rules.Compile(c.Src)
		if err != nil {
			bad("result check %d: expression %q does not compile: %v", i+1, c.Src, err)
			continue
		}
		c.Expr = x
	}
	return errors.Join(errs...)
}

// notOneOf says that s, written for what, is none of choices, with the
// nearest one when there is one.
func notOneOf(what, s string, choices []string) string {
	if near := suggest.Nearest(s, choices); near != "" {
		return fmt.Sprintf("%s %q is not one of %s; did you mean %q?", what, s, strings.Join(choices, ", "), near)
	}
	return fmt.Sprintf("%s %q is not one of %s", what, s, strings.Join(choices, ", "))
}

// stateWordElsewhere says what is wrong with result.nagios listing the
// verdict word under state ("" if nothing): the words ok, warning,
// critical and unknown are their own state, in any case (gate.StateOf),
// and a row reading "critical" shown as OK is a critical answer hidden.
func stateWordElsewhere(word, state string) string {
	if !slices.Contains(NagiosStates, strings.ToLower(word)) || strings.ToLower(word) == state {
		return ""
	}
	return fmt.Sprintf("result nagios lists verdict %q under %s, but %q is a check state of its own (%s): a row reading %s would be shown as %s; map the chart's own word, or write the verdict %q",
		word, state, word, strings.ToUpper(word), word, strings.ToUpper(state), state)
}

// notAState says that s is not one of NagiosStates.
func notAState(s string) string {
	if near := suggest.Nearest(s, NagiosStates); near != "" {
		return fmt.Sprintf("%q is not a check state; did you mean %q? (states: %s)", s, near, strings.Join(NagiosStates, ", "))
	}
	return fmt.Sprintf("%q is not a check state; write one of %s, each with its verdict words", s, strings.Join(NagiosStates, ", "))
}

// deciderProblem says that result.decider want names none of the chart's
// decide stages (their ids and names).
func deciderProblem(want string, names []string) string {
	if len(names) == 0 {
		return fmt.Sprintf("result decider %q: the chart has no decide stage; write the id or name of the decide stage whose branches give the verdicts their meanings, or leave decider out", want)
	}
	return fmt.Sprintf("result decider %q names no decide stage%s (the decide stages: %s)", want, nearest(want, names), strings.Join(names, ", "))
}

// kindProblem says what is wrong with a result kind that reads as a
// verdict kind misspelt ("" if nothing): verdicts/disk, verdict, Verdict/disk
// or verdict-disk does not start with verdict/, so the rows the chart's
// verdict stages write were neither shown nor judged — no table, no
// Nagios state — and the line stood Consistent over a row that said
// critical (runbook TestMisspeltVerdictKindIsRefused). A kind that is no
// verdict kind at all (status/load, report) is the chart's own.
func kindProblem(kind string) string {
	if strings.HasPrefix(kind, "verdict/") {
		return ""
	}
	lower := strings.ToLower(kind)
	if !strings.HasPrefix(lower, "verdict") {
		return ""
	}
	rest := strings.TrimLeft(strings.TrimPrefix(strings.TrimPrefix(lower, "verdict"), "s"), "/-_:.")
	if rest == "" {
		rest = "posture"
	}
	return fmt.Sprintf("result kind %q does not start with verdict/, so the verdict rows would be neither shown nor judged (no table, no Nagios state): write verdict/ and a name, such as verdict/%s", kind, rest)
}

// deciderKindProblem is the refusal of result.decider under a kind that
// projects no verdict rows: the decider gives the verdict words their
// meanings, and there would be no verdict rows to give them to.
func deciderKindProblem(kind string) string {
	return fmt.Sprintf("result decider gives the verdict words their meanings, but kind %q projects no verdict rows: use a kind starting with verdict/, such as verdict/%s", kind, kind)
}
