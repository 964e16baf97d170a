package rules

import (
	"fmt"
	"strings"

	"github.com/expr-lang/expr"

	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/internal/secret"
)

// `contains`, `startsWith`, `endsWith` and `matches` read text. expr's own operators
// gave false, and no word, when either side was null, and a Go panic's
// "interface conversion: interface {} is []interface {}, not string" when
// it was a list. Both happen to a real log: journalctl -o json writes a
// field over 4096 bytes as null (a long stack trace's MESSAGE) and one
// that is not UTF-8 as the list of its bytes, so
// filter(j.stdout, #.MESSAGE contains "ERROR") missed the one error whose
// message was too long to print and said nothing (an "ok" row,
// Consistent), or failed in words that named neither the value nor what
// to write. judgedText is each of them over two strings, as expr's, and
// an error naming the kind it met and what to write otherwise:
//
//	"db ERROR" contains "ERROR"    true
//	null contains "ERROR"          error: … is null … (x ?? "") contains …
//	[69, 82, 82] contains "ERROR"  error: … a list of 3 numbers, bytes …
//
// `contains` over a set of upper-case flags written between spaces is
// not known to hold where the flag asked is found only inside another
// (flagInside: upsc's `OB DISCHRG` holds CHRG inside DISCHRG).
//
// Only an operation one of whose operands' types expr cannot know when
// it compiles is patched (patchEqual); two strings it knows stay expr's.
// `matches` keeps expr's own operator, its pattern checked when the
// expression compiles: only its left side is judged (matchedTextFunc, the
// text as it is, or the error), and, when that text has a line end or
// blanks at an end, whether
// the pattern matches it but for its line end or other blanks at its
// ends (edgeMatch).
const (
	containsFunc    = "\x00contains"
	startsWithFunc  = "\x00startsWith"
	endsWithFunc    = "\x00endsWith"
	matchedTextFunc = "\x00matchedText"
	// containsAskedFunc and matchedTextAskedFunc are contains and
	// matches in an expression that writes the word's negation too
	// (negationAsked): no negatedInside judgement.
	containsAskedFunc    = "\x00containsAsked"
	matchedTextAskedFunc = "\x00matchedTextAsked"
)

// textFuncs are the text operations patchEqual calls, as Compile's expr
// options, each typed as giving a bool so an enclosing expression keeps
// its types.
func textFuncs() []expr.Option {
	typ := new(func(any, any, string) bool)
	return []expr.Option{
		expr.Function(containsFunc, func(p ...any) (any, error) { return judgedText(p[0], p[1], p[2], "contains", strings.Contains, false) }, typ),
		expr.Function(containsAskedFunc, func(p ...any) (any, error) { return judgedText(p[0], p[1], p[2], "contains", strings.Contains, true) }, typ),
		expr.Function(startsWithFunc, func(p ...any) (any, error) {
			return judgedText(p[0], p[1], p[2], "startsWith", strings.HasPrefix, false)
		}, typ),
		expr.Function(endsWithFunc, func(p ...any) (any, error) { return judgedText(p[0], p[1], p[2], "endsWith", strings.HasSuffix, false) }, typ),
		expr.Function(matchedTextFunc, func(p ...any) (any, error) { return matchedText(p[0], p[1], p[2], false) }, new(func(any, string, any) string)),
		expr.Function(matchedTextAskedFunc, func(p ...any) (any, error) { return matchedText(p[0], p[1], p[2], true) }, new(func(any, string, any) string)),
	}
}

// matchedText is the text `s matches pattern` reads, or why it is not
// known to match as meant (judgedText, matchReason).
func matchedText(s, text, pattern any, negationAsked bool) (any, error) {
	if _, err := judgedText(s, "", text, "matches", strings.Contains, false); err != nil {
		return nil, err
	}
	if reason := matchReason(s.(string), pattern, negationAsked); reason != "" {
		return nil, fmt.Errorf("%s: %s", text, reason)
	}
	return s, nil
}

// judgedText is `a op b` over two strings; text is the operation as
// written, for the error; negationAsked, that the expression writes the
// word's negation too (negationAsked).
func judgedText(a, b, text any, op string, f func(s, sub string) bool, negationAsked bool) (any, error) {
	x, ok1 := a.(string)
	y, ok2 := b.(string)
	if ok1 && ok2 {
		if op == "endsWith" {
			if reason := edgeSuffix(x, y); reason != "" {
				return nil, fmt.Errorf("%s: %s", text, reason)
			}
		}
		if op == "contains" {
			if reason := containsReason(x, y, negationAsked); reason != "" {
				return nil, fmt.Errorf("%s: %s", text, reason)
			}
		}
		matched := f(x, y)
		if !matched && x == secret.Masked {
			// A value masked before any rule read it holds some text
			// not known: "***" startsWith "change" says nothing of it.
			if reason := maskedSide(x, y); reason != "" {
				return nil, fmt.Errorf("%s: %s", text, reason)
			}
		}
		return matched, nil
	}
	side, v := "its left side", a
	if ok1 {
		side, v = "its right side", b
	}
	if v == nil {
		return nil, fmt.Errorf("%s: %s reads text, and %s is null: a member the object holds as null or lacks (journalctl -o json writes a field over 4096 bytes as null; --all keeps it), so the text was never read; where it may be null, say what null means: (x ?? \"\") %s …, or x != nil && x %s …", text, op, side, op, op)
	}
	what, bytes := describeText(v)
	hint := "; make it text (string(x)), or test its kind first (type(x) == \"string\" && …)"
	if bytes {
		hint = ": bytes, as journalctl -o json writes a field that is not UTF-8; have the command print it as text (journalctl -o short-iso, or -o export), or count such entries apart (type(x) == \"array\") so none is judged as holding no match"
	}
	return nil, fmt.Errorf("%s: %s reads text, and %s is %s%s", text, op, side, what, hint)
}

// describeText names a value that is not text, a list by its length and
// what it holds, and says whether it is a list of bytes.
func describeText(v any) (string, bool) {
	if jsonv.Of(v) != jsonv.List {
		return jsonv.Describe(v), false
	}
	n, bytes := 0, true
	each(v, func(e any) bool {
		n++
		i, ok := jsonv.Whole(e)
		bytes = bytes && ok && i >= 0 && i <= 255
		return true
	})
	if n > 0 && bytes {
		return fmt.Sprintf("a list of %d numbers from 0 to 255", n), true
	}
	return fmt.Sprintf("a list of %d values", n), false
}
