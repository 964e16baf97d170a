package recorder

import (
	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/rules"
)

// decision writes the condition line: every rule evaluated, with the
// evidence of each, then what was chosen.
//
//	Classify evaluated rule 1 "Nearly full": used 95 gt 90 ✓, state "ok" eq "degraded" ✗; evaluated rule 2 …; and chose at-risk.
//	Classify evaluated rule 1 …; no rule matched; fell back to the default declined ("No rule reached a verdict").
func (w *writer) decision(e *entry, s *place) {
	w.str(subject(s))
	ev := w.events.decision(e)
	if p, c, ok := w.events.compact(e); ok {
		if w.compactRules(p, c) {
			_, matched := c.Marks()
			tried := len(p.Rules())
			if matched >= 0 {
				tried = matched + 1
			}
			branch := [1]string{c.Branch(p.Rules(), p.Default())}
			def := p.Default()
			w.choice(false, branch[:], tried, matched >= 0, matched < 0 && branch[0] == def.Branch, &def)
			return
		}
		// Its reads are not all told (they always are when steps are):
		// the evidence is rebuilt from those that are.
		ev = p.Materialize(c, w.reads(w.readsBefore()))
	}
	sel := e.kind == Select || ev != nil && ev.Kind == decide.KindSelect
	branches := w.events.branches(e)
	if len(branches) == 0 && ev != nil {
		branches = ev.Chosen
	}
	matched := false
	if ev == nil {
		w.choice(sel, branches, 0, false, false, nil)
		return
	}
	for i := range ev.Rules {
		r := &ev.Rules[i]
		if i > 0 {
			w.str(";")
		}
		w.str(" evaluated rule ")
		w.int(r.Index + 1)
		if r.Label != "" {
			w.str(" ")
			w.set(appendString(w.buf, r.Label))
		}
		w.str(": ")
		w.outcome(&r.Outcome)
		matched = matched || r.Matched
	}
	fell := ev.FellThrough() && ev.Default != nil && len(branches) == 1 && branches[0] == ev.Default.Branch
	w.choice(sel, branches, len(ev.Rules), matched, fell, ev.Default)
}

// choice ends a decision's sentence with what it chose, after the rules
// it evaluated (rules of them; matched: one of them matched; fell: none
// did, and it took its default def).
func (w *writer) choice(sel bool, branches []string, rules int, matched, fell bool, def *decide.Default) {
	lead := " "
	if rules > 0 {
		lead = "; "
	}
	switch {
	case sel && len(branches) == 0:
		w.str(lead)
		if lead == "; " {
			w.str("and ")
		}
		w.str("selected no branch.")
	case sel:
		w.str(lead)
		if lead == "; " {
			w.str("and ")
		}
		w.str("selected ")
		w.list(branches)
		w.str(".")
	case fell:
		if rules > 0 {
			w.str("; no rule matched;")
		}
		w.str(" fell back to the default ")
		w.str(def.Branch)
		if def.Label != "" {
			w.str(" (")
			w.set(appendString(w.buf, def.Label))
			w.str(")")
		}
		w.str(".")
	case !matched && rules > 0:
		w.str("; no rule matched, and it chose ")
		w.list(branches)
		w.str(".")
	default:
		w.str(lead)
		if lead == "; " {
			w.str("and ")
		}
		w.str("chose ")
		w.list(branches)
		w.str(".")
	}
	w.end()
}

// outcome writes one rule's evidence: filter conditions as `key actual op
// expected ✓/✗`, an expression as its text, its inputs and its result.
func (w *writer) outcome(o *rules.Outcome) {
	switch {
	case len(o.Conditions) > 0:
		for i := range o.Conditions {
			c := &o.Conditions[i]
			if i > 0 {
				w.str(", ")
			}
			w.condition(c)
		}
		if o.Err != "" {
			w.str(" (error: ")
			w.message(o.Err)
			w.str(")")
		}
	case o.Expr != "":
		w.str(o.Expr)
		for i, in := range o.Inputs {
			if i == 0 {
				w.str(" with ")
			} else {
				w.str(", ")
			}
			w.str(in.Path)
			w.str(" = ")
			w.value(in.Value)
		}
		if o.Err != "" {
			w.str(" failed: ")
			w.message(o.Err)
			w.str(" ✗")
			return
		}
		if _, isBool := o.Result.(bool); !isBool && o.Result != nil {
			w.str(" gave ")
			w.value(o.Result)
		}
		w.mark(o.Matched)
	case o.Err != "":
		w.str("failed: ")
		w.message(o.Err)
		w.str(" ✗")
	case o.Matched:
		w.str("matched ✓")
	default:
		w.str("did not match ✗")
	}
}

func (w *writer) condition(c *rules.ConditionEvidence) {
	w.str(c.Key)
	if c.Op == rules.OpExists {
		if b, ok := c.Expected.(bool); ok && !b {
			w.str(" is absent")
		} else {
			w.str(" exists")
		}
	} else {
		if c.Present {
			w.str(" ")
			w.value(c.Actual)
		} else {
			w.str(" (missing)")
		}
		w.str(" ")
		w.str(string(c.Op))
		w.str(" ")
		w.value(c.Expected)
	}
	w.mark(c.Pass)
	if !c.Pass && c.Reason != "" {
		w.str(" (")
		w.message(c.Reason)
		w.str(")")
	}
}

func (w *writer) mark(pass bool) {
	if pass {
		w.str(" ✓")
	} else {
		w.str(" ✗")
	}
}
