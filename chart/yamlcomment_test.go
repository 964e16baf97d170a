package chart

import (
	"strings"
	"testing"
)

// TestExpressionCutByAYAMLCommentSaysQuoteIt: `#` is expr's closure
// argument and, after a space, YAML's comment, so the plain value
// `filter(xs, # != nil)` reached the compiler as `filter(xs,` and the load
// error said only `unexpected token EOF`, where and not what would be
// right. It says what YAML cut off and the expression quoted whole.
func TestExpressionCutByAYAMLCommentSaysQuoteIt(t *testing.T) {
	t.Parallel()
	src := "version: 1\nrunbook: c\nstages:\n  - id: seed\n    set: {xs: '[1, nil]'}\n  - id: kept\n    set:\n      kept: filter(xs, # != nil)\n"
	_, err := Parse("chart.yaml", []byte(src))
	want := `chart.yaml:8:22: stage "kept": set "kept": expression "filter(xs," does not compile: unexpected token EOF (YAML read "# != nil)" as a comment: a # after a space ends a plain value; quote the whole expression: 'filter(xs, # != nil)')`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v\nwant it to hold %s", err, want)
	}
	if _, err := Parse("chart.yaml", []byte(strings.Replace(src, "filter(xs, # != nil)", "'filter(xs, # != nil)'", 1))); err != nil {
		t.Errorf("quoted: %v", err)
	}
	// A comment after an expression that compiles is a comment.
	if _, err := Parse("chart.yaml", []byte(strings.Replace(src, "filter(xs, # != nil)", "len(xs) # how many", 1))); err != nil {
		t.Errorf("a comment after a whole expression: %v", err)
	}
}

// TestColonInAPlainValueSaysQuoteIt: `description: names only: a note`
// was refused with the parser's words alone, "mapping value is not
// allowed in this context", at the value; the error says what a
// ": " in a plain value does and to quote the value.
func TestColonInAPlainValueSaysQuoteIt(t *testing.T) {
	t.Parallel()
	src := "version: 1\nrunbook: c\ndescription: Each pod (names only: db-0 in two namespaces is one)\nstages: [{id: s, set: {x: 1}}]\n"
	_, err := Parse("chart.yaml", []byte(src))
	want := `chart.yaml:3:14: the file is not valid YAML: mapping value is not allowed in this context (a ": " inside a plain value starts a mapping, as in description: names only: a note; quote the whole value, description: "names only: a note")`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v\nwant it to hold %s", err, want)
	}
}
