package chart

import (
	"fmt"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// isTemplate says whether a value is text holding `${` (a template), as
// opposed to a plain value a key reads in its own way (a duration).
func isTemplate(e entry) bool {
	sn, ok := e.val.(*ast.StringNode)
	return ok && strings.Contains(sn.Value, "${")
}

// commandTemplates reads the templates of an exec command's items (words
// holds each item's text, read already): nil when no item holds `${` (the
// command runs as written) or an item was not text (reported), else one
// Template per item, a literal item a Template of one text part.
func (l *loader) commandTemplates(ce entry, items []ast.Node, words []string, sid string) []Template {
	templated := false
	for _, n := range items {
		templated = templated || isTemplate(entry{val: n})
	}
	if !templated || len(words) != len(items) {
		return nil
	}
	out := make([]Template, 0, len(items))
	for i, n := range items {
		ie := entry{key: "command", keyPos: ce.keyPos, val: n, valPos: l.pos(n)}
		if !isTemplate(ie) {
			out = append(out, Template{Src: words[i], Parts: []TemplatePart{{Text: words[i]}}, Pos: ie.valPos})
			continue
		}
		t, ok := l.template(ie, sid, fmt.Sprintf("exec command argument %d", i+1))
		if !ok || t == nil {
			return nil // reported
		}
		out = append(out, *t)
	}
	return out
}

// inheritEnv reads `inheritEnv:`, a list of variable names.
func (l *loader) inheritEnv(e entry, sid string) []string {
	items, ok := l.list(e, sid, "exec inheritEnv")
	if !ok {
		return nil
	}
	var out []string
	for i, n := range items {
		ie := entry{key: "inheritEnv", keyPos: e.keyPos, val: n, valPos: l.pos(n)}
		name, ok := l.word(ie, sid, fmt.Sprintf("exec inheritEnv item %d", i+1))
		if !ok {
			continue
		}
		if strings.ContainsAny(name, "=\x00") || strings.TrimSpace(name) != name {
			l.errf(ie.valPos, sid, "exec inheritEnv name %q is not a variable name: no '=', no spaces, not empty", name)
			continue
		}
		out = append(out, name)
	}
	return out
}
