package rules

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/vm/runtime"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// The size bounds of what an expression builds and yields. expr's memory
// budget counts the list and map elements its VM allocates, not strings,
// nor what its builtins build (join, replace, concat, flatten, toJSON,
// string), and it is per evaluation: a `set` in a loop doubling a string
// with join([s, s], "") grew past any memory in 40 passes, each one
// evaluation within every budget. Two bounds close that, both measured as
// sizeOf measures (a string's bytes, 16 bytes an element):
//
//	what one evaluation builds        DefaultTextBudget, every builder below
//	                                  charged BEFORE it builds
//	the value an expression yields    DefaultMaxValue, measured after it ran
//
// The builders charged, each the size of its result:
//
//	a + b (strings)     len(a) + len(b)
//	repeat(s, n)        len(s) · n
//	join(list, glue)    every element's text and the glue between them
//	replace(s, o, n)    len(s) + count(o) · (len(n) − len(o))
//	concat(l…)          every argument's elements
//	flatten(l)          the nested lists' elements, shared ones counted each time
//	toJSON(v), string(v) the size of v, shared parts counted each time
//
// Every other builtin makes a result no larger than a constant times its
// arguments (upper, trim, split, keys, sort, map over a list the memory
// budget counts …), so with the arguments bounded so is the result.
const (
	// DefaultTextBudget bounds what one evaluation may build with the
	// builders above, in bytes.
	DefaultTextBudget = 8 << 20
	// DefaultMaxValue bounds the value one evaluation may yield, in bytes
	// (rules.WithMaxValue; a chart has no knob).
	DefaultMaxValue = 8 << 20
)

// ErrTextBudget is the failure of an expression that built too much.
var ErrTextBudget = fmt.Errorf("the expression built more than %d MiB of text and lists (+, repeat, join, replace, concat, flatten, toJSON, string): keep less, a count, a slice or the last lines", DefaultTextBudget>>20)

// ErrValueTooLarge is the failure of an expression whose value is larger
// than its bound (DefaultMaxValue unless WithMaxValue says otherwise).
var ErrValueTooLarge = errors.New("the expression yields a value too large for a run to keep")

// WithMaxValue bounds the value one evaluation may yield, in bytes as
// DefaultMaxValue counts them; 0 means DefaultMaxValue.
func WithMaxValue(n int) Option { return func(o *options) { o.maxValue = n } }

// addFunc and budgetKey are names no source can spell: "+" is patched into
// a call of addFunc, and each builder into a call of its bounded twin, each
// charging what it builds to the budget the evaluation puts in its
// environment under budgetKey.
const (
	addFunc   = "\x00add"
	budgetKey = "\x00text"
)

// elemSize is what a list element or an object member costs besides its
// contents: an interface value.
const elemSize = 16

// textBudget is what one evaluation has left to build.
type textBudget struct{ left int }

// charge takes n from the budget, or says it is spent.
func (tb *textBudget) charge(n int) error {
	if n < 0 || n > tb.left {
		tb.left = -1
		return ErrTextBudget
	}
	tb.left -= n
	return nil
}

// boundedAdd is `+`: two strings charged to the evaluation's text budget,
// two whole numbers held to the sum they spell (checkedAdd, exprarith.go),
// everything else as expr adds them. Its last parameter is the operation
// as written, for the error.
func boundedAdd(params ...any) (any, error) {
	a, b := params[0], params[1]
	if sa, ok := a.(string); ok {
		if sb, ok := b.(string); ok {
			if tb, ok := params[2].(*textBudget); ok {
				if err := tb.charge(len(sa) + len(sb)); err != nil {
					return nil, err
				}
			}
			return sa + sb, nil
		}
	}
	if v, ok, err := checkedAdd(a, b, params[3]); ok {
		return v, err
	}
	if why := besideText(a, b, "+"); why != "" {
		return nil, fmt.Errorf("%s: %s", params[3], why)
	}
	return runtime.Add(a, b), nil
}

// builders maps each builtin patched into its bounded twin to the size of
// what it would build from its arguments (capped: it stops counting past
// the cap).
var builders = map[string]func(args []any, limit int) int{
	"repeat": func(args []any, limit int) int {
		s, _ := args[0].(string)
		n, ok := wholeArg(args, 1)
		if !ok || n <= 0 || len(s) == 0 {
			return 0
		}
		if n > limit/len(s) {
			return limit + 1
		}
		return len(s) * n
	},
	"join": func(args []any, limit int) int {
		glue := ""
		if len(args) > 1 {
			glue, _ = args[1].(string)
		}
		list := reflect.ValueOf(args[0])
		if list.Kind() != reflect.Slice && list.Kind() != reflect.Array {
			return 0
		}
		n := 0
		for i := 0; i < list.Len() && n <= limit; i++ {
			if s, ok := list.Index(i).Interface().(string); ok {
				n += len(s)
			}
			if i > 0 {
				n += len(glue)
			}
		}
		return n
	},
	"replace": func(args []any, limit int) int {
		if len(args) < 3 {
			return 0
		}
		s, _ := args[0].(string)
		old, _ := args[1].(string)
		repl, _ := args[2].(string)
		grow := len(repl) - len(old)
		if grow <= 0 {
			return len(s)
		}
		count := strings.Count(s, old) // linear in s, and s is already built
		if count > (limit-len(s))/grow+1 {
			return limit + 1
		}
		return len(s) + count*grow
	},
	"concat": func(args []any, limit int) int {
		n := 0
		for _, a := range args {
			if v := reflect.ValueOf(a); v.Kind() == reflect.Slice || v.Kind() == reflect.Array {
				n += v.Len() * elemSize
			}
			if n > limit {
				break
			}
		}
		return n
	},
	"flatten": func(args []any, limit int) int { return elements(args[0], limit) },
	"toJSON":  func(args []any, limit int) int { return sizeOf(args[0], limit) },
	"string":  func(args []any, limit int) int { return sizeOf(args[0], limit) },
}

// bounded is the twin of builtin name: it charges what the builtin would
// build to the evaluation's budget (the last argument), and only then
// calls expr's own.
func bounded(name string) func(params ...any) (any, error) {
	b := builtin.Builtins[builtin.Index[name]]
	size := builders[name]
	return func(params ...any) (any, error) {
		args := params[:len(params)-1]
		if len(args) == 0 {
			return nil, fmt.Errorf("%s: no arguments", name)
		}
		if tb, ok := params[len(params)-1].(*textBudget); ok {
			if err := tb.charge(size(args, tb.left)); err != nil {
				return nil, err
			}
		}
		if name == "string" {
			if k := jsonv.Of(args[0]); k == jsonv.Object || k == jsonv.List {
				// expr's string() is Go's print: a row's cell read
				// map[isSemVerMajor:true name:x] over npm audit's
				// fixAvailable (TestStringOfAnObjectSaysToJSON)
				return nil, fmt.Errorf("string() of %s gives Go's print of it (map[…], [a b]), no text a chart reads: toJSON(x) writes it as JSON", jsonv.Describe(args[0]))
			}
		}
		switch {
		case b.Func != nil:
			return b.Func(args...)
		case b.Safe != nil:
			v, _, err := b.Safe(args...)
			return v, err
		case b.Fast != nil && len(args) == 1:
			return b.Fast(args[0]), nil
		}
		return nil, fmt.Errorf("%s: cannot be called here", name)
	}
}

// builderFuncs are the bounded twins, as Compile's expr options.
func builderFuncs() []expr.Option {
	opts := []expr.Option{expr.Function(addFunc, boundedAdd)}
	for name := range builders {
		opts = append(opts, expr.Function("\x00"+name, bounded(name)))
	}
	return opts
}

// patchAdd rewrites every `+` into a call of boundedAdd, and every builder
// into a call of its bounded twin.
type patchAdd struct {
	patched bool
	texts   map[int]string // the operations as written (the collector's binaries)
}

func (p *patchAdd) Visit(node *ast.Node) {
	var call *ast.CallNode
	switch n := (*node).(type) {
	case *ast.BinaryNode:
		if n.Operator != "+" {
			return
		}
		call = &ast.CallNode{
			Callee:    &ast.IdentifierNode{Value: addFunc},
			Arguments: []ast.Node{n.Left, n.Right, &ast.IdentifierNode{Value: budgetKey}, &ast.StringNode{Value: asWritten(p.texts, n)}},
		}
	case *ast.BuiltinNode:
		if _, ok := builders[n.Name]; !ok {
			return
		}
		args := append(append([]ast.Node{}, n.Arguments...), &ast.IdentifierNode{Value: budgetKey})
		call = &ast.CallNode{Callee: &ast.IdentifierNode{Value: "\x00" + n.Name}, Arguments: args}
	default:
		return
	}
	ast.Patch(node, call)
	p.patched = true
}

// sizeOf is v's size as the budgets count it — a string's bytes, 8 for a
// scalar, elemSize per element or member plus its contents (a member's key
// too) — each shared part counted every time it appears, as any output
// writes it. It stops counting once past limit, so its cost is bounded by
// limit, not by the value.
func sizeOf(v any, limit int) int {
	n := 0
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if n > limit || depth > 10_000 {
			n = limit + 1
			return
		}
		switch x := v.(type) {
		case string:
			n += len(x)
		case []any:
			for _, e := range x {
				n += elemSize
				walk(e, depth+1)
				if n > limit {
					return
				}
			}
		case map[string]any:
			for k, e := range x {
				n += elemSize + len(k)
				walk(e, depth+1)
				if n > limit {
					return
				}
			}
		default:
			rv := reflect.ValueOf(v)
			switch rv.Kind() {
			case reflect.Slice, reflect.Array:
				for i := 0; i < rv.Len() && n <= limit; i++ {
					n += elemSize
					walk(rv.Index(i).Interface(), depth+1)
				}
			case reflect.Map:
				it := rv.MapRange()
				for it.Next() && n <= limit {
					n += elemSize
					walk(it.Key().Interface(), depth+1)
					walk(it.Value().Interface(), depth+1)
				}
			case reflect.String:
				n += rv.Len()
			default:
				n += 8
			}
		}
	}
	walk(v, 0)
	return n
}

// elements is elemSize for each element of v's nested lists, flattened,
// shared ones counted every time, stopping past limit.
func elements(v any, limit int) int {
	n := 0
	var walk func(v reflect.Value, depth int)
	walk = func(v reflect.Value, depth int) {
		for v.Kind() == reflect.Interface && !v.IsNil() {
			v = v.Elem()
		}
		if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
			n += elemSize
			return
		}
		if depth > 10_000 {
			n = limit + 1
			return
		}
		for i := 0; i < v.Len() && n <= limit; i++ {
			walk(v.Index(i), depth+1)
		}
	}
	walk(reflect.ValueOf(v), 0)
	return n
}

// wholeArg reads args[i] as an int, if it is a whole number.
func wholeArg(args []any, i int) (int, bool) {
	if i >= len(args) {
		return 0, false
	}
	switch x := args[i].(type) {
	case int:
		return x, true
	case float64:
		if x >= 0 && x < 1<<62 {
			return int(x), true
		}
		return 1 << 62, true
	}
	return 0, false // expr's own repeat says what is wrong with it
}

// sizeText is n bytes as a person reads a bound: "8 MiB", "4096 bytes".
func sizeText(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
