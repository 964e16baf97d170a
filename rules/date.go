package rules

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/expr-lang/expr/builtin"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// builtinDate is expr's own date(…), which dateFunc checks the answer of.
var builtinDate = func() func(args ...any) (any, error) {
	for _, f := range builtin.Builtins {
		if f.Name == "date" {
			return f.Func
		}
	}
	panic("rules: expr has no date builtin")
}()

// dateTypes are date's forms, for expr's checker: the text, a layout, a
// zone's name, or a location first (date(timezone("Europe/Berlin"), x)).
var dateTypes = []any{
	new(func(string) time.Time),
	new(func(string, string) time.Time),
	new(func(string, string, string) time.Time),
	new(func(*time.Location, string) time.Time),
	new(func(*time.Location, string, string) time.Time),
}

// dateFunc is expr's date(text[, layout[, zone]]), save two answers it
// refuses, each a time Go would read as UTC whatever zone wrote it, an hour
// or more off and nothing said:
//
//   - a zone abbreviation this machine knows no offset for ("Sun Dec  6
//     10:15:22 CET 2026" on a host in UTC, a remote host's `date` read
//     here): a cron that last ran 90 minutes ago read as within the hour;
//   - a time of day with no zone at all ("2026-12-06 10:30:00", a log's
//     stamp in its host's local time) and no zone argument: on a host in
//     Berlin a log silent for 55 minutes read as written 5 minutes ahead.
//
// The error says how to give the zone. A date with no time of day
// ("2026-12-06") reads as before, midnight UTC. A stamp with no year
// (syslog's and journalctl's "Dec  6 10:15:22", read with "Jan _2
// 15:04:05") is refused too (noYear): Go reads it as year 0, so a line
// written a minute ago read as 2026 years old, and a rule over the last
// hour's errors found none. Text no layout was given for, that expr's own
// forms do not read, is an error saying to give one, with Go's reference
// time, where expr said only "invalid date". A time with no zone read in
// a zone whose clocks change is refused where that zone had its wall time
// twice or never (wallUnsure: the hour after the clocks go back, the hour
// they skip going forward).
//
//	date("Dec 11 10:15:48 2026 GMT", "Jan _2 15:04:05 2006 MST")   2026-12-11T10:15:48Z
//	date("Sun Dec  6 10:15:22 CET 2026", time.UnixDate)            error: the zone "CET" …
//	date("Sun Dec  6 10:15:22 CET 2026", layout, "Europe/Berlin")  2026-12-06T09:15:22Z
//	date("2026-12-06 10:30:00")                                    error: … no zone …
//	date("2026-12-06 10:30:00", "2006-01-02 15:04:05", "Local")    this machine's zone
func dateFunc(args ...any) (any, error) {
	if err := dateTextIsText(args); err != nil {
		return nil, err
	}
	v, err := builtinDate(args...)
	if err != nil {
		if hint := paddedDay(args); hint != "" {
			return nil, fmt.Errorf("%w: %s", err, hint)
		}
		if text, ok := args[0].(string); ok && len(args) == 1 {
			if hint := epochHint(text, "int(x)"); hint != "" {
				return nil, fmt.Errorf("date(%q): %s", text, hint)
			}
			return nil, fmt.Errorf("date(%q): not RFC 3339 (2026-12-06T10:30:00Z) nor another form date reads with no layout; give its layout as date's second argument, Go's reference time Mon Jan 2 15:04:05 MST 2006 written as the text is (date(x, \"Mon Jan _2 15:04:05 MST 2006\") for date's own output, date(x, \"02/Jan/2006:15:04:05 -0700\") for nginx's)", dateText(args))
		}
		return nil, err
	}
	t, ok := v.(time.Time)
	if !ok {
		return v, nil
	}
	if noYear(args, t) {
		return nil, fmt.Errorf("date(%q): the time has no year, and Go would read it as year 0; have the command print one (journalctl -o short-iso, ls --time-style=full-iso), or add the year to the text and the layout, last year's where this year's is more than a day ahead (a December line read in January): %s", dateText(args), yearRecipe(args))
	}
	if zoneless(args) {
		if fix := literalZone(args); fix != "" {
			return nil, fmt.Errorf("date(%q): the layout reads no zone: its %s", dateText(args), fix)
		}
		return nil, fmt.Errorf("date(%q): the time has no zone, and Go would read it as UTC whatever zone wrote it; say which: date(x, layout, \"Local\") for this machine's zone, or a zone's name (\"Europe/Berlin\", \"UTC\")", dateText(args))
	}
	if err := wallUnsure(args, t); err != nil {
		return nil, err
	}
	if name, off := t.Zone(); off == 0 && name != "" && name != "UTC" && name != "GMT" && t.Location() != time.UTC && t.Location() != time.Local && !givenZone(args, t.Location()) {
		if z := zoneGiven(args); z != "" {
			// The advice below was followed already: the abbreviation is
			// one the program writes (Java's BRT for America/Sao_Paulo,
			// which the zone data writes -03), not one the data knows.
			return nil, fmt.Errorf("date(%q): the zone %q is not an abbreviation the zone data of %s knows (a program with zone names of its own, Java's keytool, writes some it does not), and Go would read it as UTC; have the command print UTC or a numeric offset (keytool -J-Duser.timezone=UTC, date -u, date -R), or replace the abbreviation in the text with its offset and read it with -0700 in the layout", dateText(args), name, z)
		}
		return nil, fmt.Errorf("date(%q): the zone %q has no offset this machine knows, and Go would read it as UTC; give the zone's name as date's third argument (date(x, layout, \"Europe/Berlin\")), or have the command print a numeric offset (date -R, date --rfc-3339=seconds)", dateText(args), name)
	}
	return t, nil
}

// dateTextIsText refuses a text argument that is not a string: expr's
// date asserts one, and a parse mode that read 20261206020000 (a backup's
// stamp) as a number made the rule's error Go's "interface conversion:
// interface {} is int, not string", which said neither what was read nor
// what to write.
func dateTextIsText(args []any) error {
	at := 0
	if _, ok := args[0].(*time.Location); ok {
		at = 1
	}
	if at >= len(args) {
		return nil
	}
	switch jsonv.Of(args[at]) {
	case jsonv.String:
		return nil
	case jsonv.Number:
		if hint := epochHint(digitsOf(args[at]), "x"); hint != "" {
			return fmt.Errorf("date(%v): date reads text, and this is a number: %s", args[at], hint)
		}
		return fmt.Errorf("date(%v): date reads text, and this is a number: digits such as a stamp 20261206020000 were read as one; read them as text (string(x), or numbers: false on the parse mode), and an epoch in seconds is compared as a number (now().Unix() - x)", args[at])
	case jsonv.Null:
		return fmt.Errorf("date(null): date reads text, and the value is null; where it may be absent, test it first (x != nil && date(x) …)")
	}
	return fmt.Errorf("date(…): date reads text, and the value is %s", jsonv.Describe(args[at]))
}

// epochUnits are the counts since the epoch a tool prints, by the number
// of digits one of this century has: `stat -c %Y` and `date +%s` count
// seconds, JavaScript and many backup tools' JSON milliseconds, systemd
// (list-timers --output=json, the journal's __REALTIME_TIMESTAMP)
// microseconds, `date +%s%N` nanoseconds.
var epochUnits = map[int][2]string{
	10: {"seconds", "Unix"}, 13: {"milliseconds", "UnixMilli"},
	16: {"microseconds", "UnixMicro"}, 19: {"nanoseconds", "UnixNano"},
}

// epochHint says which count since the epoch digits are and how to
// compare them, "" for any other text. Each unit is named: the one hint
// date() gave, now().Unix() - x, over a stamp in milliseconds made an
// age a thousand times now, negative, under any maximum age, and a
// backup that stopped a week ago read as fresh. read is how the hint
// writes the value (int(x) for a text).
func epochHint(digits, read string) string {
	u, ok := epochUnits[len(digits)]
	if !ok || strings.Trim(digits, "0123456789") != "" || digits[0] == '0' {
		return ""
	}
	hint := fmt.Sprintf("its %d digits count %s since the epoch: compare it as a number, now().%s() - %s", len(digits), u[0], u[1], read)
	if times := map[string]string{"milliseconds": "a thousand", "microseconds": "a million", "nanoseconds": "a billion"}[u[0]]; times != "" {
		hint += fmt.Sprintf(" (now().Unix() counts seconds: so compared, a stamp in %s is an age %s times now's, negative, under any maximum age)", u[0], times)
	}
	return hint + "; date reads text"
}

// digitsOf is a whole number's digits ("1796605323123"), "" for a value
// that is no whole number.
func digitsOf(v any) string {
	switch n := v.(type) {
	case int:
		return strconv.Itoa(n)
	case int64:
		return strconv.FormatInt(n, 10)
	case float64:
		if n == float64(int64(n)) {
			return strconv.FormatInt(int64(n), 10)
		}
	case json.Number:
		return n.String()
	}
	return ""
}

// noYear reports whether t, read by date's arguments, is a day of year 0:
// a stamp that names a month and a day and no year. A time of day alone
// ("15:04", a maintenance window) is year 0's first day, and two of them
// compare as they should.
func noYear(args []any, t time.Time) bool {
	if t.Year() != 0 {
		return false
	}
	at := 1 // date(text, layout[, zone])
	if _, ok := args[0].(*time.Location); ok {
		at = 2 // date(location, text, layout)
	}
	layout := ""
	if len(args) > at {
		layout, _ = args[at].(string)
	}
	return t.YearDay() != 1 || strings.Contains(layout, "Jan")
}

// yearRecipe is the expression the no-year error gives: the stamp read in
// this year, and in last year where that is more than a day ahead of
// now(). "This year" alone put a syslog.1 line of December 31st, read at
// 00:30 on New Year's Day, in the December to come, and a window rule
// counted it (and the week before it) as the last hours' or never, as the
// rule was written; a day's slack keeps a line from a host whose clock
// runs ahead in this year. The layout is the one given, the zone the one
// given or "Local", since a stamp with no year has no zone either.
func yearRecipe(args []any) string {
	at := 1 // date(text, layout[, zone])
	if _, ok := args[0].(*time.Location); ok {
		at = 2 // date(location, text, layout)
	}
	layout := "Jan _2 15:04:05"
	if len(args) > at {
		if l, ok := args[at].(string); ok {
			layout = l
		}
	}
	zone := "Local"
	switch z := args[len(args)-1].(type) {
	case *time.Location:
		zone = z.String()
	case string:
		if len(args) == at+2 {
			zone = z
		}
	}
	return fmt.Sprintf("let t = date(string(now().Year()) + \" \" + x, %s, %s); t > now() + duration(\"24h\") ? t.AddDate(-1, 0, 0) : t", strconv.Quote("2006 "+layout), strconv.Quote(zone))
}

// zoneless reports whether date's arguments read a time of day with no
// zone: no zone argument, and a layout (the one given, or the one of
// expr's own that read the text) with a time of day and no zone.
func zoneless(args []any) bool {
	if _, ok := args[0].(*time.Location); ok || len(args) == 3 {
		return false
	}
	text, _ := args[0].(string)
	layouts := []string{"2006-01-02 15:04:05", "15:04:05"} // expr's own without a zone
	if len(args) == 2 {
		layout, _ := args[1].(string)
		return readsClock(layout) && !readsZone(layout)
	}
	for _, l := range layouts {
		if _, err := time.Parse(l, text); err == nil {
			return true
		}
	}
	return false
}

// readsClock reports whether a layout reads a time of day: judged by what
// it prints for two times an hour and minutes apart, not by how it is
// spelt, so "20060102150405" (a backup's name) and "02.01.2006 15.04" are
// seen as "2006-01-02 15:04" is; looking for ":04" passed them over and
// their local times were read as UTC.
func readsClock(layout string) bool {
	a := time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC)
	b := time.Date(2006, 1, 2, 9, 41, 5, 0, time.UTC)
	return a.Format(layout) != b.Format(layout)
}

// readsZone reports whether a layout reads a zone (a name such as MST, or
// an offset in any of Go's spellings): one wall time in two zones prints
// the same under a layout that has none.
func readsZone(layout string) bool {
	a := time.Date(2006, 1, 2, 15, 4, 5, 0, time.FixedZone("AAA", 3600))
	b := time.Date(2006, 1, 2, 15, 4, 5, 0, time.FixedZone("BBB", -7200))
	return a.Format(layout) != b.Format(layout)
}

// givenZone reports whether loc is the location date's arguments named:
// a time read in it is read in a zone whose offsets are known.
func givenZone(args []any, loc *time.Location) bool {
	if l, ok := args[0].(*time.Location); ok {
		return l == loc || l.String() == loc.String()
	}
	if len(args) == 3 {
		if z, ok := args[2].(string); ok {
			return z == loc.String()
		}
	}
	return false
}

// zoneGiven is the zone date was given, a location first or a name
// third, "" when none.
func zoneGiven(args []any) string {
	if l, ok := args[0].(*time.Location); ok {
		return l.String()
	}
	if len(args) == 3 {
		if z, ok := args[2].(string); ok {
			return z
		}
	}
	return ""
}

// dateText is the text date was asked to read.
func dateText(args []any) any {
	if _, ok := args[0].(*time.Location); ok && len(args) > 1 {
		return args[1]
	}
	return args[0]
}

// literalZone is what to write when a layout holds a zone as letters to
// match, not as Go's zone: openssl's -dateopt iso_8601 prints
// "2026-12-04 17:39:25Z", and the layout "2006-01-02 15:04:05Z" matches
// the Z as a letter and reads no zone, so the refusal said the time had
// none, over a text that names UTC. It is the layout with Go's zone in
// the letters' place when that layout reads the text, "" otherwise.
//
//	date("2026-12-04 17:39:25Z", "2006-01-02 15:04:05Z")   its "Z" is a letter it matches; write "2006-01-02 15:04:05Z07:00" …
//	date("Dec 4 17:39 UTC 2026", "Jan _2 15:04 UTC 2006")  its "UTC" is a letter it matches; write "Jan _2 15:04 MST 2006" …
func literalZone(args []any) string {
	if len(args) != 2 {
		return ""
	}
	text, _ := args[0].(string)
	layout, _ := args[1].(string)
	for _, z := range []struct{ letters, zone string }{{"Z", "Z07:00"}, {"UTC", "MST"}, {"GMT", "MST"}} {
		i := strings.LastIndex(layout, z.letters)
		if i < 0 || strings.HasPrefix(layout[i:], "Z07") {
			continue
		}
		fixed := layout[:i] + z.zone + layout[i+len(z.letters):]
		if _, err := time.Parse(fixed, text); err == nil && readsZone(fixed) {
			return fmt.Sprintf("%q is letters it matches, not Go's zone; write %q, which reads the zone the text names: date(x, %q)", z.letters, fixed, fixed)
		}
	}
	return ""
}

// paddedDay is what to write when a layout reads a day as two digits
// ("02") and the text pads a day under 10 with a space, as openssl
// (notAfter=Jan  5 22:00:00 2027 GMT), date and syslog do: the layout reads
// every day from the 10th and fails on the 1st to the 9th, so a chart
// written in mid-December failed on the 5th of January. "" when the
// layout and text are not so.
func paddedDay(args []any) string {
	at := 0
	if _, ok := args[0].(*time.Location); ok {
		at = 1
	}
	if len(args) < at+2 {
		return ""
	}
	text, _ := args[at].(string)
	layout, _ := args[at+1].(string)
	fixed := strings.Replace(layout, "Jan 02", "Jan _2", 1)
	if fixed == layout || !strings.Contains(text, "  ") {
		return ""
	}
	if _, err := time.Parse(fixed, text); err != nil {
		return ""
	}
	return fmt.Sprintf("the text pads a day under 10 with a space, which the layout's 02 does not read (it reads the 10th to the 31st); write _2 for such a day: date(x, %q)", fixed)
}
