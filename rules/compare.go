package rules

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/unicode/norm"

	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/internal/parse"
	"github.com/openrunbook/runbook/internal/secret"
)

// Compare orders two values under the comparison law (see the package doc):
// numbers of any Go numeric type (and json.Number) compare as numbers,
// exactly — an int64, a uint64 above MaxInt64 and a float64 are never
// rounded into one another; strings compare with strings in byte order,
// save two that are both numbers written as text ("100%" and "90%"),
// both times ("2026-12-06T10:00:00+02:00" and "2026-12-06T09:00:00Z") or
// both durations ("90s" and "1h30m"), which have no order (textOrder).
// It returns -1, 0 or +1 as a is less than, equal to or greater than b.
//
// Everything else is an error that says why, never a panic: booleans, null,
// lists and maps have no order (Equal tells whether they are equal), NaN has
// no order, and values of different kinds (a string and a number) do not
// compare at all.
//
//	Compare(2, 2.5)                  -1, nil
//	Compare(uint64(1<<63), int64(-1)) +1, nil
//	Compare("b", "a")                +1, nil
//	Compare("90", 90)                 0, "a string cannot be compared with a number"
//	Compare("100%", "90%")            0, "\"100%\" and \"90%\" are numbers written as text, …"
func Compare(a, b any) (int, error) {
	c, reason := compare(a, b)
	if reason != "" {
		return 0, errors.New(reason)
	}
	return c, nil
}

// Equal reports whether two values are equal under the comparison law.
// Numbers are equal when they are the same number whatever their Go types
// (int 2 == float64 2.0 == json.Number "2"); NaN equals nothing. Strings,
// booleans and null equal only their own kind. Lists and maps are equal
// element by element and key by key ([]any and map[string]any directly, any
// other slice, array or string-keyed map through reflection), so
// []any{1} equals []int{1}. Other values fall back to reflect.DeepEqual.
// A typed nil pointer, map or slice counts as null.
//
// The law's one home is internal/jsonv (jsonv.EqualGo; jsonv.Equal is the
// same law over JSON values only, a plugin argument's enum): this is it,
// under the name the comparison has always had.
//
// Equal is on the engine's hot path (every commit compares a written value
// with the old one): for two ints, float64s, strings or bools it neither
// reflects nor allocates.
func Equal(a, b any) bool { return jsonv.EqualGo(a, b) }

// class is a value's kind under the comparison law.
type class uint8

const (
	classNil class = iota
	classBool
	classNumber
	classString
	classList
	classMap
	classOther
	numClasses
)

// WordsVersion is the version of the words this package puts on evidence
// for a person to read (condition reasons such as "key not present", and
// error sentences). It is bumped whenever one of them changes.
const WordsVersion = 5

// classWords names each class as a reason sentence says it.
var classWords = [numClasses]string{
	classNil:    "null",
	classBool:   "a boolean",
	classNumber: "a number",
	classString: "a string",
	classList:   "a list",
	classMap:    "a map",
	classOther:  "a value of another kind",
}

// Reason tables, built once so that a failed condition on the hot path names
// its reason without formatting anything.
var (
	// mixedReasons[a][b]: a value of class a met one of class b.
	mixedReasons [numClasses][numClasses]string
	// unorderedReasons[c]: two values of class c were asked for an order.
	unorderedReasons = [numClasses]string{
		classNil:   "null has no order (only eq and ne apply)",
		classBool:  "booleans have no order (only eq and ne apply)",
		classList:  "lists have no order (only eq and ne apply)",
		classMap:   "maps have no order (only eq and ne apply)",
		classOther: "these values have no order (only eq and ne apply)",
	}
	// notStringReasons[c]: a string operator met a value of class c.
	notStringReasons [numClasses]string
	// noElementReasons[c]: a list holds no element of class c.
	noElementReasons [numClasses]string
)

func init() {
	for a := range numClasses {
		for b := range numClasses {
			mixedReasons[a][b] = classWords[a] + " cannot be compared with " + classWords[b]
		}
		notStringReasons[a] = "the value is " + classWords[a] + ", not a string"
		noElementReasons[a] = "no element of the list is " + classWords[a]
	}
}

const reasonNaN = "NaN has no order"

// classOf classifies a value: jsonv.GoKind, the kinds of the equality law
// (wider than JSON's: pointers and interfaces seen through, a typed nil
// is null, any slice, array or map a list or a map), in the classes the
// reason tables are indexed by. TestNumbersAgreeWithJSONV holds its
// numbers to jsonv.Of's on JSON-shaped values.
func classOf(v any) class { return classOfKind[jsonv.GoKind(v)] }

var classOfKind = [...]class{
	jsonv.Invalid: classOther,
	jsonv.Null:    classNil,
	jsonv.Bool:    classBool,
	jsonv.Number:  classNumber,
	jsonv.String:  classString,
	jsonv.List:    classList,
	jsonv.Object:  classMap,
}

// compare is Compare without the error allocation: a non-empty reason means
// the values have no order.
func compare(a, b any) (int, string) {
	// Fast paths: the types a JSON-fed scope holds.
	switch x := a.(type) {
	case int:
		switch y := b.(type) {
		case int:
			return cmpOrdered(x, y), ""
		case float64:
			if math.IsNaN(y) {
				return 0, reasonNaN
			}
			c, _ := jsonv.CompareExact(jsonv.ExactInt(int64(x)), jsonv.ExactFloat(y))
			return c, ""
		}
	case float64:
		switch y := b.(type) {
		case float64:
			if math.IsNaN(x) || math.IsNaN(y) {
				return 0, reasonNaN
			}
			return cmpOrdered(x, y), ""
		case int:
			if math.IsNaN(x) {
				return 0, reasonNaN
			}
			c, _ := jsonv.CompareExact(jsonv.ExactFloat(x), jsonv.ExactInt(int64(y)))
			return c, ""
		}
	case string:
		if y, ok := b.(string); ok {
			return textOrder(x, y)
		}
	}
	ca, cb := classOf(a), classOf(b)
	if ca != cb {
		if reason := localeTextBesideNumber(a, b); reason != "" {
			return 0, reason
		}
		return 0, mixedReasons[ca][cb]
	}
	switch ca {
	case classNumber:
		na, ra := toNum(a)
		if ra != "" {
			return 0, ra
		}
		nb, rb := toNum(b)
		if rb != "" {
			return 0, rb
		}
		return cmpNum(na, nb)
	case classString:
		sa, _ := asString(a)
		sb, _ := asString(b)
		return textOrder(sa, sb)
	}
	return 0, unorderedReasons[ca]
}

// textOrder orders two strings byte by byte, save two that each spell a
// number, bare or with a unit ("100%", "900000 kB", "1.5G", "10" read
// with numbers: false): text orders those by their characters, so "100%"
// comes before "90%" and a full disk would pass a `gte: "90%"` threshold
// unseen. Such a pair has no order here, and the reason says to compare
// the numbers; an order that happens to be right today ("85%" < "90%") is
// refused too, so a rule does not answer until the day the digits differ
// in count. Two versions or dotted numbers ("5.2.15-2+b8", "10.0.0.9")
// have no order where text's is not dpkg's (versionsReason): unlike a
// numeral's, such a pair's agreeing order is the answer dpkg gives too.
// Other text that is not only a number (dates "2024-01-02", times, words)
// orders as before.
//
// Two times written as text (a date with a time of day: RFC 3339,
// `date`'s output, openssl's notAfter, a syslog stamp) have no order
// either: "2026-12-06T10:00:00+02:00" is before "2026-12-06T09:00:00Z",
// and "…10:00:01Z" after "…10:00:01.5Z", yet text orders both the other
// way, so a backup's time compared with a cut-off read fresh when it was
// not. Nor have two durations written as text ("1h30m" orders before
// "45m"), nor two runs of numbers joined by colons whose numbers differ in
// their digits (colonNumbers: sshd's MaxStartups "10:30:100" orders before
// "10:30:60"). Each reason says how to compare them.
func textOrder(a, b string) (int, string) {
	if numeral(a) && numeral(b) {
		return 0, strconv.Quote(a) + " and " + strconv.Quote(b) + " are numbers written as text, and text orders by character (\"100%\" before \"90%\"); " + numeralsHint(a, b)
	}
	if la, lb := localeNumeral(a), localeNumeral(b); la && (lb || numeral(b) || grouped.MatchString(b)) || lb && (numeral(a) || grouped.MatchString(a)) {
		return 0, strconv.Quote(a) + " and " + strconv.Quote(b) + " are numbers written as text, one or both in a locale's form (a decimal comma, as de_DE and fr_FR write 4,54 and 1,5G; thousands between points, spaces or apostrophes, 1.234,5, 12 345, 1'234), and text orders by character (\"12,5\" before \"9,8\", \"4,54\" after \"10\"); " + localeHint(a, b)
	}
	if ga, gb := grouped.MatchString(a), grouped.MatchString(b); ga && (gb || numeral(b)) || gb && numeral(a) {
		return 0, strconv.Quote(a) + " and " + strconv.Quote(b) + " are numbers written as text, grouped by thousands, and text orders by character (\"12,500\" before \"9,800\"); compare the numbers: float(replace(x, \",\", \"\"))"
	}
	if timeText(a) && timeText(b) {
		return 0, strconv.Quote(a) + " and " + strconv.Quote(b) + " are times written as text, and text orders by character, not by time (a zone, a fraction of a second or a month's name puts a later time first); compare the times: date(x) < date(y) for RFC 3339, date(x, layout) for another form (openssl's notAfter: date(x, \"Jan _2 15:04:05 2006 MST\"))"
	}
	if da, db := dateOf(a), dateOf(b); da.ok && db.ok && !(da.ordered && db.ordered && da.sep == db.sep) {
		return 0, strconv.Quote(a) + " and " + strconv.Quote(b) + " are dates written as text in forms whose characters are not in the date's order (a day or a month first, a month or day without its leading zero, or two separators), so text orders them by character, not by date; compare the dates: date(x, layout, zone) < date(y, layout, zone), the layout Go's reference date written as the text is (\"02.01.2006\" day first, \"01/02/2006\" month first, \"2006-1-2\" without zeros)"
	}
	if ia, ib := intervalOf(a), intervalOf(b); ia.ok && ib.ok && !(ia.clock && ib.clock) {
		return 0, strconv.Quote(a) + " and " + strconv.Quote(b) + " are intervals written as text, as PostgreSQL writes them (\"1 day 00:00:01\" orders before \"23:00:00\", \"100:00:00\" before \"23:00:00\"), and text orders by character, not by length; compare them as numbers: have the query give seconds, extract(epoch from x)"
	}
	if colonNumbers(a, b) {
		return 0, strconv.Quote(a) + " and " + strconv.Quote(b) + " are numbers joined by colons written as text (sshd -T's maxstartups 10:30:100, a clock without its zero 9:30), and text orders them by character, not number by number (\"10:30:100\" before \"10:30:60\", \"9:30\" after \"10:00\"); compare the numbers one by one: int(split(x, \":\")[2]) > 60"
	}
	if durationText(a) && durationText(b) {
		return 0, strconv.Quote(a) + " and " + strconv.Quote(b) + " are durations written as text, and text orders by character (\"1h30m\" before \"45m\"); compare the durations: duration(x) < duration(y)"
	}
	if reason := versionsReason(a, b); reason != "" {
		return 0, reason
	}
	return strings.Compare(a, b), ""
}

// timeLayouts are the forms of a date with a time of day that timeText
// knows: what commands and logs print. Parsing also takes a fraction of a
// second after the seconds where a layout has none.
var timeLayouts = []string{
	time.RFC3339,                // 2026-12-06T10:00:00+02:00
	"2006-01-02T15:04:05",       // no zone
	"2006-01-02 15:04:05Z07:00", // RFC 3339 with a space
	"2006-01-02 15:04:05",       // a log's stamp
	"2006-01-02 15:04",          // to the minute (sqlite's strftime('%Y-%m-%d %H:%M'))
	"2006-01-02T15:04",
	"2006-01-02T15:04Z07:00",
	"2006-01-02 15:04Z07:00",
	"2006-01-02 15:04:05Z07",        // PostgreSQL's timestamptz: 2026-12-06 21:00:00.5+01
	"2006-01-02T15:04:05Z07",        // the same with a T
	"2006-01-02 15:04:05 -0700",     // git, Go
	"2006-01-02 15:04:05 -0700 MST", // Go's time.String
	"2006-01-02 15:04:05 MST",
	time.UnixDate, // date: Sun Dec  6 10:15:22 UTC 2026
	time.ANSIC,
	time.RubyDate,
	time.RFC1123, time.RFC1123Z, time.RFC822, time.RFC822Z, time.RFC850,
	"Jan _2 15:04:05 2006 MST", // openssl x509 -enddate
	time.Stamp,                 // syslog: Dec  6 10:15:22
}

// timeText reports whether s is a date with a time of day in one of
// timeLayouts.
func timeText(s string) bool {
	if len(s) < len(time.Stamp) || len(s) > 48 || !strings.Contains(s, ":") {
		return false
	}
	for _, layout := range timeLayouts {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

// dateForm is what dateOf makes of a text that begins with a calendar
// date: ok, whether its characters run in the date's order (a year first
// and a month and day of two digits each, so text orders two of one
// separator as dates), and its separator.
type dateForm struct {
	ok, ordered bool
	sep         byte
}

var (
	yearFirst = regexp.MustCompile(`^(\d{4})([-/.])(\d{1,2})([-/.])(\d{1,2})(?:$|[T ])`)
	yearLast  = regexp.MustCompile(`^(\d{1,2})([-/.])(\d{1,2})([-/.])(\d{4})(?:$|[T ,])`)
)

// dateOf reads the calendar date s begins with, if any: a year first
// (2026-12-06, 2026/9/30) or last (06.12.2026 as Germany writes it,
// 12/06/2026 as the US does). Text orders the first by date only with
// its zeros, and the second never: a spreadsheet export's "06.12.2026"
// ordered before "30.11.2026". A version (1.2.10) or an address
// (10.0.0.9) holds no year of four digits where a date holds it.
func dateOf(s string) dateForm {
	if m := yearFirst.FindStringSubmatch(s); m != nil && m[2] == m[4] && inRange(m[3], 12) && inRange(m[5], 31) {
		return dateForm{ok: true, ordered: len(m[3]) == 2 && len(m[5]) == 2, sep: m[2][0]}
	}
	if m := yearLast.FindStringSubmatch(s); m != nil && m[2] == m[4] && inRange(m[1], 31) && inRange(m[3], 31) && (inRange(m[1], 12) || inRange(m[3], 12)) {
		return dateForm{ok: true, sep: m[2][0]}
	}
	return dateForm{}
}

// inRange reports whether the digits d spell a number from 1 to most.
func inRange(d string, most int) bool {
	n, err := strconv.Atoi(d)
	return err == nil && n >= 1 && n <= most
}

// grouped is a number grouped by thousands with commas ("12,500",
// "1,234,567.5"), as spreadsheets and printf "%'d" write row counts: no
// numeral (a comma is no decimal point here), yet text orders two of them,
// or one beside a numeral, by character.
var grouped = regexp.MustCompile(`^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$`)

// localeForm is a number as a locale other than C writes it: a decimal
// comma ("4,54", "1,5G", "12,5 %"), with thousands before it between
// points, spaces (U+0020, U+00A0, U+202F, as fr_FR groups them) or
// apostrophes (de_CH) or none ("1.234,5", "1 234,5"); or a whole number
// grouped by spaces or apostrophes ("12 345", "1'234'567"). A whole number
// grouped by points ("1.234.567") is not one: a version and an IPv4
// address are written so too (versionsReason orders them), nor is one
// grouped by commas (grouped).
var localeForm = regexp.MustCompile(`^[+-]?(?:(?:\d{1,3}(?:[. \x{a0}\x{202f}'\x{2019}]\d{3})+|\d+),\d+|\d{1,3}(?:[ \x{a0}\x{202f}'\x{2019}]\d{3})+)(?:[ \x{a0}\x{202f}]?(?:%|[A-Za-z]{1,3}|bytes))?$`)

// localeNumeral reports whether s is a number written as a German or
// French locale writes it (localeForm): a command run under its own
// locale, where runbook's LC_NUMERIC=C does not reach (a remote shell
// whose sshd sets no LC_*, a container's `docker exec`, `su -`'s login
// shell, a report a cron job wrote), prints df -h's "1,5G" and uptime's
// "4,54", which text ordered before "1G" and after "10": a volume over
// its limit stood under it
// (TestLocaleNumbersWrittenAsTextHaveNoOrder).
func localeNumeral(s string) bool {
	return len(s) <= 64 && strings.ContainsAny(s, ", '\u00a0\u202f\u2019") && localeForm.MatchString(s)
}

// localeTextBesideNumber is why a number and a text that is a number in
// a locale's form (localeNumeral: kv's "load=4,54" of a report a German
// cron job wrote, left text by the parse) or grouped by thousands
// (grouped: rsync --stats's "12,345,678") have no order, saying how to
// read it, which float(x) does not; or a lone "-", the mark a tool
// prints where it has no value (noValueMark), the empty text, a field
// with none (emptyField), or an interval (intervalBesideNumber); "" for
// any other pair.
func localeTextBesideNumber(a, b any) string {
	s, ok := a.(string)
	if !ok {
		s, ok = b.(string)
	}
	if !ok || classOf(a) == classOf(b) {
		return ""
	}
	if strings.TrimSpace(s) == "-" {
		return noValueMark
	}
	if s == "" {
		return emptyField
	}
	if iv := intervalOf(strings.TrimSpace(s)); iv.ok {
		return intervalBesideNumber(s, iv.clock)
	}
	if !localeNumeral(s) {
		if grouped.MatchString(s) {
			// two commas or more ("12,345,678"): thousands, no decimal comma
			return "a number cannot be compared with the text " + strconv.Quote(s) + ", a number grouped by thousands, which float(x) does not read: have the command print no grouping (rsync --no-h), or compare the numbers: float(replace(x, \",\", \"\"))"
		}
		return ""
	}
	return "a number cannot be compared with the text " + strconv.Quote(s) + ", a number in a locale's form (a decimal comma, as de_DE and fr_FR write 4,54; thousands between points, spaces or apostrophes), which float(x) does not read: " + localeHint(s, s)
}

// noValueMark is why a number and the text "-" have no order: the mark a
// tool prints in a column where it has no value, which float(x) does not
// read either. jstat -gcutil prints it for CGC and CGCT under the
// Parallel and Serial collectors (no concurrent cycle) and for M and CCS
// in a JVM's first second, and `gc.CGC > 10` said only that a number
// cannot be ordered with a text, and to read it with float(x)
// (TestNoValueMarkBesideANumberSaysWhatItIs).
const noValueMark = `a number cannot be ordered with the text "-", the mark a tool prints where it has no value (jstat for a space or a GC cycle the JVM's collector does not have), which float(x) does not read: say what it means before the comparison (x != "-" && x > 10, or (x == "-" ? 0 : x) > 10)`

// emptyField is why a number and the empty text have no order: what csv
// and tsv read for a field with no value, psql's NULL under --csv and
// -At among them (an idle primary's replay_lag in pg_stat_replication),
// which float(x) does not read. `r.replay_s > 30` said only to read the
// text with float(x), which fails over "" as well
// (TestEmptyTextBesideANumberSaysItHoldsNoValue).
const emptyField = `a number cannot be ordered with the empty text "", what csv and tsv read for a field with no value (psql --csv and -At write NULL so), which float(x) does not read: say what no value means before the comparison (x != "" && x > 10), and not by reading it as 0 where NULL may mean the value is unknown`

// intervalBesideNumber is why a number and an interval written as text
// (intervalOf) have no order: pg_stat_replication's replay_lag under
// psql --csv is "00:00:03.291695", and `r.replay_lag > 30` said only to
// read the text with float(x), which fails over it
// (TestIntervalBesideANumberSaysToAskForSeconds). A clock alone may be
// a time of day too, and is said so.
func intervalBesideNumber(s string, clock bool) string {
	what := "an interval written as text, as PostgreSQL writes it (\"1 day 02:00:00\" past a day)"
	if clock {
		what = "hours, minutes and seconds written as text (an interval as PostgreSQL writes one under a day, or a clock)"
	}
	return "a number cannot be ordered with the text " + strconv.Quote(s) + ", " + what + ", which float(x) does not read: have the query give seconds, extract(epoch from x), or the tool a number of seconds"
}

// localeHint says how to compare two numbers one of which a locale wrote
// (localeNumeral): have the command print C's, or read them.
func localeHint(a, b string) string {
	read := `float(replace(x, ",", "."))`
	if strings.ContainsAny(a+b, ". '\u00a0\u202f\u2019") {
		read = `float(replace(replace(replace(x, ".", ""), " ", ""), ",", "."))`
	}
	unit := func(x string) string { return strings.TrimLeft(x, "+-0123456789.,' \u00a0\u202f\u2019") }
	switch ua, ub := unit(a), unit(b); {
	case ua != ub:
		read += ", each brought to one unit first (" + strconv.Quote(ua) + " and " + strconv.Quote(ub) + " are not one)"
	case ua != "":
		read = strings.Replace(read, "(x,", "(trimSuffix(x, "+strconv.Quote(ua)+"),", 1)
	}
	if g := commaGrouped(a, unit(a)) || commaGrouped(b, unit(b)); g {
		// "1,500" is one and a half under a decimal comma and fifteen
		// hundred where commas group thousands, as rsync --stats writes
		// its counts under C too: a count of deleted files read 1.5,
		// under a limit of 100, by the one reading this said
		return parse.CommaReadings(read)
	}
	return "have the command print C's numbers where it runs under its own locale (ssh host LC_ALL=C df -h, docker exec -e LC_ALL=C …, LC_ALL=C in the script), or compare the numbers: " + read
}

// commaGrouped reports whether s, its unit u cut off, is a whole number
// whose commas could group thousands (grouped: "1,500", "12,345,678"),
// which a decimal comma writes too ("1,500" is 1.5 in de_DE).
func commaGrouped(s, u string) bool {
	n := strings.TrimRight(strings.TrimSuffix(s, u), " \u00a0\u202f")
	return grouped.MatchString(n) && !strings.Contains(n, ".")
}

// pgInterval is an interval as PostgreSQL writes it under its default
// IntervalStyle, postgres: years, months and days, each signed, then a
// clock of hours (any number of them), minutes and seconds
// ("1 year 2 mons 3 days 04:05:06", "-1 days +02:03:00", "3 days",
// "00:05:00.123", "100:00:00").
var (
	pgInterval = regexp.MustCompile(`^(?:[+-]?\d+ (?:years?|mons?|days?) )*(?:[+-]?\d+ (?:years?|mons?|days?)|[+-]?\d+:\d\d:\d\d(?:\.\d+)?)$`)
	plainClock = regexp.MustCompile(`^\d\d:\d\d:\d\d(?:\.\d+)?$`)
)

// intervalForm is what intervalOf makes of a text: ok, a PostgreSQL
// interval; clock, one that is a clock alone of two-digit hours, which
// text orders as it orders times of day ("00:05:00.123" after
// "00:05:00"), rightly.
type intervalForm struct{ ok, clock bool }

// intervalOf reads s as a PostgreSQL interval: now() - xact_start prints
// "1 day 00:00:01" past a day, which text orders before "23:00:00", so a
// transaction open a day read younger than a limit of an hour.
func intervalOf(s string) intervalForm {
	if !pgInterval.MatchString(s) {
		return intervalForm{}
	}
	return intervalForm{ok: true, clock: plainClock.MatchString(s)}
}

// colonJoined is numbers joined by colons: sshd's MaxStartups
// (10:30:100), a clock (9:30, 10:30:00), ps's elapsed time (1:02:03).
var colonJoined = regexp.MustCompile(`^\d+(?::\d+)+$`)

// colonNumbers reports whether a and b are both numbers joined by colons
// that text does not order number by number: their counts of numbers
// differ, or two numbers in the same place differ in their count of
// digits ("10:30:100" and "10:30:60", "9:30" and "10:00"). Two of the same
// shape, clocks of two-digit groups ("09:30", "10:00"), order by character
// as by number, and are not judged so
// (TestNumbersSeparatedByColonsHaveNoTextOrder).
func colonNumbers(a, b string) bool {
	if len(a) > 64 || len(b) > 64 || !colonJoined.MatchString(a) || !colonJoined.MatchString(b) {
		return false
	}
	pa, pb := strings.Split(a, ":"), strings.Split(b, ":")
	if len(pa) != len(pb) {
		return true
	}
	for i := range pa {
		if len(pa[i]) != len(pb[i]) {
			return true
		}
	}
	return false
}

// durationText reports whether s is a duration as Go writes one ("90s",
// "1h30m", "250ms"): "90s" and "1h30m" are not a pair of numerals, and
// text would put "90s" after "1h30m".
func durationText(s string) bool {
	_, err := time.ParseDuration(s)
	return err == nil
}

// numeralsHint says how to compare two numerals by their units: a unit
// they share is trimmed; two units (a Kubernetes quantity's "15242940Ki"
// against "8Gi", "500m" against "1") are one number in neither, and
// trimming would compare kibibytes with gibibytes.
//
// A number with a fraction is read with float, not int: df -h's "6.5G"
// beside "2G" was told to compare int(trimSuffix(x, "G")), an error over
// "6.5".
func numeralsHint(a, b string) string {
	sa, sb := strings.TrimLeft(a, "+-0123456789."), strings.TrimLeft(b, "+-0123456789.")
	ua, ub := strings.TrimLeft(sa, " "), strings.TrimLeft(sb, " ")
	read := "int"
	if strings.Contains(a[:len(a)-len(sa)], ".") || strings.Contains(b[:len(b)-len(sb)], ".") {
		read = "float"
	}
	switch {
	case ua == ub && ua == "" && octalDigits(a) && octalDigits(b):
		// stat -c %a's "604" and a limit "640": as numbers, 604 < 640
		// says a world-readable file is within it
		return "compare the numbers (float(x), or a parse mode's number); if they are file modes (stat -c %a), whose octal digits no number compares, ask modeWithin(x, y), which compares them bit by bit"
	case ua == ub && ua == "":
		return "compare the numbers (float(x), or a parse mode's number)"
	case sa == sb:
		return "compare the numbers (" + read + "(trimSuffix(x, " + strconv.Quote(sa) + ")), or a parse mode's number)"
	case ua == ub:
		return "compare the numbers (" + read + "(trimSuffix(trimSuffix(x, " + strconv.Quote(ua) + "), \" \")), or a parse mode's number)"
	case ua == "" || ub == "":
		return "one has a unit (" + strconv.Quote(ua+ub) + ") and the other none, so they are no one number either: bring both to one unit, then compare the numbers"
	}
	return "they are in different units (" + strconv.Quote(ua) + " and " + strconv.Quote(ub) + "), so trimming them compares neither: bring both to one unit, then compare the numbers"
}

// octalDigits reports whether s is three or four octal digits, as a
// file mode's text is (rules/mode.go).
func octalDigits(s string) bool {
	_, ok := octalMode(s)
	return ok && !strings.HasPrefix(s, "0o") && !strings.HasPrefix(s, "0O")
}

// numeral reports whether s is a number written as text: an optional
// sign, digits with at most one decimal point, and an optional unit, "%"
// or one to three letters, after at most one space ("85%", "12K",
// "1.5G", "24028912 kB", "-3"), or "bytes", as PostgreSQL's
// pg_size_pretty writes a size under 10 kB ("8192 bytes" beside "12 MB").
func numeral(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits, point := 0, false
	for ; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			digits++
			continue
		}
		if c == '.' && !point {
			point = true
			continue
		}
		break
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && s[i] == ' ' {
		i++
		if i == len(s) {
			return false
		}
	}
	unit := s[i:]
	if unit == "" || unit == "%" || unit == "bytes" { // pg_size_pretty's "8192 bytes"
		return true
	}
	if len(unit) > 3 {
		return false
	}
	for j := 0; j < len(unit); j++ {
		if c := unit[j] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// equalCheck is the judgement behind eq and ne: null equals only null and
// meets anything without complaint; other values of different classes are
// a reason, not an inequality.
//
// Two strings that differ only by a line end one of them ends with are a
// reason too (lineEnd): a command's output under parse: text keeps its
// final newline, so `id.stdout == "0"` over id -u's "0\n" was false, and
// a chart asking whether it ran as root said "no", Consistent, as root.
// So are two that differ only in the case of their letters (caseOnly).
func equalCheck(a any, ca class, b any, cb class) (bool, string) {
	if ca != cb && ca != classNil && cb != classNil {
		return false, mixedReasons[ca][cb]
	}
	eq := Equal(a, b)
	if !eq && ca == classString {
		x, _ := asString(a)
		y, _ := asString(b)
		if reason := apart(x, y); reason != "" {
			return false, reason
		}
	}
	return eq, ""
}

// apart is why two unequal texts cannot be told apart as meant — a line
// end (lineEnd), blanks at an end (edgeBlanks), the case of their letters
// (caseOnly), "-" and "_" (dashOnly), how their accented letters are
// written in Unicode (composedOnly), rsync's escapes (rsyncEscaped), or one is a part of the other's comma-separated list
// (listPart) or of its flags between spaces (flagPart) — the one judgement every equality operator (eq, ne, in,
// notIn; ==, !=, in) asks; "" when they differ otherwise.
func apart(a, b string) string {
	if reason := maskedSide(a, b); reason != "" {
		return reason
	}
	if reason := lineEnd(a, b); reason != "" {
		return reason
	}
	if reason := edgeBlanks(a, b); reason != "" {
		return reason
	}
	if reason := innerBlanks(a, b); reason != "" {
		return reason
	}
	if reason := caseOnly(a, b); reason != "" {
		return reason
	}
	if reason := dashOnly(a, b); reason != "" {
		return reason
	}
	if reason := composedOnly(a, b); reason != "" {
		return reason
	}
	if reason := mojibake(a, b); reason != "" {
		return reason
	}
	if reason := rsyncEscaped(a, b); reason != "" {
		return reason
	}
	if reason := listPart(a, b); reason != "" {
		return reason
	}
	return flagPart(a, b)
}

// dashOnly is why two unequal texts are not known to differ: they differ
// only where one has "-" and the other "_", which a tool may read as one
// character. The kernel names a module usb_storage in lsmod and
// /proc/modules, modprobe, a blacklist and a CIS list write usb-storage,
// and `m in map(mods.stdout, .module)` was a plain no, so a baseline
// said usb-storage was not loaded, OK, Consistent, over a host where it
// was (TestTextsThatDifferOnlyInDashesAreNoEquality; pip reads a
// package's name so too). "" for any other pair.
//
//	dashOnly("usb-storage", "usb_storage")   "… differ only in - and _ …"
//	dashOnly("usb-storage", "usb_audio")     ""
func dashOnly(a, b string) string {
	if a == b || len(a) != len(b) || !strings.ContainsAny(a, "-_") {
		return ""
	}
	for i := range len(a) {
		if a[i] != b[i] && !(a[i] == '-' && b[i] == '_' || a[i] == '_' && b[i] == '-') {
			return ""
		}
	}
	return strconv.Quote(a) + " and " + strconv.Quote(b) + " differ only in - and _, which a tool may read as one (the kernel lists module usb-storage as usb_storage in lsmod and /proc/modules, and modprobe takes either); where they are one, compare replace(x, \"-\", \"_\") == " + strconv.Quote(strings.ReplaceAll(b, "-", "_")) + ", and where they are not, x matches " + strconv.Quote("^"+regexp.QuoteMeta(b)+"$")
}

// maskedSide is why two unequal texts are not known to differ: one is a
// value runbook masked as a secret before it reached the scope (by its
// name, DB_PASSWORD=… in a .env file or /proc/PID/environ, or its form,
// secret.ByForm), so what it held is not known, and the other is a text
// it may have been. A default-password audit asking
// `env.content.DB_PASSWORD in ["changeme", …]` over a file holding
// DB_PASSWORD=changeme compared "***" and said ok, Consistent
// (TestMaskedSecretIsNoEquality). The empty text is known to differ: no
// value under secret.MinDerived bytes is masked; so is a PEM armour line.
// "" for any other pair.
func maskedSide(a, b string) string {
	masked, other := a, b
	if masked != secret.Masked {
		masked, other = b, a
	}
	if masked != secret.Masked || other == secret.Masked || other == "" || strings.HasPrefix(strings.TrimPrefix(other, "^"), "-----") {
		// A PEM armour line (-----BEGIN CERTIFICATE-----) is never what
		// was masked: a key's material is masked between its armour
		// lines, which are kept, and a key in DER whole.
		return ""
	}
	return strconv.Quote(secret.Masked) + " is a value runbook masked as a secret before any rule read it (its name or its form says it holds one: a password, a token, a key), so what it held is not known and is not compared with " + strconv.Quote(other) + "; a rule can ask whether it is set (x != \"\"), and a password is checked where it is used (a login with it), not by its text"
}

// innerBlanks is why two unequal texts are not known to differ: they hold
// the same words, two or more, and differ only in the blanks between them
// (a tab where the other has a space, or a run of spaces), which a tool
// writes as it likes. sysctl prints net.ipv4.tcp_rmem's three numbers
// between tabs, a baseline writes them as sysctl.conf does, between
// spaces, and `trim(v.stdout) == w.want` said fail over the very value
// wanted (TestTextsThatDifferOnlyInTheirInnerBlanksAreNoEquality). "" for
// any other pair.
//
//	innerBlanks("4096\t131072\t6291456", "4096 131072 6291456")   "… differ only in the blanks between their words …"
//	innerBlanks("a b", "ab")                                      ""
func innerBlanks(a, b string) string {
	if strings.IndexFunc(a, unicode.IsSpace) < 0 || strings.IndexFunc(b, unicode.IsSpace) < 0 {
		return "" // one word, no judgement: apart runs on every unequal pair, and Fields allocates
	}
	wa, wb := strings.Fields(a), strings.Fields(b)
	if a == b || len(wa) < 2 || !slices.Equal(wa, wb) {
		return ""
	}
	quoted := make([]string, len(wb))
	for i, w := range wb {
		quoted[i] = regexp.QuoteMeta(w)
	}
	return strconv.Quote(a) + " and " + strconv.Quote(b) + " differ only in the blanks between their words (a tab where the other has a space, or a run of them), which a tool writes as it likes (sysctl prints net.ipv4.tcp_rmem's numbers between tabs); compare the words: x matches " + strconv.Quote("^\\s*"+strings.Join(quoted, "\\s+")+"\\s*$")
}

// listPart is why two unequal texts are not known to differ: one is a
// list written as text, its items between commas, and the other, which
// holds no comma, is one of them. sshd -T prints Ciphers as one line,
// `aes256-ctr,aes128-cbc`, and `s.value in weak` (or `== "aes128-cbc"`)
// over it was a plain no, so a server offering a CBC cipher stood pass,
// Consistent (TestListWrittenAsTextIsNoEquality). "" for any other pair.
//
//	listPart("aes256-ctr,aes128-cbc", "aes128-cbc")   "… is a list written as text …"
//	listPart("a,b", "c")                              ""
func listPart(a, b string) string {
	list, item := a, b
	if !strings.Contains(list, ",") {
		list, item = b, a
	}
	if !strings.Contains(list, ",") || strings.Contains(item, ",") || strings.TrimSpace(item) == "" {
		return ""
	}
	for part := range strings.SplitSeq(list, ",") {
		if strings.TrimSpace(part) == item {
			return strconv.Quote(list) + " is a list written as text, and " + strconv.Quote(item) + " is one of its items: compare the items, not the text (any(split(x, \",\"), # in list), or \"" + item + "\" in split(x, \",\"))"
		}
	}
	return ""
}

// flagWord is one flag of a set written between spaces: upper-case
// letters (and digits after the first), as NUT writes a UPS's status
// flags (OL, OB, LB, RB, CHRG, DISCHRG, BYPASS, OVER, FSD, ALARM).
var flagWord = regexp.MustCompile(`^[A-Z][A-Z0-9]{0,15}$`)

// flagPart is why two unequal texts are not known to differ: one is a set
// of two or more upper-case flags written as text between spaces, and
// the other, one flag, is one of them. upsc prints ups.status so (`OB
// DISCHRG`, `OL CHRG`, `OB DISCHRG LB`), and `u.stdout["ups.status"] ==
// "OB"` over `OB DISCHRG` was a plain no, so a UPS on battery stood
// online, OK, Consistent (TestFlagSetWrittenAsTextIsNoEquality). "" for
// any other pair: words that are not all flags ("Debian GNU/Linux") and
// a set that does not hold the other are judged as before.
//
//	flagPart("OB DISCHRG", "OB")   "… is a set of flags written as text …"
//	flagPart("OL CHRG", "OB")      ""
func flagPart(a, b string) string {
	set, flag := a, b
	if !strings.Contains(set, " ") {
		set, flag = b, a
	}
	if !flagWord.MatchString(flag) {
		return ""
	}
	if words := flagSet(set); !slices.Contains(words, flag) {
		return ""
	}
	return strconv.Quote(set) + " is a set of flags written as text, between spaces, and " + strconv.Quote(flag) + " is one of them (upsc prints ups.status so: OL CHRG, OB DISCHRG LB): compare the flags, not the text (\"" + flag + "\" in split(x, \" \"))"
}

// flagSet is the words of s when s is a set of two or more upper-case
// flags between spaces (flagWord), nil otherwise.
func flagSet(s string) []string {
	if !strings.Contains(s, " ") {
		return nil
	}
	words := strings.Fields(s)
	if len(words) < 2 {
		return nil
	}
	for _, w := range words {
		if !flagWord.MatchString(w) {
			return nil
		}
	}
	return words
}

// flagInside is why `s contains sub` is not known to hold: s is a set of
// flags (flagSet), sub is a flag, and it is found in s only inside
// another flag. NUT's DISCHRG holds CHRG, so `status contains "CHRG"`
// over upsc's `OB DISCHRG` was true, and a UPS discharging on battery
// read as charging (TestFlagInsideAnotherFlagIsNoContains). "" when sub
// is one of the flags, is not in s at all, or s is no set of flags.
//
//	flagInside("OB DISCHRG", "CHRG")   "\"CHRG\" is found in \"OB DISCHRG\" only inside the flag \"DISCHRG\" …"
//	flagInside("OL CHRG", "CHRG")      ""
func flagInside(s, sub string) string {
	if !flagWord.MatchString(sub) || !strings.Contains(s, sub) {
		return ""
	}
	words := flagSet(s)
	if words == nil || slices.Contains(words, sub) {
		return ""
	}
	holder := ""
	for _, w := range words {
		if strings.Contains(w, sub) {
			holder = w
			break
		}
	}
	return strconv.Quote(sub) + " is found in " + strconv.Quote(s) + " only inside the flag " + strconv.Quote(holder) + ", and the text is a set of flags written between spaces (upsc prints ups.status so: DISCHRG holds CHRG): compare the flags, not the text (\"" + sub + "\" in split(x, \" \"))"
}

// negations are the prefixes that make a word its opposite, lower case:
// unhealthy, inactive, nonzero, disconnected, misconfigured, NotReady.
// im-, ir- and il- are not among them, nor de- before a consonant
// (negates): default, import and detail hold fault, port and tail
// without saying their opposite.
var negations = []string{"un", "in", "non", "dis", "mis", "not"}

// negatedInside is why `s contains word` (or `s matches "word"`) is not
// known to hold: word, of four letters or more, is found in s only
// inside its own negation, a run of letters that is a negation prefix
// (negations, any case) and the word. podman ps prints `Up 16 minutes
// ago (unhealthy)`, and `status contains "healthy"` said a container
// whose healthcheck failed was healthy; so does `inactive` hold
// `active`, and kubectl's `NotReady` `Ready` (TestNegatedWordIsNoContains).
// "" when word is found on its own, inside a longer word that is no
// negation of it (ERROR in ERRORS), or not at all.
//
//	negatedInside("Up 2 minutes (unhealthy)", "healthy")   "\"healthy\" is found … only inside \"unhealthy\", its negation …"
//	negatedInside("2 healthy, 1 unhealthy", "healthy")     ""
func negatedInside(s, word string) string {
	if utf8.RuneCountInString(word) < 4 || strings.IndexFunc(word, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
		return ""
	}
	holder := ""
	for from := 0; ; {
		i := strings.Index(s[from:], word)
		if i < 0 {
			break
		}
		i += from
		end := i + len(word)
		from = end
		start := i
		for start > 0 {
			r, n := utf8.DecodeLastRuneInString(s[:start])
			if !unicode.IsLetter(r) {
				break
			}
			start -= n
		}
		if end < len(s) {
			if r, _ := utf8.DecodeRuneInString(s[end:]); unicode.IsLetter(r) {
				return "" // inside a longer word that is no negation of it
			}
		}
		if start == i {
			start = hyphenedNegation(s[:i])
		}
		if start == i || start < 0 || !negates(strings.ToLower(strings.TrimSuffix(s[start:i], "-")), word) {
			return "" // on its own, or after letters that are no negation
		}
		holder = s[start:end]
	}
	if holder == "" {
		return ""
	}
	return strconv.Quote(word) + " is found in " + strconv.Quote(s) + " only inside " + strconv.Quote(holder) + ", its negation, so the text says the opposite of the word: match the word on its own (x matches \"\\\\b" + word + "\\\\b\"), or read the value the tool writes alone (podman inspect's State.Health.Status, systemctl is-active's whole line)"
}

// negationAsked says whether one of an expression's text literals
// (literals) holds a negation of word, with its prefix (negations) right
// before it or a hyphen or a space between: `s contains "active" &&
// !(s contains "inactive")` names the negation it rules out, and was a
// rule error over systemctl's inactive, every stopped unit not judged
// (TestNegationWrittenInTheExpressionIsNoAlarm).
func negationAsked(word string, literals []string) bool {
	w := strings.ToLower(word)
	for _, l := range literals {
		l = strings.ToLower(l)
		for _, neg := range negations {
			for _, sep := range []string{"", "-", " "} {
				if strings.Contains(l, neg+sep+w) {
					return true
				}
			}
		}
	}
	return false
}

// negates says whether prefix, lower case, makes word its opposite
// (negations): de- does before a vowel alone, as dpkg's deinstall and
// systemd's deactivating (`deinstall ok config-files`, a package removed
// whose configuration is kept, held "install" and read as installed),
// not before default's fault, import's port or detail's tail.
func negates(prefix, word string) bool {
	if prefix == "de" {
		return strings.ContainsRune("aeiouAEIOU", []rune(word)[0])
	}
	return slices.Contains(negations, prefix)
}

// hyphenedNegation is where the negation before the end of s begins
// when s ends in not- or non- (dpkg's `unknown ok not-installed`, a
// non-zero exit), -1 otherwise. The other prefixes are no negation
// before a hyphen: in-sync and in-service say the word.
func hyphenedNegation(s string) int {
	for _, neg := range []string{"not-", "non-"} {
		if len(s) >= len(neg) && strings.EqualFold(s[len(s)-len(neg):], neg) {
			start := len(s) - len(neg)
			if start > 0 {
				if r, _ := utf8.DecodeLastRuneInString(s[:start]); unicode.IsLetter(r) {
					return -1 // cannot-, a longer word
				}
			}
			return start
		}
	}
	return -1
}

// containsReason is why `s contains sub` is not known to hold, "" when
// nothing is known against it: the one judgement an expression's
// contains and a filter's ask (flagInside, negatedInside, unless the
// expression writes the word's negation too: negationAsked).
func containsReason(s, sub string, negationAsked bool) string {
	if reason := flagInside(s, sub); reason != "" {
		return reason
	}
	if negationAsked {
		return ""
	}
	return negatedInside(s, sub)
}

// matchReason is why `s matches pattern` is not known to hold as meant,
// "" when nothing is known against it: the one judgement an expression's
// matches and a filter's ask (edgeMatch, and negatedInside when the
// pattern is a plain word).
func matchReason(s string, pattern any, negationAsked bool) string {
	if reason := edgeMatch(s, pattern); reason != "" {
		return reason
	}
	if negationAsked {
		return ""
	}
	// a pattern of letters alone is a plain word; it is not compiled here
	switch p := pattern.(type) {
	case string:
		return negatedInside(s, p)
	case *regexp.Regexp:
		return negatedInside(s, p.String())
	}
	return ""
}

// composedOnly is why two unequal texts are not known to differ: they are
// the same letters, written in Unicode in two ways, one composed (ü, the
// one character U+00FC, as a Linux keyboard and most files write it, NFC)
// and the other decomposed (u and the combining U+0308 after it, as macOS
// names files, NFD). Both print as "Müller", and a file copied from a Mac
// (rsync, a Samba or Netatalk share) keeps its decomposed name, so
// `want in ls.stdout` was a plain no and a check that a folder is there
// said missing, Consistent, over the folder
// (TestTextsThatDifferOnlyInUnicodeCompositionAreNoEquality,
// testdata/wave-locale/nfd-names). The reason quotes both in ASCII
// escapes, since printed as they are they look alike. "" for any other
// pair; the ASCII pair is judged at no cost.
//
//	composedOnly("Mu\u0308ller", "M\u00fcller")   "… the same letters composed in two ways …"
//	composedOnly("Müller", "Muller")                 ""
func composedOnly(a, b string) string {
	if a == b || (ascii(a) && ascii(b)) || norm.NFC.String(a) != norm.NFC.String(b) {
		return ""
	}
	return strconv.QuoteToASCII(a) + " and " + strconv.QuoteToASCII(b) + " are the same letters composed in two ways (an accented letter as one character, NFC, as Linux tools and most files write it, or as its letter and a combining mark after it, NFD, as macOS names files), so they print alike and a reader takes them for one: compare nfc(x) == nfc(y) (a list: nfc(x) in map(list, nfc(#)))"
}

// mojibake is why two unequal texts are not known to differ: one is the
// other's UTF-8 bytes read as Windows-1252 (or Latin-1) and written out
// again in UTF-8, as a database export or a CSV passed through a tool
// that took UTF-8 for Latin-1 writes it: "MÃ¼ller" for "Müller", "â€™"
// for "’". An HR export's "MÃ¼ller, Hans" was a plain no to a chart's
// "Müller, Hans", and a check that a leaver's account is gone from it
// said gone, Consistent (TestTextReadAsLatin1TwiceIsNoEquality,
// testdata/wave-locale/export-names). "" for any other pair; an ASCII
// text is never one.
func mojibake(a, b string) string {
	if ascii(a) || ascii(b) {
		return ""
	}
	for _, p := range [2][2]string{{a, b}, {b, a}} {
		mangled, plain := p[0], p[1]
		if len(mangled) <= len(plain) {
			continue
		}
		for _, cm := range []*charmap.Charmap{charmap.Windows1252, charmap.ISO8859_1} {
			raw, err := cm.NewEncoder().String(mangled)
			if err == nil && raw == plain {
				return strconv.Quote(mangled) + " is " + strconv.Quote(plain) + " written twice over: its UTF-8 bytes were read as " + cm.String() + ", and written out in UTF-8 again (an export through a tool that took UTF-8 for Latin-1), so the two are one text, mangled; have the export written in UTF-8 once, or undo it where it is read (exec: {command: [iconv, -f, UTF-8, -t, WINDOWS-1252, FILE]} gives the bytes it was written from)"
			}
		}
	}
	return ""
}

// ascii reports whether s holds only ASCII bytes, which no Unicode
// normalization changes.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// caseOnly is why two unequal texts are not known to differ: they differ
// only in the case of their letters, and the tool that wrote one may read
// its words in any case. sshd reads `PermitRootLogin Yes` and
// `PasswordAuthentication YES` as yes, so `conf.PasswordAuthentication ==
// "yes"` over a file's "Yes" was a plain no, and an audit said the
// server refused passwords, Consistent, over one that took them
// (TestTextsThatDifferOnlyInCaseAreNoEquality). "" for any other pair.
//
//	caseOnly("Yes", "yes")      "\"Yes\" and \"yes\" differ only in the case of their letters …"
//	caseOnly("yes", "no")       ""
func caseOnly(a, b string) string {
	if a == b || !strings.EqualFold(a, b) {
		return ""
	}
	return strconv.Quote(a) + " and " + strconv.Quote(b) + " differ only in the case of their letters, and a tool may read its words in any case (sshd reads PermitRootLogin Yes as yes); where the case does not matter compare lower(x) == " + strconv.Quote(strings.ToLower(b)) + ", and where it does, x matches " + strconv.Quote("^"+regexp.QuoteMeta(b)+"$")
}

// lineEnd is why two unequal texts cannot be told apart as meant: one is
// the other with a line end ("\n", "\r\n") after it, as a command's output
// read with parse: text ends; "" for any other pair, and for two texts
// that both end a line or neither does. The equality operators (eq, ne,
// in, notIn; ==, !=, in) ask it, and endsWith asks lineEndSuffix.
//
//	lineEnd("0\n", "0")        "\"0\\n\" and \"0\" differ only by the line end …"
//	lineEnd("active", "failed") ""
func lineEnd(a, b string) string {
	if a == b {
		return ""
	}
	long, short := a, b
	if len(long) < len(short) {
		long, short = short, long
	}
	if len(long) == len(short) || !strings.HasSuffix(long, "\n") || strings.HasSuffix(short, "\n") {
		return ""
	}
	if strings.TrimRight(long, "\r\n") != short {
		return ""
	}
	return strconv.Quote(a) + " and " + strconv.Quote(b) + " differ only by the line end " + strconv.Quote(long) + " ends with, as a command's output read with parse: text keeps it; compare trimSuffix(x, \"\\n\") (or trim(x)), or read the output with parse: lines"
}

// blanks are what edgeBlanks reads past at a text's ends: spaces, tabs
// and line ends.
const blanks = " \t\r\n"

// edgeBlanks is why two unequal texts cannot be told apart as meant: they
// differ only by blanks (spaces, tabs, line ends) before or after the
// same words, as a tool's output may keep them — modprobe -n -v prints
// "install /bin/false " for a module it will not load, and `cut -d=
// -f2` of sysctl.conf's `net.ipv4.ip_forward = 1` gives " 1" — so
// `dry == "install /bin/false"` was a plain no over a disabled module,
// and `fwd == "1"` over a router that forwards
// (TestTextsThatDifferOnlyByBlanksAtAnEndAreNoEquality). "" for any other
// pair, for two texts that are blank but for nothing, and for a pair
// lineEnd names.
//
//	edgeBlanks("install /bin/false ", "install /bin/false")  "… differ only by the blanks …"
//	edgeBlanks(" 1", "2")                                     ""
func edgeBlanks(a, b string) string {
	x, y := strings.Trim(a, blanks), strings.Trim(b, blanks)
	if a == b || x != y || x == "" {
		return ""
	}
	return strconv.Quote(a) + " and " + strconv.Quote(b) + " differ only by the blanks (spaces, tabs, line ends) at their ends, which a tool's output may keep (modprobe -n -v prints \"install /bin/false \"); compare trim(x) == " + strconv.Quote(x)
}

// edgeSuffix is why `s endsWith suffix` is not known to be false: s ends
// with suffix but for a line end (lineEndSuffix) or other blanks after it
// (modprobe -n -v's "install /bin/false " and "/bin/false"); "" otherwise,
// and when s ends with it or suffix ends with a blank itself.
func edgeSuffix(s, suffix string) string {
	if reason := lineEndSuffix(s, suffix); reason != "" {
		return reason
	}
	trimmed := strings.TrimRight(s, blanks)
	if suffix == "" || strings.HasSuffix(s, suffix) || trimmed == s || strings.TrimRight(suffix, blanks) != suffix || !strings.HasSuffix(trimmed, suffix) {
		return ""
	}
	return strconv.Quote(s) + " ends with " + strconv.Quote(suffix) + " but for the blanks after it, which a tool's output may keep (modprobe -n -v prints \"install /bin/false \"); ask trim(x) endsWith " + strconv.Quote(suffix)
}

// edgeMatch is why `s matches pattern` is not known to be false: pattern
// matches s but for a line end after it (lineEndMatch), or but for other
// blanks at its ends, as `^install /bin/(true|false)$` matches modprobe
// -n -v's "install /bin/false " trimmed and not as printed; or over a
// value masked as a secret, whose text is not known (maskedSide); ""
// otherwise.
func edgeMatch(s string, pattern any) string {
	if s == secret.Masked {
		if re, ok := patternOf(pattern); ok && !re.MatchString(s) {
			return maskedSide(s, re.String())
		}
	}
	if reason := lineEndMatch(s, pattern); reason != "" {
		return reason
	}
	trimmed := strings.Trim(s, blanks)
	if trimmed == s || trimmed == "" {
		return ""
	}
	re, ok := patternOf(pattern)
	if !ok || re.MatchString(s) || !re.MatchString(trimmed) {
		return ""
	}
	return strconv.Quote(s) + " matches " + strconv.Quote(re.String()) + " but for the blanks at its ends, which a tool's output may keep (modprobe -n -v prints \"install /bin/false \"); match trim(x), or let the pattern take them (\\s*$)"
}

// patternOf is a matches pattern as a regular expression: a filter's,
// compiled already, or an expression's text, compiled here (off the hot
// path: only a text that failed to match is matched again); ok is false
// for a text that does not compile.
func patternOf(pattern any) (*regexp.Regexp, bool) {
	if text, isText := pattern.(string); isText {
		re, err := regexp.Compile(text)
		return re, err == nil
	}
	re, ok := pattern.(*regexp.Regexp)
	return re, ok
}

func cmpOrdered[T int | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// toNum reads a value of class number exactly (jsonv.ExactNumber); a
// json.Number that does not parse is a reason.
func toNum(v any) (jsonv.Exact, string) {
	n, ok := jsonv.ExactNumber(v)
	if ok {
		return n, ""
	}
	if x, isNumber := v.(json.Number); isNumber {
		return n, "json.Number " + strconv.Quote(string(x)) + " is not a number"
	}
	return n, "the value is not a number"
}

// cmpNum compares two numbers exactly (jsonv.CompareExact); NaN is a
// reason.
func cmpNum(a, b jsonv.Exact) (int, string) {
	c, ok := jsonv.CompareExact(a, b)
	if !ok {
		return 0, reasonNaN
	}
	return c, ""
}

// asString reads a string or a value of a named string type (json.Number
// excluded: it is a number): jsonv.GoString.
func asString(v any) (string, bool) { return jsonv.GoString(v) }

// lineEndSuffix is lineEnd for endsWith: s ends with suffix but for a
// line end after it ("active\n" and "active", systemctl is-active's
// output read with parse: text); "" otherwise, and when s ends with it.
func lineEndSuffix(s, suffix string) string {
	if suffix == "" || strings.HasSuffix(s, suffix) || strings.HasSuffix(suffix, "\n") || !strings.HasSuffix(s, "\n") {
		return ""
	}
	if !strings.HasSuffix(strings.TrimRight(s, "\r\n"), suffix) {
		return ""
	}
	return strconv.Quote(s) + " ends with " + strconv.Quote(suffix) + " but for the line end after it, as a command's output read with parse: text keeps it; ask trimSuffix(x, \"\\n\") (or trim(x)), or read the output with parse: lines"
}

// lineEndMatch is lineEnd for matches: pattern matches s but for the
// line end after it, as `^active$` matches systemctl is-active's
// "active\n" in grep and Python, whose $ matches before a final newline,
// and not in RE2, whose $ is the end of the text; "" otherwise. Only a
// text that ends a line is matched again, off the hot path; an
// expression's pattern (a string) is compiled then.
//
// A text whose lines end in "\r\n" (redis-cli INFO, a Windows tool's
// output) is matched again with each "\r\n" read as "\n": `(?m)^…$`
// finds no line in it, since $ stands before a "\n" and the "\r" is
// before that, and `info.stdout matches "(?m)^master_link_status:down$"`
// over a replica whose link was down was a plain no, OK, Consistent
// (TestCRLFLinesAreNoMatch).
func lineEndMatch(s string, pattern any) string {
	if reason := crlfMatch(s, pattern); reason != "" {
		return reason
	}
	if !strings.HasSuffix(s, "\n") {
		return ""
	}
	re, ok := patternOf(pattern)
	if !ok || re.MatchString(s) || !re.MatchString(strings.TrimRight(s, "\r\n")) {
		return ""
	}
	return strconv.Quote(s) + " matches " + strconv.Quote(re.String()) + " but for the line end after it, which $ does not pass over here as grep's does, and a command's output read with parse: text keeps it; match trimSuffix(x, \"\\n\") (or trim(x)), or read the output with parse: lines"
}

// crlfMatch is lineEndMatch's judgement of a text of lines that end in
// "\r\n": pattern matches it once each "\r\n" is read as "\n" (and its
// last line end is left off), and not as it is; "" otherwise.
func crlfMatch(s string, pattern any) string {
	if !strings.Contains(strings.TrimSuffix(s, "\r\n"), "\r\n") {
		// one line: its line end is the final one's judgement below
		return ""
	}
	re, ok := patternOf(pattern)
	if !ok || re.MatchString(s) {
		return ""
	}
	lf := strings.ReplaceAll(s, "\r\n", "\n")
	if !re.MatchString(lf) && !re.MatchString(strings.TrimRight(lf, "\n")) {
		return ""
	}
	return shown(s) + " matches " + strconv.Quote(re.String()) + " but for the \"\\r\" before each line end (its lines end in \"\\r\\n\", as redis-cli INFO's do), which $ does not pass over; match replace(x, \"\\r\", \"\"), or read the output with parse: lines or kv, which read a line without it"
}

// notFoundIn is why a value found in no element of a list is not known
// to be absent from it — the one judgement of in, notIn and a list's
// contains once nothing was found (off the hot path):
//
//	the value     an element                    why
//	a number      text spelling it ("3389")     the value written in the other kind
//	a number      any other text ("telnet",     a name or a range of numbers, which
//	              "6000-6063")                  no number equals
//	a text        a number it spells            the value written in the other kind
//	a text        a text a line end, the case   apart
//	              of its letters or a list away
//
// "" when every element differs as meant: a number beside a text that
// spells no number ("dev" in ["prod", 3]) is passed over, since no
// reading makes the one the other. A port deny list given as [23,
// "3389"] (one port quoted in an inputs file), or [23, "6000-6063"] (the
// X11 ports as a range), found no 3389 or 6010 in it, and the listener
// stood ok, Consistent (TestNotFoundInAListOfAnotherKindIsNoAnswer). The
// value written in the other kind is named before any other element. A
// list holding no element of the value's kind at all is said before it
// (noElementReasons).
func notFoundIn(a, list any) string {
	ca := classOf(a)
	if ca != classNumber && ca != classString {
		return ""
	}
	var reason, other string
	i := 0
	each(list, func(e any) bool {
		i++
		ce := classOf(e)
		switch {
		case ca == classNumber && ce == classString:
			y, _ := asString(e)
			if spelled(a, y) {
				reason = fmt.Sprintf("element %d of the list, %s, is %s written as text, which a number never equals, so the value was not found only by its kind; write the list in one kind (%s, not %s), or compare the value as text (string(x))", i, shortJSON(e), shortJSON(a), shortJSON(a), shortJSON(e))
			} else if other == "" {
				other = fmt.Sprintf("element %d of the list, %s, is a text beside numbers, which a number never equals, so not finding the value in it is no answer for that element: a range or a name for a number (a service's, \"ssh\") is never found by in; write the numbers, test a range with >= and <=", i, shortJSON(e))
			}
		case ca == classString && ce == classNumber:
			if x, _ := asString(a); spelled(e, x) {
				reason = fmt.Sprintf("element %d of the list, %s, is a number and the value is the text %s, which is never equal to it, so the value was not found only by its kind; write the list in one kind (%s, not %s), or compare the value as a number (int(x), float(x))", i, shortJSON(e), shortJSON(a), shortJSON(a), shortJSON(e))
			}
		case ca == classString && ce == classString:
			x, _ := asString(a)
			y, _ := asString(e)
			reason = apart(x, y)
		}
		return reason == ""
	})
	if reason == "" {
		reason = other
	}
	return reason
}

// spelled says whether text, spaces around it aside, is a JSON number
// equal to n ("3389" and 3389, "1.0" and 1).
func spelled(n any, text string) bool {
	x, ok := jsonv.ExactNumber(n)
	if !ok {
		return false
	}
	y, ok := jsonv.ExactNumber(json.Number(strings.TrimSpace(text)))
	if !ok {
		return false
	}
	c, ok := jsonv.CompareExact(x, y)
	return ok && c == 0
}

// shortJSON is v as JSON, cut to 40 bytes (…), for naming a list's element.
func shortJSON(v any) string {
	b, err := jsonv.Marshal(v)
	if err != nil {
		return jsonv.Describe(v)
	}
	if len(b) > 40 {
		return strings.ToValidUTF8(string(b[:40]), "") + "…"
	}
	return string(b)
}
