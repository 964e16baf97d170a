package rules

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// A chain gives what Pass gives filter after filter, stopping at the first
// that matches — with more distinct keys than a call remembers too — and
// reads each head key once a call when it has no more than that.
func TestChainIsPassFilterAfterFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for round := range 500 {
		fs, m := randomFilters(r), randomScope(r)
		chain, ok := NewChain(fs)
		if !ok {
			t.Fatalf("round %d: no chain of %d filters", round, len(fs))
		}
		env := newCountEnv(m)
		bits, matched, ok := chain.First(env)

		var wantBits uint64
		wantMatched, at := -1, 0
		for i, f := range fs {
			b, all, _ := f.Pass(mapEnv(m))
			wantBits |= b << at
			at += f.Len()
			if all {
				wantMatched = i
				break
			}
		}
		if !ok || bits != wantBits || matched != wantMatched {
			t.Fatalf("round %d on %v: First = %b, %d, %v; Pass filter after filter = %b, %d (%v)", round, m, bits, matched, ok, wantBits, wantMatched, fs)
		}
		// The heads read are those of the conditions tried, first read
		// in the order tried: a filter after the match reads nothing.
		heads := map[string]bool{}
		var tried []string
		for i, f := range fs {
			for _, c := range f.conds {
				heads[c.segs[0]] = true
				if (matched < 0 || i <= matched) && !slices.Contains(tried, c.segs[0]) {
					tried = append(tried, c.segs[0])
				}
			}
		}
		if !slices.Equal(env.order, tried) {
			t.Fatalf("round %d: read %v, want the heads tried in order %v", round, env.order, tried)
		}
		for k, n := range env.gets {
			if n != 1 && len(heads) <= chainMemo {
				t.Fatalf("round %d: %s read %d times in one call", round, k, n)
			}
		}
	}
}

// The keys, values and operators the random filters and scopes of the
// chain's tests are made of: ints, floats, text, null, a list and an
// object, so that some conditions pass, some fail, some cannot compare,
// and some paths step into an object or find nothing.
var (
	randomKeys   = []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"}
	randomValues = []any{nil, 0, 1, 5, 5.5, -2, "x", "y", true, []any{1, "x"}, map[string]any{"n": 3}, 7, -9, 5.0}
	randomOps    = []Op{OpEq, OpNe, OpGt, OpGte, OpLt, OpLte, OpIn, OpExists, OpContains}
)

// randomFilters is one to six filters of one to three random conditions.
func randomFilters(r *rand.Rand) []*Filter {
	var fs []*Filter
	for range 1 + r.IntN(6) {
		var conds []Condition
		for range 1 + r.IntN(3) {
			key := randomKeys[r.IntN(len(randomKeys))]
			if r.IntN(5) == 0 {
				key += ".n"
			}
			op := randomOps[r.IntN(len(randomOps))]
			var exp any
			switch op {
			case OpIn:
				exp = []any{randomValues[r.IntN(len(randomValues))], randomValues[r.IntN(len(randomValues))]}
			case OpExists:
				exp = r.IntN(2) == 0
			default:
				exp = randomValues[1+r.IntN(7)]
			}
			conds = append(conds, Where(key, op, exp))
		}
		f, err := NewFilter(conds...)
		if err != nil {
			continue
		}
		fs = append(fs, f)
	}
	return fs
}

// randomScope holds three keys in four, each a random value.
func randomScope(r *rand.Rand) map[string]any {
	m := map[string]any{}
	for _, k := range randomKeys {
		if r.IntN(4) > 0 {
			m[k] = randomValues[r.IntN(len(randomValues))]
		}
	}
	return m
}

// A trace gives each filter tried the Outcome EvalIn gives it, field for
// field (a missing key's reason, a comparison's refusal), filter after
// filter until one matches, and reads the keys EvalIn reads in the order
// it first reads them — each once a trace, where EvalIn reads a key for
// every condition on it.
func TestTraceIsEvalInFilterAfterFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 6))
	tracedReads, evaledReads := 0, 0
	for round := range 2000 {
		fs, m := randomFilters(r), randomScope(r)
		chain, ok := NewChain(fs)
		if !ok {
			t.Fatalf("round %d: no chain of %d filters", round, len(fs))
		}
		traced, evaled := newCountEnv(m), newCountEnv(m)
		tr := chain.Trace(traced)
		for i, f := range fs {
			got := tr.Next(make([]ConditionEvidence, f.Len()))
			want, _ := f.EvalIn(evaled, make([]ConditionEvidence, f.Len()))
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d filter %d (%v) on %v:\ntrace  %+v\nEvalIn %+v", round, i, f, m, got, want)
			}
			if want.Matched {
				break
			}
		}
		if !slices.Equal(traced.order, evaled.order) {
			t.Fatalf("round %d: the trace read %v, EvalIn %v", round, traced.order, evaled.order)
		}
		for k, n := range traced.gets {
			if n > evaled.gets[k] {
				t.Fatalf("round %d: the trace read %s %d times, EvalIn %d", round, k, n, evaled.gets[k])
			}
			tracedReads, evaledReads = tracedReads+n, evaledReads+evaled.gets[k]
		}
	}
	// the memo served where conditions shared a key (a missing key's
	// reason reads it once more, and past chainMemo heads every condition
	// reads its own)
	if tracedReads >= evaledReads {
		t.Fatalf("the trace read %d times where EvalIn read %d: its memo hardly served", tracedReads, evaledReads)
	}
}

// A condition that panics ends the call with ok false, never a mark.
func TestChainPanicIsNotAMark(t *testing.T) {
	chain, _ := NewChain([]*Filter{MustFilter(Where("a", OpEq, 1))})
	if bits, matched, ok := chain.First(panicEnv{}); ok || bits != 0 || matched != -1 {
		t.Fatalf("First on a panicking env = %b, %d, %v", bits, matched, ok)
	}
}

// A chain holds at most ChainConditions conditions, and no nil filter.
func TestChainBounds(t *testing.T) {
	many := make([]Condition, ChainConditions)
	for i := range many {
		many[i] = Where(fmt.Sprintf("k%d", i), OpGt, i)
	}
	f := MustFilter(many...)
	if _, ok := NewChain([]*Filter{f}); !ok {
		t.Error("64 conditions refused")
	}
	if _, ok := NewChain([]*Filter{f, MustFilter(Where("x", OpEq, 1))}); ok {
		t.Error("65 conditions taken")
	}
	if _, ok := NewChain([]*Filter{nil}); ok {
		t.Error("a nil filter taken")
	}
}
