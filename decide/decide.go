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
	var s Slab
	return *s.Decide(env, rs, def)
}

// Select evaluates every rule; Chosen is the branches of the rules that
// matched, in rule order, each branch once (the first rule naming it
// places it). Zero selected is fine: Chosen is then empty (never nil, so it
// marshals as []). A predicate that errors is a non-match with the error on
// its evidence.
func Select(env rules.Env, rs []Rule) Evidence {
	var s Slab
	return *s.Select(env, rs)
}

// Slab keeps the evidence of many decisions in shared chunks, so that a run
// of deciders allocates per chunk rather than per decision, rule and
// condition. Slab.Decide and Slab.Select are Decide and Select, with the
// same evidence; each evidence's Default is its own copy, and its slices
// are cut to their length, so an evidence may be kept or changed without
// touching another's.
//
// A zero Slab is ready to use. It is not safe for concurrent use: give each
// goroutine its own. What it hands out stays valid after the Slab is
// dropped.
type Slab struct {
	boxes []box
	rules []RuleEvidence
	conds []rules.ConditionEvidence
	// the sizes of the last chunks made, which the next ones double
	boxChunk, condChunk int
	// first is the first decision's box: a frame that decides once (a
	// fan-out branch) allocates none
	first     box
	firstUsed bool
}

// box is one decision's evidence with the storage its pointers and slices
// need when they are small.
type box struct {
	ev     Evidence
	def    Default
	chosen [1]string
}

// slabMax bounds how large a chunk grows: past it, chunks stop doubling.
const slabMax = 512

// grow is the size of the chunk after one of size c, with room for need.
func grow(c, need int) int {
	return max(min(2*c, slabMax), need)
}

func (s *Slab) box() *box {
	if !s.firstUsed {
		s.firstUsed = true
		return &s.first
	}
	if len(s.boxes) == 0 {
		s.boxChunk = grow(s.boxChunk, 1)
		s.boxes = make([]box, s.boxChunk)
	}
	b := &s.boxes[0]
	s.boxes = s.boxes[1:]
	return b
}

// ruleRoom returns an empty slice with room for n rule evidences, and makes
// room in the condition slab for the filters among rs.
func (s *Slab) ruleRoom(rs []Rule) []RuleEvidence {
	n := len(rs)
	if cap(s.rules)-len(s.rules) < n {
		s.rules = make([]RuleEvidence, 0, grow(cap(s.rules), n))
	}
	conds := 0
	for _, r := range rs {
		if f, ok := r.When.(*rules.Filter); ok {
			conds += f.Len()
		}
	}
	if len(s.conds) < conds {
		s.condChunk = grow(s.condChunk, conds)
		s.conds = make([]rules.ConditionEvidence, s.condChunk)
	}
	return s.rules[len(s.rules):len(s.rules)]
}

// keepRules keeps rs, which ruleRoom handed out.
func (s *Slab) keepRules(rs []RuleEvidence) []RuleEvidence {
	if len(rs) == 0 {
		return []RuleEvidence{} // never nil: it marshals as []
	}
	start := len(s.rules)
	s.rules = s.rules[:start+len(rs)]
	return s.rules[start : start+len(rs) : start+len(rs)]
}

// Decide is Decide with its evidence kept in the slab.
func (s *Slab) Decide(env rules.Env, rs []Rule, def Default) *Evidence {
	return s.decide(rs, def, func(re *RuleEvidence, i int) bool { return s.evalRule(re, env, i, rs[i]) })
}

// decide is a first-match decision's evidence in the slab, rule after
// rule until one matches, each rule's evidence filled and judged by eval
// (filter after filter, Slab.Decide; one trace of the rules' keys,
// CompactPlan.Evidence).
func (s *Slab) decide(rs []Rule, def Default, eval func(re *RuleEvidence, i int) (matched bool)) *Evidence {
	b := s.box()
	b.def = def
	ev := &b.ev
	ev.Kind, ev.Default = KindDecide, &b.def
	ev.Rules = s.ruleRoom(rs)
	for i := range rs {
		ev.Rules = ev.Rules[:i+1]
		if eval(&ev.Rules[i], i) {
			b.chosen[0] = rs[i].Then
			break
		}
	}
	ev.Rules = s.keepRules(ev.Rules)
	if b.chosen[0] == "" && !ev.matched() {
		b.chosen[0] = def.Branch
	}
	ev.Chosen = b.chosen[:1:1]
	return ev
}

// matched reports whether the last rule evaluated matched (for decide, the
// only one that can).
func (e *Evidence) matched() bool {
	return len(e.Rules) > 0 && e.Rules[len(e.Rules)-1].Matched
}

// Select is Select with its evidence kept in the slab.
func (s *Slab) Select(env rules.Env, rs []Rule) *Evidence {
	b := s.box()
	ev := &b.ev
	ev.Kind, ev.Chosen = KindSelect, b.chosen[:0:1]
	ev.Rules = s.ruleRoom(rs)
	for i, r := range rs {
		ev.Rules = ev.Rules[:i+1]
		if s.evalRule(&ev.Rules[i], env, i, r) && !contains(ev.Chosen, r.Then) {
			ev.Chosen = append(ev.Chosen, r.Then)
		}
	}
	ev.Rules = s.keepRules(ev.Rules)
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

// evalRule evaluates one rule into re (zero, in the slab) and says whether
// it matched; whatever goes wrong is a non-match with Err. A filter files
// its condition evidence in the slab.
func (s *Slab) evalRule(re *RuleEvidence, env rules.Env, i int, r Rule) (matched bool) {
	re.Index, re.Label, re.Then = i, r.Label, r.Then
	if r.When == nil {
		re.Err = "the rule has no condition"
		return false
	}
	defer func() {
		if p := recover(); p != nil {
			re.Outcome = rules.Outcome{Err: fmt.Sprintf("the rule's predicate panicked: %v", p)}
			matched = false
		}
	}()
	if f, ok := r.When.(*rules.Filter); ok {
		re.Outcome, s.conds = f.EvalIn(env, s.conds)
	} else {
		re.Outcome = r.When.Eval(env).UnlessJudged()
	}
	if re.Err != "" {
		re.Matched = false
	}
	return re.Matched
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
