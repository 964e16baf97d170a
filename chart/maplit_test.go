package chart

import (
	"strings"
	"testing"
)

// TestMapLiteralInClosureSaysParenthesize: a map literal written as a
// closure's body (map(xs, {mount: #.m})) does not compile, since expr
// reads the braces as the closure's; the load error says to wrap the
// literal in parentheses. Before, it said only `unexpected token
// Operator(":")`, and a new user writing the README's own pattern without
// its parentheses was left to guess.
func TestMapLiteralInClosureSaysParenthesize(t *testing.T) {
	t.Parallel()
	src := "version: 1\nrunbook: m\nstages:\n  - id: seed\n    set: {xs: '[{m: 1}]'}\n  - id: vols\n    set:\n      vols: 'map(xs, {mount: #.m})'\n"
	_, err := Parse("chart.yaml", []byte(src))
	want := `chart.yaml:8:28: stage "vols": set "vols": expression "map(xs, {mount: #.m})" does not compile: unexpected token Operator(":") (a map literal as a closure's body is read as the closure's braces: wrap it in parentheses, as in map(xs, ({mount: #.m})))`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v\nwant it to hold %s", err, want)
	}
	if _, err := Parse("chart.yaml", []byte(strings.Replace(src, "{mount: #.m}", "({mount: #.m})", 1))); err != nil {
		t.Errorf("parenthesized: %v", err)
	}
}

// TestMapLiteralInClosureOnItsOwnLineSaysParenthesize: the same literal
// on a line of its own in a block scalar (`map(filter(…),\n  {time:
// #.time})`, as a long set: is written) was said with no hint, only
// `unexpected token Operator(":")`, at the block's start.
func TestMapLiteralInClosureOnItsOwnLineSaysParenthesize(t *testing.T) {
	t.Parallel()
	src := "version: 1\nrunbook: m\nstages:\n  - id: seed\n    set: {xs: '[{m: 1}]'}\n  - id: vols\n    set:\n      vols: >-\n        map(xs,\n          {mount: #.m})\n"
	_, err := Parse("chart.yaml", []byte(src))
	const want = `(a map literal as a closure's body is read as the closure's braces: wrap it in parentheses, as in map(xs,`
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "({mount: #.m}))") {
		t.Errorf("error %v\nwant it to hold %s … ({mount: #.m}))", err, want)
	}
}
