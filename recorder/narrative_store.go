package recorder

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"unsafe"

	"github.com/openrunbook/runbook/decide"
)

// What the narrative keeps of a run, and how. It owns one rule: the
// narrative's memory holds no pointer it can do without, because every
// pointer kept costs the garbage collector twice — a write barrier when it
// is stored while a cycle marks, and a scan in every cycle after:
//
//	kept as                           what
//	bytes, in one text buffer         every string: keys, paths, ids, names, errors, targets,
//	                                  and string values
//	bits, in the entry                int, uint, float, bool and nil values (exact types only)
//	an any, in vals                   every other value (maps, lists, named types), decision
//	                                  evidence, the branches of a fork — what Lines must read
//	                                  as it is, when it is called
//	marks, in the entry               a decision kept compact: its pass marks and the rule
//	                                  that matched; its plan, in plans (each once: a chart's
//	                                  plans live as long as it); the values it read are the
//	                                  Read entries just before it
//
// A scalar or string value kept as bits or bytes is told exactly as the
// value would be: it cannot change after it was written.
//
// An entry's strings are one record in the text buffer, each string its
// length (a uvarint) and its bytes, in this order: the text field; the
// site's path, id, name and subflow (hasSite); the value (a string value).

// entry is what the narrative keeps of an event: 24 bytes, no pointer.
type entry struct {
	kind    Kind
	deleted bool
	hasSite bool
	vkind   valueKind
	// index and total are the event's Index and Total.
	index, total int32
	// rec is where the entry's record starts in the text buffer (also
	// where truncating at this entry cuts the buffer).
	rec uint32
	// val holds a scalar value's bits, or the value's position in vals
	// (valueAny), or a compact decision's pass marks (valueCompact, whose
	// index is the rule that matched and total its plan's position in
	// plans).
	val uint64
}

// place is the node an event is about — its runtime path, id, name and the
// subflow it runs under — read back from the text buffer: views of it, valid
// until the entries are truncated. What outlives that is cloned.
type place struct{ path, id, name, sub string }

// valueKind says how an entry keeps its value (see the table above).
type valueKind uint8

const (
	valueNone valueKind = iota
	valueNil
	valueString
	valueBool
	valueInt
	valueUint
	valueFloat64
	valueFloat32
	valueAny
	valueCompact
)

// entries is the narrative's append-only list of entries, with the text
// and values they hold.
type entries struct {
	list  chunks[entry]
	vals  chunks[any]
	text  []byte
	plans []*decide.CompactPlan
	// compactSize is 40 bytes for each rule and condition of the plan of
	// every compact decision kept (Lines' estimate, see textSize).
	compactSize int
}

func (l *entries) len() int { return l.list.len() }

func (l *entries) at(i int) *entry { return l.list.at(i) }

// push keeps x as it is, with no text, site or value.
func (l *entries) push(x entry) {
	x.hasSite, x.vkind, x.val = false, valueNone, 0
	x.rec = uint32(len(l.text))
	l.text = append(l.text, 0)
	*l.list.next() = x
}

// keep keeps what the narrative tells of e, as an entry of kind k with the
// given index (a kindFold entry keeps a Loop event's fields).
func (l *entries) keep(e *Event, k Kind, index int32) {
	x := l.list.next()
	x.kind, x.deleted, x.index, x.total = k, e.Deleted || k == Read && e.Missing, index, int32(e.Total)
	var text, str string
	switch k {
	case Read, Write:
		text = e.Key
		str = l.value(x, e.Value)
	case BranchStart, BranchEnd:
		text = e.Branch
	case Loop, kindFold:
		text = e.Target
	case Error, Retry, RunFailed:
		text = e.Err
	case Decision, Select:
		// The evidence's Chosen is what the engine also sends as Branches;
		// without evidence, the branches are kept instead.
		if e.Decision != nil {
			l.value(x, e.Decision)
		} else if e.Plan != nil {
			bits, matched := e.Compact().Marks()
			x.vkind, x.val, x.index, x.total = valueCompact, bits, int32(matched), l.plan(e.Plan)
			l.compactSize += 40 * (len(e.Plan.Rules()) + e.Plan.Chain().Len())
		} else if len(e.Branches) > 0 {
			l.value(x, e.Branches)
		}
	case Fork, Join:
		if len(e.Branches) > 0 {
			l.value(x, e.Branches)
		}
	}
	// A step is told under its stage's header, never with its own site.
	x.hasSite = k != Read && k != Write &&
		(e.Path != "" || e.StageID != "" || e.StageName != "" || e.Subflow != "")
	x.rec = uint32(len(l.text))
	if !x.hasSite {
		l.put2(text, str, x.vkind == valueString)
		return
	}
	l.put5(text, e.Path, e.StageID, e.StageName, e.Subflow)
}

// put2 appends the record of an entry without a site: its text, and its
// string value when it has one.
func (l *entries) put2(a, b string, hasB bool) {
	if len(a)|len(b) < 0x80 {
		n, k := len(l.text), 2+len(a)+len(b)
		l.room(k)
		r := l.text[n : n+k]
		i := putShort(r, 0, a)
		if hasB {
			i = putShort(r, i, b)
		}
		l.text = l.text[:n+i]
		return
	}
	l.put(a)
	if hasB {
		l.put(b)
	}
}

// put5 appends the record of an entry with a site (and no string value).
func (l *entries) put5(a, b, c, d, e string) {
	if len(a)|len(b)|len(c)|len(d)|len(e) < 0x80 {
		n, k := len(l.text), 5+len(a)+len(b)+len(c)+len(d)+len(e)
		l.room(k)
		r := l.text[n : n+k]
		putShort(r, putShort(r, putShort(r, putShort(r, putShort(r, 0, a), b), c), d), e)
		l.text = l.text[:n+k]
		return
	}
	l.put(a)
	l.put(b)
	l.put(c)
	l.put(d)
	l.put(e)
}

// putShort writes s, shorter than 0x80, at r[i:] as its length (one byte)
// and its bytes; it returns where the next string goes.
func putShort(r []byte, i int, s string) int {
	r[i] = byte(len(s))
	return i + 1 + copy(r[i+1:], s)
}

// room makes room in the text buffer for about k more bytes. Only a growth
// stores the buffer's pointer (see writer.str).
func (l *entries) room(k int) {
	if cap(l.text)-len(l.text) < k+8 {
		l.grow(k + 8)
	}
}

func (l *entries) grow(k int) {
	l.text = slices.Grow(l.text, max(k, len(l.text), 256))
}

// put appends s as its length (a uvarint) and its bytes.
func (l *entries) put(s string) {
	l.room(binary.MaxVarintLen64 + len(s))
	l.text = append(binary.AppendUvarint(l.text, uint64(len(s))), s...)
}

// value keeps v as x's value: as bits when it is a scalar of its exact type
// (the types appendValue writes itself), as bytes when a string (returned,
// for keep to write), in vals otherwise.
func (l *entries) value(x *entry, v any) (str string) {
	switch v := v.(type) {
	case nil:
		x.vkind = valueNil
	case string:
		x.vkind = valueString
		return v
	case bool:
		x.vkind = valueBool
		if v {
			x.val = 1
		}
	case int:
		x.vkind, x.val = valueInt, uint64(v)
	case int8:
		x.vkind, x.val = valueInt, uint64(v)
	case int16:
		x.vkind, x.val = valueInt, uint64(v)
	case int32:
		x.vkind, x.val = valueInt, uint64(v)
	case int64:
		x.vkind, x.val = valueInt, uint64(v)
	case uint:
		x.vkind, x.val = valueUint, uint64(v)
	case uint8:
		x.vkind, x.val = valueUint, uint64(v)
	case uint16:
		x.vkind, x.val = valueUint, uint64(v)
	case uint32:
		x.vkind, x.val = valueUint, uint64(v)
	case uint64:
		x.vkind, x.val = valueUint, v
	case float64:
		x.vkind, x.val = valueFloat64, math.Float64bits(v)
	case float32:
		x.vkind, x.val = valueFloat32, uint64(math.Float32bits(v))
	default:
		x.vkind, x.val = valueAny, uint64(l.vals.len())
		*l.vals.next() = v
	}
	return ""
}

// head reads x's text field (Key, Branch, Target or Err) and where the rest
// of its record starts: the site (siteAt), then a string value (get). The
// strings read are views of the text buffer, valid until the entries are
// truncated.
func (l *entries) head(x *entry) (text string, rest int) {
	return l.get(int(x.rec))
}

// siteAt reads x's site from its record at off; empty without one.
func (l *entries) siteAt(x *entry, off int) (p place) {
	if x.hasSite {
		p.path, off = l.get(off)
		p.id, off = l.get(off)
		p.name, off = l.get(off)
		p.sub, _ = l.get(off)
	}
	return p
}

// get reads the string at off and where the next one starts.
func (l *entries) get(off int) (string, int) {
	if n := int(l.text[off]); n < 0x80 {
		return view(l.text, off+1, off+1+n), off + 1 + n
	}
	return l.getLong(off)
}

func (l *entries) getLong(off int) (string, int) {
	u, k := binary.Uvarint(l.text[off:])
	n := int(u)
	off += k
	return view(l.text, off, off+n), off + n
}

// view is the string over b[start:end], which nothing may write again
// while the string is used.
func view(b []byte, start, end int) string {
	if end <= start {
		return ""
	}
	return unsafe.String(&b[start], end-start)
}

// textOf is x's text field (Key, Branch, Target or Err).
func (l *entries) textOf(x *entry) string {
	s, _ := l.head(x)
	return s
}

// placeOf is the node x is about; empty for a step.
func (l *entries) placeOf(x *entry) place {
	_, rest := l.head(x)
	return l.siteAt(x, rest)
}

// any is x's value when it is kept as an any, otherwise nil.
func (l *entries) any(x *entry) any {
	if x.vkind != valueAny {
		return nil
	}
	return *l.vals.at(int(x.val))
}

// appendKept appends x's value as appendValue would append it; str is a
// string value, read back from the record.
func (l *entries) appendKept(b []byte, x *entry, str string, limit int) []byte {
	switch x.vkind {
	case valueNone, valueNil:
		return append(b, "null"...)
	case valueString:
		return appendString(b, str)
	case valueBool:
		return strconv.AppendBool(b, x.val != 0)
	case valueInt:
		return appendInt(b, int64(x.val))
	case valueUint:
		return strconv.AppendUint(b, x.val, 10)
	case valueFloat64:
		return appendFloat(b, math.Float64frombits(x.val), 64)
	case valueFloat32:
		return appendFloat(b, float64(math.Float32frombits(uint32(x.val))), 32)
	}
	return appendValue(b, l.any(x), limit)
}

// plan is p's position in plans, where it is put the first time.
func (l *entries) plan(p *decide.CompactPlan) int32 {
	for i := len(l.plans) - 1; i >= 0; i-- {
		if l.plans[i] == p {
			return int32(i)
		}
	}
	l.plans = append(l.plans, p)
	return int32(len(l.plans) - 1)
}

// compact is a Decision entry's decision kept compact: its plan and what
// it decided; ok false for any other entry.
func (l *entries) compact(x *entry) (p *decide.CompactPlan, c decide.Compact, ok bool) {
	if x.vkind != valueCompact {
		return nil, c, false
	}
	p = l.plans[x.total]
	return p, decide.CompactOf(x.val, x.index), true
}

// keptString is a Read or Write entry's string value (valueString).
func (l *entries) keptString(x *entry) string {
	_, rest := l.head(x)
	s, _ := l.get(rest)
	return s
}

// boxed is a Read or Write entry's value as the event gave it, for the
// rules that judge it again (a compact decision's reasons). A scalar is
// boxed in its kind's widest type (an int kept from an int32 is an int).
func (l *entries) boxed(x *entry) any {
	switch x.vkind {
	case valueString:
		return l.keptString(x)
	case valueBool:
		return x.val != 0
	case valueInt:
		return int(x.val)
	case valueUint:
		return x.val
	case valueFloat64:
		return math.Float64frombits(x.val)
	case valueFloat32:
		return math.Float32frombits(uint32(x.val))
	case valueAny:
		return *l.vals.at(int(x.val))
	}
	return nil
}

// decision is the evidence of a Decision or Select entry, or nil.
func (l *entries) decision(x *entry) *decide.Evidence {
	ev, _ := l.any(x).(*decide.Evidence)
	return ev
}

// branches is what a Decision or Select chose, or what a Fork or Join forked.
func (l *entries) branches(x *entry) []string {
	switch v := l.any(x).(type) {
	case *decide.Evidence:
		return v.Chosen
	case []string:
		return v
	}
	return nil
}

// truncate drops the entries from position n on, with their records and
// values.
func (l *entries) truncate(n int) {
	if n >= l.list.len() {
		return
	}
	l.text = l.text[:l.list.at(n).rec]
	for i := n; i < l.list.len(); i++ {
		if x := l.list.at(i); x.vkind == valueAny {
			l.vals.truncate(int(x.val))
			break
		}
	}
	l.list.truncate(n)
}

// chunks is an append-only list kept in chunks, so growing it never copies
// what is already kept: the first chunk holds 16, each next one twice the
// last, up to chunkSize; the rest hold chunkSize each.
type chunks[T any] struct {
	c [][]T
	n int
	// tail is the chunk next fills.
	tail int
}

const (
	chunkSize  = 512
	firstChunk = 16
	// smallSpan is what the chunks smaller than chunkSize hold together
	// (16 + 32 + … + 256).
	smallSpan = chunkSize - firstChunk
)

// chunkAt is the chunk holding position i, and i's offset in it.
func chunkAt(i int) (c, off int) {
	if i < smallSpan {
		c = bits.Len(uint(i/firstChunk+1)) - 1
		return c, i - firstChunk*(1<<c-1)
	}
	i -= smallSpan
	return bits.Len(chunkSize/firstChunk-1) + i/chunkSize, i % chunkSize
}

// chunkCap is the capacity of chunk c.
func chunkCap(c int) int { return min(firstChunk<<c, chunkSize) }

func (l *chunks[T]) len() int { return l.n }

func (l *chunks[T]) at(i int) *T {
	c, off := chunkAt(i)
	return &l.c[c][off]
}

// next keeps a zero element and returns it to be filled in.
func (l *chunks[T]) next() *T {
	if t := l.tail; t < len(l.c) {
		if k := len(l.c[t]); k < cap(l.c[t]) {
			l.c[t] = l.c[t][:k+1]
			l.n++
			return &l.c[t][k]
		}
	}
	return l.more()
}

// more is next when the tail chunk is full: the next chunk, kept from
// before a truncate or made.
func (l *chunks[T]) more() *T {
	if len(l.c) > 0 {
		l.tail++
	}
	if l.tail == len(l.c) {
		l.c = append(l.c, make([]T, 0, chunkCap(l.tail)))
	}
	l.c[l.tail] = l.c[l.tail][:1]
	l.n++
	return &l.c[l.tail][0]
}

// truncate drops the elements from position n on, clearing them so what
// they held can be collected. The chunks stay, for what comes next: a
// folding loop truncates and grows again on every pass.
func (l *chunks[T]) truncate(n int) {
	if n >= l.n {
		return
	}
	c, off := chunkAt(n)
	clear(l.c[c][off:])
	l.c[c] = l.c[c][:off]
	for i := c + 1; i < len(l.c); i++ {
		clear(l.c[i])
		l.c[i] = l.c[i][:0]
	}
	l.n, l.tail = n, c
}
