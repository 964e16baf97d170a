package rules

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/vm/runtime"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// `+`, `-` and `*` between two whole numbers give the whole number they
// spell, or an error: never the number a 64-bit register wraps round to.
// `/` by zero is an error too (checkedDiv), never NaN or infinity.
//
//	two whole numbers, result fits int64     expr's own result
//	two whole numbers, result past int64     an error naming the operation,
//	                                         both numbers and what to write
//	anything else (floats, times, texts)     expr's own operator
//
// expr adds and multiplies Go ints as Go does, modulo 2^64, with no word:
// `df -B1` of a 729 PB Lustre filesystem, 700000000000000000 bytes used,
// made `v.Used * 100 / size` -5.19, and a chart judging 96% used said
// `OK`, Consistent. A float never wraps (it rounds), and a byte count
// past int64 is already text or a json.Number, whose arithmetic is an
// error of its own.
//
// `+` is every `+` (patchAdd's call, boundedAdd, textbudget.go); `-` and
// `*` are patched only where an operand's type is unknown when the
// expression compiles (a scope's value), as patchEqual patches: two
// operands of known types (`now() - date(x)`, `len(xs) * 2`) stay expr's
// own, their types kept for what encloses them.
//
// `sum(xs)` and `sum(xs, pred)` are the same: expr adds in its own loop,
// so sum is patched into a call of sumFunc over the list (or over
// map(xs, pred)), which adds as checkedAdd does.
const (
	subFunc = "\x00sub"
	mulFunc = "\x00mul"
	sumFunc = "\x00sum"
	negFunc = "\x00neg"
	intFunc = "\x00int"
	divFunc = "\x00div"
	fltFunc = "\x00float"
)

// arithFuncs are the checked operators patchArith calls, as Compile's
// expr options.
func arithFuncs() []expr.Option {
	return []expr.Option{
		expr.Function(subFunc, func(p ...any) (any, error) { return checkedSub(p[0], p[1], p[2]) }),
		expr.Function(mulFunc, func(p ...any) (any, error) { return checkedMul(p[0], p[1], p[2]) }),
		expr.Function(sumFunc, func(p ...any) (any, error) { return checkedSum(p[0], p[1]) }),
		expr.Function(negFunc, func(p ...any) (any, error) { return checkedNeg(p[0], p[1]) }),
		expr.Function(intFunc, func(p ...any) (any, error) { return checkedInt(p[0], p[1]) }, new(func(any, string) int)),
		expr.Function(fltFunc, func(p ...any) (any, error) { return checkedFloat(p[0], p[1]) }, new(func(any, string) float64)),
		expr.Function(divFunc, func(p ...any) (any, error) { return checkedDiv(p[0], p[1], p[2]) }, new(func(any, any, string) float64)),
	}
}

// knownNoList says expr knows n is no list (sum(1)): the sum is left to
// expr, which refuses it when the expression compiles, at load, in its
// own words, where the checked sum would fail only when it ran.
func knownNoList(n ast.Node) bool {
	k := n.Type().Kind()
	return known(n) && k != reflect.Slice && k != reflect.Array
}

// patchArith rewrites `-` and `*` between operands of types unknown at
// compile time into calls of subFunc and mulFunc, and every sum into a
// call of sumFunc.
type patchArith struct {
	texts    map[int]string      // operations as written (the collector's binaries)
	builtins map[int]builtinCall // builtin calls as written
}

func (p patchArith) Visit(node *ast.Node) {
	if b, ok := (*node).(*ast.BuiltinNode); ok && b.Name == "sum" && len(b.Arguments) > 0 && !knownNoList(b.Arguments[0]) {
		list := b.Arguments[0]
		if len(b.Arguments) == 2 {
			list = &ast.BuiltinNode{Name: "map", Arguments: b.Arguments}
		}
		ast.Patch(node, &ast.CallNode{
			Callee:    &ast.IdentifierNode{Value: sumFunc},
			Arguments: []ast.Node{list, &ast.StringNode{Value: p.builtinText(b)}},
		})
		return
	}
	if b, ok := (*node).(*ast.BuiltinNode); ok && b.Name == "int" && len(b.Arguments) == 1 && !integer(b.Arguments[0]) {
		ast.Patch(node, &ast.CallNode{
			Callee:    &ast.IdentifierNode{Value: intFunc},
			Arguments: []ast.Node{b.Arguments[0], &ast.StringNode{Value: p.builtinText(b)}},
		})
		return
	}
	if b, ok := (*node).(*ast.BuiltinNode); ok && b.Name == "float" && len(b.Arguments) == 1 && !known(b.Arguments[0]) {
		ast.Patch(node, &ast.CallNode{
			Callee:    &ast.IdentifierNode{Value: fltFunc},
			Arguments: []ast.Node{b.Arguments[0], &ast.StringNode{Value: p.builtinText(b)}},
		})
		return
	}
	if u, ok := (*node).(*ast.UnaryNode); ok && u.Operator == "-" && !known(u.Node) {
		ast.Patch(node, &ast.CallNode{
			Callee:    &ast.IdentifierNode{Value: negFunc},
			Arguments: []ast.Node{u.Node, &ast.StringNode{Value: asWritten(p.texts, u)}},
		})
		return
	}
	n, ok := (*node).(*ast.BinaryNode)
	if ok && n.Operator == "/" {
		// Every division, of known types too: float(used) / float(size)
		// is a float64 expr compares itself, NaN and all.
		ast.Patch(node, &ast.CallNode{
			Callee:    &ast.IdentifierNode{Value: divFunc},
			Arguments: []ast.Node{n.Left, n.Right, &ast.StringNode{Value: asWritten(p.texts, n)}},
		})
		return
	}
	if !ok || (known(n.Left) && known(n.Right)) {
		return
	}
	var fn string
	switch n.Operator {
	case "-":
		fn = subFunc
	case "*":
		fn = mulFunc
	default:
		return
	}
	ast.Patch(node, &ast.CallNode{
		Callee:    &ast.IdentifierNode{Value: fn},
		Arguments: []ast.Node{n.Left, n.Right, &ast.StringNode{Value: asWritten(p.texts, n)}},
	})
}

// builtinText is the builtin call b as written, from the collector's tree.
func (p patchArith) builtinText(b *ast.BuiltinNode) string {
	if c, ok := p.builtins[b.Location().From]; ok {
		return c.text
	}
	return b.String()
}

// checkedDiv is `/`: expr's own quotient, save a division by zero, whose
// quotient is no number (0/0 is NaN, x/0 infinite). expr's `>=` between
// two known types ordered NaN as false with no word, so `used * 100 /
// size >= 90` over a filesystem of size 0 was a plain no, where the same
// rule with its threshold an input was a rule error; such a division is
// an error naming it.
func checkedDiv(a, b, text any) (any, error) {
	if f, ok := jsonv.Float(b); ok && f == 0 {
		return nil, fmt.Errorf("%v: %v / %v divides by zero, and the quotient is no number; guard it: say what a zero divisor means in a rule before this one (size == 0 → …), or test it (x != 0 ? y / x : …)", text, a, b)
	}
	return runtime.Divide(a, b), nil
}

// checkedSum is sum over list, each addition as `+` adds (checkedAdd);
// text is the sum as written, for the error.
func checkedSum(list, text any) (any, error) {
	rv := reflect.ValueOf(list)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return nil, fmt.Errorf("%v: sum reads a list, not %T", text, list)
	}
	var acc any = 0
	for i := 0; i < rv.Len(); i++ {
		e := rv.Index(i).Interface()
		v, ok, err := checkedAdd(acc, e, text)
		if err != nil {
			return nil, err
		}
		if !ok {
			v = runtime.Add(acc, e)
		}
		acc = v
	}
	return acc, nil
}

// integer reports whether n's type is known to be a Go int when the
// expression compiles (len(x), a constant): its int() cannot be past int64.
func integer(n ast.Node) bool {
	t := n.Type()
	return t != nil && t.Kind() == reflect.Int
}

// checkedInt is int(x): expr's own, save a number past int64 (a float
// such as float(used) * 100 over a petabyte's bytes, a Go stage's
// uint64), which Go's conversion made -9223372036854775808, so
// int(float(used) * 100) / size was a percent of -12.65 for a
// filesystem 96% full. Such a number is an error.
func checkedInt(x, text any) (any, error) {
	if err := zerosText("int", x, text); err != nil {
		return nil, err
	}
	var f float64
	switch v := x.(type) {
	case float64:
		f = v
	case float32:
		f = float64(v)
	default:
		if b, ok := wholeBig(x); ok && !b.IsInt64() {
			return nil, fmt.Errorf("%v: %v is past the largest whole number an expression holds (%d); keep it a float (round(x), floor(x)), or divide it first", text, x, int64(math.MaxInt64))
		}
		return exprConvert("int", builtin.Int, x)
	}
	if math.IsNaN(f) || f < math.MinInt64 || f >= math.MaxInt64 {
		return nil, fmt.Errorf("%v: %v is past the largest whole number an expression holds (%d); keep it a float (round(x), floor(x)), or divide it first", text, f, int64(math.MaxInt64))
	}
	return int(f), nil
}

// exprConvert is expr's own int(x) or float(x) (conv, named name), its
// refusal (a panic, which expr's VM words as an error when it is its own
// builtin's) returned as the error, and null refused as expr refuses it,
// in the words numberWords says as null.
func exprConvert(name string, conv func(any) any, x any) (v any, err error) {
	if x == nil {
		return nil, fmt.Errorf("invalid operation: %s(%T)", name, x)
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	return conv(x), nil
}

// checkedFloat is float(x): expr's own, save a text Go reads as no
// number or an infinity ("nan", "inf", "Infinity", as Python and awk
// print 0/0 and overflow): float("nan") >= 90 was false with no word, a
// subject no rule judged taken for one under the threshold.
func checkedFloat(x, text any) (any, error) {
	if err := zerosText("float", x, text); err != nil {
		return nil, err
	}
	if s, ok := x.(string); ok {
		if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
			return nil, fmt.Errorf("%v: the text %q is no number (%v), and has no order beside one; say what it means in a rule before this one (x == %q → …)", text, s, f, s)
		}
	}
	return exprConvert("float", builtin.Float, x)
}

// zerosText refuses int() and float() of a text of three zeros or more
// ("000"): curl's %{http_code} prints 000 when no HTTP answer came (a
// refused connection, a timeout), and int("000") >= 400 read a refused
// URL as status 0, so the check said it was up, Consistent
// (testdata/wave-web/many-urls). Such a text means "none" more often than
// the number 0; the chart says which. Two zeros ("00", a minute) read
// as 0, as before. smartctl -A pads its VALUE, WORST and THRESH to three
// digits, where "000" is the number 0: the error says how to read it so
// (TestZerosOnlyTextSaysHowToReadAPaddedZero).
func zerosText(fn string, x, text any) error {
	s, ok := x.(string)
	if t := strings.TrimSpace(s); !ok || len(t) < 3 || strings.Trim(t, "0") != "" {
		return nil
	}
	arg := "x"
	if call := fmt.Sprint(text); strings.HasPrefix(call, fn+"(") && strings.HasSuffix(call, ")") {
		arg = call[len(fn)+1 : len(call)-1]
	}
	return fmt.Errorf("%v: the text %q is zeros only, which a tool prints for no value (curl's %%{http_code} is 000 when no HTTP answer came), not the number 0; say what it means in a rule before this one (x == %q → no-answer), or compare it as text; where the tool pads its numbers with zeros (smartctl -A's THRESH \"000\"), it is the number 0: %s == %q ? 0 : %s(%s)", text, s, s, arg, s, fn, arg)
}

// checkedNeg is unary `-`: the negative of a whole number, of any Go
// integer type (a Go stage's uint64 from statfs, which expr negated
// within uint64: -1000 was 18446744073709550616), or an error when it
// is past int64; expr's own for anything else.
func checkedNeg(a, text any) (any, error) {
	x, ok := wholeBig(a)
	if !ok {
		return runtime.Negate(a), nil
	}
	want := new(big.Int).Neg(x)
	if !want.IsInt64() {
		return nil, fmt.Errorf("%v: -%v is %s, past the smallest whole number an expression holds (%d); make it a float (-float(x))", text, a, want, int64(math.MinInt64))
	}
	if rv := reflect.ValueOf(a); rv.CanInt() {
		// Its own type: a time.Duration's negative is one (expr could not
		// negate it at all).
		neg := reflect.New(rv.Type()).Elem()
		neg.SetInt(want.Int64())
		return neg.Interface(), nil
	}
	return int(want.Int64()), nil
}

// whole is one of +, - and * over two whole numbers: fast answers two
// Go ints (false when the result is past int64), op is expr's own for
// any other pair, exact the result big.Int spells.
type whole struct {
	sign  string
	fast  func(x, y int) (int, bool)
	op    func(a, b any) any
	exact func(z, x, y *big.Int) *big.Int
}

var (
	wholeAdd = whole{"+", func(x, y int) (int, bool) { r := x + y; return r, (x^r)&(y^r) >= 0 }, runtime.Add, (*big.Int).Add}
	wholeSub = whole{"-", func(x, y int) (int, bool) { r := x - y; return r, (x^y)&(x^r) >= 0 }, runtime.Subtract, (*big.Int).Sub}
	wholeMul = whole{"*", func(x, y int) (int, bool) {
		r := x * y
		return r, x == 0 || (r/x == y && !(x == -1 && y == math.MinInt))
	}, runtime.Multiply, (*big.Int).Mul}
)

// apply is w over a and b: the result, or the error of one past int64;
// ok false when either is not a whole number (the caller does as expr
// does).
func (w whole) apply(a, b, text any) (v any, ok bool, err error) {
	if x, isInt := a.(int); isInt {
		if y, isInt := b.(int); isInt {
			if r, fits := w.fast(x, y); fits {
				return r, true, nil
			}
			return nil, true, wrapped(text, w.sign, a, b, w.exact(new(big.Int), big.NewInt(int64(x)), big.NewInt(int64(y))))
		}
	}
	return wholeOp(a, b, text, w.sign, w.op, w.exact)
}

// or is apply, or expr's own operator over a pair of other kinds.
func (w whole) or(a, b, text any) (any, error) {
	v, ok, err := w.apply(a, b, text)
	if !ok {
		if why := besideText(a, b, w.sign); why != "" {
			return nil, fmt.Errorf("%s: %s", text, why)
		}
		return w.op(a, b), nil
	}
	return v, err
}

// checkedAdd is a + b under the rule above; ok false for a pair that is
// not two whole numbers (boundedAdd adds them as expr does).
func checkedAdd(a, b, text any) (any, bool, error) { return wholeAdd.apply(a, b, text) }

// checkedSub is `-` under the rule above.
func checkedSub(a, b, text any) (any, error) { return wholeSub.or(a, b, text) }

// checkedMul is `*` under the rule above.
func checkedMul(a, b, text any) (any, error) { return wholeMul.or(a, b, text) }

// wholeOp is op over two whole numbers of any Go integer types (a Go
// stage's int32, uint64), held to the exact result; ok false when either
// is not a whole number.
func wholeOp(a, b, text any, sign string, op func(a, b any) any, exact func(z, x, y *big.Int) *big.Int) (any, bool, error) {
	x, okA := wholeBig(a)
	y, okB := wholeBig(b)
	if !okA || !okB {
		return nil, false, nil
	}
	want := exact(new(big.Int), x, y)
	got := op(a, b)
	if g, ok := wholeBig(got); !ok || g.Cmp(want) == 0 {
		return got, true, nil
	}
	return nil, true, wrapped(text, sign, a, b, want)
}

// wholeBig is v as a big.Int when v is a Go integer.
func wholeBig(v any) (*big.Int, bool) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return big.NewInt(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return new(big.Int).SetUint64(rv.Uint()), true
	}
	return nil, false
}

// wrapped is the error of a whole-number operation whose result is past
// what the type holds.
func wrapped(text any, sign string, a, b any, want *big.Int) error {
	return fmt.Errorf("%v: %v %s %v is %s, past the largest whole number an expression holds (%d), and whole-number arithmetic would wrap it round to another number; make one side a float, which keeps the size and rounds the last digits (float(x) %s y), or divide before you multiply",
		text, a, sign, b, want, int64(math.MaxInt64), sign)
}

// besideText is why the arithmetic operator sign cannot meet a and b:
// one of them null, or one of them a text: a time or a duration (timeBesideText), or a number,
// saying to read a text that spells one with float(x); "" for any other
// pair, which expr's own operator judges. A parse mode keeps as text a
// number no float64 holds whole (find -printf %T@'s ten decimals), so
// `now().Unix() - f.mtime` said only "invalid operation: int64 - string".
func besideText(a, b any, sign string) string {
	how := `used in "` + sign + `" with`
	if a == nil || b == nil {
		// expr said only "invalid operation: int64 - <nil>" over max([]).
		side := "the left side of %q is"
		switch {
		case a == nil && b == nil:
			side = "both sides of %q are"
		case b == nil:
			side = "the right side of %q is"
		}
		return fmt.Sprintf(side+" null (first() or last() of an empty list, a member its object lacks, a key that holds null), and null is no number; say what null means: (x ?? 0) %s y, or test it first (x != nil && …)", sign, sign)
	}
	if why := timeBesideText(a, b, how); why != "" {
		return why
	}
	s, ok := b.(string)
	other := a
	if !ok {
		if s, ok = a.(string); !ok {
			return ""
		}
		other = b
	}
	if classOf(other) != classNumber {
		return ""
	}
	if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
		return fmt.Sprintf("a number cannot be %s the text %q: it spells a number, which a parse mode keeps as text when a float64 would not hold it whole (find -printf %%T@); read it with float(x)", how, s)
	}
	return fmt.Sprintf("a number cannot be %s the text %q", how, s)
}
