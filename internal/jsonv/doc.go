// Package jsonv is the one home of JSON value kinds, numbers, equality and
// type fitting: what kind of JSON value a Go value is, whether it is a
// number and which, whether two values are equal (Equal over JSON values,
// EqualGo over any Go value: one law, numbers compared exactly), and
// whether a value fits a declared type. Inputs, plugin arguments, the CLI,
// label, coverage, assessment, the plugin wire and the expressions'
// comparisons (rules) all ask it.
//
// It owns one rule — Go value → JSON kind — judged on the Go type alone:
//
//	nil                                         Null
//	bool                                        Bool
//	string                                      String
//	int, int8 … int64, uint, uint8 … uint64,    Number
//	  uintptr, float32, float64, and any named
//	  type whose underlying type is one of them
//	  (time.Duration is a Number)
//	json.Number spelling a JSON number literal  Number
//	[]any (nil too: an empty list)              List
//	map[string]any (nil too: an empty object)   Object
//	anything else                               Invalid: not a JSON value
//
// Not JSON values: structs, pointers, slices and maps of any other type
// ([]string, map[string]int), named string and bool types, funcs, chans,
// and a json.Number that does not spell a number (json.Number("12abc")).
// A number's Go type never matters to a reader — every reader goes through
// [Float] or [Whole] — so every numeric type counts; a string, list or
// object is read by type assertion, so only the type a JSON decoder makes
// counts. The kind is judged on the type, not the value: a float64 NaN or
// ±Inf is a Number although encoding/json refuses to write it.
//
//	Of(3)                      Number
//	Of(json.Number("2.5"))     Number
//	Of([]string{"a"})          Invalid
//	Fits("duration", "90s")    true
//	Fits("number", "3")        false (text is parsed by the input reader, not here)
//
// Pick reads a few members out of a JSON object too large to hold (a
// record about to be replaced), skipping the rest as it reads.
//
// It reads nothing but its arguments and imports no package of this module.
package jsonv
