package rules

import (
	"reflect"
	"strings"
	"testing"
)

type scope map[string]any

func (s scope) Get(k string) (any, bool) { v, ok := s[k]; return v, ok }

// TestIssue14ParseFunction: parse(text, mode) is internal/parse's parsers
// as an expression function — by name or {as: MODE, …options} — and a
// text with lines the mode cannot read is an error (a rule error), never a
// value missing them in silence.
func TestIssue14ParseFunction(t *testing.T) {
	t.Parallel()
	env := scope{
		"mem":   "MemTotal: 16318412 kB\nHugePages_Total: 0\n",
		"table": "a b\n1 2\n3\n",
		"pw":    "root:0\nbob:1000\n",
		"check": "DISK OK - free space: / 3326 MB (56%);| /=2643MB;5948;5958;0;5968",
		"parse": map[string]any{"stdout": "a stage called parse"},
	}
	tests := []struct {
		src  string
		want any
		err  string
	}{
		{src: `parse(mem, "kv")`, want: map[string]any{"MemTotal": "16318412 kB", "HugePages_Total": 0}},
		{src: `parse(mem, "kv").HugePages_Total == 0`, want: true},
		{src: `parse(mem, {as: "kv", numbers: false}).HugePages_Total`, want: "0"},
		{src: `parse(pw, {as: "regex", pattern: "(?P<user>\\w+):(?P<uid>\\d+)"})[1].uid`, want: 1000},
		{src: `parse(check, "nagios").perfdata[0].label`, want: "/"},
		{src: `parse(check, "nagios").perfdata[0].value`, want: 2643},
		{src: `parse("", "lines")`, want: []any{}},
		{src: `parse.stdout`, want: "a stage called parse"},
		{src: `parse(table, "columns")`, err: `parse(text, "columns"): 1 line could not be read; the first: line 3: 1 field, the table has 2 columns: the row holds nothing under the header's "b": if the tool left a cell blank there`},
		{src: `parse(pw, {as: "regex", pattern: "(?P<user>root):"})`, err: `1 line could not be read; the first: line 2: the pattern does not match: "bob:1000"`},
		{src: `parse(1, "kv")`, err: "parse: the text is a number, want a string"},
		{src: `parse(mem, {as: "kv", skip: 1})`, err: `parse mode kv has no option "skip"`},
		{src: `parse(mem, {pattern: "x"})`, err: "the mode object needs as"},
		{src: `parse(mem, 3)`, err: "parse: the mode is a number"},
		{src: `parse(mem)`, err: "parse takes 2 arguments"},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			e, err := Compile(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			v, _, err := e.Value(env)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Value = %v, %v; want an error containing %q", v, err, tc.err)
				}
				out := e.Eval(env)
				if out.Matched || !strings.Contains(out.Err, tc.err) {
					t.Errorf("as a rule: %+v; want a rule error", out)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(v, tc.want) {
				t.Errorf("Value = %#v, want %#v", v, tc.want)
			}
		})
	}
}

// TestIssue14ParseFunctionModeCheckedAtCompile: a mode written as a
// literal is checked when the expression compiles, at its column.
func TestIssue14ParseFunctionModeCheckedAtCompile(t *testing.T) {
	t.Parallel()
	_, err := Compile(`parse(out, "colums")`)
	ce, ok := err.(*CompileError)
	if !ok || ce.Column != 12 || !strings.Contains(ce.Msg, `parse mode "colums" is not one of`) || !strings.Contains(ce.Msg, `did you mean "columns"?`) {
		t.Fatalf("Compile = %v; want a compile error at 1:12 naming the modes", err)
	}
	if _, err := Compile(`other(out, "kv")`); err == nil || !strings.Contains(err.Error(), "unknown function other") {
		t.Errorf("another function: %v; want it refused", err)
	}
}
