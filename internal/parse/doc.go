// Package parse is the one home of the text parsers: what `parse:` makes
// of a command's stdout or a file's content, and what the expression
// function `parse(text, mode)` makes of any text (chart-yaml.md, "Parse
// modes"). Every caller asks [Parse]; a second copy of a parser is a bug.
//
// It owns one rule — a line is never lost in silence. Every non-blank line
// of the input either contributes to the value or is counted in
// Result.Problems, with the first such line (and why) in
// Result.FirstProblem:
//
//	mode      value                                 a problem is
//	text      the text                              never
//	lines     a list of lines                       never
//	json      the JSON value                        text that is not one JSON value
//	jsonl     a list, one JSON value a line         a line that is not one JSON value
//	kv        an object from key=value, key: value  a line with no separator, an empty or repeated key (in any case)
//	columns   a list of objects, keyed by header    a row with too few or too many fields
//	csv, tsv  a list of objects, keyed by header    a record with the wrong number of fields, bad quoting
//	regex     a list of objects, keyed by group     a line the pattern does not match
//	                                                or a syslog fold ("message repeated 5 times: [")
//	                                                whose count no group reads
//	nagios    {status, text, perfdata}              a perfdata item that breaks the plugin API; nothing printed
//
// A JSON number (json, jsonl) settles as jsonv.Decoded settles one: an
// int when whole; its digits, as a json.Number, when whole and no float64
// prints them; else a float64 — never a float64 that would be another
// whole number.
//
// Blank lines (only spaces) carry nothing and are passed over; so are the
// `skip:` lines of columns and a kv line whose first non-space character
// is `#` (a comment, as in os-release).
//
// Values of kv, columns, csv, tsv and regex are numbers when the whole
// value spells a JSON number literal (`42`, `-1.5`, `2e+3`, `2.5E3`; not
// `0755`, `+1`, `1,5` or `12 kB`, nor `1E10` or `2e3`, an exponent with no
// sign after digits alone, which is hexadecimal text as much as a number:
// openssl's serial=1E10), settled as jsonv.Decoded settles one (an int, a
// float64, or a json.Number too large for a float64), else strings; a
// value a float64 would hold as another number (`12345678901234567890`,
// past int64; `3.14159265358979323846`) stays a string, so no two values
// that differ are read as one. The option `numbers: false` keeps them all
// strings.
//
//	Parse("MemTotal: 16318412 kB\nHugePages_Total: 0\n", Spec{Mode: "kv"})
//	    {MemTotal: "16318412 kB", HugePages_Total: 0}
//	Parse("a b\n1 2\n3\n", Spec{Mode: "columns"})
//	    [{a: 1, b: 2}], Problems 1, FirstProblem `line 3: 1 field, the header has 2: "3"`
//
// It reads nothing but its arguments, and imports no engine package.
package parse
