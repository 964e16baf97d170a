package recorder

import (
	"strconv"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/rules"
)

// A decision kept compact is told from its plan's fixed words and the
// values it read, with no evidence built: the same sentence, byte for
// byte, its evidence gives (TestCompactDecisionToldAsItsEvidence holds
// the two to it). Of a decider's sentence only the values read, the pass
// marks and the reasons of a fail change from one decision to the next;
// the rest — each rule's number and label, each condition's key,
// operator and operand — is written once a chart, here, and copied.

// planText is a decider's fixed words, made once a chart (Annex).
type planText struct {
	// rules: each rule's lead, ` evaluated rule 3 "Label": `.
	rules []string
	// conds: each condition of the plan's chain, in its order.
	conds []condText
	// heads: the keys the conditions' paths start at, each once.
	heads []string
}

// condText is one condition's fixed words.
type condText struct {
	key  string
	head int // in planText.heads
	// single: the key is its path's one segment, so the value told is
	// the value read.
	single bool
	exists bool
	// numbers: a number read fails on its value alone, with no reason
	// (rules.Chain.PlainNumbers).
	numbers bool
	// tail is what follows the value, for a fail [0] and a pass [1]:
	// ` gt 95 ✗`, or for exists ` is absent ✓`.
	tail [2]string
	// op is ` gt `; expected the operand, and expLen the length of its
	// JSON: an operand longer than the narrative's width is cut as a
	// value is, at the time of writing.
	op       string
	expected any
	expLen   int
}

// textKey is the narrative's key among a plan's annexes.
type textKey struct{}

// narrativeText is the plan's fixed words, made on the first call for it.
func narrativeText(p *decide.CompactPlan) *planText {
	return p.Annex(textKey{}, buildText).(*planText)
}

func buildText(p *decide.CompactPlan) any {
	t := &planText{}
	for i, r := range p.Rules() {
		b := strconv.AppendInt([]byte(" evaluated rule "), int64(i+1), 10)
		if r.Label != "" {
			b = appendString(append(b, ' '), r.Label)
		}
		t.rules = append(t.rules, string(append(b, ": "...)))
	}
	ch := p.Chain()
	for k := range ch.Len() {
		c, head := ch.Condition(k), ch.Head(k)
		h := 0
		for h < len(t.heads) && t.heads[h] != head {
			h++
		}
		if h == len(t.heads) {
			t.heads = append(t.heads, head)
		}
		ct := condText{key: c.Key, head: h, single: head == c.Key, numbers: ch.PlainNumbers(k)}
		if c.Op == rules.OpExists {
			words := " exists"
			if b, ok := c.Expected.(bool); ok && !b {
				words = " is absent"
			}
			ct.exists, ct.tail = true, [2]string{words + " ✗", words + " ✓"}
		} else {
			exp := string(appendValue(nil, c.Expected, 0))
			ct.op, ct.expected, ct.expLen = " "+string(c.Op)+" ", c.Expected, len(exp)
			ct.tail = [2]string{ct.op + exp + " ✗", ct.op + exp + " ✓"}
		}
		t.conds = append(t.conds, ct)
	}
	return t
}

// maxHeads bounds the keys a decision told compact may read; one that
// reads more is told from its evidence, rebuilt.
const maxHeads = 16

// compactRules writes the rules a compact decision tried, as its
// evidence's rules are written; false, having written nothing, when a
// key it read is not among the Read entries before it.
func (w *writer) compactRules(p *decide.CompactPlan, c decide.Compact) bool {
	t := narrativeText(p)
	if len(t.heads) > maxHeads {
		return false
	}
	bits, matched := c.Marks()
	tried := len(t.rules)
	if matched >= 0 {
		tried = matched + 1
	}
	ch := p.Chain()
	// at: the Read entry of each head, -1 for a head no rule tried read
	from := w.readsBefore()
	var at [maxHeads]int32
	for h, key := range t.heads {
		at[h] = -1
		for i := from; i < w.pos; i++ {
			if w.events.textOf(w.events.at(i)) == key {
				at[h] = int32(i)
				break
			}
		}
	}
	last := 0
	if tried > 0 {
		_, last = ch.Span(tried - 1)
	}
	for k := range last {
		if at[t.conds[k].head] < 0 {
			return false
		}
	}
	for i := range tried {
		if i > 0 {
			w.str(";")
		}
		w.str(t.rules[i])
		start, end := ch.Span(i)
		if start == end { // a filter of no condition
			if i == matched {
				w.str("matched ✓")
			} else {
				w.str("did not match ✗")
			}
			continue
		}
		for k := start; k < end; k++ {
			if k > start {
				w.str(", ")
			}
			w.compactCondition(ch, k, &t.conds[k], bits&(1<<k) != 0, int(at[t.conds[k].head]), from)
		}
	}
	return true
}

// compactCondition writes the k-th condition of ch as condition writes
// its evidence: ct its fixed words, pass its recorded mark, read the
// Read entry of its head (reads those from from on, before w.pos).
func (w *writer) compactCondition(ch *rules.Chain, k int, ct *condText, pass bool, read, from int) {
	x := w.events.at(read)
	found := !x.deleted
	mark := 0
	if pass {
		mark = 1
	}
	w.str(ct.key)
	if !ct.exists {
		if ct.single && found && x.vkind != valueAny {
			w.str(" ")
			var str string
			if x.vkind == valueString {
				str = w.events.keptString(x)
			}
			w.kept(x, str)
		} else if actual, present, _ := ch.Told(k, nil, w.events.boxed(x), found, true); present {
			w.str(" ")
			w.value(actual)
		} else {
			w.str(" (missing)")
		}
		if w.width > 0 && ct.expLen > w.width {
			w.str(ct.op)
			w.value(ct.expected)
			w.mark(pass)
		} else {
			w.str(ct.tail[mark])
		}
	} else {
		w.str(ct.tail[mark])
	}
	if pass || ct.single && ct.numbers && (x.vkind == valueInt || x.vkind == valueFloat64) {
		return // no reason to tell
	}
	// A fail's reason; a key path that found nothing says where, from the
	// decision's reads.
	var env rules.Env
	if !found || !ct.single {
		env = w.reads(from)
	}
	if _, _, reason := ch.Told(k, env, w.events.boxed(x), found, false); reason != "" {
		w.str(" (")
		w.message(reason)
		w.str(")")
	}
}

// readsBefore is where the Read entries just before the one being
// written start: a decision's reads.
func (w *writer) readsBefore() int {
	i := w.pos
	for i > 0 && w.events.at(i-1).kind == Read {
		i--
	}
	return i
}

// reads is the Read entries from from on, before the one being written,
// as the rules read a scope.
func (w *writer) reads(from int) rules.Env {
	return &readsView{l: w.events, from: from, to: w.pos}
}

// readsView answers a rule's reads from the narrative's Read entries
// [from, to): each key with the value told of it.
type readsView struct {
	l        *entries
	from, to int
}

func (r *readsView) Get(key string) (any, bool) {
	for i := r.from; i < r.to; i++ {
		if x := r.l.at(i); r.l.textOf(x) == key {
			return r.l.boxed(x), !x.deleted
		}
	}
	return nil, false
}
