package rules

// Chain is filters tried in order until one matches, as a first-match
// decider tries its rules, keeping only each condition's pass mark: Pass
// over every filter tried, with savings a decider's many rules over the
// same few keys make worth having. The key at the head of each
// condition's path is read from env once a call, not once a condition —
// a stage's reads give the same value until it commits, so the second
// read of a key is the first's — and one recover guards the whole call,
// not every filter. A head read as an int answers every int comparison
// on it at once, in the chain's order, so the filters after are mostly a
// test of bits. Build it with NewChain; it is immutable.
type Chain struct {
	// steps is every condition of every filter, in order.
	steps []chainStep
	// filters are the filters' step ranges and marks.
	filters []chainFilter
	// ints are, for each remembered head, its conditions that an int
	// value answers inline (intHead), and intMask their marks together.
	ints    [chainMemo][]intStep
	intMask [chainMemo]uint64
}

// chainStep is one condition as First tries it.
type chainStep struct {
	c *cond
	// slot is the index of the condition's head among the chain's
	// distinct heads; a head past chainMemo is read from env every time.
	slot uint8
	// intHead: a one-segment path against an int operand with an
	// ordering or (in)equality, which an int value answers inline.
	intHead bool
}

// chainFilter is one filter of a chain: its steps [start, end), their
// marks, and the marks of every step up to its end.
type chainFilter struct {
	start, end int
	mask, upto uint64
}

// intStep is an intHead condition as an int value answers it: its mark
// is set when the value compares with fi as the operator wants (lt, eq,
// gt: which of the three outcomes hold).
type intStep struct {
	fi         int
	mark       uint64
	lt, eq, gt bool
}

// ChainConditions bounds the conditions of a chain, all filters
// together: one bit each in First's marks.
const ChainConditions = 64

// chainMemo is how many distinct heads a call remembers.
const chainMemo = 8

// NewChain makes a chain of fs; false when a filter is nil or the
// filters hold more than ChainConditions conditions.
func NewChain(fs []*Filter) (*Chain, bool) {
	c := &Chain{}
	var heads []string
	for _, f := range fs {
		if f == nil {
			return nil, false
		}
		cf := chainFilter{start: len(c.steps)}
		for i := range f.conds {
			cd := &f.conds[i]
			h := cd.segs[0]
			s := 0
			for s < len(heads) && heads[s] != h {
				s++
			}
			if s == len(heads) {
				heads = append(heads, h)
			}
			st := chainStep{c: cd, slot: uint8(min(s, 255)), intHead: cd.fast == fastInt && len(cd.segs) == 1}
			k := len(c.steps)
			if st.intHead && s < chainMemo && k < ChainConditions {
				c.ints[s] = append(c.ints[s], intStep{fi: cd.fi, mark: 1 << k,
					lt: cd.order.holds(-1), eq: cd.order.holds(0), gt: cd.order.holds(1)})
				c.intMask[s] |= 1 << k
			}
			c.steps = append(c.steps, st)
		}
		cf.end = len(c.steps)
		if cf.end <= ChainConditions {
			cf.upto = marks(cf.end)
			cf.mask = cf.upto &^ marks(cf.start)
		}
		c.filters = append(c.filters, cf)
	}
	if len(c.steps) > ChainConditions {
		return nil, false
	}
	return c, true
}

// marks is the marks of the first n conditions.
func marks(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<n - 1
}

// First tries the filters in order, every condition of each filter tried
// read and tested as Pass does, and stops at the first filter whose
// conditions all pass: matched is its index, -1 when none did. Bit k of
// bits is the pass mark of the k-th condition tried (filter i's start
// where filter i-1's end). ok is false when a condition panicked.
//
// A head is read when the first condition tried needs it, in the order
// the conditions are tried, as Pass filter after filter reads: a filter
// never tried reads nothing. The int comparisons answered at a head's
// read for filters not yet tried are pure, and their marks are kept only
// for the filters tried.
func (c *Chain) First(env Env) (bits uint64, matched int, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			bits, matched, ok = 0, -1, false
		}
	}()
	var vals [chainMemo]any
	var have, present uint8
	var pass, known uint64 // known: the conditions pass holds the mark of
	for fi := range c.filters {
		f := &c.filters[fi]
		if f.mask&^known != 0 || f.mask == 0 {
			for k := f.start; k < f.end; k++ {
				if known&(1<<k) != 0 {
					continue
				}
				st := &c.steps[k]
				var v any
				var found bool
				switch s := st.slot; {
				case s >= chainMemo:
					v, found = head(env, st.c.segs)
				case have&(1<<s) != 0:
					v, found = vals[s], present&(1<<s) != 0
				default:
					v, found = head(env, st.c.segs)
					vals[s], have = v, have|1<<s
					if found {
						present |= 1 << s
					}
					if x, isInt := v.(int); isInt && c.intMask[s] != 0 {
						pass |= intMarks(c.ints[s], x)
						known |= c.intMask[s]
						if known&(1<<k) != 0 {
							continue
						}
					}
				}
				if st.c.passHead(v, found) {
					pass |= 1 << k
				}
				known |= 1 << k
			}
		}
		if pass&f.mask == f.mask {
			return pass & f.upto, fi, true
		}
	}
	return pass & marks(len(c.steps)), -1, true
}

// intMarks is the marks of the int comparisons on one head for the value x.
func intMarks(is []intStep, x int) uint64 {
	var m uint64
	for i := range is {
		st := &is[i]
		var holds bool
		switch {
		case x < st.fi:
			holds = st.lt
		case x > st.fi:
			holds = st.gt
		default:
			holds = st.eq
		}
		if holds {
			m |= st.mark
		}
	}
	return m
}

// head reads the first segment of a condition's path, as resolveSegs
// does.
func head(env Env, segs []string) (any, bool) {
	if env == nil || len(segs) == 0 {
		return nil, false
	}
	v, ok := env.Get(segs[0])
	if !ok {
		return nil, false
	}
	return v, true
}

// passHead is the condition's pass mark given what its path's head read:
// the rest of the path followed as resolveSegs follows it, then test, or
// passFast for the values it answers.
func (c *cond) passHead(v any, found bool) bool {
	switch {
	case !found:
	case len(c.segs) > 1:
		v, found = stepAll(v, c.segs[1:])
	default:
		if c.fast != fastNone {
			if p, done := c.passFast(v); done {
				return p
			}
		}
		v = plainNil(v)
	}
	p, _ := c.test(v, found)
	return p
}

// Trace is a chain's filters evaluated one after another with their
// evidence, each head read once, as First reads it. Build it with
// Chain.Trace; Next evaluates the next filter. It is what a decider
// whose evidence is wanted at once (a recorder asked for decisions)
// evaluates in place of filter after filter, each of which reads every
// condition's key again.
type Trace struct {
	c             *Chain
	env           Env
	vals          [chainMemo]any
	have, present uint8
	next          int
}

// Trace starts a trace of the chain over env.
func (c *Chain) Trace(env Env) Trace { return Trace{c: c, env: env} }

// Next evaluates the next filter of the chain into ev, which must hold
// exactly its conditions (Filter.Len): the Outcome Filter.EvalIn gives
// over the same env, field for field — its heads read once a trace, the
// rest of each path as resolveSegs follows it, each condition judged as
// Filter.eval judges it (cond.judge). A condition that panics panics
// here (Filter.eval turns it into the filter's error): the caller
// recovers and evaluates filter by filter, whose evidence says which.
func (t *Trace) Next(ev []ConditionEvidence) Outcome {
	f := &t.c.filters[t.next]
	t.next++
	matched := true
	for k := f.start; k < f.end; k++ {
		st := &t.c.steps[k]
		cd := st.c
		var v any
		var found bool
		switch s := st.slot; {
		case s >= chainMemo:
			v, found = head(t.env, cd.segs)
		case t.have&(1<<s) != 0:
			v, found = t.vals[s], t.present&(1<<s) != 0
		default:
			v, found = head(t.env, cd.segs)
			t.vals[s], t.have = v, t.have|1<<s
			if found {
				t.present |= 1 << s
			}
		}
		if found {
			v, found = stepAll(v, cd.segs[1:])
		}
		matched = cd.judge(&ev[k-f.start], t.env, v, found) && matched
	}
	return Outcome{Matched: matched, Conditions: ev}
}

// What a reader that kept a chain's pass marks (First's bits) and the
// values its heads read needs to tell the decision as Trace's evidence
// tells it, without building that evidence: the narrative writes a
// compact decision's sentence from these (recorder).

// Len is the number of conditions in the chain, all filters together.
func (c *Chain) Len() int { return len(c.steps) }

// Filters is the number of filters in the chain.
func (c *Chain) Filters() int { return len(c.filters) }

// Span is filter i's conditions: k from start to end (exclusive) is the
// k-th condition of the chain, bit k of First's marks.
func (c *Chain) Span(i int) (start, end int) {
	f := &c.filters[i]
	return f.start, f.end
}

// Condition is the chain's k-th condition as it was declared.
func (c *Chain) Condition(k int) Condition { return c.steps[k].c.Condition }

// Head is the scope key condition k's path starts at: the key its
// evaluation read.
func (c *Chain) Head(k int) string { return c.steps[k].c.segs[0] }

// Told is condition k as Trace's evidence tells it, given what its
// path's head read (found false: the key was missing) and the pass mark
// the decision recorded: the value at the end of its path, whether the
// path led to one, and the reason a fail carries ("" for a pass, and for
// a fail on the values alone). env answers as the decision's reads did:
// a missing key's reason names where the path found nothing.
func (c *Chain) Told(k int, env Env, head any, found, pass bool) (actual any, present bool, reason string) {
	cd := c.steps[k].c
	v := head
	if found {
		v, found = stepAll(v, cd.segs[1:])
	}
	if pass {
		return v, found, ""
	}
	if found && cd.fast != fastNone {
		if _, done := cd.passFast(v); done {
			return v, true, "" // a value fast answers fails on the values alone
		}
	}
	_, reason = cd.verdict(env, v, found)
	return v, found, reason
}

// PlainNumbers reports whether condition k judges a number (an int, or a
// float64 that is not NaN) at the end of its path on its value alone: it
// compares it with a number, so a fail carries no reason, and Told need
// not be asked for one.
func (c *Chain) PlainNumbers(k int) bool {
	f := c.steps[k].c.fast
	return f == fastInt || f == fastFloat
}
