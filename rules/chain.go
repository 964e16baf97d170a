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
	fs []*Filter
	// slot is, per condition (all filters' in order), the index of its
	// head among the chain's distinct heads; heads past chainMemo are
	// read from env every time.
	slot []uint8
}

// ChainConditions bounds the conditions of a chain, all filters
// together: one bit each in First's marks.
const ChainConditions = 64

// chainMemo is how many distinct heads a call remembers.
const chainMemo = 8

// NewChain makes a chain of fs; false when a filter is nil or the
// filters hold more than ChainConditions conditions.
func NewChain(fs []*Filter) (*Chain, bool) {
	c := &Chain{fs: fs}
	var heads []string
	for _, f := range fs {
		if f == nil {
			return nil, false
		}
		for i := range f.conds {
			h := f.conds[i].segs[0]
			s := 0
			for s < len(heads) && heads[s] != h {
				s++
			}
			if s == len(heads) {
				heads = append(heads, h)
			}
			c.slot = append(c.slot, uint8(min(s, 255)))
		}
	}
	if len(c.slot) > ChainConditions {
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
	at := 0
	for i, f := range c.fs {
		all := true
		for j := range f.conds {
			cd := &f.conds[j]
			var v any
			var found bool
			switch s := c.slot[at+j]; {
			case s >= chainMemo:
				v, found = head(env, cd.segs)
			case have&(1<<s) != 0:
				v, found = vals[s], present&(1<<s) != 0
			default:
				v, found = head(env, cd.segs)
				vals[s], have = v, have|1<<s
				if found {
					present |= 1 << s
				}
			}
			if cd.passHead(v, found) {
				bits |= 1 << (at + j)
			} else {
				all = false
			}
		}
		at += len(f.conds)
		if all {
			return bits, i, true
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
