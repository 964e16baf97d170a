package rules

import (
	"fmt"
	"reflect"
	"time"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm/runtime"
)

// `==` and `!=` in an expression are judged as a filter's eq and ne are,
// by equalCheck, the one home of that judgement:
//
//	null == anything          false, no error (null meets anything: x == nil)
//	two values of one kind    equal as Equal says (1 == 1.0, [1] == [1.0])
//	two kinds that never meet an error naming both kinds and the comparison
//	                          (p.PID == "1" over the number 1)
//
// expr's own `==` is false for a number and a string, so a rule written
// over the wrong kind never matched and its decider went on as if it had
// judged; a filter `{PID: {eq: "1"}}` over the same value was already an
// error. A boolean and a string ("true"), a list or a map and a scalar are
// never equal either, and an author who wrote one meant the value's other
// kind: each is the same error. Two values of a kind outside JSON's (times)
// compare as expr compares them.
//
// `in` over a list (and `not in`) is judged as a filter's in and notIn
// are: a value none of whose kind the list holds (`p.PID in ["1", "2"]`
// over a number) is an error, not false; null, an empty list, and `in`
// over a map (a key) are as expr has them.
//
// Only a comparison whose operands' types expr cannot know when it
// compiles (a scope's values, a member, `#`) is patched into a call of
// one of the functions below (patchEqual), and one of texts an
// expression made (madeText: an element of split(x, "\n") under ==, !=
// or endsWith, `in` such a
// list, `matches` over one); two operands of other known types (`len(x) == 0`, a
// constant) stay expr's own operator, whose checker already refuses known
// kinds that never meet (`1 == "1"`, at load).
//
// `<`, `<=`, `>` and `>=` between two strings are judged as a filter's
// lt, lte, gt and gte are, by compare's textOrder: two numbers written as
// text (`mem.MemAvailable < "2000000 kB"`, `fs.Capacity >= "90%"`) are an
// error, since text would order "900000 kB" after "2000000 kB". Every
// other pair of operands is expr's own ordering, errors and all.
const (
	eqFunc = "\x00eq"
	neFunc = "\x00ne"
	inFunc = "\x00in"
	ltFunc = "\x00lt"
	leFunc = "\x00le"
	gtFunc = "\x00gt"
	geFunc = "\x00ge"
)

// equalityFuncs are the comparisons patchEqual calls, as Compile's expr
// options, each typed as giving a bool so an enclosing expression keeps
// its types.
func equalityFuncs() []expr.Option {
	typ := new(func(any, any, string) bool)
	return []expr.Option{
		expr.Function(eqFunc, func(p ...any) (any, error) { return judgedEqual(p[0], p[1], p[2], false) }, typ),
		expr.Function(neFunc, func(p ...any) (any, error) { return judgedEqual(p[0], p[1], p[2], true) }, typ),
		expr.Function(inFunc, func(p ...any) (any, error) { return judgedIn(p[0], p[1], p[2]) }, typ),
		expr.Function(ltFunc, func(p ...any) (any, error) { return judgedOrder(p[0], p[1], p[2], runtime.Less, isLess, "<") }, typ),
		expr.Function(leFunc, func(p ...any) (any, error) {
			return judgedOrder(p[0], p[1], p[2], runtime.LessOrEqual, isLessOrEqual, "<=")
		}, typ),
		expr.Function(gtFunc, func(p ...any) (any, error) { return judgedOrder(p[0], p[1], p[2], runtime.More, isMore, ">") }, typ),
		expr.Function(geFunc, func(p ...any) (any, error) {
			return judgedOrder(p[0], p[1], p[2], runtime.MoreOrEqual, isMoreOrEqual, ">=")
		}, typ),
	}
}

// judgedOrder is an ordering of a and b: two strings under textOrder (an
// error for two numbers written as text), two numbers as compare orders
// them (want reads its -1, 0 or +1), anything else as expr's own operator
// orders it (op, which panics over kinds with no order; the vm makes that
// the run's error, as it did before the patch).
//
// Two numbers are compare's so that a Go stage's float32 is the number
// the evidence shows (expr widened float32(0.7) to 0.699999988079071, and
// `load < 0.7` held over a value shown as 0.7, where the filter `lt` did
// not), a wide int64 is never rounded into a float64, and a named numeric
// type (type Percent int) is a number as it is to a filter. A
// time.Duration stays expr's: beside a plain number it is an error, not
// a count of nanoseconds.
func judgedOrder(a, b, text any, op func(a, b any) bool, want func(c int) bool, sign string) (any, error) {
	if orderedAsNumbers(a, b) {
		c, reason := compare(a, b)
		if reason != "" {
			return nil, fmt.Errorf("%s: %s", text, reason)
		}
		return want(c), nil
	}
	if x, ok := a.(string); ok {
		if y, ok := b.(string); ok {
			if _, reason := textOrder(x, y); reason != "" {
				return nil, fmt.Errorf("%s: %s", text, reason)
			}
		}
	}
	if reason := timeBesideText(a, b, orderedWith); reason != "" {
		return nil, fmt.Errorf("%s: %s", text, reason)
	}
	if reason := numberBesideDuration(a, b, orderedWith); reason != "" {
		return nil, fmt.Errorf("%s: %s", text, reason)
	}
	// A null, or a number beside a text: expr said only "invalid
	// operation: float64 < string" (a version 0.270 a parse mode read as
	// the number 0.27, beside its minimum written as text). The words
	// hold no value, so a rule that meets it over every item of a foreach
	// is said once, with its count (record.RuleErrors).
	if a == nil || b == nil {
		return nil, fmt.Errorf("%s: %s", text, besideText(a, b, sign))
	}
	if ca, cb := classOf(a), classOf(b); ca == classString && cb == classNumber || ca == classNumber && cb == classString {
		if reason := localeTextBesideNumber(a, b); reason != "" {
			return nil, fmt.Errorf("%s: %s", text, reason)
		}
		return nil, fmt.Errorf("%s: %s", text, numberOrderedWithText)
	}
	return op(a, b), nil
}

// numberOrderedWithText is why a number and a text have no order.
const numberOrderedWithText = `a number cannot be ordered with a text: read the text as a number (float(x); float(trimSuffix(x, "%")) for "95%"), or, where the number was a text a parse mode read as one (a version 0.270 read as 0.27), give that parse numbers: false`

// numberBesideDuration is why a number and a duration cannot be compared
// (how is "compared with" or "ordered with"), "" for any other pair. A
// number has no unit, and a duration is held as nanoseconds, so `==` read
// the number as nanoseconds: dig's TTL 300 beside duration("5m") was a
// plain no, `a.ttl == duration("5m")` false over a TTL of five minutes,
// Consistent (TestNumberBesideDurationIsNoComparison). A TTL, a zone's
// refresh and most tools' ages are seconds: the reason says so.
func numberBesideDuration(a, b any, how string) string {
	_, da := a.(time.Duration)
	_, db := b.(time.Duration)
	if da == db {
		return ""
	}
	n := a
	if da {
		n = b
	}
	if classOf(n) != classNumber {
		return ""
	}
	return fmt.Sprintf("the number %v cannot be %s a duration: a number has no unit, and a duration is held as nanoseconds; say the number's unit: duration(string(x) + \"s\") for seconds, as a DNS TTL or a zone's refresh is, or compare numbers (d.Seconds())", n, how)
}

// orderedWith is timeBesideText's how for a comparison.
const orderedWith = "ordered with"

func isLess(c int) bool        { return c < 0 }
func isLessOrEqual(c int) bool { return c <= 0 }
func isMore(c int) bool        { return c > 0 }
func isMoreOrEqual(c int) bool { return c >= 0 }

// orderedAsNumbers says whether judgedOrder orders a and b by compare: two
// numbers of the comparison law (jsonv.GoKind), neither a time.Duration.
func orderedAsNumbers(a, b any) bool {
	if _, ok := a.(time.Duration); ok {
		return false
	}
	if _, ok := b.(time.Duration); ok {
		return false
	}
	return classOf(a) == classNumber && classOf(b) == classNumber
}

// timeBesideText is why a duration or a time cannot be ordered with a
// string (how is "ordered with"), or met by an arithmetic operator (how
// is `used in "-" with`), saying how to read the string as one; "" for
// any other pair. A duration input (maxAge: {type: duration}) and a
// duration or time a stage kept are text in the scope, so `now() -
// date(x) > maxAge` met "26h" and said only expr's "invalid operation:
// time.Duration > string", and `now() - latest.at` "time.Time - string".
// A time beside arithmetic text that reads as a duration ("26h") is told
// to read it with duration(x), since a time less a duration is the sum
// meant.
func timeBesideText(a, b any, how string) string {
	s, ok := b.(string)
	other := a
	if !ok {
		if s, ok = a.(string); !ok {
			return ""
		}
		other = b
	}
	switch other.(type) {
	case time.Duration:
		return fmt.Sprintf("a duration cannot be %s the text %q: a duration input, or a duration a stage kept, is text in the scope; read it with duration(x)", how, s)
	case time.Time:
		if _, err := time.ParseDuration(s); err == nil && how != orderedWith {
			return fmt.Sprintf("a time cannot be %s the text %q: a duration input, or a duration a stage kept, is text in the scope; read it with duration(x)", how, s)
		}
		return fmt.Sprintf("a time cannot be %s the text %q: a time a stage kept is text in the scope; read it with date(x) (date(x, layout) for a form other than RFC 3339)", how, s)
	}
	return ""
}

// judgedEqual is `a == b` (`a != b` when negated) under equalCheck; text
// is the comparison as written, for the error.
func judgedEqual(a, b, text any, negated bool) (any, error) {
	if reason := numberBesideDuration(a, b, "compared with"); reason != "" {
		return nil, fmt.Errorf("%s: %s", text, reason)
	}
	ca, cb := classOf(a), classOf(b)
	var eq bool
	if ca == classOther && cb == classOther {
		eq = runtime.Equal(a, b)
	} else {
		var reason string
		if eq, reason = equalCheck(a, ca, b, cb); reason != "" && ca == cb {
			return nil, fmt.Errorf("%s: %s", text, reason) // two texts a line end apart
		} else if reason != "" {
			return nil, fmt.Errorf("%s: %s, so they are never equal; make the kinds agree (string(x) == \"1\", int(x) == 1), or test for null with == nil", text, reason)
		}
	}
	return eq != negated, nil
}

// judgedIn is `a in b`: over a list, found as a filter's in finds it
// (Equal), and an error when the list holds no element of a's kind; over
// null an error, as contains over null is; over anything else (a map's
// keys) expr's own in.
func judgedIn(a, b, text any) (any, error) {
	if b == nil {
		// As contains over null (exprtext.go): a Go plugin's nil slice is
		// null, and `"openssl" in inv.missing` was false in silence, a
		// package "present", Consistent, over a list nobody read.
		return nil, fmt.Errorf("%s: in reads a list (or an object's keys), and it is null: a member the object holds as null or lacks (a Go plugin's nil slice is written as null), so no item was read; where it may be null, say what null means: x in (list ?? []), or list != nil && x in list", text)
	}
	if classOf(b) == classMap && classOf(a) != classString && a != nil {
		// expr's own in over a map's keys panicked in reflect's words
		// ("reflect.Value.MapIndex: value of type int is not assignable
		// to type string") over a deny list written as an object of ports
		// to names, {"3389": "RDP"}, whose keys JSON holds as text
		// (TestInOverAnObjectsKeysSaysTheyAreText)
		return nil, fmt.Errorf("%s: in over an object reads its keys, which are text, and the value is %s; write string(x) in …, or list the values: x in values(…)", text, classWords[classOf(a)])
	}
	if classOf(b) != classList {
		return runtime.In(a, b), nil
	}
	ca := classOf(a)
	found, kindSeen, nulls, n := false, ca == classNil, 0, 0
	each(b, func(e any) bool {
		n++
		kindSeen = kindSeen || classOf(e) == ca
		if classOf(e) == classNil {
			nulls++
		}
		found = Equal(a, e)
		return !found
	})
	if !found && !kindSeen && n > 0 && nulls == n {
		// A list of nulls alone is no list of another kind: lsblk -J writes
		// "mountpoints": [null] for a device mounted nowhere, and
		// `"/" in d.mountpoints` was told to make the kinds agree with
		// string(x), which reads nothing there (TestInOverAListOfNullsSaysSo).
		return nil, fmt.Errorf("%s: every element of the list is null (no value: a tool's [null], as lsblk -J writes the mountpoints of a device mounted nowhere, or a member its items lack), so the value was never compared with one; say what null means: x in filter(list, # != nil) reads it as none, any(list, # == x) too", text)
	}
	if !found && !kindSeen && n > 0 {
		return nil, fmt.Errorf("%s: %s, so the value is never in it; make the kinds agree (string(x) in [\"1\"], int(x) in [1])", text, noElementReasons[ca])
	}
	if !found {
		if reason := notFoundIn(a, b); reason != "" {
			return nil, fmt.Errorf("%s: %s", text, reason)
		}
	}
	return found, nil
}

// patchEqual rewrites `==`, `!=`, `in`, the orderings and the text
// operations (contains, startsWith, endsWith: rules/exprtext.go) between
// operands of types unknown at compile time into calls of eqFunc, neFunc,
// inFunc, ltFunc…geFunc and containsFunc…endsWithFunc.
type patchEqual struct {
	texts map[int]string
	// literals are the expression's text literals (negationAsked).
	literals []string
}

func (p patchEqual) Visit(node *ast.Node) {
	n, ok := (*node).(*ast.BinaryNode)
	if !ok || (known(n.Left) && known(n.Right) && !madeText(n)) {
		return
	}
	var fn string
	switch n.Operator {
	case "matches":
		// expr's own matches keeps its regular expression checked when
		// the expression compiles; only the text it reads is judged.
		if !known(n.Left) || madeText(n) {
			fn := matchedTextFunc
			if p.negationAsked(n.Right) {
				fn = matchedTextAskedFunc
			}
			ast.Patch(&n.Left, &ast.CallNode{
				Callee:    &ast.IdentifierNode{Value: fn},
				Arguments: []ast.Node{n.Left, &ast.StringNode{Value: p.textOf(n)}, n.Right},
			})
		}
		return
	case "==":
		fn = eqFunc
	case "!=":
		fn = neFunc
	case "in":
		fn = inFunc
	case "<":
		fn = ltFunc
	case "<=":
		fn = leFunc
	case ">":
		fn = gtFunc
	case ">=":
		fn = geFunc
	case "contains":
		fn = containsFunc
		if p.negationAsked(n.Right) {
			fn = containsAskedFunc
		}
	case "startsWith":
		fn = startsWithFunc
	case "endsWith":
		fn = endsWithFunc
	default:
		return
	}
	ast.Patch(node, &ast.CallNode{
		Callee:    &ast.IdentifierNode{Value: fn},
		Arguments: []ast.Node{n.Left, n.Right, &ast.StringNode{Value: p.textOf(n)}},
	})
}

// negationAsked says whether right, the word contains or matches asks
// for, is written with its negation elsewhere in the expression
// (negationAsked).
func (p patchEqual) negationAsked(right ast.Node) bool {
	word, ok := right.(*ast.StringNode)
	return ok && negationAsked(word.Value, p.literals)
}

// textOf is the operation n as written (asWritten).
func (p patchEqual) textOf(n *ast.BinaryNode) string { return asWritten(p.texts, n) }

// asWritten is the operation n as the collector saw it, by its operator's
// position (texts: the collector's binaries), before other patches
// rewrote its operands; n's own text once the collector did not see it.
func asWritten(texts map[int]string, n ast.Node) string {
	if t, ok := texts[n.Location().From]; ok {
		return t
	}
	return n.String()
}

// madeText says whether n compares a text an expression made of a read
// one (`split(info.stdout, "\n")[2] == "role:master"`, `x in
// split(…)`, `# == …` inside any() over such a list), whose type expr
// knows, so that it is judged as a scope's text is: redis-cli INFO's
// lines end in "\r\n", and split at "\n" each kept its "\r", so
// `"master_link_status:down" in split(info.stdout, "\n")` was a plain no
// over a replica whose link was down, OK, Consistent
// (TestMadeTextIsJudgedAsReadText); and podman ps's `api|Up 2 minutes
// (unhealthy)` split at "|" held "healthy" (TestNegatedWordIsNoContains).
// Two constants are not.
func madeText(n *ast.BinaryNode) bool {
	isText := func(x ast.Node) bool { return x.Type() != nil && x.Type().Kind() == reflect.String }
	_, lc := n.Left.(*ast.StringNode)
	_, rc := n.Right.(*ast.StringNode)
	if lc && rc {
		return false
	}
	switch n.Operator {
	case "==", "!=", "endsWith", "contains":
		return isText(n.Left) && isText(n.Right)
	case "in":
		t := n.Right.Type()
		return isText(n.Left) && t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && t.Elem().Kind() == reflect.String
	case "matches":
		return isText(n.Left) && !lc
	}
	return false
}

// known says whether expr's checker knows n's type (not an interface).
func known(n ast.Node) bool {
	t := n.Type()
	return t != nil && t.Kind() != reflect.Interface
}
