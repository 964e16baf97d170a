package decide

import (
	"fmt"
	"sync"

	"github.com/openrunbook/runbook/rules"
)

// Compact is a first-match decision over filter rules kept as what it
// decided, not as its evidence: which rule matched and the pass mark of
// every condition evaluated. It holds no pointer, so a run of many
// decisions keeps no evidence for the garbage collector to scan. The
// evidence is rebuilt when a reader asks (Materialize) from the same
// values the decision read — a commit's reads — by the same code that
// builds eager evidence (Slab.Decide), and the rebuilt pass marks are held
// to the recorded ones.
type Compact struct {
	// bits holds the pass marks of the conditions evaluated, rule after
	// rule (rule i's conditions start where rule i-1's end).
	bits uint64
	// matched is the index of the rule that matched, or -1.
	matched int32
}

// Parts is the decision as two numbers, for a store that keeps it packed
// beside other fields (CompactOf makes it again).
func (c Compact) Parts() (bits uint64, matched int32) { return c.bits, c.matched }

// CompactOf is the decision Parts gave.
func CompactOf(bits uint64, matched int32) Compact { return Compact{bits: bits, matched: matched} }

// CompactConditions bounds how many conditions, all rules together, a
// compact decision holds marks for; a decider with more keeps eager
// evidence.
const CompactConditions = 64

// Compactable reports whether a decider over rs can keep compact
// decisions: every rule a filter, and at most CompactConditions
// conditions in all. An expression rule's evidence holds its result and
// inputs, which only its evaluation knows, so it stays eager.
func Compactable(rs []Rule) bool {
	n := 0
	for _, r := range rs {
		f, ok := r.When.(*rules.Filter)
		if !ok || f == nil {
			return false
		}
		n += f.Len()
	}
	return n <= CompactConditions
}

// CompactPlan is a decider's rules made ready, once, to decide compact:
// their filters chained (rules.Chain). Make it with NewCompactPlan.
type CompactPlan struct {
	rs    []Rule
	def   Default
	chain *rules.Chain
	// annex holds what readers derived from the plan once (Annex).
	annex sync.Map
}

// NewCompactPlan is the plan of a decider over rs, nil when rs is not
// Compactable.
func NewCompactPlan(rs []Rule, def Default) *CompactPlan {
	if !Compactable(rs) {
		return nil
	}
	fs := make([]*rules.Filter, len(rs))
	for i, r := range rs {
		fs[i] = r.When.(*rules.Filter)
	}
	chain, ok := rules.NewChain(fs)
	if !ok {
		return nil
	}
	return &CompactPlan{rs: rs, def: def, chain: chain}
}

// Decide is Decide without evidence: the rules are tried in order, every
// condition of each rule tried reads its key through env as Decide's
// evaluation does (each key once), and the first rule whose conditions
// all pass gives the branch (the default's when none does). ok is false
// when a predicate panicked; the caller then uses Decide, whose evidence
// says so.
func (p *CompactPlan) Decide(env rules.Env) (c Compact, branch string, ok bool) {
	bits, matched, ok := p.chain.First(env)
	if !ok {
		return Compact{}, "", false
	}
	c.bits, c.matched = bits, int32(matched)
	if matched >= 0 {
		return c, p.rs[matched].Then, true
	}
	return c, p.def.Branch, true
}

// Evidence is Slab.Decide's evidence of the plan's decider over env, the
// same in every field, built from one read of each key (rules.Trace):
// filter after filter reads every condition's key again, and every
// decider of a run a recorder watches (the record's harvest is one)
// gives its evidence at once. A condition that panics is evaluated again
// filter by filter (Slab.Decide), whose evidence says which.
func (p *CompactPlan) Evidence(s *Slab, env rules.Env) (ev *Evidence) {
	if ev, ok := p.trace(s, env); ok {
		return ev
	}
	return s.Decide(env, p.rs, p.def)
}

func (p *CompactPlan) trace(s *Slab, env rules.Env) (ev *Evidence, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			ev, ok = nil, false
		}
	}()
	t := p.chain.Trace(env)
	return s.decide(p.rs, p.def, func(re *RuleEvidence, i int) bool {
		r := &p.rs[i]
		n := r.When.(*rules.Filter).Len()
		re.Index, re.Label, re.Then = i, r.Label, r.Then
		re.Outcome = t.Next(s.conds[:n:n])
		s.conds = s.conds[n:]
		return re.Matched
	}), true
}

// Branch is the branch the decision chose.
func (c Compact) Branch(rs []Rule, def Default) string {
	if c.matched >= 0 {
		return rs[c.matched].Then
	}
	return def.Branch
}

// Materialize rebuilds the decision's evidence from env, which must answer
// with the values the decision read (a commit's reads): the evidence
// Decide gives, the same in every field. When the rebuilt pass marks or
// choice differ from the recorded ones — a value changed in place after it
// was read, which the scope's contract forbids — the evidence does not
// pass off the new reading as the decision: every rule whose marks differ
// carries an error saying so, and Chosen stays what the run took.
func (p *CompactPlan) Materialize(c Compact, env rules.Env) *Evidence {
	var s Slab
	ev := p.Evidence(&s, env)
	rs, def := p.rs, p.def
	at := 0
	for i := range ev.Rules {
		re := &ev.Rules[i]
		n := rs[re.Index].When.(*rules.Filter).Len()
		want := (c.bits >> at) & (1<<n - 1)
		if n >= 64 {
			want = c.bits >> at
		}
		at += n
		if rules.PassBits(re.Outcome) != want || re.Matched != (int32(re.Index) == c.matched) {
			re.Err = fmt.Sprintf("the evidence rebuilt from this decision's reads differs from what the run decided (a value read was changed in place after the read); the run took %s", c.Branch(rs, def))
			re.Matched = int32(re.Index) == c.matched
		}
	}
	ev.Chosen[0] = c.Branch(rs, def)
	return ev
}

// Rules is the plan's rules, in order; Default its default. A reader
// telling a compact decision (the narrative) reads their labels and
// branches here; neither may be changed.
func (p *CompactPlan) Rules() []Rule { return p.rs }

// Default is the plan's default.
func (p *CompactPlan) Default() Default { return p.def }

// Chain is the plan's filters chained: condition k of the chain is bit k
// of a compact decision's marks (Compact.Marks).
func (p *CompactPlan) Chain() *rules.Chain { return p.chain }

// Marks is the decision's pass marks (bit k: the chain's k-th condition
// passed) and the rule that matched, -1 when none did. The conditions
// marked are those of the rules tried: every rule up to the one that
// matched, or every rule.
func (c Compact) Marks() (bits uint64, matched int) { return c.bits, int(c.matched) }

// Annex is the value build made of the plan the first time a reader
// asked with key; every later call with key returns that value, from any
// goroutine. A reader's fixed words for a decider (the narrative's text
// of each rule and condition) are so made once a chart, not once a
// decision. key must be comparable, and of the reader's own type, so
// that two readers never share a value.
func (p *CompactPlan) Annex(key any, build func(*CompactPlan) any) any {
	if v, ok := p.annex.Load(key); ok {
		return v
	}
	v, _ := p.annex.LoadOrStore(key, build(p))
	return v
}
