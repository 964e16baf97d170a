package parse

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/internal/suggest"
)

// Spec is a parse mode and its options, as a chart writes them: `parse:
// kv` is Spec{Mode: "kv"}, `parse: {as: regex, pattern: "…"}` is
// Spec{Mode: "regex", Options: {"pattern": "…"}}. An "as" key in Options
// equal to Mode is allowed, so the chart's map can be passed as it is.
type Spec struct {
	Mode    string
	Options map[string]any
}

// Result is what a parse made of a text: the JSON value, and the lines it
// could not read. Problems counts them; FirstProblem is the first, with
// its line number and why ("" when Problems is 0).
type Result struct {
	Value        any
	Problems     int
	FirstProblem string
	// Unit is what Problems counts: "line", or "record" under records:
	// nul.
	Unit string
}

// Counted is n of unit in words: "1 line", "3 records" — the one
// spelling of a count of problems, for the ledger, a run's warning and
// the expression function alike.
func Counted(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// modes maps each mode to the options it takes.
var modes = map[string][]string{
	"text":    nil,
	"lines":   {"records"},
	"json":    nil,
	"jsonl":   nil,
	"kv":      {"sep", "trim", "numbers", "records"},
	"columns": {"header", "names", "skip", "last", "numbers", "records"},
	"csv":     {"header", "names", "numbers", "sep"},
	"tsv":     {"header", "names", "numbers"},
	"regex":   {"pattern", "numbers", "records", "skip"},
	"nagios":  nil,
	"ldif":    nil,
}

// Modes lists the mode names Check accepts, sorted.
func Modes() []string {
	m := make([]string, 0, len(modes))
	for k := range modes {
		m = append(m, k)
	}
	sort.Strings(m)
	return m
}

// Check reports whether spec is a mode this package has, with options it
// takes and values of the right kind: an unknown mode (the error lists the
// modes), an unknown option (with "did you mean"), a regex without a
// pattern or with one RE2 refuses or one without a named group, names
// that are not a list of strings, are errors. Parse checks first, so a
// caller that checked at load time gets no surprise at run time.
func Check(spec Spec) error {
	_, err := compile(spec)
	return err
}

// WithoutBOM is text without the byte order mark (U+FEFF) it begins
// with, if any: an encoding's signature, not content. The one home of
// that judgement for every text runbook reads as data (Parse's modes) or
// as a file of its own (a chart, an --inputs file, a chart test): Windows
// Notepad's "UTF-8 with BOM" and PowerShell's Set-Content -Encoding UTF8
// begin a file with one, and a chart so saved was refused as `unknown key
// "\ufeffversion" in the chart; did you mean "version"?`. A mark
// anywhere else is content.
func WithoutBOM(text string) string {
	return strings.TrimPrefix(text, "\ufeff")
}

// Parse reads text as spec says. The error is Check's; a text a mode
// cannot fully read is never an error but problems on the Result. A
// byte order mark (U+FEFF) at the very start of the text is an encoding's
// signature, not content, and every mode but text reads past it (RFC 8259
// lets a JSON reader ignore it): PowerShell's and Excel's UTF-8 files
// begin with one, and it made their JSON not JSON and their CSV's first
// column "\ufeffName", which no chart names. text keeps the bytes as they
// are.
//
//	Parse("time=0.002s;1;2;0;10", Spec{Mode: "nagios"})
//	    {status: "", perfdata: [{label: time, value: 0.002, uom: s, warn: 1, crit: 2, min: 0, max: 10}], text: []}
func Parse(text string, spec Spec) (Result, error) {
	p, err := compile(spec)
	if err != nil {
		return Result{}, err
	}
	if spec.Mode != "text" {
		text = WithoutBOM(text)
	}
	var r recorder
	r.nul = spec.Options["records"] == "nul" // compile has checked it
	if !r.nul && crLineModes[spec.Mode] {
		r.carriageReturns(text)
	}
	v := p.parse(text, &r)
	res := Result{Value: v, Problems: r.n, FirstProblem: r.first, Unit: "line"}
	if r.nul {
		res.Unit = "record"
	}
	return res, nil
}

// parser is a checked spec, ready to read text.
type parser interface {
	parse(text string, r *recorder) any
}

type parserFunc func(text string, r *recorder) any

func (f parserFunc) parse(text string, r *recorder) any { return f(text, r) }

// compile checks spec and builds its parser.
func compile(spec Spec) (parser, error) {
	allowed, ok := modes[spec.Mode]
	if !ok {
		msg := fmt.Sprintf("parse mode %q is not one of %s", spec.Mode, strings.Join(Modes(), ", "))
		if s := suggest.Nearest(spec.Mode, Modes()); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		return nil, fmt.Errorf("%s", msg)
	}
	o := opts{mode: spec.Mode, m: spec.Options}
	if err := o.records(); err != nil {
		return nil, err
	}
	for k, v := range spec.Options {
		if k == "as" && v == spec.Mode {
			continue
		}
		if !contains(allowed, k) {
			if len(allowed) == 0 {
				return nil, fmt.Errorf("parse mode %s takes no options, and %q was given", spec.Mode, k)
			}
			msg := fmt.Sprintf("parse mode %s has no option %q; its options are %s", spec.Mode, k, strings.Join(allowed, ", "))
			if s := suggest.Nearest(k, allowed); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			switch {
			case spec.Mode == "tsv" && (k == "sep" || k == "comma" || k == "delimiter"):
				msg += " (tsv's separator is a tab; for fields between another one, a spreadsheet's \";\" or /etc/passwd's \":\", use csv: {as: csv, sep: \";\"})"
			case spec.Mode == "csv" && (k == "comma" || k == "delimiter"):
				msg += " (did you mean \"sep\"?)"
			}
			return nil, fmt.Errorf("%s", msg)
		}
	}
	switch spec.Mode {
	case "text":
		return parserFunc(func(text string, _ *recorder) any { return text }), nil
	case "lines":
		if o.m["records"] == "nul" {
			return parserFunc(parseRecords), nil
		}
		return parserFunc(parseLines), nil
	case "json":
		return parserFunc(parseJSON), nil
	case "jsonl":
		return parserFunc(parseJSONL), nil
	case "nagios":
		return parserFunc(parseNagios), nil
	case "ldif":
		return parserFunc(parseLDIF), nil
	case "kv":
		return newKV(o)
	case "columns":
		return newColumns(o)
	case "csv":
		comma, err := o.separator()
		if err != nil {
			return nil, err
		}
		return newCSV(o, comma)
	case "tsv":
		return newCSV(o, '\t')
	case "regex":
		return newRegex(o)
	}
	return nil, fmt.Errorf("parse mode %s is listed but has no parser", spec.Mode) // unreachable
}

// recorder counts the lines a parser cannot read and keeps the first.
// It also says how the text is cut into the records a mode reads
// (records): lines, or with nul set, records each ended by a NUL byte.
type recorder struct {
	n       int
	first   string
	counted map[int]bool // the lines a problem was counted on
	nul     bool
}

// crLineModes are the modes that read a text's lines and keep a line's
// other bytes as they are, a carriage return in it too; csv and tsv judge
// theirs as fields (table.parse), json and jsonl read one as a blank, and
// text keeps every byte.
var crLineModes = map[string]bool{"lines": true, "kv": true, "columns": true, "regex": true}

// carriageReturns counts as a problem the line of a text that is one
// line, but for a final \n, and holds a carriage return with more of it
// after: a text whose lines end in \r alone (a classic Mac file, Excel
// for Mac's "Text (Macintosh)") is one line to these modes. The sshd
// settings "PermitRootLogin no\rPasswordAuthentication yes" were one line
// under parse: lines, and `"PasswordAuthentication yes" in c.stdout` said
// pass, Consistent, over a server taking passwords
// (TestLoneCarriageReturnIsAProblem). A text of lines ended by \n, some
// holding a \r (a progress meter a tool redrew, "10%\r100%", in an app's
// log) is read as it is: its lines are lines. A \r at a line's end (a device's
// "\r\r\n") is no problem: it hides no line, and the equality operators
// judge a value that ends with it; nor is UTF-16's "\r\x00" before its
// "\n\x00", which is said as UTF-16 (record.UTF16Entry).
func (r *recorder) carriageReturns(text string) {
	if !strings.Contains(text, "\r") || strings.Contains(strings.TrimSuffix(text, "\n"), "\n") {
		return
	}
	for i, s := range lines(text) {
		if j := strings.IndexByte(s, '\r'); j >= 0 && strings.TrimRight(s[j:], "\r\x00") != "" {
			r.problem(i+1, s, "it holds a carriage return that ends no \\r\\n, with more of the line after it: the text's lines may end in \\r alone (a classic Mac file, Excel for Mac's \"Text (Macintosh)\"), or a tool redrew the line as a terminal shows it (a progress meter), and this mode reads neither as a line end, so what follows it was read as part of this line; convert them first (tr '\\r' '\\n')")
		}
	}
}

// problem counts one unreadable line: line is its 1-based number, s its
// text, why what is wrong with it. A second problem on a line counted
// already is not counted again: Problems counts lines, and a plugin status
// line "CRITICAL - backend a|b down" (two perfdata items that are none)
// was said as "did not check 2 lines of its output" of a one-line output.
func (r *recorder) problem(line int, s, why string) {
	if r.counted[line] {
		return
	}
	if r.counted == nil {
		r.counted = map[int]bool{}
	}
	r.counted[line] = true
	if r.n == 0 {
		const maxShown = 200
		if len(s) > maxShown {
			s = s[:maxShown] + "…"
		}
		unit := "line"
		if r.nul {
			unit = "record"
		}
		r.first = fmt.Sprintf("%s %d: %s: %q", unit, line, why, s)
	}
	r.n++
}

// opts reads a spec's options; compile has checked their names.
type opts struct {
	mode string
	m    map[string]any
}

func (o opts) has(k string) bool { _, ok := o.m[k]; return ok }

func (o opts) bool(k string, def bool) (bool, error) {
	v, ok := o.m[k]
	if !ok {
		return def, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("parse mode %s: option %s is %s, want true or false", o.mode, k, jsonv.Describe(v))
	}
	return b, nil
}

func (o opts) string(k string) (string, bool, error) {
	v, ok := o.m[k]
	if !ok {
		return "", false, nil
	}
	s, ok := v.(string)
	if !ok {
		return "", false, fmt.Errorf("parse mode %s: option %s is %s, want a string", o.mode, k, jsonv.Describe(v))
	}
	return s, true, nil
}

// records checks the records option: nul, or lines (the default).
func (o opts) records() error {
	v, ok := o.m["records"]
	if !ok || v == "lines" || v == "nul" {
		return nil
	}
	is := jsonv.Describe(v)
	if s, ok := v.(string); ok {
		// records: NUL was "a string, want nul", which it is.
		is = strconv.Quote(s)
	}
	return fmt.Errorf("parse mode %s: option records is %s, want nul (records each ended by a NUL byte: find -print0, git -z, grep -Z, /proc/PID/cmdline) or lines (the default)", o.mode, is)
}

func (o opts) whole(k string) (int, error) {
	v, ok := o.m[k]
	if !ok {
		return 0, nil
	}
	n, ok := jsonv.Whole(v)
	if !ok || n < 0 {
		return 0, fmt.Errorf("parse mode %s: option %s is %s, want a whole number of 0 or more", o.mode, k, jsonv.Describe(v))
	}
	return n, nil
}

func (o opts) strings(k string) ([]string, error) {
	v, ok := o.m[k]
	if !ok {
		return nil, nil
	}
	var out []string
	switch l := v.(type) {
	case []string:
		out = append(out, l...)
	case []any:
		for i, e := range l {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("parse mode %s: option %s[%d] is %s, want a string", o.mode, k, i, jsonv.Describe(e))
			}
			out = append(out, s)
		}
	default:
		return nil, fmt.Errorf("parse mode %s: option %s is %s, want a list of strings", o.mode, k, jsonv.Describe(v))
	}
	seen := map[string]bool{}
	for _, s := range out {
		if s == "" {
			return nil, fmt.Errorf("parse mode %s: option %s has an empty name", o.mode, k)
		}
		if seen[s] {
			return nil, fmt.Errorf("parse mode %s: option %s names %q twice", o.mode, k, s)
		}
		seen[s] = true
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("parse mode %s: option %s is an empty list", o.mode, k)
	}
	return out, nil
}

// header reads the header and names options of columns, csv and tsv:
// names are required with header: false, and header must be said with names.
func (o opts) header() (bool, []string, error) {
	header, err := o.bool("header", true)
	if err != nil {
		return false, nil, err
	}
	names, err := o.strings("names")
	if err != nil {
		return false, nil, err
	}
	if !header && names == nil {
		return false, nil, fmt.Errorf("parse mode %s: header: false needs names: [...] to key the columns", o.mode)
	}
	// Columns named with no word on a header row are a guess either way,
	// and both guesses were made by tools users know: read past a first
	// line (this mode did), which dropped the first row of output that had
	// no header, with nothing to say so; or read every line (pandas'
	// names=), which makes a header a row. The chart says which.
	if names != nil && !o.has("header") {
		return false, nil, fmt.Errorf("parse mode %s: names: [...] is given, so say whether the output's first line is a header: header: true reads it past, header: false reads every line as a row (left unsaid, a first row of output with no header was read past as one, and lost)", o.mode)
	}
	return header, names, nil
}

// valuer turns a field's text into its value: a number when the whole
// text spells a JSON number literal and numbers is on, else the text.
type valuer bool

func (o opts) valuer() (valuer, error) {
	b, err := o.bool("numbers", true)
	return valuer(b), err
}

func (v valuer) of(s string) any {
	if v {
		if n, ok := number(s); ok {
			return n
		}
	}
	return s
}

// number reads s as a JSON number literal, settled as jsonv.Decoded does,
// when that number is the one s spells: a float64 that would hold another
// (12345678901234567890, past int64, is 12345678901234567168 as a float64;
// two IDs that differ in their last digit would be equal), or digits
// Decoded kept because no float64 prints them, leave s text; one too
// large for any float64 (1e+999) is a number still.
//
// Digits, an e and digits with no sign after it (1E10, 12E4, 1234e56) are
// a hexadecimal text as much as a number, and stay text (hexLike): openssl
// prints a certificate's serial so (serial=1E10), a short git or image id
// is so one time in fifty, and the tools that print a number with an
// exponent write its sign (printf's %g, Go, Python, JavaScript: 1e+10). A
// serial 1E10 read as 10000000000 showed so in the verdict table, and
// string(serial) in revoked, as the kinds error said to write, called a
// revoked certificate not revoked.
func number(s string) (any, bool) {
	if s == "" || len(s) > 64 || hexLike.MatchString(s) || jsonv.Of(json.Number(s)) != jsonv.Number {
		return nil, false
	}
	switch n := jsonv.Decoded(json.Number(s)).(type) {
	case float64:
		if !jsonv.Holds(n, s) {
			return nil, false
		}
		return n, true
	case json.Number:
		if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) {
			return nil, false
		}
		return n, true
	default:
		return n, true
	}
}

// hexLike is a number literal that is hexadecimal digits too: digits, an
// e, digits, no sign or point (number).
var hexLike = regexp.MustCompile(`^-?[0-9]+[eE][0-9]+$`)

// valueReadPast says, of a header line read past because names: are given
// (fields, its fields), whether it holds a number, and words for the
// problem: a header names columns, so a line holding a value is a row
// where the header was expected, and reading it past dropped it without
// a word (skip: 1 over ps's output, whose header is its first line, read
// past the biggest process). sysstat's opening time (12:37:26) is no
// number.
//
// A date (2026-12-06) or an IPv4 address (10.0.0.7, (10.0.0.7),
// 10.0.0.7:22) is a value too: who and last print no header, and read
// with header: true the first session was read past with no word, its
// fields holding no number.
func valueReadPast(fields []string) (string, bool) {
	for _, f := range fields {
		f = strings.TrimSpace(f)
		if _, ok := number(f); ok || isoDate.MatchString(f) || ipv4.MatchString(f) {
			return fmt.Sprintf("it was read past as the header (names: are given), but it holds the value %q, and a header holds names: it is a row, not the header (is skip: one line too many? header: false reads every line as a row)", f), true
		}
	}
	return "", false
}

var (
	isoDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}`)
	ipv4    = regexp.MustCompile(`^\(?\d{1,3}(\.\d{1,3}){3}(:\d+)?\)?$`)
)

// records cuts text into the records a line-shaped mode reads: its
// lines, or under records: nul, the records a NUL byte ends each of.
//
// A file name may hold a newline, and find -printf '%m %p\n' wrote
// /tmp/x<newline>f 666 root /etc/shadow as two lines, the second a row
// of its own naming a file the walk never met; find -print0, -printf
// '…\0', git's -z, grep -Z and /proc/PID/cmdline end each record with
// the one byte no name or argument holds. A record is kept byte for
// byte, its newlines and carriage returns with it. A text with no NUL at
// all is the tool's lines, not its records (-print0 left out): a
// problem, and no records, never its lines read as one name.
func (r *recorder) records(text string) []string {
	if !r.nul {
		return lines(text)
	}
	if text == "" {
		return nil
	}
	if !strings.Contains(text, "\x00") {
		r.problem(1, firstLine(text), "records: nul reads records each ended by a NUL byte, and the text holds none: the tool printed lines (find -print0 or -printf '…\\0', git -z, grep -Z, sort -z, xargs -0's input?)")
		return nil
	}
	text = strings.TrimSuffix(text, "\n") // a newline a tool (or echo) ends its output with
	return strings.Split(strings.TrimSuffix(text, "\x00"), "\x00")
}

// lines splits text into lines, without their "\n" or "\r\n"; a final
// newline ends the last line rather than starting an empty one.
func lines(text string) []string {
	if text == "" {
		return nil
	}
	l := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, s := range l {
		l[i] = strings.TrimSuffix(s, "\r")
	}
	return l
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

func contains(l []string, s string) bool {
	for _, e := range l {
		if e == s {
			return true
		}
	}
	return false
}

// parseLines is `lines`: the list of lines, as the exec stage has always
// made it (blank lines at the end are no lines), each without its "\r\n"
// as every other mode reads a line: a tool that ends lines as Windows does
// (curl -sI's headers) gave "ok\r", which no rule comparing with "ok"
// matched. psql's row count, "(0 rows)" (psqlFooter), is a problem and
// no line, as under csv: a chart over psql -A's lines that skipped the
// header judged a slot named "(0 rows)" (TestPsqlFooterIsNoLine).
func parseLines(text string, r *recorder) any {
	ls := strings.Split(strings.TrimRight(text, "\r\n"), "\n")
	if text == "" {
		ls = nil
	}
	out := make([]any, 0, len(ls))
	for i, s := range ls {
		s = strings.TrimSuffix(s, "\r")
		if why := psqlFooter(s); why != "" {
			r.problem(i+1, s, why)
			continue
		}
		out = append(out, s)
	}
	return out
}

// parseRecords is lines under records: nul: every record as it is, an
// empty one (two NULs in a row) too, as lines keeps a blank line.
func parseRecords(text string, r *recorder) any {
	recs := r.records(text)
	out := make([]any, len(recs))
	for i, s := range recs {
		out[i] = s
	}
	return out
}

var (
	psqlCount = regexp.MustCompile(`^\(\d+ rows?\)$`)
	psqlRule  = regexp.MustCompile(`^-+(?:\+-+)*$`)
	// boxBorder is the top of a table drawn in a box (+------+----+),
	// as etcdctl -w table and the mysql client print one.
	boxBorder = regexp.MustCompile(`^\+-+(?:\+-+)*\+$`)
)

// psqlFooter is why a line is psql's row count, "(1 row)" or "(N
// rows)", which psql prints after a table unless told -t, and not a row;
// "" for any other line. Read as a row it was a subject: a slot named
// "(0 rows)" under csv (psql -A, one column), {relname: "(2",
// n_dead_tup: "rows)"} under columns (psql -A -F ' ').
func psqlFooter(s string) string {
	if !psqlCount.MatchString(strings.TrimSpace(s)) {
		return ""
	}
	return "psql's count of the rows above, not a row: give psql -t (--tuples-only) to print the rows alone, or --csv, which prints the header and no count"
}

// rabbitBanner is a line RabbitMQ's CLI tools (rabbitmqctl 3.x) write
// before a table unless -q is given: "Timeout: 60.0 seconds ..." and
// "Listing queues for vhost / ...". Before the header it is passed over
// as a blank line is, by csv, tsv and columns alike: taken for the
// header, it made every row of a vhost's queues a problem, a Not sure on
// every healthy broker, and over a vhost with no queue (rabbitmqctl
// prints no header over none) the "Listing" line was a row of one field
// that a filter on its columns passed over in silence
// (TestRabbitmqctlBannerIsNoHeader). After the header it is no banner.
var rabbitBanner = regexp.MustCompile(`^(Timeout: [0-9.]+ seconds|Listing [^\t]+) \.\.\.$`)

// rabbitmqBanner says whether s, a line before a table's header, is
// rabbitBanner's.
func rabbitmqBanner(s string) bool {
	return rabbitBanner.MatchString(strings.TrimRight(s, "\r"))
}

// boxBorderWhy is why a table whose header line is a box's border is
// not read: columns took the border for the header, one column named
// "+---…+", every row of cells between | a problem of "28 fields, the
// table has 1 columns", which said nothing of why
// (TestBoxedTableSaysItIsBoxed).
const boxBorderWhy = "a box's border (+----+----+) where the header should be: the table is drawn in a box, as etcdctl -w table and the mysql client draw one, whose | between the cells are no columns; read the tool's machine-readable output (etcdctl -w json, or -w simple with parse: csv; mysql -B)"

// psqlRuleLine is why a line is the rule psql's aligned output draws
// under its header ("-------", "-----+------"), not a row; "" for any
// other line. Under columns, one column's rule was a row of dashes.
//
// Right under the header it is psql's; anywhere else it parts the rows
// from what follows (exiqsumm's rule above its TOTAL row), which is no
// psql's, and is said as that (TestRuleAboveATotalIsNotCalledPsqls).
//
// psql's rule under a header of several columns has a + where they part
// ("----+----"); a rule of dashes alone under several is another tool's
// (smbstatus draws one under each table), and called psql's it was told
// to read psql's --csv (TestRuleUnderAWideHeaderIsNotCalledPsqls).
// headCols is the header's count of words, 0 when there is none.
func psqlRuleLine(s string, underHead bool, headCols int) string {
	t := strings.TrimSpace(s)
	if !psqlRule.MatchString(t) {
		return ""
	}
	if underHead && headCols > 1 && !strings.Contains(t, "+") {
		return "a rule of dashes under the header, not a row: cut it out (grep -v '^-*$'), or read the tool's machine-readable output where it has one (smbstatus --json, psql --csv)"
	}
	if !underHead {
		return "a rule of dashes between the rows, not a row: the lines after it may be no rows of the table (exiqsumm's TOTAL is a sum of the rows above it); take the rows above it (cut the output at the rule, exiqsumm | sed '/^---*$/,$d', or filter the total out in the chart), or read the tool's machine-readable output where it has one"
	}
	return "psql's rule under an aligned table's header, not a row: read psql's --csv (parse: csv), or -At -F ',' with names:, whose values no padding or | moves"
}

// webPage says whether text is a web page (an HTML or XML document: its
// first line that is not blank opens with <!DOCTYPE html, <html or
// <?xml), and if so counts each of its lines that is not blank as a
// problem: no mode that reads rows or keys (csv, tsv, columns, kv) has
// a table in it. curl without -f exits 0 over an HTTP error and prints
// the server's page: HAProxy's stats page (`stats uri`, `;csv`) asked
// with a wrong password is its 401 page, three lines with no comma,
// and csv read it as a one-column table of two rows, so a chart counting
// the servers DOWN found none, OK, Consistent (TestWebPageIsNoTable).
func webPage(text string, r *recorder) bool {
	// Its first record that is not blank, looked for in the text's head
	// alone: every table's parse asks, and most are no page.
	head, lead := text[:min(len(text), 4096)], []string(nil)
	if r.nul {
		lead = strings.Split(head, "\x00") // records would file a head with no NUL
	} else {
		lead = lines(head)
	}
	first := slices.IndexFunc(lead, func(s string) bool { return !blank(s) })
	if first < 0 || !webPageStart.MatchString(lead[first]) {
		return false
	}
	for i, s := range r.records(text) {
		if blank(s) {
			continue
		}
		r.problem(i+1, s, "the text is a web page, not a table (an HTML or XML document): none of its lines is a row; curl without -f (--fail) exits 0 over an HTTP error (a 401 when its credentials are refused, a 404 for a path the server does not have, a 503) and prints the server's page: give curl -f, whose exit 22 on a status of 400 or more fails the stage, and check the URL and its credentials")
	}
	return true
}

// webPageStart is the opening of a web page's first line: <!DOCTYPE
// html, <html or <?xml, in any case, after blanks.
var webPageStart = regexp.MustCompile(`(?i)^\s*(<!doctype\s+html|<html[\s>]|<html$|<\?xml\s)`)
