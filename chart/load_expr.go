package chart

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"github.com/openrunbook/runbook/rules"
)

// valuer reads an EXPR: a YAML string (plain, quoted or a block) is an
// expression, compiled here; a YAML number or boolean is that literal value
// (rules.Literal), and so is a written null (`null` or `~`). Anything else —
// nothing at all, a list, a map — is an error: a list or map value is
// written as an expression (`'[1, 2]'`, `'{"a": 1}'`).
func (l *loader) valuer(e entry, stage, what, key string) (Assign, bool) {
	a := Assign{Key: key, Pos: e.valPos}
	switch v := e.val.(type) {
	case *ast.StringNode, *ast.LiteralNode:
		x, src, ok := l.compile(e, stage, what)
		if !ok {
			return a, false
		}
		a.Expr, a.Src = x, src
		return a, true
	case *ast.IntegerNode:
		a.Expr, a.Src = rules.Literal(wholeValue(v)), v.GetToken().Value
		return a, true
	case *ast.FloatNode:
		a.Expr, a.Src = rules.Literal(FloatValue(v)), v.GetToken().Value
		return a, true
	case *ast.BoolNode:
		a.Expr, a.Src = rules.Literal(v.Value), v.GetToken().Value
		return a, true
	case *ast.NullNode:
		if tk := v.GetToken(); tk != nil && tk.Type != token.ImplicitNullType {
			a.Expr, a.Src = rules.Literal(nil), tk.Value
			return a, true
		}
	}
	if isNull(e.val) {
		l.errf(e.valPos, stage, "%s is empty: write an expression (a literal string is quoted inside it: '\"text\"')", what)
	} else {
		l.errf(e.valPos, stage, "%s must be an expression, not %s: write a list or map as an expression, such as '[1, 2]' or '{\"a\": 1}'", what, l.describe(e.val))
	}
	return a, false
}

// compile compiles a YAML string as an expression. A compile error is
// placed at the spot inside the file: for a one-line plain or quoted scalar
// the node's column plus the expression's own (past the quote), for a block
// scalar (`|`) the line and column within the block. A folded block (`>`)
// or a scalar that wraps lines points at its start.
func (l *loader) compile(e entry, stage, what string) (*rules.Expr, string, bool) {
	var src string
	switch v := e.val.(type) {
	case *ast.StringNode:
		src = v.Value
	case *ast.LiteralNode:
		if v.Value != nil {
			src = v.Value.Value
		}
	default:
		if isNull(e.val) {
			l.errf(e.valPos, stage, "%s is empty: write an expression", what)
		} else {
			l.errf(e.valPos, stage, "%s must be an expression (text), not %s", what, l.describe(e.val))
		}
		return nil, "", false
	}
	if strings.TrimSpace(src) == "" {
		l.errf(e.valPos, stage, "%s is empty: write an expression", what)
		return nil, "", false
	}
	x, err := rules.Compile(src)
	if err == nil {
		l.noteCompiled(e, stage, what, x)
		return x, src, true
	}
	var ce *rules.CompileError
	if !errors.As(err, &ce) {
		l.errf(e.valPos, stage, "%s: expression %q does not compile: %v", what, src, err)
		return nil, src, false
	}
	hint := ""
	if comment, ok := l.cutByComment(e, src); ok {
		hint = " (YAML read " + strconv.Quote(comment) + " as a comment: a # after a space ends a plain value; quote the whole expression: '" + strings.ReplaceAll(src+" "+comment, "'", "''") + "')"
	} else if looksLikeProse(src) {
		hint = ` (a literal string is quoted inside the expression: '"` + strings.TrimSpace(src) + `"')`
	} else if fixed, ok := parenthesizeClosureMap(src); ok && ce.Msg == `unexpected token Operator(":")` {
		hint = " (a map literal as a closure's body is read as the closure's braces: wrap it in parentheses, as in " + fixed + ")"
	} else if fixed, ok := templateAsExpr(src); ok {
		hint = " (${…} is a template, which exec's command and timeout take; this is an expression, which reads names as they are: write " + fixed + ")"
	} else if fixed, op, ok := operatorAsCall(src, ce.Msg); ok {
		hint = " (" + op + " is an operator in expr, written between the text and what it is asked of, not a function: write " + fixed + ")"
	} else if h := rules.FractionRemainderHint(ce.Msg); h != "" {
		hint = h
	} else if bitOperator(src, ce.Msg) {
		hint = " (expr has no bit operators: write bitand(x, 4096) for x & 4096, bitor(x, y) for x | y, bitshr(x, 12) for x >> 12, bitshl(x, 2) for x << 2; a bitmask such as /proc/sys/kernel/tainted is tested so: bitand(taint, 4096) != 0)"
	}
	l.errf(l.exprPos(e, ce), stage, "%s: expression %q does not compile: %s%s", what, src, ce.Msg, hint)
	return nil, src, false
}

// templateAsExpr is an expression written as a template (`${path}`,
// `/etc/${app}.conf`: exec's command's form) spelled as the expression it
// means (`path`, `"/etc/" + app + ".conf"`), and whether it was one
// (TestTemplateInAnExpressionSaysWriteTheName).
func templateAsExpr(src string) (string, bool) {
	var parts []string
	rest := strings.TrimSpace(src)
	for rest != "" {
		i := strings.Index(rest, "${")
		if i < 0 {
			parts = append(parts, strconv.Quote(rest))
			break
		}
		j := strings.Index(rest[i:], "}")
		if j < 0 {
			return "", false
		}
		if i > 0 {
			parts = append(parts, strconv.Quote(rest[:i]))
		}
		name := strings.TrimSpace(rest[i+2 : i+j])
		if name == "" {
			return "", false
		}
		parts = append(parts, name)
		rest = rest[i+j+1:]
	}
	if !strings.Contains(src, "${") {
		return "", false
	}
	return strings.Join(parts, " + "), true
}

// bitOperator says whether an expression that did not compile was
// written with a bit operator of C, Go or a shell (`taint & 4096`, `x >>
// 12`, `x | 4`), which expr does not have: its bitand, bitor, bitshr and
// bitshl functions do it (TestBitOperatorSaysBitFunctions).
// textOperators are expr's operators over two texts that read as
// functions in other languages (JavaScript's startsWith, Python's
// str.endswith, SQL's CONTAINS).
var textOperators = []string{"startsWith", "endsWith", "contains", "matches"}

// operatorAsCall is an expression that calls one of expr's text operators
// as a function (`startsWith(v.content, "Vulnerable")`, which expr reads
// as `unexpected token Operator("startsWith")`) spelled with the operator
// between its two operands (`v.content startsWith "Vulnerable"`), the
// operator's name, and whether it was one; the first such call is
// rewritten, the others left as written
// (TestTextOperatorCalledAsAFunctionSaysWriteItBetween).
func operatorAsCall(src, msg string) (fixed, op string, ok bool) {
	for _, name := range textOperators {
		if msg != `unexpected token Operator("`+name+`")` {
			continue
		}
		at := strings.Index(src, name+"(")
		if at < 0 {
			return "", "", false
		}
		open := at + len(name)
		depth, comma, quote := 0, -1, byte(0)
		for i := open; i < len(src); i++ {
			c := src[i]
			switch {
			case quote != 0:
				if c == '\\' {
					i++
				} else if c == quote {
					quote = 0
				}
			case c == '"' || c == '\'' || c == '`':
				quote = c
			case c == '(' || c == '[' || c == '{':
				depth++
			case c == ')' || c == ']' || c == '}':
				depth--
				if depth == 0 {
					if comma < 0 {
						return "", "", false
					}
					a, b := strings.TrimSpace(src[open+1:comma]), strings.TrimSpace(src[comma+1:i])
					return src[:at] + a + " " + name + " " + b + src[i+1:], name, true
				}
			case c == ',' && depth == 1:
				if comma >= 0 {
					return "", "", false
				}
				comma = i
			}
		}
		return "", "", false
	}
	return "", "", false
}

func bitOperator(src, msg string) bool {
	switch msg {
	case `unexpected token Operator("&")`:
		return true
	case `unexpected token Operator(">")`:
		return strings.Contains(src, ">>")
	case `unexpected token Operator("<")`:
		return strings.Contains(src, "<<")
	}
	return strings.HasPrefix(msg, "unexpected token") && bitOrPattern.MatchString(src)
}

// bitOrPattern is a lone | before a number (`taint | 4096`): expr reads
// | as its pipe, which takes a call, never a number.
var bitOrPattern = regexp.MustCompile(`(^|[^|])\|\s*\d`)

// cutByComment says whether a plain one-line scalar was cut short by a
// YAML comment (`waiting: filter(xs, # != nil)`, where `#` is expr's
// closure argument and YAML's comment), and the comment as written.
func (l *loader) cutByComment(e entry, src string) (string, bool) {
	v, ok := e.val.(*ast.StringNode)
	if !ok {
		return "", false
	}
	if tk := v.GetToken(); tk == nil || tk.Type == token.DoubleQuoteType || tk.Type == token.SingleQuoteType {
		return "", false
	}
	line := []rune(l.line(e.valPos.Line))
	start := e.valPos.Col - 1
	end := start + utf8.RuneCountInString(src)
	if start < 0 || end > len(line) || string(line[start:end]) != src {
		return "", false // the scalar wraps lines
	}
	rest := strings.TrimRight(string(line[end:]), " \t")
	if !strings.HasPrefix(strings.TrimLeft(rest, " \t"), "#") || !strings.HasPrefix(rest, " ") && !strings.HasPrefix(rest, "\t") {
		return "", false
	}
	return strings.TrimLeft(rest, " \t"), true
}

// exprPos maps a compile error's line and column inside the expression to
// the file.
func (l *loader) exprPos(e entry, ce *rules.CompileError) Pos {
	p := e.valPos
	switch v := e.val.(type) {
	case *ast.StringNode:
		if ce.Line != 1 {
			return p
		}
		tk := v.GetToken()
		if tk == nil {
			return p
		}
		quote := 0
		if tk.Type == token.DoubleQuoteType || tk.Type == token.SingleQuoteType {
			quote = 1
		}
		col := p.Col + quote + ce.Column - 1
		if line := l.line(p.Line); col > utf8.RuneCountInString(line)+1 {
			return p // the scalar wraps lines: point at its start
		}
		p.Col = col
		return p
	case *ast.LiteralNode:
		first := p.Line + 1
		indent := l.blockIndent(first)
		p.Line, p.Col = first, indent+1
		if v.Start != nil && strings.HasPrefix(v.Start.Value, "|") {
			p.Line = first + ce.Line - 1
			p.Col = indent + ce.Column
		}
		return p
	}
	return p
}

// line is the source line n (1-based), or "".
func (l *loader) line(n int) string {
	if n < 1 || n > len(l.lines) {
		return ""
	}
	return l.lines[n-1]
}

// blockIndent is the indentation of a block scalar whose content starts at
// line first: that of its first line that is not blank.
func (l *loader) blockIndent(first int) int {
	for n := first; n <= len(l.lines) && n < first+1000; n++ {
		s := l.line(n)
		if strings.TrimSpace(s) == "" {
			continue
		}
		return len(s) - len(strings.TrimLeft(s, " "))
	}
	return 0
}

// parenthesizeClosureMap is src with its first map literal that is a call's
// later argument (`, {`) wrapped in parentheses, as expr needs it to be a
// closure's body: map(xs, {a: #}) → map(xs, ({a: #})). ok is false when
// there is no such literal or its braces do not close.
func parenthesizeClosureMap(src string) (string, bool) {
	open := -1
	for i := strings.Index(src, ","); i >= 0 && i < len(src); {
		j := i + 1
		for j < len(src) && strings.IndexByte(" \t\r\n", src[j]) >= 0 { // a block scalar breaks lines anywhere
			j++
		}
		if j < len(src) && src[j] == '{' {
			open = j
			break
		}
		next := strings.Index(src[i+1:], ",")
		if next < 0 {
			break
		}
		i += 1 + next
	}
	if open < 0 {
		return "", false
	}
	depth := 0
	for k := open; k < len(src); k++ {
		switch src[k] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return src[:open] + "(" + src[open:k+1] + ")" + src[k+1:], true
			}
		}
	}
	return "", false
}

// looksLikeProse reports an expression that reads as words, not code
// ("Volume is full"): the author most likely meant a literal string.
func looksLikeProse(src string) bool {
	src = strings.TrimSpace(src)
	if !strings.Contains(src, " ") {
		return false
	}
	for _, r := range src {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(" .,:;!?-", r)) {
			return false
		}
	}
	return true
}
