package rules

import (
	"errors"
	"fmt"
	"iter"
	"maps"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"

	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/internal/parse"
	"github.com/openrunbook/runbook/internal/suggest"
)

// The expression budgets, unless an Option says otherwise.
const (
	// DefaultMaxNodes bounds an expression's syntax tree (expr.MaxNodes).
	DefaultMaxNodes uint = 5000
	// DefaultMemoryBudget bounds what one evaluation may allocate, in the
	// VM's units (about one per element of a list or map built).
	DefaultMemoryBudget uint = 1_000_000
)

// Option tunes Compile.
type Option func(*options)

type options struct {
	maxNodes     uint
	memoryBudget uint
	maxValue     int
}

// WithMaxNodes bounds the expression's syntax tree; 0 lifts the bound.
func WithMaxNodes(n uint) Option { return func(o *options) { o.maxNodes = n } }

// WithMemoryBudget bounds what one evaluation may allocate (vm.VM's
// MemoryBudget); 0 means DefaultMemoryBudget.
func WithMemoryBudget(n uint) Option { return func(o *options) { o.memoryBudget = n } }

// CompileError is an expression that does not compile. Line and Column are
// 1-based and count runes within the expression's source, so a loader that
// knows where the expression starts in its file can point at the spot.
type CompileError struct {
	Src    string
	Line   int
	Column int
	Msg    string
}

// Error reads `expression "a <": 1:3: unexpected token EOF`.
func (e *CompileError) Error() string {
	return fmt.Sprintf("expression %q: %d:%d: %s", e.Src, e.Line, e.Column, e.Msg)
}

// Expr is the expression form of a rule, compiled once. It is a Predicate
// (it matches when it evaluates to true) and a Valuer (its value is whatever
// it evaluates to). It is immutable and safe for concurrent use.
type Expr struct {
	src     string
	program *vm.Program
	roots   []string   // top-level identifiers read, source order, each once
	idents  []Ident    // the bare identifiers among them, where first written
	paths   []exprPath // inputs: paths read, source order, each once
	// memberReads are the scope keys' first members read (MemberReads).
	memberReads []MemberRead
	// members are the member paths read without a guard (?., ??, a
	// comparison with nil): a rule reading one its object lacks errs.
	members []exprPath
	// guardedMembers are the member paths read under a guard, which are
	// judged for a member read in another case alone (caseTypo).
	guardedMembers []exprPath
	// gated is set when each evaluation marks the members it read
	// (patchSeen) and only those are judged; always marks those judged
	// whether read or not (read through $env).
	gated  bool
	always uint64
	// compares are the member paths compared with text literals
	// (Comparisons).
	compares []Comparison
	budget   uint
	// maxValue bounds the size of the value one evaluation yields.
	maxValue int
	// wholeEnv is set when the expression uses $env as a value: its env map
	// may then outlive the evaluation and is not pooled.
	wholeEnv bool
	// texts is set when the expression has a `+` or a builder (join,
	// repeat, …): each evaluation then carries a text budget (see
	// DefaultTextBudget).
	texts bool
	// clock is set when the expression calls now(): each evaluation reads
	// the time once, from its Env (timeOf), and says what it read.
	clock bool
	// local is set when it calls date(x, layout, "Local") or date(x,
	// layout): each evaluation reads this machine's zone from its Env
	// (zoneOf).
	local bool
	// indexes is set when it reads a member by a computed key
	// (patchIndex): each evaluation carries a note of the first such
	// member its object lacked.
	indexes bool
	// vacuous is set when it calls all(): each evaluation carries a note
	// of the first all() that went over no items (patchVacuous).
	vacuous bool
	// extreme is set when it calls max() or min() of one argument: each
	// evaluation carries a note of the first that went over no items
	// (patchExtreme).
	extreme bool
	// shared is set when the program holds a list or an object among its
	// constants (expr folds a literal [1, 2] into one): each evaluation's
	// value is then copied (jsonv.Copy), since it may be that constant,
	// or hold it, and every run of the chart would share it — a caller
	// that edited one run's result (res.Record.State["ports"][0]) changed
	// what the next run's set: wrote.
	shared bool
}

type exprPath struct {
	text string
	segs []string
	// texts are segs[1:] as written (`.b`, `[0]`, `["y-z"]`).
	texts []string
}

// Compile compiles an expr-lang expression once, for evaluation against any
// scope. There is no static environment: scope keys are whatever the
// expression names. The sandbox:
//
//   - only expr's builtins and this package's functions (funcs.go:
//     parse, and date in place of expr's) can be called (len, all,
//     filter, map, now, …); now() reads the time the Env says
//     (rules.Clock, clock.go), once an evaluation;
//     calling any other name is a compile error — no host function is
//     reachable;
//   - the syntax tree is bounded (WithMaxNodes) and so is what one
//     evaluation may allocate (WithMemoryBudget); expr has no unbounded
//     loops, so an evaluation always ends.
//
// Methods of the values the scope holds remain callable (expr's rule): keep
// live handles out of the scope.
//
// At compile time Compile collects what the expression reads: its root
// identifiers and the member paths with constant names rooted at one
// (`volume.replicas`, `a.b[0]`, `x["y-z"]`, `$env.key`), in source order.
// Closure pointers (`#`, `.field` inside a predicate), builtin names and
// `let` variables are not reads. A bare `$env` sees only the keys the
// expression names elsewhere.
//
// A syntax error is a *CompileError with line and column.
func Compile(src string, opts ...Option) (e *Expr, err error) {
	o := options{maxNodes: DefaultMaxNodes, memoryBudget: DefaultMemoryBudget}
	for _, opt := range opts {
		opt(&o)
	}
	if o.memoryBudget == 0 {
		o.memoryBudget = DefaultMemoryBudget
	}
	if o.maxValue <= 0 {
		o.maxValue = DefaultMaxValue
	}
	defer func() {
		if r := recover(); r != nil {
			e, err = nil, &CompileError{Src: src, Line: 1, Column: 1, Msg: fmt.Sprintf("compiler failed: %v", r)}
		}
	}()

	cfg := conf.CreateNew()
	cfg.MaxNodes = o.maxNodes
	tree, err := parser.ParseWithConfig(src, cfg)
	if err != nil {
		return nil, compileError(src, err)
	}
	c := collector{src: src, pred: -1, bothCases: bothCases(tree.Node)}
	c.walk(tree.Node)
	if c.err != nil {
		return nil, c.err
	}
	adds := &patchAdd{texts: c.binaries}
	var local []expr.Option
	if c.local {
		// first: the calls it rewrites are the operands the other patches wrap
		local = append(localFuncs(), expr.Patch(patchLocal{}))
	}
	copts := append(append(local, builderFuncs()...), arithFuncs()...)
	copts = append(append(append(append(append(append(copts, equalityFuncs()...), textFuncs()...), sortFuncs()...), itemsFuncs()...), funcOptions(c.calls)...), expr.MaxNodes(o.maxNodes), expr.Patch(patchSort{c.builtins}), expr.Patch(patchMember{c.builtins}), expr.Patch(adds), expr.Patch(patchArith{texts: c.binaries, builtins: c.builtins}), expr.Patch(patchEqual{texts: c.binaries, literals: textLiterals(tree.Node)}))
	// last: it wraps what the others made, before the optimizer sees it
	copts = append(append(copts, lastFuncs()...), expr.Patch(patchLast{}))
	if len(c.indexes) > 0 {
		// first: the member reads it wraps are operands of the others
		copts = append([]expr.Option{indexFuncs(), expr.Patch(patchIndex{c.indexes, c.guardedNames})}, copts...)
	}
	// before all: it names all()'s list as the author wrote it
	vac := &patchVacuous{}
	ext := &patchExtreme{}
	copts = append([]expr.Option{vacuousFuncs(), expr.Patch(vac), extremeFuncs(), expr.Patch(ext)}, copts...)
	if c.clock {
		copts = append(append(copts, clockFuncs()...), expr.Patch(patchNow{}))
	}
	// The member paths read without a guard, each once, and where each
	// is read: the reads through a bare identifier are judged where they
	// are evaluated (patchSeen), those through $env always.
	slices.SortStableFunc(c.refs, func(a, b ref) int { return a.pos - b.pos })
	var members []exprPath
	var always uint64
	seen := map[int]seenAt{}
	memberAt := map[string]int{}
	var guardedMembers []exprPath
	guardedAt := map[string]bool{}
	for _, r := range c.refs {
		if r.guarded && len(r.segs) >= 2 && !guardedAt[r.text] && !slices.ContainsFunc(r.segs[1:], c.readInBothCases) {
			guardedAt[r.text] = true
			guardedMembers = append(guardedMembers, exprPath{text: r.text, segs: r.segs, texts: r.texts})
		}
		if r.guarded || len(r.segs) < 2 {
			continue
		}
		i, ok := memberAt[r.text]
		if !ok {
			i = len(members)
			memberAt[r.text] = i
			members = append(members, exprPath{text: r.text, segs: r.segs, texts: r.texts})
		}
		if r.env && i < seenMax {
			always |= 1 << i
		} else if !r.env {
			seen[r.pos] = seenAt{name: r.segs[0], i: i}
		}
	}
	gated := len(seen) > 0 && len(members) <= seenMax
	if gated {
		copts = append(copts, seenFuncs(), expr.Patch(patchSeen{at: seen, done: map[*ast.IdentifierNode]bool{}}))
	}
	program, err := expr.Compile(src, copts...)
	if err != nil {
		ce := compileError(src, err)
		if name := c.builtinRead(); name != "" {
			ce.Msg += fmt.Sprintf(" (%s is the name of an expression builtin, %s(…): an expression reads the name as the function, so a key named %s cannot be read here; rename the key, or read it as $env[%q])", name, name, name, name)
		}
		return nil, ce
	}

	e = &Expr{src: src, program: program, budget: o.memoryBudget, maxValue: o.maxValue, wholeEnv: c.wholeEnv, texts: adds.patched, clock: c.clock, local: c.local, indexes: len(c.indexes) > 0, vacuous: vac.patched, extreme: ext.patched, shared: sharesConstants(program), compares: c.compares, members: members, guardedMembers: guardedMembers, gated: gated, always: always}
	seenPath := map[string]bool{}
	seenRoot := map[string]bool{}
	seenIdent := map[string]bool{}
	for _, r := range c.refs {
		if !seenRoot[r.segs[0]] {
			seenRoot[r.segs[0]] = true
			e.roots = append(e.roots, r.segs[0])
		}
		if !r.env && !seenIdent[r.segs[0]] {
			seenIdent[r.segs[0]] = true
			line, col := position(src, r.pos)
			e.idents = append(e.idents, Ident{Name: r.segs[0], Offset: r.pos, Line: line, Column: col})
		}
		if !seenPath[r.text] {
			seenPath[r.text] = true
			e.paths = append(e.paths, exprPath{text: r.text, segs: r.segs})
		}
		if !r.env && len(r.segs) > 1 && !slices.ContainsFunc(e.memberReads, func(m MemberRead) bool { return m.Root == r.segs[0] && m.Member == r.segs[1] }) {
			line, col := position(src, r.pos)
			e.memberReads = append(e.memberReads, MemberRead{Root: r.segs[0], Member: r.segs[1], Line: line, Column: col})
		}
	}
	return e, nil
}

// MustCompile is Compile for expressions fixed in Go source: it panics on an
// error, at build time.
func MustCompile(src string, opts ...Option) *Expr {
	e, err := Compile(src, opts...)
	if err != nil {
		panic("rules.MustCompile: " + err.Error())
	}
	return e
}

// Eval evaluates the expression as a rule: it matches when the result is
// true. A result that is not a boolean, or an evaluation that fails, is a
// non-match with Err saying why. The evidence carries the expression text,
// its result and every input read. Eval never panics.
//
// A rule that reads a member its object does not have (`volume.usedPtc`
// where the volume has usedPct) is a non-match with Err naming the member,
// the nearest one the object has and its members — whether or not the
// expression errored over the null it read: a typo in a rule is never a
// silent "no". A read written to allow absence (`volume?.x`, `volume.x ??
// 0`, `volume.x == nil`) is not such a read.
func (e *Expr) Eval(env Env) Outcome {
	res, inputs, absent, _, vacuous, err := e.value(env)
	out := Outcome{Expr: e.src, Result: res, Inputs: inputs, vacuous: vacuous}
	if absent != "" {
		out.Err = absent
		return out
	}
	if err != nil {
		out.Err = err.Error()
		return out
	}
	b, ok := res.(bool)
	if !ok {
		out.Err = "the rule must be true or false; it gave " + describe(res)
		return out
	}
	out.Matched = b
	return out
}

// Value evaluates the expression. Each root identifier is read once, with
// env.Get, before the run; the inputs are every path the expression names
// with the value it had (nil when missing), in source order. Value never
// panics: a failure is an error naming the line and column.
//
// The value is a JSON value (jsonv.Normalize): `fromPairs`, `groupBy` and
// any map with non-string keys come out as objects with string keys, typed
// lists as []any, times as RFC 3339 text. This is the one place an
// expression's value is made JSON, so whatever a stage writes from one can
// be written as JSON by every output; a value JSON cannot hold (NaN, ±Inf)
// is an error.
//
// A member read its object lacks while the object has one a typo away
// (`vol.usedPtc` where vol has usedPct) is an error naming both: expr
// reads it as null, and a set: that wrote null where the author meant a
// number made a later `== "full"` a silent no. A member with no near name
// in its object reads as null, as JSON's optional fields do.
func (e *Expr) Value(env Env) (result any, inputs []Input, err error) {
	result, inputs, _, err = e.ValueNoting(env)
	return result, inputs, err
}

// ValueNoting is Value, and also says, in absent, the first member read
// its object lacks with no near name, which Value reads as null: a set:
// that copies such a read (`ready: d.status.readyReplicas`, a field
// Kubernetes leaves out at zero) writes null, and a later `ready == 0`
// is a plain no. The stage says so (runbook's set: files it on the
// ledger) rather than refusing it, as an optional field read may be
// meant; a read written to allow absence is not such a read.
func (e *Expr) ValueNoting(env Env) (result any, inputs []Input, absent string, err error) {
	result, inputs, absent, typo, _, err := e.value(env)
	if typo || err != nil && absent != "" {
		// A failure that follows from a member its object lacks, or from
		// a member of a text, a number or a boolean, is said as that, as
		// a rule says it: `xacts.stdout.hidden > 0` over output parse:
		// json kept as text said only that int() could not read a text.
		return nil, inputs, "", errors.New(absent)
	}
	return result, inputs, absent, err
}

// value is Value. It says which member path, if any, read a member its
// object lacks: the first one with a near name in its object (typo), or
// else the first.
func (e *Expr) value(env Env) (result any, inputs []Input, absent string, typo bool, vacuous string, err error) {
	st := statePool.Get().(*evalState)
	vars := st.env
	if e.wholeEnv {
		vars = make(map[string]any, len(e.roots))
	}
	defer func() {
		if r := recover(); r != nil {
			result, err = nil, fmt.Errorf("expression %q: %v", e.src, r)
		}
		clear(st.env)
		clear(st.vm.Variables)
		statePool.Put(st)
	}()
	if env != nil {
		for _, r := range e.roots {
			if v, ok := env.Get(r); ok {
				vars[r] = v
			}
		}
	}
	if e.texts {
		vars[budgetKey] = &textBudget{left: DefaultTextBudget}
	}
	var now time.Time
	if e.clock {
		now = timeOf(env)
		vars[clockKey] = now
	}
	if e.local {
		vars[zoneKey] = zoneOf(env)
	}
	var empty *vacuousNote
	if e.vacuous {
		empty = &vacuousNote{}
		vars[vacuousKey] = empty
	}
	var none *extremeNote
	if e.extreme {
		none = &extremeNote{}
		vars[extremeKey] = none
	}
	var missed *indexNote
	if e.indexes {
		missed = &indexNote{}
		vars[indexKey] = missed
	}
	var seen *seenNote
	if e.gated {
		seen = &seenNote{mask: e.always}
		vars[seenKey] = seen
	}
	st.vm.MemoryBudget = e.budget
	result, err = st.vm.Run(e.program, vars)
	if err != nil {
		err = runtimeError(err, e.src, vars)
		result = nil
	} else if result, err = jsonv.Normalize(result); err != nil {
		var nf *jsonv.NotFiniteError
		if errors.As(err, &nf) {
			// The stage that runs it names itself and the expression.
			err = fmt.Errorf("it yields %w; guard it (total > 0 ? used / total * 100 : 0)", err)
		} else {
			err = fmt.Errorf("its value is not a JSON value: %w", err)
		}
		result = nil
	} else if sizeOf(result, e.maxValue) > e.maxValue {
		// Past this a value would grow from pass to pass of a loop
		// (join([s, s], "")) until the machine ran out of memory.
		err = fmt.Errorf("%w: more than %s (its text, and 16 bytes an element, counted); keep less — a count, a slice, the last lines", ErrValueTooLarge, sizeText(e.maxValue))
		result = nil
	} else if e.shared {
		result = jsonv.Copy(result)
	}
	if len(e.paths) > 0 {
		in := make(Inputs, len(e.paths))
		for i, p := range e.paths {
			in[i].Path = p.text
			if v, ok := vars[p.segs[0]]; ok {
				in[i].Value, _ = stepAll(v, p.segs[1:])
			}
		}
		inputs = in
	}
	if e.clock {
		inputs = append(inputs, Input{Path: ClockInput, Value: now.Format(time.RFC3339Nano)})
	}
	for i, p := range e.members {
		if seen != nil && seen.mask&(1<<i) == 0 {
			continue // a guard kept the evaluation from reading it
		}
		if v, ok := vars[p.segs[0]]; ok {
			if msg, near := absentMember(v, p); near {
				absent, typo = msg, true
				break
			} else if absent == "" {
				absent = msg
			}
		}
	}
	if !typo {
		for _, p := range e.guardedMembers {
			if v, ok := vars[p.segs[0]]; ok {
				if msg := caseTypo(v, p); msg != "" {
					absent, typo = msg, true
					break
				}
			}
		}
	}
	if missed != nil && absent == "" {
		absent, typo = missed.msg, missed.near
	}
	if none != nil && absent == "" {
		absent = none.msg
	}
	if empty != nil {
		vacuous = empty.msg
	}
	return result, inputs, absent, typo, vacuous, err
}

// reservedPrefix begins the reserved keys of a declared absence or
// ledger; reading one an object lacks is how a chart asks "is this an
// absence?", not a typo.
const reservedPrefix = "af_"

// maxMembersNamed bounds how many of an object's members an absent-member
// error lists.
const maxMembersNamed = 12

// absentMember walks p from its root value v and, at the first object that
// lacks the next member, says so: the member, the nearest member the
// object has, and its members. A list index out of range, or a step into
// something that is not an object, is not a member read and says nothing.
// near says the object has a member a typo away from the one it lacks.
func absentMember(v any, p exprPath) (msg string, near bool) {
	for i, seg := range p.segs[1:] {
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[seg]
			if !ok {
				return absentText(p, i+1, slices.Collect(maps.Keys(x)))
			}
			v = next
		case []any:
			n, ok := index(seg, len(x))
			if !ok {
				return "", false
			}
			v = x[n]
		default:
			// A Go stage's typed map (map[string]int64, a pod's labels)
			// or list: expr reads a member such a map lacks as its zero
			// value, so a misspelled one compares as 0 or "" in silence.
			rv := jsonv.Deref(v)
			switch {
			case rv.Kind() == reflect.Map && rv.Type().Key().Kind() == reflect.String:
				next := rv.MapIndex(reflect.ValueOf(seg).Convert(rv.Type().Key()))
				if !next.IsValid() {
					keys := make([]string, 0, rv.Len())
					for _, k := range rv.MapKeys() {
						keys = append(keys, k.String())
					}
					return absentText(p, i+1, keys)
				}
				v = next.Interface()
			case rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array:
				n, ok := index(seg, rv.Len())
				if !ok {
					return "", false
				}
				v = rv.Index(n).Interface()
			default:
				if c := classOf(v); c == classString || c == classNumber || c == classBool {
					// A plugin or a command that answered with text where
					// the chart reads an object: expr says only "invalid
					// operation: int(string)" (or "cannot fetch result
					// from float64"), naming neither the value nor what
					// it lacks.
					owner := pathText(p.texts[:i], p.segs[0])
					return fmt.Sprintf("%s is %s (%s), not an object, so it has no member %q: the value is not the shape this expression reads", owner, classWords[c], valueText(v), seg), false
				}
				return "", false
			}
		}
	}
	return "", false
}

// bothCases is the set of member names (lower case) n reads in two
// cases as alternatives of one object, for readInBothCases: the operands
// of a ?? chain, or the branches of a conditional, reading one object's
// member in one case and in another (`c.ID ?? c.Id`, `c.ID != nil ? c.ID
// : c.Id`). Two cases read apart (`p.License == nil || p.license == ""`)
// are no such pair: one of them is a typo, and the misspelling sweep
// (runbook/charttest) found that calling them one cost its catch.
func bothCases(n ast.Node) map[string]bool {
	v := &caseVisitor{}
	ast.Walk(&n, v)
	return v.both
}

// caseVisitor collects bothCases' names.
type caseVisitor struct{ both map[string]bool }

// Visit looks at each ?? chain and conditional for a pair.
func (v *caseVisitor) Visit(node *ast.Node) {
	var parts []ast.Node
	switch x := (*node).(type) {
	case *ast.BinaryNode:
		if x.Operator != "??" {
			return
		}
		parts = []ast.Node{x.Left, x.Right}
	case *ast.ConditionalNode:
		// its branches are the alternatives; its condition may test one
		// case and a branch read another, a typo's shape too
		parts = []ast.Node{x.Exp1, x.Exp2}
	default:
		return
	}
	// each part's member reads by constant name: its object, as written,
	// and the name
	reads := make([]map[string]string, len(parts)) // object + lower name → name
	for i, part := range parts {
		reads[i] = map[string]string{}
		mv := &memberReadVisitor{into: reads[i]}
		ast.Walk(&part, mv)
	}
	for i := range reads {
		for k, name := range reads[i] {
			for j := range reads {
				if other, ok := reads[j][k]; ok && j != i && other != name {
					if v.both == nil {
						v.both = map[string]bool{}
					}
					v.both[strings.ToLower(name)] = true
				}
			}
		}
	}
}

// memberReadVisitor collects the member reads by constant name under a
// node, keyed by their object, as written, and their name in lower case.
type memberReadVisitor struct{ into map[string]string }

// Visit records a member read by a constant name.
func (v *memberReadVisitor) Visit(node *ast.Node) {
	m, ok := (*node).(*ast.MemberNode)
	if !ok {
		return
	}
	if name, ok := m.Property.(*ast.StringNode); ok {
		v.into[m.Node.String()+"\x00"+strings.ToLower(name.Value)] = name.Value
	}
}

// textLiterals are n's text literals, for negationAsked; a member's
// name (s.InactiveEnterTimestamp) is none.
func textLiterals(n ast.Node) []string {
	v := &literalVisitor{names: map[*ast.StringNode]bool{}}
	ast.Walk(&n, v)
	var texts []string
	for _, s := range v.texts {
		if !v.names[s] {
			texts = append(texts, s.Value)
		}
	}
	return texts
}

// literalVisitor collects textLiterals' literals and members' names.
type literalVisitor struct {
	texts []*ast.StringNode
	names map[*ast.StringNode]bool
}

// Visit records a text literal, or a member's name.
func (v *literalVisitor) Visit(node *ast.Node) {
	switch x := (*node).(type) {
	case *ast.StringNode:
		v.texts = append(v.texts, x)
	case *ast.MemberNode:
		if s, ok := x.Property.(*ast.StringNode); ok {
			v.names[s] = true
		}
	}
}

// readInBothCases says whether the expression reads name in another
// case too: a chart written for two writers that spell one member two
// ways reads each under a guard, `c.ID ?? c.Id` over docker ps's ID and
// podman ps's Id, and over podman's the guarded ID is the absence it
// allows, not a typo of Id (caseTypo), where it was a rule error and
// every container not judged
// (TestGuardedMemberReadInBothCasesIsNoTypo).
func (c *collector) readInBothCases(name string) bool {
	return c.bothCases[strings.ToLower(name)]
}

// caseGuardWords end the error for a guarded read of a member its
// object holds in another case alone, over a scope key's path (caseTypo)
// and an item's (judgedPath).
const caseGuardWords = "; a guard (?., ??, == nil) allows a member to be absent, and this one is there in another case, which the guard read as absent; where the keys are names someone chose (labels, tags), and another case is another key, read it with get(OBJECT, \"KEY\")"

// caseTypo says that a guarded read of p (`l.operState ?? ""`,
// `l?.operState`, `l.operState == nil`) reads a member its object holds
// in another case alone ("" when it does not): a typo, never a field left
// out, since no JSON writer leaves a member out under one case and writes
// it under another (memberInOtherCase). The guard read it as absent: ip's
// eth0, DOWN, was `up`, Consistent, under `(l.operState ?? "") ==
// "DOWN"` (TestGuardedMemberInAnotherCaseIsATypo). A member absent with
// no such twin is the absence the guard allows, and is not judged.
func caseTypo(v any, p exprPath) string {
	for i, seg := range p.segs[1:] {
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[seg]
			if ok {
				v = next
				continue
			}
			if !memberInOtherCase(seg, maps.Keys(x)) {
				return ""
			}
			msg, _ := absentText(p, i+1, slices.Collect(maps.Keys(x)))
			return msg + caseGuardWords
		case []any:
			n, ok := index(seg, len(x))
			if !ok {
				return ""
			}
			v = x[n]
		default:
			return ""
		}
	}
	return ""
}

// absentText says that the object at p's step at lacks its member, with
// the object's keys, and whether one is near it; "" for a reserved key.
func absentText(p exprPath, at int, keys []string) (string, bool) {
	seg := p.segs[at]
	if strings.HasPrefix(seg, reservedPrefix) {
		// af_absent, af_coverage: reserved keys (honesty.md §2) an
		// ordinary result lacks by design.
		return "", false
	}
	owner := pathText(p.texts[:at-1], p.segs[0])
	msg, near := memberWords(owner, seg, keys)
	member := "." + seg
	if !isIdent(seg) {
		// sysctl's "net.ipv4.ip_forward", df's "Mounted on": ?.seg
		// would read other members, or not parse.
		member = ".[" + strconv.Quote(seg) + "]"
	}
	if memberInOtherCase(seg, slices.Values(keys)) {
		return msg, near
	}
	return msg + fmt.Sprintf("; if it may be absent, write %s?%s or %s ?? a default", owner, member, p.text), near
}

// memberInOtherCase says whether the object has a member seg names in another
// case (operstate for operState): a misspelling, never a field left out
// (no JSON emitter leaves out a member under one case and prints it under
// another), so an absent member's escape, `?.operState` or `?? a
// default`, is not offered for it: taken, it reads null over every object
// and judges it no value in silence, as ip's links read up with
// `?.operState` did (wave-lineage). A near name in other letters may be
// another field (Kubernetes leaves out availableReplicas beside
// unavailableReplicas), and keeps it.
//
// keys is a sequence so that a guarded read, whose object mostly lacks
// the member because its writer left it out (caseTypo), asks the map
// itself and collects no keys unless it holds one.
func memberInOtherCase(seg string, keys iter.Seq[string]) bool {
	for k := range keys {
		if k != seg && strings.EqualFold(k, seg) {
			return true
		}
	}
	return false
}

// memberWords says that the object owner lacks its member seg: the
// nearest member it has, and its members (keys, sorted in place). An
// expression's absent member and a filter condition's absent key are
// said in these words; each adds how to allow the absence in its own form.
func memberWords(owner, seg string, keys []string) (string, bool) {
	slices.Sort(keys)
	msg := fmt.Sprintf("%s has no member %q", owner, seg)
	near := nearMember(seg, keys)
	if near != "" {
		msg += fmt.Sprintf("; did you mean %q?", near)
	}
	return msg + membersText(keys), near != ""
}

// nearMember is the member of keys a read of seg misspelt, if one is a
// typo away (suggest.Nearest), save the read's opposite: seg with a
// negating prefix (un, in, non, dis) put on or taken off. A JSON writer
// that leaves a zero out writes one of such a pair without the other:
// Kubernetes' status.availableReplicas is left out beside
// unavailableReplicas when no replica is available, and a read of it
// was called a typo of its opposite (TestOppositeMemberIsNoTypo).
func nearMember(seg string, keys []string) string {
	near := suggest.Nearest(seg, keys)
	if near == "" || strings.EqualFold(near, seg) {
		return near
	}
	long, short := strings.ToLower(near), strings.ToLower(seg)
	if len(long) < len(short) {
		long, short = short, long
	}
	for _, p := range []string{"un", "in", "non", "dis"} {
		if long == p+short {
			return ""
		}
	}
	return near
}

// membersText is an object's members (keys, sorted) as an absent-member
// error lists them: " (its members: a, b)", at most maxMembersNamed.
func membersText(keys []string) string {
	switch {
	case len(keys) == 0:
		return " (it is an empty object)"
	case len(keys) > maxMembersNamed:
		return fmt.Sprintf(" (its members: %s, and %d more)", strings.Join(keys[:maxMembersNamed], ", "), len(keys)-maxMembersNamed)
	}
	return fmt.Sprintf(" (its members: %s)", strings.Join(keys, ", "))
}

// String is the expression as written.
func (e *Expr) String() string { return e.src }

// Roots lists the top-level scope keys the expression reads, in source order.
func (e *Expr) Roots() []string { return slices.Clone(e.roots) }

// ReadsNothing reports whether the expression reads nothing a run gives:
// no scope key (input, var, stage's key), not the time (now()), not this
// machine's zone. Its value is then the same on every run: a rule so
// written never depends on what was gathered (`"s.stdout" == "bad"`, a
// name quoted as text, is always false).
func (e *Expr) ReadsNothing() bool {
	return len(e.roots) == 0 && !e.wholeEnv && !e.clock && !e.local
}

// ReadsWholeScope reports whether the expression uses $env as a value
// (`len($env)`), reading every key: its Roots then do not say all it reads.
func (e *Expr) ReadsWholeScope() bool { return e.wholeEnv }

// Comparison is a member path with constant names, rooted at a scope key,
// that an expression compares with text literals: `check.status ==
// "errors"`, `"errors" != check.status`, `check.status in ["a", "b"]`
// (`not in` too). Line and Column (1-based, in runes) are where the path
// is written. A loader holds each to the words the path can have (an exec
// stage's exitCodes: words), since one it can never have makes the
// comparison the same on every run.
type Comparison struct {
	Path         []string
	Words        []string
	Line, Column int
}

// Comparisons lists the expression's comparisons of a member path with
// text literals, in source order.
func (e *Expr) Comparisons() []Comparison {
	out := make([]Comparison, len(e.compares))
	for i, c := range e.compares {
		out[i] = Comparison{Path: slices.Clone(c.Path), Words: slices.Clone(c.Words), Line: c.Line, Column: c.Column}
	}
	return out
}

// Ident is a top-level identifier an expression reads as a scope key,
// where it is first written: Offset counts runes from the start of the
// expression, Line and Column are 1-based and count runes.
type Ident struct {
	Name         string
	Offset       int
	Line, Column int
}

// Idents lists the bare identifiers the expression reads as scope keys, in
// source order, each once, where first written. Everything else an
// expression can name is not among them: member names after a dot, closure
// pointers (`#`, `.field` in a predicate), `let` variables, builtin calls,
// and keys read through `$env` (`$env["per-volume"]`, the way to read a key
// that is not an identifier). A loader checks each against the names its
// chart defines.
func (e *Expr) Idents() []Ident { return slices.Clone(e.idents) }

// ReadsMember reports whether the expression reads the member member of
// the scope key root, or anything inside it (`v.stdout`, `v.stdout[0]`,
// `v["stdout"]`): a loader asks it of an exec stage's output key to learn
// whether the chart reads the stage's stdout as an answer.
func (e *Expr) ReadsMember(root, member string) bool {
	for _, p := range e.paths {
		if len(p.segs) > 1 && p.segs[0] == root && p.segs[1] == member {
			return true
		}
	}
	return false
}

// MemberRead is a scope key's first member an expression reads
// (`stdout` of `st.stdout`, `st?.stdout`, `st["stdout"]`), where the key
// is written.
type MemberRead struct {
	Root, Member string
	Line, Column int
}

// MemberReads lists each scope key's first member the expression reads,
// each once, in source order, guarded or not (`st.stdout ?? []` reads
// stdout): a loader holds a key whose members it knows (an exec stage's
// result) to them.
func (e *Expr) MemberReads() []MemberRead { return slices.Clone(e.memberReads) }

// Paths lists the paths the expression reads (its evidence inputs), in
// source order: `volume.replicas`, `items`.
func (e *Expr) Paths() []string {
	out := make([]string, len(e.paths))
	for i, p := range e.paths {
		out[i] = p.text
	}
	return out
}

// evalState is what one evaluation borrows: a VM and the env map.
type evalState struct {
	vm  *vm.VM
	env map[string]any
}

var statePool = sync.Pool{New: func() any {
	return &evalState{vm: &vm.VM{}, env: make(map[string]any, 8)}
}}

// conversionWords says a builtin's failed type assertion in ours: expr's
// text builtins (upper, trim, split, fromJSON, fromBase64…) given a
// number or an object fail with Go's "interface conversion: interface {}
// is map[string]interface {}, not string", which names Go's types, not
// the kinds a chart's values have, nor what to write.
func conversionWords(msg string) (string, bool) {
	rest, ok := strings.CutPrefix(msg, "interface conversion: interface {} is ")
	if !ok {
		return "", false
	}
	got, want, ok := strings.Cut(rest, ", not ")
	if !ok {
		return "", false
	}
	gotV, ok1 := goTypeValue[got]
	wantV, ok2 := goTypeValue[want]
	if !ok1 || !ok2 {
		return "", false
	}
	m := fmt.Sprintf("it takes %s there and was given %s", jsonv.Describe(wantV), jsonv.Describe(gotV))
	switch {
	case gotV == nil:
		// split(log.content, "\n") over a read: that found no file
		m += " (a member its object lacks, a file not found, a key that holds null): say what null means, as x ?? \"\" does, or test it first (x != nil && …)"
	case want == "string":
		m += "; string(x) makes a string of a number, toJSON(x) of an object or a list"
	}
	return m, true
}

// goTypeValue are the Go types expr's messages name, each as a value of
// its kind, for jsonv.Describe's words.
var goTypeValue = map[string]any{
	"<nil>": nil, "nil": nil, "bool": false, "string": "",
	"int": 0, "int64": 0, "uint64": 0, "float64": 0, "int32": 0, "uint": 0, "float32": 0,
	"[]interface {}": []any{}, "map[string]interface {}": map[string]any{},
}

// runtimeError turns expr's error into one line: message (line:column).
//
// expr's builtins over a list (map, filter, any, count…) given null fail
// with Go's own words, "reflect: call of reflect.Value.Len on zero
// Value", which say neither that the value was null nor what to write:
// they are said in ours.
func runtimeError(err error, src string, vars map[string]any) error {
	var fe *file.Error
	if errors.As(err, &fe) {
		line, col := fe.Line, fe.Column+1
		if line == 0 {
			line = 1
		}
		msg := fe.Message
		if msg == "invalid operation: int(string)" && memberAt(src, line, col) {
			// expr reads a list's item by converting the index to an
			// int: a list read by a member's name fails as int() over
			// a text, a call the expression does not make; so does a
			// text, whose bytes are read by number too.
			msg = listByNameWords
			if _, ok := operandAt(src, line, col, vars).(string); ok {
				msg = textByNameWords
			}
		}
		if strings.Contains(msg, nullListPanic) {
			msg = "the list it was given is null (a key that holds null, or a member its object lacks, such as a tool's output its parse could not read); where null means none, write x ?? [] — and mind that all() over none is true: a Pending pod with no containerStatuses is not all ready (x != nil && all(x, …))"
		}
		if m, ok := conversionWords(msg); ok {
			msg = m
		}
		if m, ok := numberWords(msg); ok {
			msg = m
		}
		if listAdded(msg) {
			msg = listAddedWords
		}
		if wideNumber(msg) {
			msg = "it was given " + wideWords
		}
		if kind, ok := objectIndexedBy(msg); ok {
			msg = "it reads an object's member by " + kind + ", and an object's members are named by text: read one as x.name or x[\"name\"] (x[string(k)] for a computed key)"
			if kind == "a number" {
				msg = "it reads an item by number, as of a list, and the value is an object (a row a parse made), whose members are read by name: write x.name or x[\"name\"]; inside a closure nested in another, # is the inner one's item"
			}
		}
		if strings.Contains(msg, slicePastPanic) || listPastEnd.MatchString(msg) {
			// filter(f.content, .kind == "full")[0] over /proc/pressure/cpu
			// of a kernel before 5.13, which has no full line.
			length := ""
			if m := listPastEnd.FindStringSubmatch(msg); m != nil {
				length = " (it has " + m[1] + " items)"
				if m[1] == "1" {
					length = " (it has 1 item)"
				}
			}
			msg = "it reads an item past the end of the list" + length + ": an empty list where filter() found nothing, or a line a tool does not print everywhere; say what none means: first(x) and last(x) are null over an empty list (first(x)?.avg10 ?? 0), or test it, len(x) > 0 ? x[0] : …"
		}
		if strings.Contains(msg, objectListPanic) {
			msg = "it takes a list there and was given an object (JSON such as {\"db\": {\"status\": \"fail\"}} keyed by name); go over its values with values(x), its keys with keys(x) (sort(keys(x)) for an order): any(values(x), .status != \"ok\")"
		}
		msg += FractionRemainderHint(msg)
		if strings.HasPrefix(msg, "time: unknown unit ") {
			msg += durationUnitsHint(msg)
		}
		for _, prefix := range []string{"time: invalid duration ", "time: missing unit in duration "} {
			if q, ok := strings.CutPrefix(msg, prefix); ok {
				if text, err := strconv.Unquote(q); err == nil {
					msg += DurationHint(text)
				}
			}
		}
		if m, ok := strings.CutPrefix(msg, "cannot fetch "); ok {
			if member, ok := strings.CutSuffix(m, " from <nil>"); ok {
				// A predicate's .lastState.terminated.reason over a
				// container whose lastState is {}: expr says only
				// "cannot fetch reason from <nil>".
				what := "member " + strconv.Quote(member)
				step := "?." + member
				if _, err := strconv.Atoi(member); err == nil {
					what, step = "item "+member, "?.["+member+"]"
				}
				msg = fmt.Sprintf("cannot read the %s of null: the value before it is null (a member its object lacks, or a key that holds null); where it may be absent, read on with %s and give a default with ??", what, step)
			}
		}
		return fmt.Errorf("%s (%d:%d)", msg, line, col)
	}
	return err
}

// listAdded reports whether msg is expr's refusal of + with a list on
// either side ("invalid operation: []interface {} + []interface {}"),
// Go's types for what a chart wrote as rows + [x], as Python and
// JavaScript join lists (TestListsAddedSayConcat).
func listAdded(msg string) bool {
	rest, ok := strings.CutPrefix(msg, "invalid operation: ")
	if !ok {
		return false
	}
	a, b, ok := strings.Cut(rest, " + ")
	return ok && (a == "[]interface {}" || b == "[]interface {}")
}

// listAddedWords say what joins lists, where + does not.
const listAddedWords = "+ adds numbers and joins texts, and a side of it is a list: join two lists with concat(a, b), and append one item with concat(a, [x])"

// listByNameWords say a list read by a member's name (expr's runtime
// says it as int() over a text): npm outdated --json prints a list of a
// package's places in place of its object where it is outdated at more
// than one, and `#[1].current` over it said int() could not read a text
// (TestListReadByNameSaysItIsAList).
const listByNameWords = "it reads a member by name, as of an object, and the value is a list (a tool that prints a list where a thing is found more than once, as npm outdated --json does for a package outdated at several places), whose items are read by number: go over its items (map(x, .name), any(x, …)), take one (first(x).name), or test which it is (type(x) == \"array\")"

// textByNameWords say a text read by a member's name, which expr's
// runtime says as it says a list's (int() over a text): a duration input
// is given as its text, and `age > maxAge.Seconds()` said the value was
// a list, read by number (TestTextReadByNameSaysItIsAText).
const textByNameWords = "it reads a member by name, as of an object, and the value is a text, which has none: a duration input is given as its text (\"6h\"), so read it as a duration first, duration(maxAge).Seconds(), or compare durations, duration(x) > duration(maxAge); a number in a text is int(x) or float(x)"

// operandAt is the value of the name right before the member read at
// line:col (the runtime error's position: `maxAge` in `maxAge.Seconds()`)
// when it is a plain name of vars, nil otherwise: enough to tell a text
// from a list, which expr's runtime words alike.
func operandAt(src string, line, col int, vars map[string]any) any {
	lines := strings.Split(src, "\n")
	if line < 1 || line > len(lines) {
		return nil
	}
	r := []rune(lines[line-1])
	end := col - 2 // the dot before the member's name
	if end < 1 || end > len(r) || r[end] != '.' {
		return nil
	}
	if r[end-1] == '?' { // x?.member
		end--
	}
	start := end
	for start > 0 && (unicode.IsLetter(r[start-1]) || unicode.IsDigit(r[start-1]) || r[start-1] == '_') {
		start--
	}
	if start == end || (start > 0 && (r[start-1] == '.' || r[start-1] == '?' || r[start-1] == ']' || r[start-1] == ')')) {
		return nil // no name, or a name that is itself a member or an index's
	}
	return vars[string(r[start:end])]
}

// memberAt says whether the expression's source at line:col (1-based, in
// runes, as a run-time error's position) is a member read by name: a
// name after a dot (x.a, x?.a), or a bracket before a quoted text
// (x["a"], where expr places the error at the bracket).
func memberAt(src string, line, col int) bool {
	lines := strings.Split(src, "\n")
	if line < 1 || line > len(lines) {
		return false
	}
	r := []rune(lines[line-1])
	if col < 2 || col > len(r) { // a member's name or bracket follows what it reads
		return false
	}
	prev, at := r[col-2], r[col-1]
	if at == '[' {
		return col < len(r) && (r[col] == '"' || r[col] == '\'')
	}
	return prev == '.' && (unicode.IsLetter(at) || at == '_' || at == '$')
}

// FractionRemainderHint is what to write where expr refused % over a
// quotient ("" for any other error): a bit test written without bit
// operators, `taint / 4096 % 2 == 1` (bit 12 of /proc/sys/kernel/tainted),
// takes % of a fraction, since expr's / gives a float64; expr says it at
// load (`invalid operation: % (mismatched types float64 and int)`) or,
// where it cannot know the kinds, at run time (`invalid operation:
// float64 % int`), naming neither / nor what to write
// (TestRemainderOfAFractionSaysIntOrBitand, chart
// TestRemainderOfAQuotientSaysIntOrBitand).
func FractionRemainderHint(msg string) string {
	if !strings.HasPrefix(msg, "invalid operation: % (mismatched types float64") && msg != "invalid operation: % (mismatched types int and float64)" &&
		!strings.HasPrefix(msg, "invalid operation: float64 % ") && !strings.HasSuffix(msg, " % float64") {
		return ""
	}
	return " (/ divides as a fraction in expr, 12289 / 4096 is 3.000244…, and % takes whole numbers: write int(x / 4096) % 2 for a whole quotient's remainder, or test the bit itself, bitand(x, 4096) != 0)"
}

// objectIndexPanic is Go's words for an object (a map keyed by text)
// read by an index of another kind, as expr's runtime says them inside a
// closure (`map(rows, #[0])`); outside one the path reader says it
// (resolve).
var objectIndexPanic = regexp.MustCompile(`reflect\.Value\.MapIndex: value of type (\w+) is not assignable to type string`)

// objectIndexedBy says whether msg is objectIndexPanic, and the kind of
// the index in a chart's words.
func objectIndexedBy(msg string) (string, bool) {
	m := objectIndexPanic.FindStringSubmatch(msg)
	if m == nil {
		return "", false
	}
	switch {
	case strings.HasPrefix(m[1], "int"), strings.HasPrefix(m[1], "uint"), strings.HasPrefix(m[1], "float"):
		return "a number", true
	case m[1] == "bool":
		return "a bool", true
	}
	return "a value that is no text", true
}

// durationUnitsHint says what Go's durations are written in, to follow
// time.ParseDuration's `time: unknown unit "d" in duration "7d"`: a
// chart over certificates or pod ages writes days, which Go has no unit
// for. A whole number of days is given in hours, and a span a tool wrote
// as systemd does ("4h 4min") as the Go duration it is (systemdSpanHint).
func durationUnitsHint(msg string) string {
	if i := strings.LastIndex(msg, ` in duration "`); i >= 0 {
		text := strings.TrimSuffix(msg[i+len(` in duration "`):], `"`)
		if hint := DurationHint(text); hint != "" {
			return hint
		}
		if hint := systemdSpanHint(text); hint != "" {
			return hint
		}
	}
	return unitsHint + `, so a day is "24h"`
}

// unitsHint says what Go's durations are written in.
const unitsHint = `: a duration's units are ns, us, ms, s, m and h (no d or w)`

// DurationHint is the words that follow a text that is no Go duration
// because it counts days or weeks, wherever one is refused (an
// expression's duration(x), an input of type duration given on the
// command line, --input since=2d): Go has no unit for them, and a whole
// number of them is given in hours. It is "" for any other text.
//
//	DurationHint("2d")   `: a duration's units are ns, us, ms, s, m and h (no d or w), so write "48h" for "2d"`
func DurationHint(text string) string {
	if hint := isoDurationHint(text); hint != "" {
		return hint
	}
	if _, err := strconv.ParseFloat(text, 64); err == nil && strings.TrimSpace(text) == text {
		// A timeout in seconds from a config file, an age a tool printed
		// bare: which unit it counts is the tool's to say, not ours.
		return fmt.Sprintf(`: a number with no unit is no duration; say what it counts: "%ss" for seconds, "%sm" for minutes (in an expression, duration(string(x) + "s") reads a number of seconds)`, text, text)
	}
	num, unit := strings.TrimRight(text, "dw"), text[len(strings.TrimRight(text, "dw")):]
	if n, err := strconv.Atoi(num); err == nil && n >= 0 && n < 1e6 && (unit == "d" || unit == "w") {
		h := n * 24
		if unit == "w" {
			h *= 7
		}
		return unitsHint + fmt.Sprintf(`, so write "%dh" for %q`, h, text)
	}
	return ""
}

// isoPart is ISO 8601's duration, PnYnMnWnDTnHnMnS, each part optional.
var isoPart = regexp.MustCompile(`^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$`)

// isoDurationHint is the words that follow an ISO 8601 duration ("P1DT2H",
// "PT90M", as JSON from a backup tool or an Ansible variable writes one):
// the Go duration it is, or, for a period of years or months, that they
// have no one length. "" for any other text.
//
//	isoDurationHint("P1DT2H")  `: "P1DT2H" is an ISO 8601 duration; Go writes it "26h" (…)`
func isoDurationHint(text string) string {
	m := isoPart.FindStringSubmatch(text)
	if m == nil || text == "P" || strings.HasSuffix(text, "T") {
		return ""
	}
	if m[1] != "" || m[2] != "" {
		return fmt.Sprintf(`: %q is an ISO 8601 duration, and it counts months or years, which have no one length: compare the times themselves (date(x) - now())`, text)
	}
	var d time.Duration
	for i, per := range []time.Duration{7 * 24 * time.Hour, 24 * time.Hour, time.Hour, time.Minute, time.Second} {
		v := strings.Replace(m[3+i], ",", ".", 1)
		if v == "" {
			continue
		}
		n, err := strconv.ParseFloat(v, 64)
		if err != nil || n >= 1e6 {
			return ""
		}
		d += time.Duration(n * float64(per))
	}
	goText := d.String()
	switch {
	case d > 0 && d%time.Hour == 0:
		goText = fmt.Sprintf("%dh", d/time.Hour)
	case strings.HasSuffix(goText, "m0s"):
		goText = strings.TrimSuffix(goText, "0s")
	}
	return fmt.Sprintf(`: %q is an ISO 8601 duration; Go writes it %q (its units are ns, us, ms, s, m and h, no d or w)`, text, goText)
}

// spanUnits are the units of systemd's time spans (format_timespan, as
// systemctl list-timers and status print them, and the words its parser
// takes), each as a Go duration; 0 for months and years, which have no
// one length.
var spanUnits = map[string]time.Duration{
	"us": time.Microsecond, "usec": time.Microsecond, "ms": time.Millisecond, "msec": time.Millisecond,
	"s": time.Second, "sec": time.Second, "second": time.Second, "seconds": time.Second,
	"m": time.Minute, "min": time.Minute, "minute": time.Minute, "minutes": time.Minute,
	"h": time.Hour, "hr": time.Hour, "hour": time.Hour, "hours": time.Hour,
	"d": 24 * time.Hour, "day": 24 * time.Hour, "days": 24 * time.Hour,
	"w": 7 * 24 * time.Hour, "week": 7 * 24 * time.Hour, "weeks": 7 * 24 * time.Hour,
	"M": 0, "month": 0, "months": 0, "y": 0, "year": 0, "years": 0,
}

// spanPart is one part of a systemd span: a whole number (a decimal for
// seconds), then its unit, spaces between parts or none.
var spanPart = regexp.MustCompile(`^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]+)`)

// systemdSpanHint is the words that follow a systemd time span ("5min
// 3s", "4h 4min", "4 days", "1 week 2 days", list-timers' LEFT and
// PASSED less their " left" or " ago"): the Go duration it is, since Go
// writes one with no spaces and no "min", and time.ParseDuration's own
// words (`unknown unit "h " in duration "4h 4min"`) say neither. A span
// of months or years has no Go duration, and is said so. "" for a text
// that is no such span.
//
//	systemdSpanHint("4h 4min")  `…, so write "4h4m" for "4h 4min" (systemd writes …)`
func systemdSpanHint(text string) string {
	rest := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(text), " ago"), " left")
	var d time.Duration
	parts := 0
	for strings.TrimSpace(rest) != "" {
		m := spanPart.FindStringSubmatch(rest)
		if m == nil {
			return ""
		}
		per, ok := spanUnits[m[2]]
		if !ok || (strings.Contains(m[1], ".") && per > time.Second) {
			return ""
		}
		if per == 0 {
			return unitsHint + fmt.Sprintf(`, and %q counts months or years, which have no one length: compare the times themselves (date(x) - now())`, text)
		}
		n, err := strconv.ParseFloat(m[1], 64)
		if err != nil || n >= 1e6 {
			return ""
		}
		d += time.Duration(n * float64(per))
		rest = rest[len(m[0]):]
		parts++
	}
	if parts == 0 {
		return ""
	}
	goText := d.String()
	switch {
	case d%time.Hour == 0:
		goText = fmt.Sprintf("%dh", d/time.Hour)
	case strings.HasSuffix(goText, "m0s"):
		goText = strings.TrimSuffix(goText, "0s")
	}
	return unitsHint + fmt.Sprintf(`, so write %q for %q (systemd writes a span with spaces and "min"; where it prints one, ask it for a number: systemctl list-timers --output=json)`, goText, text)
}

// nullListPanic is what reflect says when expr's builtins take the length
// of a null list.
const nullListPanic = "reflect: call of reflect.Value.Len on zero Value"

// slicePastPanic is what reflect says when expr reads an item past the
// end of a list it computed (filter(x, …)[0] over none); listPastEnd is
// expr's own words for a list it knows, with the index and the length.
const slicePastPanic = "reflect: slice index out of range"

var listPastEnd = regexp.MustCompile(`^index out of range: -?\d+ \(array length is (\d+)\)`)

// objectListPanic is what reflect says when expr's builtins over a list
// (any, all, filter, map, count…) are given an object: a health
// endpoint's checks keyed by name.
const objectListPanic = "reflect: call of reflect.Value.Index on map Value"

// numberWords says expr's int() and float() refusals in ours: they said
// "invalid operation: int()" over the empty text a command printed that
// answered nothing, and "invalid operation: int(200\n)" over echo's line,
// naming neither the text nor what to write. expr writes a text it could
// not read as it is and any other value by its Go type, so a text that
// spells one of those types ("bool") is said as that type.
//
//	invalid operation: int()         int() could not read the text "" as a whole number: it is empty (the command printed nothing?) …
//	invalid operation: int(0.25)     … it is a decimal: int(float(x)) drops the fraction, or compare float(x)
//	invalid operation: float(<nil>)  float() was given null …
func numberWords(msg string) (string, bool) {
	var fn, arg string
	for _, f := range []string{"int", "float"} {
		if a, ok := strings.CutPrefix(msg, "invalid operation: "+f+"("); ok {
			if a, ok = strings.CutSuffix(a, ")"); ok {
				fn, arg = f, a
			}
		}
	}
	if fn == "" {
		return "", false
	}
	if arg == wideType {
		return fn + "() was given " + wideWords, true
	}
	if arg == "string" {
		// expr's typed conversion names a text by its Go type alone.
		return fn + "() could not read the text it was given as a number; take the number out of the text first (trim, split, trimSuffix, or a parse mode that reads numbers)", true
	}
	if v, ok := goTypeValue[arg]; ok {
		if v == nil {
			return fn + "() was given null (a key that holds null, or a member its object lacks); where it may be absent, test it first (x != nil && " + fn + "(x) …)", true
		}
		return fn + "() takes a number, or a text that spells one, and was given " + jsonv.Describe(v), true
	}
	if arg == "time.Time" {
		return fn + "() takes a number, or a text that spells one, and was given a time; a time's number is its epoch, x.Unix()", true
	}
	what := "a whole number"
	if fn == "float" {
		what = "a number"
	}
	m := fmt.Sprintf("%s() could not read the text %q as %s", fn, arg, what)
	switch t := strings.TrimSpace(arg); {
	case t == "":
		m += ": it is empty (a command that printed nothing?); test it first (x != \"\" && …), or read why the command printed nothing"
	case t != arg:
		m += fmt.Sprintf(": it has spaces or a line end around it; write %s(trim(x))", fn)
	case fn == "int" && wholeText.MatchString(t):
		m += fmt.Sprintf(": it is past the largest whole number an expression holds (%d); compare float(x), which keeps the size and rounds the last digits", int64(math.MaxInt64))
	case fn == "int" && isFloat(t):
		m += ": it is a decimal; int(float(x)) drops the fraction, or compare float(x)"
	default:
		m += "; take the number out of the text first (split, trimSuffix, or a parse mode that reads numbers)"
	}
	return m, true
}

// wideType is how expr names a number jsonv kept as its digits (jsonv.Decoded:
// a whole number past int64, a decimal no float64 holds, a number past a
// float64's range).
const wideType = "json.Number"

// wideWords say what such a number is and what works over it: expr said
// `invalid operation: json.Number - json.Number` over two interface
// counters at 2^64-1 and 2^64-2, and int() that it `could not read the
// text "json.Number"`, a Go type named as a text the chart never held
// (TestNumberPastInt64SaysWhatItIs).
const wideWords = "a number no int or float64 holds as it is written (a whole number past 9223372036854775807, as an unsigned 64-bit counter can be, a decimal with more digits than a float64 keeps, as a PostgreSQL numeric can be, or one past a float64's range): the rules order and compare it exactly (<, >, ==), but no arithmetic, int() or float() is exact over it; judge it with a comparison (x > 1000, x == y), or have the tool do the arithmetic or print it in a larger unit"

// wideNumber reports whether expr refused an operation (arithmetic, max,
// sum) over a number kept as its digits.
func wideNumber(msg string) bool {
	return strings.Contains(msg, wideType) && (strings.HasPrefix(msg, "invalid operation: ") || strings.HasPrefix(msg, "invalid argument for "))
}

// wholeText is a text of digits alone: one int() could not read is past
// int64, not a decimal.
var wholeText = regexp.MustCompile(`^[+-]?[0-9]+$`)

// isFloat reports whether a text spells a number float() reads.
func isFloat(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

func compileError(src string, err error) *CompileError {
	ce := &CompileError{Src: src, Line: 1, Column: 1, Msg: err.Error()}
	var fe *file.Error
	if errors.As(err, &fe) {
		ce.Msg = fe.Message
		if fe.Line > 0 {
			ce.Line, ce.Column = fe.Line, fe.Column+1
		} else {
			ce.Line, ce.Column = position(src, fe.From)
		}
	}
	return ce
}

// position turns a rune offset into a 1-based line and column.
func position(src string, offset int) (line, col int) {
	line, col = 1, 1
	n := 0
	for _, r := range src {
		if n == offset {
			break
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		n++
	}
	return line, col
}

func describe(v any) string {
	c := classOf(v)
	if c == classNil {
		return "null"
	}
	s := formatValue(v)
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return classWords[c] + " (" + s + ")"
}

// ref is one read found in the syntax tree.
type ref struct {
	pos   int // rune offset of the root identifier
	text  string
	segs  []string
	texts []string // segs[1:] as written
	env   bool     // read through $env, not as a bare identifier
	// guarded is set for a read written to allow absence: inside an
	// optional chain, left of ??, or compared with nil.
	guarded bool
}

// collector walks a syntax tree, left to right, for the reads.
type collector struct {
	src      string
	lets     []string // let variables in scope
	refs     []ref
	wholeEnv bool
	err      *CompileError
	calls    map[string]bool // the funcs it calls (funcs.go)
	clock    bool            // it calls now() (clock.go)
	local    bool            // it calls date(x, layout, "Local") or timezone("Local") (clock.go)
	guard    int             // > 0 inside a read that allows absence
	// indexes are the unguarded reads of an object's member by a key
	// computed at run time (`sys.stdout[w.key]`), by the position of
	// their "[", each as written (patchIndex).
	indexes map[int]string
	// guardedNames are the reads of indexes by name written to allow
	// absence (namedReads), by the same position: judged for a member in
	// another case alone.
	guardedNames map[int]bool
	// bothCases are the member names the expression reads in two cases
	// (lower case): a guarded read of one is no typo (readInBothCases).
	bothCases map[string]bool
	// builtins are the builtin calls, by their position in the source:
	// each as written, for the errors of the patches that rewrite it, and
	// the members its predicate reads from its item (patchSort,
	// patchMember); pred is the position of the builtin whose predicate
	// is being walked, -1 outside any.
	builtins map[int]builtinCall
	pred     int
	// binaries are the binary (and unary) operations as written, by their
	// operator's position in the source, for the errors of patchEqual's
	// and patchArith's calls: the
	// tree it patches has had other patches (now(), sort) rewrite their
	// operands already.
	binaries map[int]string
	// compares are the member paths compared with text literals
	// (Comparison), in source order.
	compares []Comparison
}

// call walks a call of one of funcs. A parse mode written as a literal
// is checked here, so a misspelt one is a compile error, not a rule error
// at run time.
func (c *collector) call(id *ast.IdentifierNode, args []ast.Node) {
	if c.calls == nil {
		c.calls = map[string]bool{}
	}
	c.calls[id.Value] = true
	if id.Value == "date" && (readsLocal(args) || readsAbbreviation(args)) {
		c.local = true
	}
	for _, a := range args {
		c.walk(a)
	}
	if id.Value != "parse" || len(args) != 2 {
		return
	}
	if s, ok := args[1].(*ast.StringNode); ok {
		if err := parse.Check(parse.Spec{Mode: s.Value}); err != nil {
			line, col := position(c.src, s.Location().From)
			c.err = &CompileError{Src: c.src, Line: line, Column: col, Msg: err.Error()}
		}
	}
}

func (c *collector) walk(n ast.Node) {
	if n == nil || c.err != nil {
		return
	}
	switch x := n.(type) {
	case *ast.IdentifierNode:
		switch {
		case x.Value == "$env":
			c.wholeEnv = true
		case !c.isLet(x.Value):
			c.refs = append(c.refs, ref{pos: x.Location().From, text: pathText(nil, x.Value), segs: []string{x.Value}})
		}
	case *ast.MemberNode:
		c.member(x)
	case *ast.CallNode:
		if id, ok := x.Callee.(*ast.IdentifierNode); ok && funcs[id.Value] != nil {
			c.call(id, x.Arguments)
			return
		}
		if id, ok := x.Callee.(*ast.IdentifierNode); ok {
			line, col := position(c.src, id.Location().From)
			c.err = &CompileError{Src: c.src, Line: line, Column: col,
				Msg: fmt.Sprintf("unknown function %s (only expr's builtins can be called)", id.Value)}
			return
		}
		c.walk(x.Callee)
		for _, a := range x.Arguments {
			c.walk(a)
		}
	case *ast.BuiltinNode:
		if c.builtins == nil {
			c.builtins = map[int]builtinCall{}
		}
		c.builtins[x.Location().From] = builtinCall{text: x.String(), json: len(x.Arguments) > 0 && memberList(x.Arguments[0])}
		if x.Name == "now" {
			c.clock = true
		}
		if x.Name == "timezone" && namesLocal(x.Arguments) {
			c.local = true
		}
		if funcs[x.Name] != nil {
			// A builtin this package replaces (date): the parser knows the
			// name as expr's own until the replacement is registered.
			c.call(&ast.IdentifierNode{Value: x.Name}, x.Arguments)
			return
		}
		for i, a := range x.Arguments {
			if p, ok := a.(*ast.PredicateNode); ok && i == 1 {
				// The predicate reads each item; a guard on the
				// builtin's result (filter(…)[0] ?? {}) covers none of
				// those reads.
				outer, guard := c.pred, c.guard
				c.pred, c.guard = x.Location().From, 0
				c.walk(p.Node)
				c.pred, c.guard = outer, guard
				continue
			}
			c.walk(a)
		}
	case *ast.PredicateNode:
		c.walk(x.Node)
	case *ast.ChainNode:
		c.guard++
		c.walk(x.Node)
		c.guard--
	case *ast.UnaryNode:
		if c.binaries == nil {
			c.binaries = map[int]string{}
		}
		c.binaries[x.Location().From] = x.String() // a unary operation, for patchArith's errors
		c.walk(x.Node)
		if b, ok := x.Node.(*ast.BinaryNode); ok && x.Operator == "not" && b.Location().From == x.Location().From {
			// `a not in b` (not matches, not contains, …) is parsed as
			// not (a in b), both at the operator: the binary's errors
			// quoted `a in b`, an expression the chart never wrote
			c.binaries[x.Location().From] = notInfix(b)
		}
	case *ast.BinaryNode:
		if c.binaries == nil {
			c.binaries = map[int]string{}
		}
		c.binaries[x.Location().From] = x.String()
		c.compare(x)
		c.zeroCompared(x)
		_, lnil := x.Left.(*ast.NilNode)
		_, rnil := x.Right.(*ast.NilNode)
		switch {
		case x.Operator == "??":
			c.guard++
			c.walk(x.Left)
			c.guard--
			c.walk(x.Right)
		case (x.Operator == "==" || x.Operator == "!=") && (lnil || rnil):
			c.guard++
			c.walk(x.Left)
			c.walk(x.Right)
			c.guard--
		default:
			c.walk(x.Left)
			c.walk(x.Right)
		}
	case *ast.SliceNode:
		c.walk(x.Node)
		c.walk(x.From)
		c.walk(x.To)
	case *ast.ConditionalNode:
		c.walk(x.Cond)
		c.walk(x.Exp1)
		c.walk(x.Exp2)
	case *ast.VariableDeclaratorNode:
		c.walk(x.Value)
		c.lets = append(c.lets, x.Name)
		c.walk(x.Expr)
		c.lets = c.lets[:len(c.lets)-1]
	case *ast.SequenceNode:
		for _, s := range x.Nodes {
			c.walk(s)
		}
	case *ast.ArrayNode:
		for _, s := range x.Nodes {
			c.walk(s)
		}
	case *ast.MapNode:
		for _, p := range x.Pairs {
			c.walk(p)
		}
	case *ast.PairNode:
		c.walk(x.Key)
		c.walk(x.Value)
	}
}

// member records the longest chain of constant names rooted at an
// identifier (`a.b[0]` in `a.b[0][i].c`), then walks what is not constant.
// notInfix is b written with not before its operator, as `a not in b`
// is: b's own text (ast's, its operands wrapped as it wraps them) with
// " not" after its left side; b's text when that cannot be found.
//
//	notInfix(port in forbidden)    "port not in forbidden"
func notInfix(b *ast.BinaryNode) string {
	s := b.String()
	for _, l := range []string{b.Left.String(), "(" + b.Left.String() + ")"} {
		if p := l + " " + b.Operator + " "; strings.HasPrefix(s, p) {
			return l + " not " + b.Operator + " " + s[len(p):]
		}
	}
	return s
}

func (c *collector) member(m *ast.MemberNode) {
	// Flatten: base, then the member nodes from the innermost out.
	var chain []*ast.MemberNode
	var base ast.Node = m
	for {
		mm, ok := base.(*ast.MemberNode)
		if !ok {
			break
		}
		chain = append(chain, mm)
		base = mm.Node
	}
	slices.Reverse(chain)

	// The constant prefix of the chain, stopping at a method call.
	var segs []string
	var texts []string
	k := 0
	for ; k < len(chain); k++ {
		if chain[k].Method {
			break
		}
		seg, text, ok := constProperty(chain[k].Property)
		if !ok {
			break
		}
		segs = append(segs, seg)
		texts = append(texts, text)
	}

	if id, ok := base.(*ast.IdentifierNode); ok {
		switch {
		case id.Value == "$env":
			if len(segs) > 0 {
				root := segs[0]
				c.refs = append(c.refs, ref{pos: id.Location().From,
					text: pathText(texts[1:], root), segs: segs, texts: texts[1:], env: true})
			} else {
				c.wholeEnv = true
			}
		case !c.isLet(id.Value):
			guarded := c.guard > 0
			for _, m := range chain {
				guarded = guarded || m.Optional
			}
			c.refs = append(c.refs, ref{pos: id.Location().From,
				text: pathText(texts, id.Value), segs: append([]string{id.Value}, segs...), texts: texts, guarded: guarded})
		}
	} else if ptr, ok := base.(*ast.PointerNode); ok && ptr.Name == "" && len(segs) > 0 && c.pred >= 0 {
		c.itemRead(chain[:k], c.guard > 0)
	} else {
		c.walk(base)
	}
	// The first step whose key is computed, read without a guard, from
	// a scope key: patchIndex judges whether its object has that key.
	if id, ok := base.(*ast.IdentifierNode); ok && id.Value != "$env" && !c.isLet(id.Value) && k < len(chain) && !chain[k].Method && c.guard == 0 {
		guarded := false
		for _, m := range chain[:k+1] {
			guarded = guarded || m.Optional
		}
		if !guarded {
			if c.indexes == nil {
				c.indexes = map[int]string{}
			}
			c.indexes[chain[k].Location().From] = pathText(texts, id.Value) + "[" + chain[k].Property.String() + "]"
		}
	}
	c.namedReads(base, chain, k)
	// Whatever is not constant: dynamic indexes and what follows. An
	// index is a read of its own, which a guard on the value it finds
	// does not cover: in `sh[a.usr] == nil` the nil test is of sh's
	// member, and a.usr, misspelt, read as null and found none, every
	// account without a shadow entry, Known (TestGuardCoversNoIndexInside).
	outer := c.guard
	c.guard = 0
	for ; k < len(chain); k++ {
		if !chain[k].Method {
			c.walk(chain[k].Property)
		}
	}
	c.guard = outer
}

// namedReads records for patchIndex each member read by name from a
// value no scope key's path names: a call's result (`first(filter(…)).value`,
// `filter(…)[0].value`, `last(c[1]).time`), a let variable's, reduce's
// accumulator's (`#acc.user`), or what a
// computed key found (`sh[a.user].kind`, past k). expr reads a member
// such an object lacks as null: `.valu` for `.value`, misspelt, read no
// setting sshd printed and the check stood Consistent
// (TestMemberOfACallsResultIsJudged); judgedName says so where the
// object has a member a typo away. A read written to allow absence
// (inside ?? or a nil test, or after ?.) is not judged.
func (c *collector) namedReads(base ast.Node, chain []*ast.MemberNode, k int) {
	from := 0
	switch b := base.(type) {
	case *ast.IdentifierNode:
		if b.Value == "$env" {
			return
		}
		if !c.isLet(b.Value) {
			from = k + 1 // a scope key's constant path is absentMember's
		}
	case *ast.PointerNode:
		if b.Name == "" {
			return // an item's members are judgedItems'
		}
		// reduce's #acc: an object the chart made, judged as a call's
		// result is (faillock's entries, #acc.usr, gave rows no user)
	}
	// as a scope key's path with a ?. in it is guarded whole; a guarded
	// read is judged for a member in another case alone (caseTypo)
	guarded := c.guard > 0 || slices.ContainsFunc(chain, func(m *ast.MemberNode) bool { return m.Optional })
	for j, m := range chain {
		name, isName := m.Property.(*ast.StringNode)
		if j < from || m.Method || !isName || strings.HasPrefix(name.Value, reservedPrefix) {
			continue
		}
		if guarded && c.readInBothCases(name.Value) {
			continue // the other case is read too: no typo (readInBothCases)
		}
		if m.Optional && j < len(chain)-1 {
			// patched into a call, a ?. would no longer end the chain
			// over null: the members after it would be read from null
			continue
		}
		if c.indexes == nil {
			c.indexes = map[int]string{}
		}
		_, text, _ := constProperty(name)
		c.indexes[m.Location().From] = m.Node.String() + text
		if guarded {
			if c.guardedNames == nil {
				c.guardedNames = map[int]bool{}
			}
			c.guardedNames[m.Location().From] = true
		}
	}
}

// compare records b when it compares a member path of constant names with
// text literals (Comparison): == and != with a string on either side,
// in with a list of strings on its right.
func (c *collector) compare(b *ast.BinaryNode) {
	var path []string
	var at int
	var words []string
	switch b.Operator {
	case "==", "!=":
		for _, side := range [][2]ast.Node{{b.Left, b.Right}, {b.Right, b.Left}} {
			p, pos, ok := c.constPath(side[0])
			lit, isText := side[1].(*ast.StringNode)
			if ok && isText {
				path, at, words = p, pos, []string{lit.Value}
				break
			}
		}
	case "in":
		p, pos, ok := c.constPath(b.Left)
		list, isList := b.Right.(*ast.ArrayNode)
		if !ok || !isList || len(list.Nodes) == 0 {
			return
		}
		for _, n := range list.Nodes {
			lit, isText := n.(*ast.StringNode)
			if !isText {
				return
			}
			words = append(words, lit.Value)
		}
		path, at = p, pos
	}
	if path == nil {
		return
	}
	line, col := position(c.src, at)
	c.compares = append(c.compares, Comparison{Path: path, Words: words, Line: line, Column: col})
}

// constPath is n's names when it is a member path of constant names
// rooted at a scope key (`check.status`, `check?.status`), and where its
// root is written; false for anything else (a method, a computed key, a
// closure's pointer, a let variable, $env).
func (c *collector) constPath(n ast.Node) ([]string, int, bool) {
	var segs []string
	for {
		switch x := n.(type) {
		case *ast.ChainNode:
			n = x.Node
		case *ast.MemberNode:
			if x.Method {
				return nil, 0, false
			}
			seg, _, ok := constProperty(x.Property)
			if !ok {
				return nil, 0, false
			}
			segs = append([]string{seg}, segs...)
			n = x.Node
		case *ast.IdentifierNode:
			if x.Value == "$env" || c.isLet(x.Value) || len(segs) == 0 {
				return nil, 0, false
			}
			return append([]string{x.Value}, segs...), x.Location().From, true
		default:
			return nil, 0, false
		}
	}
}

// builtinRead is the first root identifier that is the name of one of
// expr's builtins (`len` in `len > 1`): a key of that name reads as the
// function, so the compile error it causes names a function type and not
// the key. "" when there is none.
func (c *collector) builtinRead() string {
	for _, r := range c.refs {
		if _, ok := builtin.Index[r.segs[0]]; ok && !r.env {
			return r.segs[0]
		}
	}
	return ""
}

// itemRead records the member the predicate being walked reads from its
// item, once: its first member (`.name` of `.name.first`), after the
// indexes that lead to it (`#[1].health`: the pair's value, as toPairs
// gives it), as a path. A read written to allow absence (guarded: inside
// ?? or a nil test, or `#[1]?.health`, a ?. up to it) is recorded after
// a nil step, and judged for a member in another case alone (judgedPath,
// caseTypo). A member of a member is not judged: a JSON
// writer that leaves a zero value out leaves nested fields out of every
// item alike (Kubernetes' status.unavailableReplicas beside
// availableReplicas, when every replica is up). The reserved af_ members
// are never judged.
func (c *collector) itemRead(chain []*ast.MemberNode, guarded bool) {
	var path []any
	for _, m := range chain {
		guarded = guarded || m.Optional
		if k, isIndex := m.Property.(*ast.IntegerNode); isIndex {
			path = append(path, k.Value)
			continue
		}
		name := m.Property.(*ast.StringNode).Value
		if strings.HasPrefix(name, reservedPrefix) {
			return
		}
		path = append(path, name)
		break
	}
	if len(path) == 0 {
		return
	}
	if _, named := path[len(path)-1].(string); !named {
		return // indexes alone: no member
	}
	if guarded {
		if c.readInBothCases(path[len(path)-1].(string)) {
			return // the other case is read too: no typo (readInBothCases)
		}
		path = append([]any{nil}, path...)
	}
	b := c.builtins[c.pred]
	if slices.ContainsFunc(b.items, func(q []any) bool { return slices.Equal(q, path) }) {
		return
	}
	b.items = append(b.items, path)
	c.builtins[c.pred] = b
}

// zeroCompared records, for the builtin whose predicate is being walked,
// an item's member path of constant names compared by == or != with a
// zero value written as a literal (0, 0.0, "", false), read with no
// guard: `.Status.leader == 0` in filter(status.stdout, …). judgedItems
// says when an item lacks it (zeroAbsent).
func (c *collector) zeroCompared(b *ast.BinaryNode) {
	if c.pred < 0 || c.guard > 0 || (b.Operator != "==" && b.Operator != "!=") {
		return
	}
	lit, side := zeroLiteral(b.Right), b.Left
	if lit == "" {
		lit, side = zeroLiteral(b.Left), b.Right
	}
	if lit == "" {
		return
	}
	var chain []*ast.MemberNode
	for {
		m, ok := side.(*ast.MemberNode)
		if !ok {
			break
		}
		chain = append(chain, m)
		side = m.Node
	}
	if ptr, ok := side.(*ast.PointerNode); !ok || ptr.Name != "" || len(chain) == 0 {
		return
	}
	slices.Reverse(chain)
	path := []string{lit}
	for _, m := range chain {
		seg, _, ok := constProperty(m.Property)
		if !ok || m.Method || m.Optional {
			return
		}
		path = append(path, seg)
	}
	bc := c.builtins[c.pred]
	bc.zeros = append(bc.zeros, path)
	c.builtins[c.pred] = bc
}

// zeroLiteral is n as written when it is a literal zero value (0, 0.0,
// "", false), "" otherwise.
func zeroLiteral(n ast.Node) string {
	switch x := n.(type) {
	case *ast.IntegerNode:
		if x.Value == 0 {
			return "0"
		}
	case *ast.FloatNode:
		if x.Value == 0 {
			return "0"
		}
	case *ast.StringNode:
		if x.Value == "" {
			return `""`
		}
	case *ast.BoolNode:
		if !x.Value {
			return "false"
		}
	}
	return ""
}

// builtinCall is what the collector saw of one builtin call.
type builtinCall struct {
	text string // as written
	// items are the member paths its predicate reads from its item
	// (itemRead): each step a name (string) or an index (int).
	items [][]any
	// zeros are the member paths its predicate compares with a zero
	// value (zeroCompared), each the literal as written, then the path.
	zeros [][]string
	// json: its list is read from a member of a value (memberList), so
	// its items are a JSON value's, never a table's rows.
	json bool
}

// memberList reports whether n, a builtin's list, is read by name from
// a member of a value below a stage's output (`i.addr_info`,
// `k.content.items`, `filter(i.addr_info, …)`), not the output itself
// (`stat.stdout`), a scope key or a call: csv, tsv, columns and regex
// make a table's rows as the whole output, and no parse mode but json's
// puts a list of objects under a member's name. Such items are a JSON
// value's, and a member none of them has is one its writer left out
// (ip -j addr's dynamic over static addresses), no column of a table
// (TestPredicateOverAJSONMembersListIsNoTable).
func memberList(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.ChainNode:
		return memberList(x.Node)
	case *ast.BinaryNode:
		return x.Operator == "??" && memberList(x.Left)
	case *ast.BuiltinNode:
		switch x.Name {
		case "filter", "sortBy", "sort", "reverse":
			return len(x.Arguments) > 0 && memberList(x.Arguments[0])
		}
	case *ast.MemberNode:
		name, ok := x.Property.(*ast.StringNode)
		if !ok || x.Method {
			return false
		}
		// x.stdout, files[0].content: a stage's output, which may be
		// a table
		return name.Value != "stdout" && name.Value != "content"
	}
	return false
}

// textOf is the builtin call n as written, from the collector's tree,
// which no patch has rewritten; n's own text once the collector did not
// see it.
func textOf(calls map[int]builtinCall, n *ast.BuiltinNode) string {
	if b, ok := calls[n.Location().From]; ok && b.text != "" {
		return b.text
	}
	return n.String()
}

func (c *collector) isLet(name string) bool {
	return slices.Contains(c.lets, name)
}

// constProperty reads a constant member name: .name, ["key"] or [0].
func constProperty(n ast.Node) (seg, text string, ok bool) {
	switch p := n.(type) {
	case *ast.StringNode:
		if isIdent(p.Value) {
			return p.Value, "." + p.Value, true
		}
		return p.Value, "[" + strconv.Quote(p.Value) + "]", true
	case *ast.IntegerNode:
		if p.Value < 0 {
			return "", "", false
		}
		s := strconv.Itoa(p.Value)
		return s, "[" + s + "]", true
	}
	return "", "", false
}

// valueText is a scalar as an error quotes it: a string quoted and cut at
// 40 runes, a number or a bool as written.
func valueText(v any) string {
	if t, ok := v.(string); ok {
		if r := []rune(t); len(r) > 40 {
			t = string(r[:40]) + "…"
		}
		return strconv.Quote(t)
	}
	return fmt.Sprint(v)
}

// pathText renders a path: root, then each segment's text. A root that is
// not an identifier is written as a quoted key.
func pathText(texts []string, root string) string {
	s := root
	if !isIdent(root) {
		s = "[" + strconv.Quote(root) + "]"
	}
	for _, t := range texts {
		s += t
	}
	return s
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r == '$' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'):
		case i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}

// OneLine is an expression's source as a run-time message quotes it: its
// lines, each trimmed, joined by a space. A chart writes a long expression
// as a YAML block (`set: {certs: |- …}`), and a message that quoted it as
// written ended its first line inside it: `run failed at entries: set
// certs: reduce(list.stdout, #acc + (`, with the cause three lines below,
// where the text output, the standing line and a Nagios summary (which
// show a message's first line, record.Headline) never showed it (wave-pki).
// Its line:column still count in the source as written.
//
//	OneLine("reduce(xs,\n  #acc + 1,\n0)")   "reduce(xs, #acc + 1, 0)"
func OneLine(src string) string {
	if !strings.ContainsAny(src, "\r\n") {
		return src
	}
	lines := strings.FieldsFunc(src, func(r rune) bool { return r == '\n' || r == '\r' })
	out := lines[:0]
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, " ")
}

// sharesConstants says whether a compiled program holds a list or a map
// among its constants: a value it yields may be that very constant.
func sharesConstants(p *vm.Program) bool {
	for _, c := range p.Constants {
		switch reflect.ValueOf(c).Kind() {
		case reflect.Slice, reflect.Map, reflect.Array:
			return true
		}
	}
	return false
}
