package decide

import (
	"fmt"

	"github.com/openrunbook/runbook/rules"
)

// Decide is first match: rules are tried in order and the first whose
// predicate matches gives the branch. The evidence lists the rules evaluated
// up to and including the match; when none matches, Chosen is def.Branch.
// The default (branch and label) is on EVERY decide evidence, matched or
// not, as a fresh copy the caller may keep or change.
//
// A predicate that errors (or panics, or is nil) is a non-match with the
// error on its evidence, and the next rule is tried: the run goes on.
// Decide does not check that branches exist; Branches lists them for the
// loader that does.
func Decide(env rules.Env, rs []Rule, def Default) Evidence {
	d := def
	ev := Evidence{Kind: KindDecide, Default: &d, Rules: make([]RuleEvidence, 0, len(rs))}
	for i, r := range rs {
		re := evalRule(env, i, r)
		ev.Rules = append(ev.Rules, re)
		if re.Matched {
			ev.Chosen = []string{r.Then}
			return ev
		}
	}
	ev.Chosen = []string{def.Branch}
	return ev
}

// Select evaluates every rule; Chosen is the branches of the rules that
// matched, in rule order, each branch once (the first rule naming it
// places it). Zero selected is fine: Chosen is then empty (never nil, so it
// marshals as []). A predicate that errors is a non-match with the error on
// its evidence.
func Select(env rules.Env, rs []Rule) Evidence {
	ev := Evidence{Kind: KindSelect, Chosen: []string{}, Rules: make([]RuleEvidence, len(rs))}
	for i, r := range rs {
		ev.Rules[i] = evalRule(env, i, r)
		if ev.Rules[i].Matched && !contains(ev.Chosen, r.Then) {
			ev.Chosen = append(ev.Chosen, r.Then)
		}
	}
	return ev
}

// Matched returns the evidence of the rule that matched: for decide, the
// winning rule; for select, the first rule that matched. ok is false when
// no rule matched.
func (e Evidence) Matched() (RuleEvidence, bool) {
	for _, r := range e.Rules {
		if r.Matched {
			return r, true
		}
	}
	return RuleEvidence{}, false
}

// FellThrough reports whether a decision took its default branch because no
// rule matched. A selection never falls through (it has no default).
func (e Evidence) FellThrough() bool {
	if e.Kind != KindDecide {
		return false
	}
	_, ok := e.Matched()
	return !ok
}

// Branches lists the branch names the rules (and the default, when given)
// can reach: each once, in rule order, the default last. Empty names are
// left out. A loader checks them against the declared branches.
func Branches(rs []Rule, def *Default) []string {
	out := make([]string, 0, len(rs)+1)
	for _, r := range rs {
		if r.Then != "" && !contains(out, r.Then) {
			out = append(out, r.Then)
		}
	}
	if def != nil && def.Branch != "" && !contains(out, def.Branch) {
		out = append(out, def.Branch)
	}
	return out
}

// evalRule evaluates one rule; whatever goes wrong is a non-match with Err.
func evalRule(env rules.Env, i int, r Rule) (re RuleEvidence) {
	re = RuleEvidence{Index: i, Label: r.Label, Then: r.Then}
	if r.When == nil {
		re.Err = "the rule has no condition"
		return re
	}
	defer func() {
		if p := recover(); p != nil {
			re.Outcome = rules.Outcome{Err: fmt.Sprintf("the rule's predicate panicked: %v", p)}
		}
	}()
	re.Outcome = r.When.Eval(env)
	if re.Err != "" {
		re.Matched = false
	}
	return re
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
