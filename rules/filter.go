package rules

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// Condition is one filter condition as authored: `used: {gt: 90}` is
// Where("used", OpGt, 90).
type Condition struct {
	// Key is the key read, a dotted path allowed (see Resolve).
	Key string
	// Op is the operator.
	Op Op
	// Expected is the operand as authored.
	Expected any
}

// Where builds a condition. It checks nothing: NewFilter does.
func Where(key string, op Op, expected any) Condition {
	return Condition{Key: key, Op: op, Expected: expected}
}

// String is the condition in canonical form: `state eq "degraded"`.
func (c Condition) String() string {
	return c.Key + " " + string(c.Op) + " " + formatValue(c.Expected)
}

// Ops lists the filter operators in the order the spec lists them.
func Ops() []Op {
	return []Op{OpEq, OpNe, OpGt, OpGte, OpLt, OpLte, OpIn, OpNotIn,
		OpContains, OpStartsWith, OpEndsWith, OpMatches, OpExists}
}

// Valid reports whether op is one of the thirteen operators.
func (op Op) Valid() bool {
	switch op {
	case OpEq, OpNe, OpGt, OpGte, OpLt, OpLte, OpIn, OpNotIn,
		OpContains, OpStartsWith, OpEndsWith, OpMatches, OpExists:
		return true
	}
	return false
}

// ConditionError says what is wrong with one condition given to NewFilter.
// NewFilter joins one per bad condition (errors.Join), so a loader can point
// at each: walk them with errors.As on the joined error's Unwrap() []error.
type ConditionError struct {
	// Index is the condition's position among NewFilter's arguments.
	Index int
	Key   string
	Op    Op
	Msg   string
}

// Error reads `condition 2 (used gt): gt needs a number or a string; got a boolean`.
func (e *ConditionError) Error() string {
	return fmt.Sprintf("condition %d (%s %s): %s", e.Index+1, e.Key, e.Op, e.Msg)
}

// Filter is the filter form of a rule: conditions ANDed. Build it with
// NewFilter; it is immutable and safe for concurrent use.
type Filter struct {
	conds []cond
	text  string
}

// cond is a condition made ready to run: path split, regexp compiled, list
// normalised, classes known.
type cond struct {
	Condition
	segs     []string
	expClass class
	list     []any // in, notIn
	listHas  uint8 // bit per class present in list (null elements excluded)
	str      string
	re       *regexp.Regexp
	want     bool // exists
	// fast, when set, answers Pass for the actual values a JSON-fed scope
	// mostly holds (an int, a float64, a string) without the operator
	// table's reasons; every other value goes through test.
	fast fastKind
	// order is the operator as a code, for the fast shapes: a switch on
	// Op compares strings
	order orderOp
	fi    int     // fastInt: the operand
	ff    float64 // fastFloat: the operand; fastInt: the operand as a float when exact
	fiF   bool    // fastInt: ff holds the operand exactly
}

// fastKind is the shape of a condition Pass answers directly.
type fastKind uint8

const (
	fastNone  fastKind = iota
	fastInt            // an ordering or (in)equality against an int
	fastFloat          // an ordering or (in)equality against a float64 (not NaN)
	fastStr            // eq or ne against a string
)

// orderOp is eq, ne, gt, gte, lt or lte as a code.
type orderOp uint8

const (
	ordEq orderOp = iota
	ordNe
	ordGt
	ordGte
	ordLt
	ordLte
)

var orderOps = map[Op]orderOp{OpEq: ordEq, OpNe: ordNe, OpGt: ordGt, OpGte: ordGte, OpLt: ordLt, OpLte: ordLte}

// holds is the operator's verdict on an ordering (compare's sign).
func (o orderOp) holds(order int) bool {
	switch o {
	case ordEq:
		return order == 0
	case ordNe:
		return order != 0
	case ordGt:
		return order > 0
	case ordGte:
		return order >= 0
	case ordLt:
		return order < 0
	default:
		return order <= 0
	}
}

// exactFloat bounds the integers a float64 holds exactly.
const exactFloat = 1 << 53

// NewFilter checks and prepares conditions, once, so that Eval does no
// parsing: a path that does not parse, an unknown operator, an in or notIn
// whose operand is not a list, an ordering operator (gt gte lt lte) whose
// operand is not a number or a string, a startsWith, endsWith or matches
// whose operand is not a string, a regular expression that does not compile
// (Go's regexp: RE2 syntax, linear time), an exists whose operand is not
// true or false — each is a *ConditionError, all of them joined. A filter
// needs at least one condition.
func NewFilter(conds ...Condition) (*Filter, error) {
	if len(conds) == 0 {
		return nil, errors.New("a filter needs at least one condition")
	}
	f := &Filter{conds: make([]cond, len(conds))}
	var errs []error
	for i, c := range conds {
		if msg := f.conds[i].prepare(c); msg != "" {
			errs = append(errs, &ConditionError{Index: i, Key: c.Key, Op: c.Op, Msg: msg})
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	parts := make([]string, len(conds))
	for i, c := range conds {
		parts[i] = c.String()
	}
	f.text = strings.Join(parts, " and ")
	return f, nil
}

// MustFilter is NewFilter for conditions fixed in Go source: it panics on an
// error, at build time.
func MustFilter(conds ...Condition) *Filter {
	f, err := NewFilter(conds...)
	if err != nil {
		panic("rules.MustFilter: " + err.Error())
	}
	return f
}

var opList = func() string {
	var b strings.Builder
	for i, op := range Ops() {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(op))
	}
	return b.String()
}()

// prepare fills c from a condition; a non-empty result says what is wrong.
func (c *cond) prepare(in Condition) string {
	// The filter's own operand: the caller's list ([22, 443]) edited
	// after the filter was built would change what it judges.
	in.Expected = jsonv.Copy(in.Expected)
	c.Condition = in
	segs, err := parsePath(in.Key)
	if err != nil {
		return fmt.Sprintf("key %q is not a path (write a.b.c, items.0 or items[0])", in.Key)
	}
	c.segs = segs
	c.expClass = classOf(in.Expected)
	switch in.Op {
	case OpEq, OpNe:
	case OpGt, OpGte, OpLt, OpLte:
		if c.expClass != classNumber && c.expClass != classString {
			return fmt.Sprintf("%s needs a number or a string; got %s", in.Op, classWords[c.expClass])
		}
		if _, reason := toNum(in.Expected); c.expClass == classNumber && reason != "" {
			return reason
		}
	case OpIn, OpNotIn:
		list, ok := toList(in.Expected)
		if !ok {
			return fmt.Sprintf("%s needs a list of values; got %s", in.Op, classWords[c.expClass])
		}
		c.list = list
		for _, e := range list {
			if ce := classOf(e); ce != classNil {
				c.listHas |= 1 << ce
			}
		}
	case OpContains:
	case OpStartsWith, OpEndsWith, OpMatches:
		s, ok := asString(in.Expected)
		if !ok {
			return fmt.Sprintf("%s needs a string; got %s", in.Op, classWords[c.expClass])
		}
		c.str = s
		if in.Op == OpMatches {
			re, err := regexp.Compile(s)
			if err != nil {
				return fmt.Sprintf("invalid regular expression %q: %v", s, err)
			}
			c.re = re
		}
	case OpExists:
		b, ok := in.Expected.(bool)
		if !ok {
			return fmt.Sprintf("exists needs true or false; got %s", classWords[c.expClass])
		}
		c.want = b
	default:
		return fmt.Sprintf("unknown operator %q (operators: %s)", in.Op, opList)
	}
	c.prepareFast()
	return ""
}

// prepareFast picks the shape Pass answers directly, if any.
func (c *cond) prepareFast() {
	code, ok := orderOps[c.Op]
	if !ok {
		return
	}
	c.order = code
	switch x := c.Expected.(type) {
	case int:
		c.fast, c.fi = fastInt, x
		if x > -exactFloat && x < exactFloat {
			c.ff, c.fiF = float64(x), true
		}
	case float64:
		if !math.IsNaN(x) {
			c.fast, c.ff = fastFloat, x
		}
	case string:
		if c.Op == OpEq || c.Op == OpNe {
			c.fast, c.str = fastStr, x
		}
	}
}

// passFast is test's pass mark for the values fast covers; done is false
// for any other value, which test then answers.
func (c *cond) passFast(actual any) (pass, done bool) {
	var order int
	switch c.fast {
	case fastInt:
		switch x := actual.(type) {
		case int:
			order = cmpOrdered(x, c.fi)
		case float64:
			if !c.fiF || math.IsNaN(x) {
				return false, false
			}
			order = cmpOrdered(x, c.ff)
		default:
			return false, false
		}
	case fastFloat:
		switch x := actual.(type) {
		case float64:
			if math.IsNaN(x) {
				return false, false
			}
			order = cmpOrdered(x, c.ff)
		case int:
			if x <= -exactFloat || x >= exactFloat {
				return false, false
			}
			order = cmpOrdered(float64(x), c.ff)
		default:
			return false, false
		}
	case fastStr:
		x, ok := actual.(string)
		if !ok {
			return false, false
		}
		if x != c.str && apart(x, c.str) != "" {
			return false, false // test says why
		}
		return (x == c.str) == (c.order == ordEq), true
	default:
		return false, false
	}
	return c.order.holds(order), true
}

// Eval runs every condition and files evidence for each: key, operator,
// expected, actual, whether the key was present, pass or fail, and a reason
// when it failed for something other than the values differing. It does not
// stop at the first failure, so the narrative can print every condition; the
// filter matches when all pass. Eval never panics.
//
// Cost: one allocation (the evidence slice) when every key holds a
// JSON-like value.
func (f *Filter) Eval(env Env) (out Outcome) {
	return f.eval(env, make([]ConditionEvidence, len(f.conds)))
}

// EvalIn is Eval with the evidence filed in the front of slab instead of a
// slice of its own; it returns the Outcome and the rest of slab. When slab
// is shorter than the filter's conditions it allocates, as Eval does, and
// returns slab whole. The Outcome's Conditions is cut to its length, so an
// append to it never reaches the rest of slab.
//
// Cost: no allocation when slab has room. A caller evaluating many filters
// (decide, a run's deciders) hands out one slab for all of them.
func (f *Filter) EvalIn(env Env, slab []ConditionEvidence) (Outcome, []ConditionEvidence) {
	n := len(f.conds)
	if len(slab) < n {
		return f.Eval(env), slab
	}
	return f.eval(env, slab[:n:n]), slab[n:]
}

// Len is the number of the filter's conditions: the room EvalIn needs.
func (f *Filter) Len() int { return len(f.conds) }

// eval files the evidence of each condition in ev (len(ev) == len(f.conds)).
func (f *Filter) eval(env Env, ev []ConditionEvidence) (out Outcome) {
	defer func() {
		if r := recover(); r != nil {
			out = Outcome{Conditions: ev, Err: fmt.Sprintf("filter %s: %v", f.text, r)}
		}
	}()
	matched := true
	for i := range f.conds {
		c := &f.conds[i]
		v, found := resolveSegs(env, c.segs)
		matched = c.judge(&ev[i], env, v, found) && matched
	}
	return Outcome{Matched: matched, Conditions: ev}
}

// judge files the condition's evidence in e, given what its path read
// from env (v, found: resolveSegs's answer), and returns its pass mark:
// filter after filter (eval) and a chain's trace (Trace.Next) judge a
// condition here alike.
func (c *cond) judge(e *ConditionEvidence, env Env, v any, found bool) bool {
	// e.Expected is the filter's own operand, not a copy (Eval allocates
	// once): the record copies it (record.Masker.Decisions).
	e.Key, e.Op, e.Expected = c.Key, c.Op, c.Expected
	e.Actual, e.Present = v, found
	e.Pass, e.Reason = c.verdict(env, v, found)
	return e.Pass
}

// verdict is the condition's pass mark over v, the value at the end of
// its path (found false: the path led to nothing), and the reason a fail
// carries: the operator table's, or where the path found nothing.
func (c *cond) verdict(env Env, v any, found bool) (bool, string) {
	pass, reason := c.test(v, found)
	if !found && c.Op != OpExists {
		reason = absentKey(env, c.segs)
	}
	return pass, reason
}

// String is the filter in canonical form: `used gt 90 and state eq "degraded"`.
func (f *Filter) String() string { return f.text }

// Conditions returns a copy of the filter's conditions, in declared order.
func (f *Filter) Conditions() []Condition {
	out := make([]Condition, len(f.conds))
	for i := range f.conds {
		out[i] = f.conds[i].Condition
	}
	return out
}

const (
	// reasonMissing is a missing key's reason where the absence is no
	// fault of the rule: under exists, and at a reserved af_ key, which
	// a result lacks by design (a rule asking "is this an absence?").
	reasonMissing = "key not present"
	reasonNull    = "value is null"
)

// absentKey says where a condition's key path found nothing: the first
// step that was not there, in the words an expression's absent member is
// said in, and how a filter allows the absence. A reserved af_ key says
// reasonMissing, which is no error. Asked only when the key was missing,
// off the hot path.
func absentKey(env Env, segs []string) string {
	key := segsText(segs)
	if strings.ContainsAny(key, `["`) {
		// A bracket or a quote ends a plain YAML key in a flow map:
		// {s.stdout["net.ipv4.ip_forward"]: …} is not YAML.
		key = "'" + strings.ReplaceAll(key, "'", "''") + "'"
	}
	allow := fmt.Sprintf("; if it may be absent, say what its absence means in a rule before this one: {%s: {exists: false}}, or write this rule as an expression with %s ?? a default", key, exprText(segs))
	if env == nil {
		return fmt.Sprintf("the scope has no key %q", segs[0]) + allow
	}
	v, ok := env.Get(segs[0])
	if !ok {
		if strings.HasPrefix(segs[0], reservedPrefix) {
			return reasonMissing
		}
		return fmt.Sprintf("the scope has no key %q", segs[0]) + allow
	}
	for i, seg := range segs[1:] {
		next, ok := step(v, seg)
		if ok {
			v = next
			continue
		}
		if strings.HasPrefix(seg, reservedPrefix) {
			return reasonMissing
		}
		owner := segsText(segs[:i+1])
		switch x := v.(type) {
		case map[string]any:
			if rest := strings.Join(segs[i+1:], "."); len(segs) > i+2 {
				if _, ok := x[rest]; ok {
					// A Kubernetes label or annotation key holds dots,
					// which a dotted path splits.
					whole := append(slices.Clone(segs[:i+1]), rest)
					return fmt.Sprintf("%s has no member %q, but has %q: a key holding dots is written in brackets, %s", owner, seg, rest, segsText(whole))
				}
			}
			keys := slices.Collect(maps.Keys(x))
			msg, _ := memberWords(owner, seg, keys)
			if memberInOtherCase(seg, slices.Values(keys)) {
				return msg // no escape for a misspelling (memberInOtherCase)
			}
			return msg + allow
		case []any:
			return fmt.Sprintf("%s has no item %s (it holds %d)", owner, seg, len(x)) + allow
		case nil:
			return fmt.Sprintf("%s is null, which has no member %q", owner, seg) + allow
		}
		if ca := classOf(v); ca != classMap && ca != classList && ca != classOther {
			return fmt.Sprintf("%s is %s, which has no member %q", owner, classWords[ca], seg) + allow
		}
		return fmt.Sprintf("%s has no member %q", owner, seg) + allow
	}
	return reasonMissing // unreachable: the path was missing
}

// exprText writes a path's segments as an expression reads them: a
// member by name, an index in brackets, a key that is no name quoted in
// brackets.
func exprText(segs []string) string {
	var b strings.Builder
	for i, s := range segs {
		_, num := index(s, int(^uint(0)>>1))
		switch {
		case isIdent(s):
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s)
		case num && i > 0:
			b.WriteString("[" + s + "]")
		case i == 0:
			b.WriteString(`$env[` + strconv.Quote(s) + "]")
		default:
			b.WriteString("[" + strconv.Quote(s) + "]")
		}
	}
	return b.String()
}

// segsText writes a path's segments as a filter key is written: dotted,
// a segment that is no name in brackets and quoted.
func segsText(segs []string) string {
	var b strings.Builder
	for i, s := range segs {
		_, num := index(s, int(^uint(0)>>1))
		switch {
		case isIdent(s) || (num && i > 0):
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s)
		default:
			b.WriteString("[" + strconv.Quote(s) + "]")
		}
	}
	return b.String()
}

// test is the operator table. A missing key fails every operator except
// exists: false.
func (c *cond) test(actual any, present bool) (bool, string) {
	if !present {
		if c.Op == OpExists && !c.want {
			return true, ""
		}
		return false, reasonMissing
	}
	switch c.Op {
	case OpExists:
		if actual == nil {
			return !c.want, ternary(c.want, reasonNull, "")
		}
		return c.want, ""
	case OpEq, OpNe:
		eq, reason := equalCheck(actual, classOf(actual), c.Expected, c.expClass)
		if reason != "" {
			return false, reason
		}
		return eq == (c.Op == OpEq), ""
	case OpGt, OpGte, OpLt, OpLte:
		n, reason := compare(actual, c.Expected)
		if reason != "" {
			return false, reason
		}
		switch c.Op {
		case OpGt:
			return n > 0, ""
		case OpGte:
			return n >= 0, ""
		case OpLt:
			return n < 0, ""
		default:
			return n <= 0, ""
		}
	case OpIn, OpNotIn:
		ca := classOf(actual)
		if ca != classNil && len(c.list) > 0 && c.listHas&(1<<ca) == 0 {
			return false, noElementReasons[ca]
		}
		found := false
		for _, e := range c.list {
			if Equal(actual, e) {
				found = true
				break
			}
		}
		if !found {
			if reason := notFoundIn(actual, c.list); reason != "" {
				return false, reason
			}
		}
		return found == (c.Op == OpIn), ""
	case OpContains:
		return c.contains(actual)
	case OpStartsWith, OpEndsWith, OpMatches:
		s, ok := asString(actual)
		if !ok {
			return false, notStringReasons[classOf(actual)]
		}
		switch c.Op {
		case OpStartsWith:
			return strings.HasPrefix(s, c.str), ""
		case OpEndsWith:
			if reason := edgeSuffix(s, c.str); reason != "" {
				return false, reason
			}
			return strings.HasSuffix(s, c.str), ""
		default:
			if reason := matchReason(s, c.re, false); reason != "" {
				return false, reason
			}
			return c.re.MatchString(s), ""
		}
	}
	return false, "unknown operator" // unreachable: NewFilter checked
}

// contains: a string holds a substring, or a list holds an element (Equal).
func (c *cond) contains(actual any) (bool, string) {
	if s, ok := asString(actual); ok {
		sub, ok := asString(c.Expected)
		if !ok {
			return false, "a string can only contain a string; expected is " + classWords[c.expClass]
		}
		if reason := containsReason(s, sub, false); reason != "" {
			return false, reason
		}
		return strings.Contains(s, sub), ""
	}
	ca := classOf(actual)
	if ca != classList {
		return false, "contains needs a string or a list; the value is " + classWords[ca]
	}
	found, kindSeen := false, c.expClass == classNil
	each(actual, func(e any) bool {
		ce := classOf(e)
		if ce == c.expClass || ce == classNil {
			kindSeen = true
		}
		if Equal(e, c.Expected) {
			found = true
			return false
		}
		return true
	})
	if !found && !kindSeen && listLen(actual) > 0 {
		return false, noElementReasons[c.expClass]
	}
	if !found {
		if reason := notFoundIn(c.Expected, actual); reason != "" {
			return false, reason
		}
	}
	return found, ""
}

// each calls fn for each element of a list until fn returns false.
func each(list any, fn func(any) bool) {
	if l, ok := list.([]any); ok {
		for _, e := range l {
			if !fn(e) {
				return
			}
		}
		return
	}
	rv := jsonv.Deref(list)
	for i := range rv.Len() {
		if !fn(rv.Index(i).Interface()) {
			return
		}
	}
}

func listLen(list any) int {
	if l, ok := list.([]any); ok {
		return len(l)
	}
	return jsonv.Deref(list).Len()
}

// toList copies any slice or array into a []any.
func toList(v any) ([]any, bool) {
	if l, ok := v.([]any); ok {
		return l, true
	}
	if v == nil {
		return nil, false
	}
	rv := jsonv.Deref(v)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return nil, false
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out, true
}

func ternary(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

// formatValue writes a value as JSON (strings quoted, no HTML escaping), or
// with %v when it has no JSON form.
func formatValue(v any) string {
	b, err := jsonv.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}

// Pass runs every condition as Eval does — each key read through env, in
// declared order, none skipped — and keeps only the outcome: bit i of bits
// is set when condition i passed, matched when all did. It files no
// evidence, so it allocates nothing; Eval on the same values files the
// evidence these bits summarise. ok is false when a condition panicked:
// the caller then uses Eval, whose Outcome says so. Only the first 64
// conditions have a bit (PassBits packs an Outcome's marks the same way).
func (f *Filter) Pass(env Env) (bits uint64, matched, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			bits, matched, ok = 0, false, false
		}
	}()
	matched = true
	for i := range f.conds {
		c := &f.conds[i]
		pass := c.passHead(head(env, c.segs))
		if pass && i < 64 {
			bits |= 1 << i
		}
		matched = matched && pass
	}
	return bits, matched, true
}

// PassBits packs the pass marks of an Outcome's conditions as Pass does.
func PassBits(o Outcome) uint64 {
	var bits uint64
	for i, c := range o.Conditions {
		if c.Pass && i < 64 {
			bits |= 1 << i
		}
	}
	return bits
}
