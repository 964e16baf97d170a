package rules

import (
	"fmt"

	"github.com/expr-lang/expr"

	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/internal/parse"
)

// funcs are the functions an expression may call beside expr's builtins,
// each a pure function of its arguments (no host state reachable): the
// sandbox rule holds.
//
//	parse(text, mode)              parse(text, "kv"), parse(text, {as: "regex", pattern: "…"})
//	date(text[, layout[, zone]])   expr's date, refusing a zone abbreviation with no known offset (date.go)
var funcs = map[string]func(params ...any) (any, error){
	"parse": parseFunc,
	"date":  dateFunc,
}

// funcTypes are the signatures expr's checker knows a func by, where it
// has any: date's answer stays a time.Time to the checker, so
// `date(x) - now()` is a duration before the expression runs.
var funcTypes = map[string][]any{
	"date": dateTypes,
}

// funcOptions are the funcs an expression calls, as Compile's expr
// options. Only those it calls: expr resolves a registered name as the
// function everywhere in the expression, and a stage may be called parse
// (`parse.stdout` must keep reading it).
func funcOptions(called map[string]bool) []expr.Option {
	var opts []expr.Option
	for name, f := range funcs {
		if called[name] {
			opts = append(opts, expr.Function(name, f, funcTypes[name]...))
		}
	}
	return opts
}

// parseFunc is `parse(text, mode)`: text read by internal/parse, the one
// home of the parse modes that exec's and read's parse: use. The mode is a
// name or an object {as: MODE, …options}. A text with lines the mode cannot
// read is an error (a rule error where a rule calls it), never a value
// missing them in silence; a value that may have such lines is read with
// exec's or read's parse:, which count them instead.
//
//	parse("a=1\nb=x", "kv")   {a: 1, b: "x"}
//	parse("a=1\nb", "kv")     error: parse(text, "kv"): 1 line could not be read; the first: line 2: …
func parseFunc(params ...any) (any, error) {
	if len(params) != 2 {
		return nil, fmt.Errorf("parse takes 2 arguments (the text and the mode, such as parse(out, \"kv\")), not %d", len(params))
	}
	text, ok := params[0].(string)
	if !ok {
		return nil, fmt.Errorf("parse: the text is %s, want a string", jsonv.Describe(params[0]))
	}
	spec, shown, err := parseSpecOf(params[1])
	if err != nil {
		return nil, err
	}
	res, err := parse.Parse(text, spec)
	if err != nil {
		return nil, fmt.Errorf("parse(text, %s): %w", shown, err)
	}
	if res.Problems > 0 {
		lines := fmt.Sprintf("%d lines", res.Problems)
		if res.Problems == 1 {
			lines = "1 line"
		}
		return nil, fmt.Errorf("parse(text, %s): %s could not be read; the first: %s", shown, lines, res.FirstProblem)
	}
	return res.Value, nil
}

// parseSpecOf reads parse's mode argument: a name, or an object whose as
// names the mode and whose other keys are its options.
func parseSpecOf(v any) (parse.Spec, string, error) {
	switch m := v.(type) {
	case string:
		return parse.Spec{Mode: m}, fmt.Sprintf("%q", m), nil
	case map[string]any:
		as, ok := m["as"].(string)
		if !ok {
			return parse.Spec{}, "", fmt.Errorf("parse: the mode object needs as: the mode's name, such as {as: \"regex\", pattern: \"(?P<k>\\\\w+)\"}")
		}
		opts := make(map[string]any, len(m))
		for k, o := range m {
			if k != "as" {
				opts[k] = o
			}
		}
		return parse.Spec{Mode: as, Options: opts}, fmt.Sprintf("{as: %q}", as), nil
	}
	return parse.Spec{}, "", fmt.Errorf("parse: the mode is %s, want a mode's name (\"kv\") or an object {as: MODE, …options}", jsonv.Describe(v))
}
