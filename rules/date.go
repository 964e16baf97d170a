package rules

import (
	"fmt"
	"time"

	"github.com/expr-lang/expr/builtin"
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

// dateFunc is expr's date(text[, layout[, zone]]), save one answer it
// refuses: a time whose zone abbreviation this machine knows no offset for.
// Go reads such a time ("Sun Dec  6 10:15:22 CET 2026" on a host in UTC,
// a remote host's `date` read here) as if the zone were UTC, an hour or
// more off and nothing said, so a cron that last ran 90 minutes ago read as
// within the hour. The error says how to give the offset.
//
//	date("Dec 11 10:15:48 2026 GMT", "Jan _2 15:04:05 2006 MST")   2026-12-11T10:15:48Z
//	date("Sun Dec  6 10:15:22 CET 2026", time.UnixDate)            error: the zone "CET" …
//	date("Sun Dec  6 10:15:22 CET 2026", layout, "Europe/Berlin")  2026-12-06T09:15:22Z
func dateFunc(args ...any) (any, error) {
	v, err := builtinDate(args...)
	if err != nil {
		return nil, err
	}
	t, ok := v.(time.Time)
	if !ok {
		return v, nil
	}
	if name, off := t.Zone(); off == 0 && name != "" && name != "UTC" && name != "GMT" && t.Location() != time.UTC && t.Location() != time.Local && !givenZone(args, t.Location()) {
		return nil, fmt.Errorf("date(%q): the zone %q has no offset this machine knows, and Go would read it as UTC; give the zone's name as date's third argument (date(x, layout, \"Europe/Berlin\")), or have the command print a numeric offset (date -R, date --rfc-3339=seconds)", dateText(args), name)
	}
	return t, nil
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

// dateText is the text date was asked to read.
func dateText(args []any) any {
	if _, ok := args[0].(*time.Location); ok && len(args) > 1 {
		return args[1]
	}
	return args[0]
}
