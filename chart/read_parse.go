package chart

import (
	"fmt"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/openrunbook/runbook/internal/parse"
)

// parseSpec reads `parse:` on exec and read: a mode name (`parse: kv`), or
// a map `{as: MODE, …options}`. The mode and its options are checked here,
// by the parser's own Check, so a chart that loads never meets a bad mode
// when it runs; the error points at the option it is about when it names
// one, else at the value.
func (l *loader) parseSpec(e entry, sid, what string) (parse.Spec, bool) {
	switch e.val.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
	default:
		mode, ok := l.word(e, sid, what)
		if !ok {
			return parse.Spec{}, false
		}
		spec := parse.Spec{Mode: mode}
		if err := parse.Check(spec); err != nil {
			hint := ""
			if contains(parse.Modes(), mode) {
				// A known mode that needs an option (regex's pattern).
				hint = fmt.Sprintf("; give its options in the map form, parse: {as: %s, …}", mode)
			}
			l.errf(e.valPos, sid, "%s: %v%s", what, err, hint)
			return parse.Spec{}, false
		}
		return spec, true
	}
	m, ok := l.asMap(e.val, e.keyPos, sid, what)
	if !ok {
		return parse.Spec{}, false
	}
	ae, ok := m.get("as")
	if !ok {
		l.missing(m, "as", e.valPos, sid, "%s is a map with no as: name the mode, such as {as: columns, skip: 1} (modes: %s)", what, strings.Join(parse.Modes(), ", "))
		return parse.Spec{}, false
	}
	mode, ok := l.word(ae, sid, what+" as")
	if !ok {
		return parse.Spec{}, false
	}
	if !contains(parse.Modes(), mode) {
		// Check's message for an unknown mode lists them, with "did you mean".
		l.errf(ae.valPos, sid, "%s: %v", what, parse.Check(parse.Spec{Mode: mode}))
		return parse.Spec{}, false
	}
	spec := parse.Spec{Mode: mode, Options: map[string]any{}}
	good := true
	for _, o := range m.entries {
		if o.key == "as" {
			continue
		}
		v, ok := l.value(o.val, sid, 1)
		good = good && ok
		spec.Options[o.key] = v
	}
	if !good {
		return parse.Spec{}, false
	}
	if err := parse.Check(spec); err != nil {
		l.errf(optionPos(m, err.Error(), e.valPos), sid, "%s: %v", what, err)
		return parse.Spec{}, false
	}
	if len(spec.Options) == 0 {
		spec.Options = nil
	}
	return spec, true
}

// optionPos is where the option an error of parse.Check names was written:
// its key for an option the mode does not have, its value for a value of
// the wrong kind; at when the error names no option (a regex with no
// pattern).
func optionPos(m *mapping, msg string, at Pos) Pos {
	for _, o := range m.entries {
		if o.key == "as" {
			continue
		}
		if o.key == "header" && strings.Contains(msg, "needs names") {
			continue // the names are what is missing; point at the map
		}
		if strings.Contains(msg, fmt.Sprintf("option %q", o.key)) || strings.Contains(msg, fmt.Sprintf("and %q was given", o.key)) {
			return o.keyPos
		}
		for _, form := range []string{"option " + o.key + " ", "option " + o.key + "[", "option " + o.key + ":", ": " + o.key + " ", ": " + o.key + ":"} {
			if strings.Contains(msg, form) {
				return o.valPos
			}
		}
	}
	return at
}
