package rules

import (
	"fmt"
	"math/big"
	"reflect"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm/runtime"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// An expression's whole-number arithmetic is exact or an error. expr adds,
// subtracts and multiplies Go ints, which wrap at 2^63 in silence: two
// interface byte counters of 6e18 summed to -6446744073709551616, `rx +
// tx > 0` was false, and a rate written as bytes * 1000 / ms over a busy
// router's cumulative counter was negative, under any threshold. Every
// `+` (boundedAdd), every `-` and `*` whose operands' types expr cannot
// know when it compiles (patchEqual), and sum() (patchAdd) go through
// checkedInts, which says so when the exact result is past what an int
// holds:
//
//	x + y      over 6e18 and 6e18   error: 6000000000000000000 + 6000000000000000000 is past … would wrap to -6446744073709551616
//	x + 3      over 6e18            6000000000000000003
//	x * 1.0    over 6e18            6e+18 (a float, as before)
const (
	subFunc = "\x00sub"
	mulFunc = "\x00mul"
	sumFunc = "\x00sum"
)

// arithFuncs are the operations patchEqual and patchAdd call, as
// Compile's expr options.
func arithFuncs() []expr.Option {
	typ := new(func(any, any, string) any)
	return []expr.Option{
		expr.Function(subFunc, func(p ...any) (any, error) {
			if err := checkedInts(p[0], p[1], "-", p[2]); err != nil {
				return nil, err
			}
			return runtime.Subtract(p[0], p[1]), nil
		}, typ),
		expr.Function(mulFunc, func(p ...any) (any, error) {
			if err := checkedInts(p[0], p[1], "*", p[2]); err != nil {
				return nil, err
			}
			return runtime.Multiply(p[0], p[1]), nil
		}, typ),
		expr.Function(sumFunc, checkedSum, new(func(any) any)),
	}
}

// checkedInts is nil unless a and b are both whole numbers of Go's signed
// kinds whose exact a op b no int64 holds; then it is the error, in words
// that say what to write. text is the operation as written ("" when not
// known).
func checkedInts(a, b any, op string, text any) error {
	x, ok := signedInt(a)
	if !ok {
		return nil
	}
	y, ok := signedInt(b)
	if !ok {
		return nil
	}
	exact := new(big.Int)
	switch op {
	case "+":
		exact.Add(big.NewInt(x), big.NewInt(y))
	case "-":
		exact.Sub(big.NewInt(x), big.NewInt(y))
	case "*":
		exact.Mul(big.NewInt(x), big.NewInt(y))
	}
	if exact.IsInt64() {
		return nil
	}
	var wrapped any
	switch op {
	case "+":
		wrapped = x + y
	case "-":
		wrapped = x - y
	case "*":
		wrapped = x * y
	}
	msg := fmt.Sprintf("%d %s %d is past what a whole number holds here (-9223372036854775808 to 9223372036854775807), and would wrap to %v; compute it in decimals where about 15 digits will do, float(x) %s y, or divide before you multiply (x / 1000 * 8)", x, op, y, wrapped, op)
	if s, ok := text.(string); ok && s != "" {
		msg = s + ": " + msg
	}
	return fmt.Errorf("%s", msg)
}

// signedInt is v as an int64 when it is a Go signed integer (jsonv's int,
// a Go stage's int64); an unsigned one, a float or anything else is left
// to expr's own arithmetic.
func signedInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int64:
		return x, true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int(), true
	}
	return 0, false
}

// checkedSum is sum(list): expr's, each addition checked by checkedInts.
func checkedSum(params ...any) (any, error) {
	list := reflect.ValueOf(params[0])
	if params[0] == nil {
		return nil, fmt.Errorf("sum: the list it was given is null (a key that holds null, or a member its object lacks); where null means none, write x ?? []")
	}
	if list.Kind() != reflect.Slice && list.Kind() != reflect.Array {
		return nil, fmt.Errorf("sum: it takes a list and was given %s", jsonv.Describe(params[0]))
	}
	var total any = 0
	for i := range list.Len() {
		v := list.Index(i).Interface()
		if err := checkedInts(total, v, "+", "sum"); err != nil {
			return nil, err
		}
		total = runtime.Add(total, v)
	}
	return total, nil
}

// patchSum rewrites sum(list) into checkedSum(list), and sum(list,
// predicate) into checkedSum(map(list, predicate)); a sum over a value
// expr knows is no list (sum(1)) is left to expr, which refuses it when
// the expression compiles, in its own words.
func patchSum(node *ast.Node) bool {
	n, ok := (*node).(*ast.BuiltinNode)
	if !ok || n.Name != "sum" || len(n.Arguments) == 0 || len(n.Arguments) > 2 {
		return false
	}
	list := n.Arguments[0]
	if t := list.Type(); known(list) && t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
		return false // expr's own refusal when it compiles: sum(1)
	}
	if len(n.Arguments) == 2 {
		list = &ast.BuiltinNode{Name: "map", Arguments: []ast.Node{n.Arguments[0], n.Arguments[1]}}
	}
	ast.Patch(node, &ast.CallNode{Callee: &ast.IdentifierNode{Value: sumFunc}, Arguments: []ast.Node{list}})
	return true
}
