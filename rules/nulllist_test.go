package rules

import (
	"strings"
	"testing"
	"time"
)

// TestBuiltinOverNullSaysWhatWouldBeRight: map, filter, any… over a key
// that holds null (iostat's JSON with no disk list, a tool whose stdout
// its parse could not read) failed the stage with "reflect: call of
// reflect.Value.Len on zero Value", Go's words, which say neither that
// the value was null nor what to write. The error says both.
func TestBuiltinOverNullSaysWhatWouldBeRight(t *testing.T) {
	t.Parallel()
	env := mapEnv{"io": map[string]any{"disks": nil}}
	for _, src := range []string{`map(io.disks, #.util)`, `filter(io.disks, .util > 80)`, `any(io.disks, .util > 80)`, `count(io.disks, .util > 80)`} {
		_, _, err := MustCompile(src).Value(env)
		if err == nil || strings.Contains(err.Error(), "reflect:") || !strings.Contains(err.Error(), "is null") || !strings.Contains(err.Error(), "?? []") {
			t.Errorf("%s: error %v; want one that says the list is null and how to write none", src, err)
		}
	}
}

// TestBuiltinGivenAnotherKindSaysItInOurWords: expr's text builtins given
// a number, a list or an object failed with Go's "interface conversion:
// interface {} is map[string]interface {}, not string", naming Go's types
// and not what to write. The kinds are a chart's (jsonv.Describe) and the
// error says how to make text; given null, it says what null may be.
func TestBuiltinGivenAnotherKindSaysItInOurWords(t *testing.T) {
	env := mapEnv{"o": map[string]any{"a": 1}, "n": 5, "l": []any{1, 2}, "gone": nil}
	for _, tc := range []struct{ src, want string }{
		{`fromJSON(o)`, "it takes a string there and was given an object; string(x) makes a string of a number, toJSON(x) of an object or a list (1:1)"},
		{`upper(n)`, "it takes a string there and was given a number;"},
		{`trim(l)`, "it takes a string there and was given a list;"},
		// split(log.content, "\n") over a read: that found no file said
		// "interface conversion: interface {} is nil, not string".
		{`split(gone, "\n")`, `it takes a string there and was given null (a member its object lacks, a file not found, a key that holds null): say what null means, as x ?? "" does`},
	} {
		_, _, err := MustCompile(tc.src).Value(env)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "interface {}") {
			t.Errorf("%s: %v; want it said as %q", tc.src, err, tc.want)
		}
	}
}

// TestNumberOfATextSaysTheTextAndWhatToWrite: int(split(curl.stdout, "
// ")[0]) over a timed-out curl that printed nothing failed its stage with
// "invalid operation: int() (1:1)", and int over echo's "200\n" with the
// line end raw in the message: neither the text nor what to write. The
// error quotes the text and says what would read it.
func TestNumberOfATextSaysTheTextAndWhatToWrite(t *testing.T) {
	t.Parallel()
	env := mapEnv{"empty": "", "line": "200\n", "dec": "0.25", "word": "12ms", "null": nil, "list": []any{1}, "t": time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)}
	for _, tc := range []struct{ src, want string }{
		{`int(empty)`, `int() could not read the text "" as a whole number: it is empty (a command that printed nothing?)`},
		{`int(line)`, `int() could not read the text "200\n" as a whole number: it has spaces or a line end around it; write int(trim(x)) (1:1)`},
		{`int(dec)`, `int() could not read the text "0.25" as a whole number: it is a decimal; int(float(x)) drops the fraction`},
		{`float(word)`, `float() could not read the text "12ms" as a number; take the number out of the text first`},
		{`float(null)`, `float() was given null (a key that holds null, or a member its object lacks); where it may be absent, test it first`},
		{`int(list)`, `int() takes a number, or a text that spells one, and was given a list (1:1)`},
		{`int(t)`, `int() takes a number, or a text that spells one, and was given a time; a time's number is its epoch, x.Unix()`},
	} {
		_, _, err := MustCompile(tc.src).Value(env)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "invalid operation") {
			t.Errorf("%s: %v\nwant it said as %q", tc.src, err, tc.want)
		}
	}
	if v, _, err := MustCompile(`int(trim(line)) + int(float(dec))`).Value(env); err != nil || v != 200 {
		t.Errorf("the recipes: %v, %v", v, err)
	}
}

// TestBuiltinOverAnObjectSaysValues: a health endpoint's checks keyed by
// name ({"db": {"status": "fail"}}) given to any(…) failed the rule with
// reflect's "call of reflect.Value.Index on map Value"; it says an object
// was given and to go over values(x).
func TestBuiltinOverAnObjectSaysValues(t *testing.T) {
	t.Parallel()
	env := mapEnv{"checks": map[string]any{"db": map[string]any{"status": "fail"}}}
	for _, src := range []string{`any(checks, .status != "ok")`, `all(checks, .status == "ok")`, `filter(checks, .status != "ok")`, `count(checks, .status != "ok")`} {
		_, _, err := MustCompile(src).Value(env)
		if err == nil || strings.Contains(err.Error(), "reflect:") || !strings.Contains(err.Error(), "was given an object") || !strings.Contains(err.Error(), "values(x)") {
			t.Errorf("%s: %v; want it to say an object was given and values(x)", src, err)
		}
	}
	if v, _, err := MustCompile(`any(values(checks), .status != "ok")`).Value(env); err != nil || v != true {
		t.Errorf("values(x): %v, %v", v, err)
	}
}

// TestObjectIndexedByANumberSaysItsMembersAreNamed: inside a closure a
// row of a parse read as a list, `map(p.stdout, #[0])` or `filter(rows,
// .gid == #[0].gid)` (a # that is the inner closure's row, not the
// outer's pair), failed with Go's "reflect.Value.MapIndex: value of type
// int is not assignable to type string", which says neither that the
// value is an object nor what to write. It is said in a chart's words.
func TestObjectIndexedByANumberSaysItsMembersAreNamed(t *testing.T) {
	t.Parallel()
	env := mapEnv{"rows": []any{map[string]any{"user": "root", "gid": 0}}}
	for _, src := range []string{`map(rows, #[0])`, `filter(rows, .gid == #[0].gid)`} {
		_, _, err := MustCompile(src).Value(env)
		if err == nil || strings.Contains(err.Error(), "reflect") || !strings.Contains(err.Error(), "the value is an object (a row a parse made), whose members are read by name") {
			t.Errorf("%s: %v; want it said that the value is an object read by name", src, err)
		}
	}
}

// TestListReadByNameSaysItIsAList: a list read by a member's name, as an
// object is, failed with expr's words for int() over a text ("int() could
// not read the text it was given as a number"), naming a call the
// expression does not make: npm outdated --json prints a list in place of
// a package's object where it is outdated at several places, and
// `map(toPairs(o), #[1].current)` said int() could not read a text. It
// says the value is a list now, and how to read its items; int() over a
// text it cannot read still says so.
func TestListReadByNameSaysItIsAList(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"out": map[string]any{"semver": []any{map[string]any{"current": "5.7.2"}, map[string]any{"current": "7.5.4"}}},
		"x":   []any{map[string]any{"a": 1}},
		"t":   "12 MB",
	}
	for _, src := range []string{`map(toPairs(out), #[1].current)`, `x.a`, `x?.a`, `x["a"]`, `out.semver.current`} {
		_, _, err := MustCompile(src).Value(env)
		if err == nil || strings.Contains(err.Error(), "int()") || !strings.Contains(err.Error(), "it reads a member by name, as of an object, and the value is a list") {
			t.Errorf("%s: %v; want it said that the value is a list", src, err)
		}
	}
	if _, _, err := MustCompile(`int(t) > 1`).Value(env); err == nil || !strings.Contains(err.Error(), "int() could not read the text") {
		t.Errorf("int(t): %v; want int()'s own words", err)
	}
}

// TestTextReadByNameSaysItIsAText: a duration input is given to
// expressions as its text ("6h"), and `age > maxAge.Seconds()` in a DHCP
// leases check failed saying the value was a list, read by number, with
// npm's list for an example: nothing in the chart was a list. A text read
// by a member's name says it is a text now, and, as a duration input is
// one, how to read it as a duration; a list still says it is a list.
func TestTextReadByNameSaysItIsAText(t *testing.T) {
	t.Parallel()
	env := mapEnv{"maxAge": "6h", "age": 30000, "x": []any{map[string]any{"a": 1}}}
	for _, src := range []string{`maxAge.Seconds()`, `age > 1 && age > maxAge.Seconds()`, `maxAge?.Seconds()`} {
		_, _, err := MustCompile(src).Value(env)
		if err == nil || strings.Contains(err.Error(), "the value is a list") || !strings.Contains(err.Error(), "the value is a text") || !strings.Contains(err.Error(), "duration(") {
			t.Errorf("%s: %v; want it said that the value is a text, and duration()", src, err)
		}
	}
	if _, _, err := MustCompile(`x.a`).Value(env); err == nil || !strings.Contains(err.Error(), "the value is a list") {
		t.Errorf("x.a: %v; want it said that the value is a list", err)
	}
}
