package rules

// Chain is filters tried in order until one matches, as a first-match
// decider tries its rules, keeping only each condition's pass mark: Pass
// over every filter tried, with two savings a decider's many rules over
// the same few keys make worth having. The key at the head of each
// condition's path is read from env once a call, not once a condition —
// a stage's reads give the same value until it commits, so the second
// read of a key is the first's — and one recover guards the whole call,
// not every filter. Build it with NewChain; it is immutable.
type Chain struct {
	// steps is every condition of every filter, in order.
	steps []chainStep
}

// chainStep is one condition as First tries it.
type chainStep struct {
	c *cond
	// slot is the index of the condition's head among the chain's
	// distinct heads; a head past chainMemo is read from env every time.
	slot uint8
	// last marks the last condition of its filter.
	last bool
	// intHead: a one-segment path against an int operand with an
	// ordering or (in)equality, which an int value answers inline.
	intHead bool
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
			c.steps = append(c.steps, chainStep{c: cd, slot: uint8(min(s, 255)), last: i == len(f.conds)-1,
				intHead: cd.fast == fastInt && len(cd.segs) == 1})
		}
	}
	if len(c.steps) > ChainConditions {
		return nil, false
	}
	return c, true
}

// First tries the filters in order, every condition of each filter tried
// read and tested as Pass does, and stops at the first filter whose
// conditions all pass: matched is its index, -1 when none did. Bit k of
// bits is the pass mark of the k-th condition tried (filter i's start
// where filter i-1's end). ok is false when a condition panicked.
func (c *Chain) First(env Env) (bits uint64, matched int, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			bits, matched, ok = 0, -1, false
		}
	}()
	var vals [chainMemo]any
	var have, present uint8
	filter, all := 0, true
	for k := range c.steps {
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
		}
		var pass bool
		if x, isInt := v.(int); isInt && st.intHead {
			pass = st.c.order.holds(cmpOrdered(x, st.c.fi))
		} else {
			pass = st.c.passHead(v, found)
		}
		if pass {
			bits |= 1 << k
		} else {
			all = false
		}
		if st.last {
			if all {
				return bits, filter, true
			}
			filter, all = filter+1, true
		}
	}
	return bits, -1, true
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
