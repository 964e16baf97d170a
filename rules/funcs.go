package rules

import (
	"fmt"
	"reflect"

	"github.com/expr-lang/expr"
	"golang.org/x/text/unicode/norm"

	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/internal/parse"
)

// funcs are the functions an expression may call beside expr's builtins,
// each a pure function of its arguments (no host state reachable): the
// sandbox rule holds.
//
//	parse(text, mode)              parse(text, "kv"), parse(text, {as: "regex", pattern: "…"})
//	date(text[, layout[, zone]])   expr's date, refusing a zone abbreviation with no known offset (date.go)
//	fromPairs(pairs)               expr's fromPairs, refusing a key given twice with two values
//	fromJSON(text)                 parse(text, "json"): expr's fromJSON read by parse: json's one reader
//	toPairs, keys, values(object)  expr's, in the order of the keys, never Go's map order (mapsorted.go)
//	modeWithin(mode, limit)        a file mode's text grants nothing its limit does not (mode.go)
//	serialLess(a, b)               DNS zone serial a comes before b, wrapping round (RFC 1982; serial.go)
//	nfc(text)                      text with its accented letters composed (Unicode NFC): macOS's "Mu\u0308ller" is "M\u00fcller"
//	rsyncName(text)                a name as rsync printed it, its \#ooo escapes read back (rsyncname.go)
var funcs = map[string]func(params ...any) (any, error){
	"parse":      parseFunc,
	"date":       dateFunc,
	"fromPairs":  fromPairsFunc,
	"fromJSON":   fromJSONFunc,
	"toPairs":    toPairsFunc,
	"keys":       keysFunc,
	"values":     valuesFunc,
	"modeWithin": modeWithinFunc,
	"serialLess": serialLessFunc,
	"nfc":        nfcFunc,
	"rsyncName":  rsyncNameFunc,
}

// nfcFunc is `nfc(text)`: the text in Unicode's composed form (NFC), so
// two spellings of one name, composed as Linux tools write it and
// decomposed as macOS names files, compare as one (composedOnly says
// when a comparison needs it). null stays null.
func nfcFunc(params ...any) (any, error) {
	if len(params) != 1 {
		return nil, fmt.Errorf("nfc takes 1 argument (the text), not %d", len(params))
	}
	if params[0] == nil {
		return nil, nil
	}
	s, ok := params[0].(string)
	if !ok {
		return nil, fmt.Errorf("nfc: the value is %s, want a string", jsonv.Describe(params[0]))
	}
	return norm.NFC.String(s), nil
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
		return nil, fmt.Errorf("parse(text, %s): %s could not be read; the first: %s", shown, parse.Counted(res.Problems, res.Unit), res.FirstProblem)
	}
	return res.Value, nil
}

// fromJSONFunc is expr's fromJSON read as parse(text, "json") reads it,
// by the json parse mode, the one home of JSON text from outside: expr's
// own read it with encoding/json, which keeps the last value of a key an
// object names twice, rounds a number past 2^53 and reads half a UTF-16
// pair as U+FFFD, all in silence. A web check that split `curl -s -w
// "\n%{http_code}"` into its body and code and read the body with
// fromJSON said {"status":"DOWN",…,"status":"UP"} was up, Consistent.
// Such a text is an error here (a rule error where a rule calls it), as
// parse(text, "json") makes it.
//
//	fromJSON(`{"status":"UP"}`)                   {status: "UP"}
//	fromJSON(`{"free":12345678901234567891}`)     {free: 12345678901234567891} (its digits)
//	fromJSON(`{"s":"DOWN","s":"UP"}`)             error: fromJSON: the text is no one JSON value, … names the key "s" twice …
func fromJSONFunc(params ...any) (any, error) {
	if len(params) != 1 {
		return nil, fmt.Errorf("fromJSON takes 1 argument (the JSON text), not %d", len(params))
	}
	text, ok := params[0].(string)
	if !ok {
		return nil, fmt.Errorf("fromJSON: it takes a string there and was given %s; string(x) makes a string of a number, toJSON(x) of an object or a list", jsonv.Describe(params[0]))
	}
	res, err := parse.Parse(text, parse.Spec{Mode: "json"})
	if err != nil {
		return nil, fmt.Errorf("fromJSON: %w", err)
	}
	if res.Problems > 0 {
		return nil, fmt.Errorf("fromJSON: the text is no one JSON value, as parse: json reads it: %s", res.FirstProblem)
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

// fromPairsFunc is expr's fromPairs (an object from [key, value] pairs),
// save that a key given twice with two different values is an error, as
// parse: json refuses an object that names a key twice: expr kept the
// last pair in silence, so fromPairs(map(pods, [.metadata.name,
// .status.phase])) over a StatefulSet's db-0 in two namespaces, one
// Running and one Failed, held one of them and the other pod was gone. The
// same value twice means one thing and is kept.
//
//	fromPairs([["a", 1], ["b", 2]])   {a: 1, b: 2}
//	fromPairs([["a", 1], ["a", 2]])   error: the key "a" is given twice …
func fromPairsFunc(params ...any) (any, error) {
	if len(params) != 1 {
		return nil, fmt.Errorf("fromPairs takes 1 argument (a list of [key, value] pairs), not %d", len(params))
	}
	v := reflect.ValueOf(params[0])
	if !v.IsValid() {
		return nil, fmt.Errorf("fromPairs: the list it was given is null; where null means none, write x ?? []")
	}
	if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
		return nil, fmt.Errorf("fromPairs: the list of pairs is %s, not a list", jsonv.Describe(params[0]))
	}
	out := make(map[any]any, v.Len())
	first := make(map[any]int, v.Len())
	for i := 0; i < v.Len(); i++ {
		pair := jsonv.Deref(v.Index(i).Interface())
		if pair.Kind() != reflect.Slice && pair.Kind() != reflect.Array || pair.Len() != 2 {
			return nil, fmt.Errorf("fromPairs: item %d is %s, not a [key, value] pair", i, jsonv.Describe(v.Index(i).Interface()))
		}
		key, val := pair.Index(0).Interface(), pair.Index(1).Interface()
		if k := reflect.ValueOf(key); k.IsValid() && !k.Comparable() {
			return nil, fmt.Errorf("fromPairs: the key of pair %d is %s, which cannot be a key", i, jsonv.Describe(key))
		}
		if prev, ok := out[key]; ok && !jsonv.EqualGo(prev, val) {
			return nil, fmt.Errorf("fromPairs: the key %s is given twice, by pairs %d and %d, with two values (%s and %s): the object would keep one of them and the other would be gone; make the keys unique (a pod's namespace + \"/\" + name), or use groupBy to keep both", quoteKey(key), first[key], i, shown(prev), shown(val))
		} else if !ok {
			first[key] = i
		}
		out[key] = val
	}
	return out, nil
}

// quoteKey writes a pair's key as an error quotes it.
func quoteKey(k any) string {
	if s, ok := k.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(k)
}

// shown is a value as an error quotes it: its JSON, cut at 40 characters.
func shown(v any) string {
	b, err := jsonv.Marshal(v)
	if err != nil {
		return jsonv.Describe(v)
	}
	if r := []rune(string(b)); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return string(b)
}
